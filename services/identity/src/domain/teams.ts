/**
 * Teams and their evaluation criteria (spec part 1 §3, §5 and §9; part 2 §5). `checkTeam` takes
 * what the team editor sent, as typed, and returns the team to store, or throws the first problem
 * as an invalid-argument error worded as the spec words it, with one-based indexes.
 */
import { invalidArgument } from '@parlance/platform/errors';
import { EMAIL_PATTERN, REVIEW_THRESHOLD, TEAM_LIMITS } from '@parlance/platform/team/team-rules';

/** Client-made ids (the editor uses the platform UUID generator, or a random fallback). */
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const DECIMAL_PATTERN = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const WHOLE_NUMBER_PATTERN = /^\+?\d+$/;

function percent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

export const TEAM_MESSAGES = {
  teamName: 'Please enter a team name',
  teamNameShort: 'Team name is too short',
  teamNameLong: `Team name must not exceed ${TEAM_LIMITS.teamNameMax} characters`,
  teamId: 'Team id must be 1 to 64 letters, digits, dashes or underscores, starting with a letter or digit',
  department: 'Please select a department',
  unknownDepartment: (department: string) => `The department "${department}" is not one of your company's departments`,
  successCriteria: 'Please enter success criteria description',
  successCriteriaLong: `Success criteria prompt must not exceed ${TEAM_LIMITS.successPromptMax} characters.`,
  callScript: 'Please enter a call script',
  callScriptLong: 'Call script must not exceed 10,000 characters',
  crmIdLong: `Team CRM id must not exceed ${TEAM_LIMITS.crmIdMax} characters`,
  noGroups: 'Please add at least one criteria group',
  tooManyGroups: `A team can have at most ${TEAM_LIMITS.groupsMax} criteria groups`,
  tooManyCriteria: `A team can have at most ${TEAM_LIMITS.criteriaMax} criteria`,
  groupName: (m: number) => `Please enter a name for criteria group #${m}`,
  groupNameLong: (m: number) => `The name of criteria group #${m} must not exceed ${TEAM_LIMITS.groupNameMax} characters`,
  groupId: (m: number) => `Criteria group #${m} has an invalid id (1 to 64 letters, digits, dashes or underscores)`,
  groupIdTaken: (m: number) => `Criteria group #${m} has the same id as another criteria group`,
  emptyGroup: (m: number) => `Please add at least one criterion to criteria group #${m}`,
  criterionName: (n: number, m: number) => `Please enter a name for criterion #${n} in criteria group #${m}`,
  criterionPrompt: (n: number, m: number) => `Please enter a description for criterion #${n} in criteria group #${m}`,
  criterionShort: 'Criterion name or description is too short',
  criterionNameLong: `Criterion names must not exceed ${TEAM_LIMITS.criterionNameMax} characters.`,
  criterionPromptLong: `Criterion descriptions must not exceed ${TEAM_LIMITS.criterionPromptMax} characters.`,
  criterionId: (n: number, m: number) => `Criterion #${n} in criteria group #${m} has an invalid id (1 to 64 letters, digits, dashes or underscores)`,
  criterionIdTaken: (n: number, m: number) => `Criterion #${n} in criteria group #${m} has the same id as another criterion`,
  weightBelow: (n: number, m: number) => `Weight for criterion #${n} in criteria group #${m} must be at least 0`,
  weightAbove: (n: number, m: number) => `Weight for criterion #${n} in criteria group #${m} must not exceed 10`,
  weightInvalid: (n: number, m: number) => `Please enter a valid weight (0-10) for criterion #${n} in criteria group #${m}`,
  totalWeight: 'Total criteria weight must equal 10.',
  tooManyMembers: `A team can have at most ${TEAM_LIMITS.membersMax.toLocaleString('en-US')} members`,
  memberEmail: (n: number) => `Please enter a valid email for team member #${n}`,
  memberFirstName: (n: number) => `Please enter a first name for team member #${n}`,
  memberLastName: (n: number) => `Please enter a last name for team member #${n}`,
  memberTarget: (n: number) => `Please enter a valid target for team member #${n}`,
  memberOther: (n: number) => `Please check the information for team member #${n}`,
  memberNameShort: 'Team member name is too short',
  memberNameLength: 'Each team member name must be between 2 and 100 characters.',
  memberNamesUnique: 'Team member names must be unique.',
  memberEmailTaken: (n: number, first: number) => `Team member #${n} has the same email as team member #${first}`,
  reviewThreshold: `Review threshold must be between ${percent(REVIEW_THRESHOLD.min)} and ${percent(REVIEW_THRESHOLD.max)}`,
  notFound: 'Team not found',
  deleted: 'This team has been deleted',
} as const;

export interface CriterionDraft {
  id: string;
  name: string;
  prompt: string;
  /** As typed: "7", "7.5", "7,5", "" … */
  weightText: string;
}

export interface CriteriaGroupDraft {
  id: string;
  name: string;
  criteria: CriterionDraft[];
}

export interface TeamDraft {
  /** Empty or 'new' when the team is new and identity should name it. */
  id: string;
  name: string;
  department: string;
  /** Undefined when the payload had no criteria groups at all. */
  criteriaGroups: CriteriaGroupDraft[] | undefined;
  successPrompt: string;
  /** Undefined when the payload had no call script; '' means the team has none. */
  callScript: string | undefined;
  crmId: string;
  /** As chosen (0.5 to 0.95); undefined when the payload had none. */
  reviewThreshold?: number | undefined;
}

export interface TeamMemberDraft {
  firstName: string;
  lastName: string;
  email: string;
  crmId: string;
  /** As typed; empty means 0. */
  targetText: string;
}

export interface Criterion {
  id: string;
  name: string;
  prompt: string;
  weight: number;
}

export interface CriteriaGroup {
  id: string;
  name: string;
  criteria: Criterion[];
}

export interface TeamMember {
  firstName: string;
  lastName: string;
  email: string;
  crmId: string;
  target: number;
}

/** A team that passed every check, ready to store. */
export interface CheckedTeam {
  /** Undefined: a new team, to be given a fresh id. */
  id: string | undefined;
  name: string;
  department: string;
  criteriaGroups: CriteriaGroup[];
  successPrompt: string;
  callScript: string;
  crmId: string;
  /** Undefined: none was sent, so the team keeps its own (see reviewThresholdAfterSave). */
  reviewThreshold: number | undefined;
}

/**
 * Checks a team save. `members` is undefined when the payload carried no member list (the team
 * keeps the ones it has). `newId` names groups and criteria the editor sent without an id.
 */
export function checkTeam(
  draft: TeamDraft,
  members: TeamMemberDraft[] | undefined,
  context: { departments: readonly string[]; newId: () => string },
): { team: CheckedTeam; members: TeamMember[] | undefined } {
  const id = checkTeamId(draft.id);
  const name = draft.name.trim();
  if (name === '') fail(TEAM_MESSAGES.teamName, 'team.name');
  if (name.length < TEAM_LIMITS.teamNameMin) fail(TEAM_MESSAGES.teamNameShort, 'team.name');
  if (name.length > TEAM_LIMITS.teamNameMax) fail(TEAM_MESSAGES.teamNameLong, 'team.name');

  const department = draft.department.trim();
  if (department === '') fail(TEAM_MESSAGES.department, 'team.department');
  if (!context.departments.includes(department)) fail(TEAM_MESSAGES.unknownDepartment(department), 'team.department');

  const successPrompt = draft.successPrompt.trim();
  if (successPrompt === '') fail(TEAM_MESSAGES.successCriteria, 'team.success_criteria.prompt');
  if (successPrompt.length > TEAM_LIMITS.successPromptMax) fail(TEAM_MESSAGES.successCriteriaLong, 'team.success_criteria.prompt');

  if (draft.callScript === undefined) fail(TEAM_MESSAGES.callScript, 'team.call_script');
  const callScript = draft.callScript.trim();
  if (callScript.length > TEAM_LIMITS.callScriptMax) fail(TEAM_MESSAGES.callScriptLong, 'team.call_script');

  const crmId = draft.crmId.trim();
  if (crmId.length > TEAM_LIMITS.crmIdMax) fail(TEAM_MESSAGES.crmIdLong, 'team.crm_id');

  const criteriaGroups = checkCriteriaGroups(draft.criteriaGroups, context.newId);
  const reviewThreshold = checkReviewThreshold(draft.reviewThreshold);
  return {
    team: { id, name, department, criteriaGroups, successPrompt, callScript, crmId, reviewThreshold },
    members: members === undefined ? undefined : checkMembers(members),
  };
}

function checkReviewThreshold(chosen: number | undefined): number | undefined {
  if (chosen === undefined) return undefined;
  if (!Number.isFinite(chosen) || chosen < REVIEW_THRESHOLD.min || chosen > REVIEW_THRESHOLD.max) {
    fail(TEAM_MESSAGES.reviewThreshold, 'team.review_threshold', { reviewThreshold: chosen });
  }
  return chosen;
}

/**
 * The review threshold a save leaves the team with: the one chosen, else the one the team has (an
 * update that sent none), else the default (a new team).
 */
export function reviewThresholdAfterSave(chosen: number | undefined, current: number | undefined): number {
  return chosen ?? current ?? REVIEW_THRESHOLD.default;
}

function checkTeamId(raw: string): string | undefined {
  const id = raw.trim();
  if (id === '' || id === 'new') return undefined;
  if (!ID_PATTERN.test(id)) fail(TEAM_MESSAGES.teamId, 'team.id');
  return id;
}

function checkCriteriaGroups(groups: CriteriaGroupDraft[] | undefined, newId: () => string): CriteriaGroup[] {
  if (!groups || groups.length === 0) fail(TEAM_MESSAGES.noGroups, 'team.criteria_group');
  if (groups.length > TEAM_LIMITS.groupsMax) fail(TEAM_MESSAGES.tooManyGroups, 'team.criteria_group');
  if (groups.reduce((count, group) => count + group.criteria.length, 0) > TEAM_LIMITS.criteriaMax) {
    fail(TEAM_MESSAGES.tooManyCriteria, 'team.criteria_group');
  }
  const groupIds = new Set<string>();
  const criterionIds = new Set<string>();
  let totalMicroPoints = 0;
  const checked = groups.map((group, groupIndex): CriteriaGroup => {
    const m = groupIndex + 1;
    const field = `team.criteria_group[${m}]`;
    const groupId = group.id.trim() || newId();
    if (!ID_PATTERN.test(groupId)) fail(TEAM_MESSAGES.groupId(m), `${field}.id`);
    if (groupIds.has(groupId)) fail(TEAM_MESSAGES.groupIdTaken(m), `${field}.id`);
    groupIds.add(groupId);
    const name = group.name.trim();
    if (name === '') fail(TEAM_MESSAGES.groupName(m), `${field}.name`);
    if (name.length > TEAM_LIMITS.groupNameMax) fail(TEAM_MESSAGES.groupNameLong(m), `${field}.name`);
    if (group.criteria.length === 0) fail(TEAM_MESSAGES.emptyGroup(m), `${field}.criteria`);

    const criteria = group.criteria.map((criterion, criterionIndex): Criterion => {
      const n = criterionIndex + 1;
      const at = `${field}.criteria[${n}]`;
      const criterionId = criterion.id.trim() || newId();
      if (!ID_PATTERN.test(criterionId)) fail(TEAM_MESSAGES.criterionId(n, m), `${at}.id`);
      if (criterionIds.has(criterionId)) fail(TEAM_MESSAGES.criterionIdTaken(n, m), `${at}.id`);
      criterionIds.add(criterionId);
      const criterionName = criterion.name.trim();
      const prompt = criterion.prompt.trim();
      if (criterionName === '') fail(TEAM_MESSAGES.criterionName(n, m), `${at}.name`);
      if (prompt === '') fail(TEAM_MESSAGES.criterionPrompt(n, m), `${at}.prompt`);
      if (criterionName.length < TEAM_LIMITS.criterionNameMin) fail(TEAM_MESSAGES.criterionShort, `${at}.name`);
      if (prompt.length < TEAM_LIMITS.criterionPromptMin) fail(TEAM_MESSAGES.criterionShort, `${at}.prompt`);
      if (criterionName.length > TEAM_LIMITS.criterionNameMax) fail(TEAM_MESSAGES.criterionNameLong, `${at}.name`);
      if (prompt.length > TEAM_LIMITS.criterionPromptMax) fail(TEAM_MESSAGES.criterionPromptLong, `${at}.prompt`);
      const weight = parseWeight(criterion.weightText, n, m, `${at}.weight`);
      totalMicroPoints += toMicroPoints(weight);
      return { id: criterionId, name: criterionName, prompt, weight };
    });
    return { id: groupId, name, criteria };
  });
  if (totalMicroPoints !== toMicroPoints(TEAM_LIMITS.totalWeight)) {
    fail(TEAM_MESSAGES.totalWeight, 'team.criteria_group', { total: totalMicroPoints / 1e6 });
  }
  return checked;
}

/** Spec part 2 §5: decimals with a comma or a dot, 0 to 10. */
export function parseWeight(text: string, n: number, m: number, field = 'weight'): number {
  const normalised = text.trim().replace(',', '.');
  if (!DECIMAL_PATTERN.test(normalised)) fail(TEAM_MESSAGES.weightInvalid(n, m), field);
  const weight = Number(normalised);
  if (!Number.isFinite(weight)) fail(TEAM_MESSAGES.weightInvalid(n, m), field);
  if (weight < 0) fail(TEAM_MESSAGES.weightBelow(n, m), field);
  if (weight > TEAM_LIMITS.criterionWeightMax) fail(TEAM_MESSAGES.weightAbove(n, m), field);
  return weight === 0 ? 0 : weight; // never -0
}

/** Whole millionths of a point: sums of decimals like 3.3 + 3.3 + 3.4 compare exactly. */
const toMicroPoints = (weight: number) => Math.round(weight * 1e6);

function checkMembers(members: TeamMemberDraft[]): TeamMember[] {
  if (members.length > TEAM_LIMITS.membersMax) fail(TEAM_MESSAGES.tooManyMembers, 'members');
  const checked = members.map((member, index): TeamMember => {
    const n = index + 1;
    const field = `members[${n}]`;
    const firstName = member.firstName.trim();
    const lastName = member.lastName.trim();
    const email = member.email.trim().toLowerCase();
    if (firstName === '') fail(TEAM_MESSAGES.memberFirstName(n), `${field}.first_name`);
    if (lastName === '') fail(TEAM_MESSAGES.memberLastName(n), `${field}.last_name`);
    for (const [part, value] of [['first_name', firstName], ['last_name', lastName]] as const) {
      if (value.length < TEAM_LIMITS.memberNameMin) fail(TEAM_MESSAGES.memberNameShort, `${field}.${part}`);
      if (value.length > TEAM_LIMITS.memberNameMax) fail(TEAM_MESSAGES.memberNameLength, `${field}.${part}`);
    }
    if (email.length > TEAM_LIMITS.memberEmailMax || !EMAIL_PATTERN.test(email)) fail(TEAM_MESSAGES.memberEmail(n), `${field}.email`);
    const target = parseTarget(member.targetText);
    if (target === undefined) fail(TEAM_MESSAGES.memberTarget(n), `${field}.target`);
    const crmId = member.crmId.trim();
    if (crmId.length > TEAM_LIMITS.crmIdMax) fail(TEAM_MESSAGES.memberOther(n), `${field}.crm_id`, { reason: 'crm_id too long' });
    return { firstName, lastName, email, crmId, target };
  });

  const names = new Set<string>();
  const emails = new Map<string, number>();
  checked.forEach((member, index) => {
    const fullName = `${member.firstName} ${member.lastName}`.toLowerCase().replace(/\s+/g, ' ');
    if (names.has(fullName)) fail(TEAM_MESSAGES.memberNamesUnique, `members[${index + 1}]`);
    names.add(fullName);
    const first = emails.get(member.email);
    if (first !== undefined) fail(TEAM_MESSAGES.memberEmailTaken(index + 1, first), `members[${index + 1}].email`);
    emails.set(member.email, index + 1);
  });
  return checked;
}

/** Spec part 2 §5: a daily target is a whole number ≥ 0, and empty means 0. */
export function parseTarget(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  if (!WHOLE_NUMBER_PATTERN.test(trimmed)) return undefined;
  const target = Number(trimmed);
  return target <= TEAM_LIMITS.targetMax ? target : undefined;
}

/** The team's `members` list: its members' e-mails, in member order. */
export const memberEmails = (members: readonly TeamMember[]): string[] => members.map((member) => member.email);

function fail(message: string, field: string, details: Record<string, unknown> = {}): never {
  throw invalidArgument(message, { field, ...details });
}
