/**
 * The team editor's rules (spec part 1 §3, §4, §5 and §9; part 2 §5), as pure functions: weight
 * entry and totals, the checks made before saving, required fields, character counters, the call
 * script's statistics, member e-mails and targets, the duplicate copy and the wording of save
 * errors. No React and no I/O; the editor and the team list call these.
 *
 * The server checks a save again (services/identity/src/domain/teams.ts) and words its refusals as
 * the spec does; these rules only spare the user a round trip and drive what the editor shows.
 */
import type { CriteriaGroup, Team, TeamMember } from '../../lib/api/gateway-api.generated';

// ---------------------------------------------------------------------------------------------
// Types: the API's own (generated from the gateway's OpenAPI document)
// ---------------------------------------------------------------------------------------------

/** A team as the editor holds it: the API's team without what the server keeps ('new' id while unsaved). */
export type EditorTeam = Omit<Team, 'version' | 'created_at' | 'updated_at'>;
export type EditorCriterion = CriteriaGroup['criteria'][number];
/** A member record; `target` is the daily target, a whole number ≥ 0. */
export type TeamMemberRecord = TeamMember;

// ---------------------------------------------------------------------------------------------
// Constants (spec part 1 §5 and §9)
// ---------------------------------------------------------------------------------------------

/** The weights of a team's criteria total exactly this; one criterion weighs 0 to this. */
export const MAX_TOTAL_WEIGHT = 10;
export const TEAM_NAME_MAX = 100;
export const CRITERION_NAME_MAX = 100;
export const CRITERION_PROMPT_MAX = 500;
export const SUCCESS_PROMPT_MAX = 500;
export const CALL_SCRIPT_MAX = 10_000;
/** A member's first name and last name are each 2 to 100 characters. */
export const MEMBER_NAME_MIN = 2;
export const MEMBER_NAME_MAX = 100;
export const READ_WORDS_PER_MINUTE = 150;
/** Counters turn to a warning above these lengths (and to danger above the maximum). */
export const CRITERION_NAME_WARN = 90;
export const CRITERION_PROMPT_WARN = 450;
export const SUCCESS_PROMPT_WARN = 450;

export const TEAM_ALERTS = {
  nameRequired: 'Team name is required.',
  memberNameLength: 'Each team member name must be between 2 and 100 characters.',
  memberNamesUnique: 'Team member names must be unique.',
  groupIncomplete: 'Each criteria group must have a name and at least one criterion.',
  criterionPromptTooLong: 'Criterion descriptions must not exceed 500 characters.',
  criterionNameTooLong: 'Criterion names must not exceed 100 characters.',
  successPromptTooLong: 'Success criteria prompt must not exceed 500 characters.',
  totalWeight: 'Total criteria weight must equal 10.',
} as const;

/**
 * A verdict the evaluator is less sure of than its team's review threshold needs review. A team
 * that never chose one has this (the server's default too); the editor offers 50% to 95% in steps
 * of 5, the range the server accepts.
 */
export const DEFAULT_REVIEW_THRESHOLD = 0.7;
export const REVIEW_THRESHOLD_CHOICES: readonly number[] = Array.from({ length: 10 }, (_, step) => (50 + 5 * step) / 100);
export const REVIEW_THRESHOLD_LABEL = 'Needs review below';
export const REVIEW_THRESHOLD_HINT = 'Verdicts the evaluator is less sure of than this are marked Needs review instead of Passed or Failed.';

export const REQUIRED_FIELDS_BANNER =
  'Some fields require attention. Please fill in all required fields (highlighted in orange).';

/** The spec leaves the per-field weight error's text open; this is ours. */
export const WEIGHT_NOT_A_NUMBER = 'Enter a number from 0 to 10';

export const weightRemainingMessage = (remaining: number) => `Maximum ${remaining} points remaining`;

const SAVE_ERROR_PREFIX = 'Error saving team.';
const SAVE_ERROR_DEFAULT = 'Please try again.';

// ---------------------------------------------------------------------------------------------
// Review threshold
// ---------------------------------------------------------------------------------------------

/** A threshold as a person reads it: 0.7 → '70%'. */
export const reviewThresholdPercent = (threshold: number) => `${Math.round(threshold * 100)}%`;

/**
 * The thresholds to offer: the editor's steps, plus the team's own when it is not one of them (set
 * through the API), so that opening and saving the team never changes it unasked.
 */
export function reviewThresholdChoices(current: number): number[] {
  const choices = REVIEW_THRESHOLD_CHOICES.includes(current) ? [...REVIEW_THRESHOLD_CHOICES] : [...REVIEW_THRESHOLD_CHOICES, current];
  return choices.sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// Weights
// ---------------------------------------------------------------------------------------------

/** Weights are added in whole millionths of a point, so 3.3 + 3.3 + 3.4 is exactly 10. */
const MICRO = 1_000_000;
const toMicroPoints = (weight: number) => Math.round(weight * MICRO);
const MAX_TOTAL_MICRO = toMicroPoints(MAX_TOTAL_WEIGHT);

const DECIMAL_PATTERN = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;

/**
 * A weight as typed, with a comma or a dot as the decimal separator ('7,5', '7.5', ' 3 '),
 * rounded to one decimal. Undefined when the text is not a number (including empty text).
 */
export function parseWeightText(text: string): number | undefined {
  const normalised = text.trim().replace(',', '.');
  if (!DECIMAL_PATTERN.test(normalised)) return undefined;
  const value = Number(normalised);
  if (!Number.isFinite(value)) return undefined;
  return Math.round(value * 10) / 10 || 0; // `|| 0`: never -0
}

export type WeightCommit<T extends EditorTeam> = { team: T; error?: undefined } | { error: string; team?: undefined };

/**
 * Commits a criterion's weight text (on blur, Enter or Tab; part 2 §5): one decimal, clamped to
 * 0…10, comma accepted. A value that raises the team's total above 10 is refused with
 * 'Maximum X points remaining', X being what the other criteria leave (rounded down to one
 * decimal, so X itself is always accepted). Lowering a weight is always accepted, even while the
 * total is still above 10, so an over-weighted team can be brought back down one field at a time.
 */
export function commitWeight<T extends EditorTeam>(
  team: T,
  groupIndex: number,
  criterionIndex: number,
  text: string,
): WeightCommit<T> {
  const current = team.criteria_group[groupIndex]?.criteria[criterionIndex];
  if (!current) throw new RangeError(`No criterion ${criterionIndex} in criteria group ${groupIndex}`);

  const parsed = parseWeightText(text);
  if (parsed === undefined) return { error: WEIGHT_NOT_A_NUMBER };
  const weight = Math.min(Math.max(parsed, 0), MAX_TOTAL_WEIGHT);

  const othersMicro = totalMicroPoints(team) - toMicroPoints(current.weight);
  const raises = toMicroPoints(weight) > toMicroPoints(current.weight);
  if (raises && othersMicro + toMicroPoints(weight) > MAX_TOTAL_MICRO) {
    const remainingTenths = Math.max(0, Math.floor((MAX_TOTAL_MICRO - othersMicro) / (MICRO / 10)));
    return { error: weightRemainingMessage(remainingTenths / 10) };
  }

  return {
    team: {
      ...team,
      criteria_group: team.criteria_group.map((group, g) =>
        g !== groupIndex
          ? group
          : { ...group, criteria: group.criteria.map((criterion, c) => (c === criterionIndex ? { ...criterion, weight } : criterion)) },
      ),
    },
  };
}

function totalMicroPoints(team: EditorTeam): number {
  return team.criteria_group.reduce(
    (sum, group) => sum + group.criteria.reduce((groupSum, criterion) => groupSum + toMicroPoints(criterion.weight), 0),
    0,
  );
}

/** The sum of every criterion's weight, without floating-point drift (3.3 + 3.3 + 3.4 = 10). */
export function totalWeight(team: EditorTeam): number {
  return totalMicroPoints(team) / MICRO;
}

/** 'balanced' (green) at exactly 10, 'over' (red) above, 'under' (amber) below. */
export type WeightStatus = 'balanced' | 'over' | 'under';

export function weightStatus(total: number): WeightStatus {
  const micro = toMicroPoints(total);
  if (micro === MAX_TOTAL_MICRO) return 'balanced';
  return micro > MAX_TOTAL_MICRO ? 'over' : 'under';
}

// ---------------------------------------------------------------------------------------------
// Checks before saving
// ---------------------------------------------------------------------------------------------

/** First and last name are each one "member name" and must be 2 to 100 characters, trimmed. */
function memberNameLengthOk(member: TeamMemberRecord): boolean {
  return [member.first_name, member.last_name].every((part) => {
    const length = part.trim().length;
    return length >= MEMBER_NAME_MIN && length <= MEMBER_NAME_MAX;
  });
}

/** Members are the same person when first and last name match, trimmed and case-insensitive. */
const memberNameKey = (member: TeamMemberRecord) =>
  `${member.first_name.trim()} ${member.last_name.trim()}`.toLowerCase().replace(/\s+/g, ' ');

/** True when two members share a first and last name (trimmed, case-insensitive). */
export function hasDuplicateMemberNames(members: readonly TeamMemberRecord[]): boolean {
  return new Set(members.map(memberNameKey)).size !== members.length;
}

const allCriteria = (team: EditorTeam) => team.criteria_group.flatMap((group) => group.criteria);

/**
 * The first of the spec's save alerts that applies, in the spec's order, or undefined when the
 * team may be sent. Lengths are measured trimmed, as the server stores them.
 */
export function checkBeforeSave(team: EditorTeam, members: readonly TeamMemberRecord[]): string | undefined {
  if (team.name.trim() === '') return TEAM_ALERTS.nameRequired;
  if (!members.every(memberNameLengthOk)) return TEAM_ALERTS.memberNameLength;
  if (hasDuplicateMemberNames(members)) return TEAM_ALERTS.memberNamesUnique;
  if (team.criteria_group.some((group) => group.name.trim() === '' || group.criteria.length === 0)) {
    return TEAM_ALERTS.groupIncomplete;
  }
  const criteria = allCriteria(team);
  if (criteria.some((criterion) => criterion.prompt.trim().length > CRITERION_PROMPT_MAX)) return TEAM_ALERTS.criterionPromptTooLong;
  if (criteria.some((criterion) => criterion.name.trim().length > CRITERION_NAME_MAX)) return TEAM_ALERTS.criterionNameTooLong;
  if (team.success_criteria.prompt.trim().length > SUCCESS_PROMPT_MAX) return TEAM_ALERTS.successPromptTooLong;
  if (weightStatus(totalWeight(team)) !== 'balanced') return TEAM_ALERTS.totalWeight;
  return undefined;
}

/** Save Team is disabled while the total is not 10, the name is blank or member names repeat. */
export function saveDisabled(team: EditorTeam, members: readonly TeamMemberRecord[]): boolean {
  return weightStatus(totalWeight(team)) !== 'balanced' || team.name.trim() === '' || hasDuplicateMemberNames(members);
}

// ---------------------------------------------------------------------------------------------
// Required fields and counters
// ---------------------------------------------------------------------------------------------

export type RequiredField =
  | { field: 'groupName'; groupIndex: number }
  | { field: 'criterionName' | 'criterionPrompt'; groupIndex: number; criterionIndex: number };

export type RequiredFieldProblems = {
  /** The empty required fields, to highlight in orange. */
  missing: RequiredField[];
  /** The banner to show, when anything is missing. */
  banner: string | undefined;
};

/** Empty (or blank) group names, criterion names and criterion prompts, and the banner. */
export function requiredFieldProblems(team: EditorTeam): RequiredFieldProblems {
  const missing: RequiredField[] = [];
  team.criteria_group.forEach((group, groupIndex) => {
    if (group.name.trim() === '') missing.push({ field: 'groupName', groupIndex });
    group.criteria.forEach((criterion, criterionIndex) => {
      if (criterion.name.trim() === '') missing.push({ field: 'criterionName', groupIndex, criterionIndex });
      if (criterion.prompt.trim() === '') missing.push({ field: 'criterionPrompt', groupIndex, criterionIndex });
    });
  });
  return { missing, banner: missing.length > 0 ? REQUIRED_FIELDS_BANNER : undefined };
}

/** Whether one field is among the missing ones (criterionIndex is left out for a group name). */
export function isFieldMissing(
  problems: RequiredFieldProblems,
  field: RequiredField['field'],
  groupIndex: number,
  criterionIndex?: number,
): boolean {
  return problems.missing.some(
    (problem) =>
      problem.field === field &&
      problem.groupIndex === groupIndex &&
      (problem.field === 'groupName' || problem.criterionIndex === criterionIndex),
  );
}

export type CounterKind = 'criterionName' | 'criterionPrompt' | 'successPrompt';
export type CounterLevel = 'normal' | 'warning' | 'danger';

const COUNTER_LIMITS: Record<CounterKind, { warn: number; max: number }> = {
  criterionName: { warn: CRITERION_NAME_WARN, max: CRITERION_NAME_MAX },
  criterionPrompt: { warn: CRITERION_PROMPT_WARN, max: CRITERION_PROMPT_MAX },
  successPrompt: { warn: SUCCESS_PROMPT_WARN, max: SUCCESS_PROMPT_MAX },
};

/** A character counter's colour: warning above the warn length, danger above the maximum. */
export function counterLevel(length: number, kind: CounterKind): CounterLevel {
  const { warn, max } = COUNTER_LIMITS[kind];
  if (length > max) return 'danger';
  return length > warn ? 'warning' : 'normal';
}

// ---------------------------------------------------------------------------------------------
// Call script and status checklist
// ---------------------------------------------------------------------------------------------

export type CallScriptStats = { length: number; words: number; readMinutes: number };

/** Length, word count and read time (words / 150, rounded up, in minutes) of the call script. */
export function callScriptStats(text: string): CallScriptStats {
  const words = text.split(/\s+/).filter((word) => word !== '').length;
  return { length: text.length, words, readMinutes: Math.ceil(words / READ_WORDS_PER_MINUTE) };
}

export type ChecklistItem = {
  id: 'name' | 'uniqueMembers' | 'weight' | 'members' | 'callScript';
  label: string;
  /** 'optional': not done, and not needed to save. */
  state: 'done' | 'missing' | 'optional';
};

/** The left panel's status checklist. Members and a call script are optional. */
export function statusChecklist(team: EditorTeam, members: readonly TeamMemberRecord[]): ChecklistItem[] {
  const doneOr = (done: boolean, otherwise: ChecklistItem['state']) => (done ? 'done' : otherwise);
  const hasScript = team.call_script.trim() !== '';
  return [
    { id: 'name', label: 'Team name provided', state: doneOr(team.name.trim() !== '', 'missing') },
    { id: 'uniqueMembers', label: 'No duplicate members', state: doneOr(!hasDuplicateMemberNames(members), 'missing') },
    { id: 'weight', label: 'Weight balanced', state: doneOr(weightStatus(totalWeight(team)) === 'balanced', 'missing') },
    {
      id: 'members',
      label: `${members.length} ${members.length === 1 ? 'member' : 'members'}`,
      state: doneOr(members.length > 0, 'optional'),
    },
    { id: 'callScript', label: hasScript ? 'Call script provided' : 'Call script (optional)', state: doneOr(hasScript, 'optional') },
  ];
}

// ---------------------------------------------------------------------------------------------
// Members
// ---------------------------------------------------------------------------------------------

/** The team's `members` list: the entered e-mails (trimmed), in member order. */
export function syncMemberEmails(members: readonly TeamMemberRecord[]): string[] {
  return members.map((member) => member.email.trim()).filter((email) => email !== '');
}

/** Sets one member's e-mail and keeps the team's list of member e-mails in step. */
export function membersWithEmailEdited<T extends EditorTeam>(
  team: T,
  members: readonly TeamMemberRecord[],
  index: number,
  email: string,
): { team: T; members: TeamMemberRecord[] } {
  const edited = members.map((member, i) => (i === index ? { ...member, email } : member));
  return { team: { ...team, members: syncMemberEmails(edited) }, members: edited };
}

/** A daily target as typed: a whole number ≥ 0, empty meaning 0; undefined otherwise. */
export function parseTargetText(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  if (!/^\d+$/.test(trimmed)) return undefined;
  const target = Number(trimmed);
  return Number.isSafeInteger(target) ? target : undefined;
}

/** The sum of the members' daily targets (shown in the left panel). */
export function targetSum(members: readonly TeamMemberRecord[]): number {
  return members.reduce((sum, member) => sum + member.target, 0);
}

// ---------------------------------------------------------------------------------------------
// Duplicates
// ---------------------------------------------------------------------------------------------

/** A unique id: the platform UUID generator, or a random fallback where it is missing. */
export function newUniqueId(): string {
  const platform = globalThis.crypto as Crypto | undefined;
  if (typeof platform?.randomUUID === 'function') return platform.randomUUID();
  const random = () => Math.random().toString(36).slice(2, 10).padEnd(8, '0');
  return `${Date.now().toString(36)}-${random()}-${random()}`;
}

/**
 * The copy a duplicate saves: a new id, the name plus ' (copy)', no members, and new ids for
 * every group and criterion; everything else is kept.
 */
export function duplicateOf<T extends EditorTeam>(team: T, newId: () => string = newUniqueId): T {
  return {
    ...team,
    id: newId(),
    name: `${team.name} (copy)`,
    members: [],
    criteria_group: team.criteria_group.map((group) => ({
      ...group,
      id: newId(),
      criteria: group.criteria.map((criterion) => ({ ...criterion, id: newId() })),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Save errors
// ---------------------------------------------------------------------------------------------

/**
 * The alert for a failed save: 'Error saving team. {message}', 'Please try again.' when the
 * server said nothing. The server's own sentences (worded as the spec words them) pass through;
 * raw validation texts are tidied (see tidyServerMessage).
 */
export function friendlySaveError(serverMessage?: string): string {
  const message = serverMessage?.trim();
  return `${SAVE_ERROR_PREFIX} ${message ? tidyServerMessage(message) : SAVE_ERROR_DEFAULT}`;
}

const VALIDATION_PREFIX = /^Invalid (?:body|request|querystring|params|headers): /;
/** One field, bare or quoted: name, call_script, team.criteria_group.0.name, "email". */
const FIELD = String.raw`["']?([\w.-]+)["']?`;
const IS_REQUIRED = new RegExp(String.raw`^${FIELD} is required\.?$`);
const MUST_BE_VALID = new RegExp(String.raw`^${FIELD} must be a valid (.+?)\.?$`);
const MUST_MATCH_FORMAT = new RegExp(String.raw`^${FIELD} must match format "([^"]+)"\.?$`);
/** Another validation text that starts with a field path: 'team.name must NOT have more than…'. */
const FIELD_THEN_TEXT = /^([a-z]\w*(?:\.\w+)+|[a-z]+_\w+) (.+)$/;

/**
 * A generic tidy of raw validation texts (spec part 1 §5): '<field> is required' becomes
 * 'Please enter <field in words>', '<field> must be a valid <thing>' (or must match format
 * "<thing>") becomes 'Please enter a valid <thing> for <field in words>'. The gateway's
 * 'Invalid body: ' prefix is dropped and a leading field path put in words. Any other text (the
 * server's own sentences) is returned as it came.
 */
export function tidyServerMessage(message: string): string {
  const text = message.replace(VALIDATION_PREFIX, '');
  const required = IS_REQUIRED.exec(text);
  if (required) return `Please enter ${fieldInWords(required[1] ?? '')}`;
  const valid = MUST_BE_VALID.exec(text) ?? MUST_MATCH_FORMAT.exec(text);
  if (valid) return `Please enter a valid ${valid[2] ?? ''} for ${fieldInWords(valid[1] ?? '')}`;
  if (text === message) return message;
  const other = FIELD_THEN_TEXT.exec(text);
  return capitalise(other ? `${fieldInWords(other[1] ?? '')} ${other[2] ?? ''}` : text);
}

/** The gateway's field paths count from 0: 'team.criteria_group.0.name' → 'criteria group #1 name'. */
function fieldInWords(field: string): string {
  const segments = field.split('.').filter((segment) => segment !== '');
  if (segments[0] === 'team' && segments.length > 1) segments.shift();
  return segments
    .map((segment) => (/^\d+$/.test(segment) ? `#${Number(segment) + 1}` : segment.replace(/_/g, ' ')))
    .join(' ');
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
