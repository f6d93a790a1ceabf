/**
 * What goes back to a CRM once an imported call is scored (issue 16, "write-back"): a note with
 * the score, the failed criteria and the top improvement, and, for Close, the lead's status
 * chosen by the call's success. Which writes are made follows the connection's settings as they
 * are when the score arrives. Pure: the write-back runner (writeback/writeback-runner.ts) does the
 * I/O.
 *
 * Every note ends with a line naming the Parlance activity and the time it was scored. It is how
 * a write tried again after a lost answer finds the note it already made, as Close takes no
 * idempotency key: a re-score is a new verdict and gets a note of its own.
 */
import type { CriterionVerdict, Evaluation } from '@parlance/proto/parlance/scoring/v1/evaluation';
import type { CloseSettings, HubSpotSettings } from './integrations.js';

/** A failed criterion named in a note; more are counted, not listed, so a note stays readable in a CRM's timeline. */
export const NOTE_MAX_FAILED_CRITERIA = 5;

/** What one write does; the runner carries it out with the connection's credentials. Times as ISO text (it is stored as JSON). */
export type WriteRequest =
  | { kind: 'close-note'; leadId: string; note: string; marker: string }
  | { kind: 'close-lead-status'; leadId: string; statusId: string }
  /** `callId`: the HubSpot call the note also goes on (absent in writes queued before it was kept). */
  | { kind: 'hubspot-note'; contactIds: string[]; callId?: string; ownerId: string | null; body: string; marker: string; at: string }
  | { kind: 'hubspot-task'; contactIds: string[]; ownerId: string | null; subject: string; body: string; marker: string; dueAt: string };

/** A follow-up task is due this long after the call was scored. */
export const TASK_DUE_AFTER_MS = 24 * 60 * 60 * 1000;

export type WriteKind = WriteRequest['kind'];

/** The evaluation's facts a note and a status rest on. */
export type ScoredActivity = Pick<Evaluation, 'score' | 'isSuccessful' | 'verdicts' | 'improvements'> & { activityId: string; evaluatedAt: Date };

/**
 * The writes to make in Close for a scored call of `leadId`: a note when createActivities is on,
 * and the lead's status when updateLeadStatus is on, the call's success is known and a status is
 * chosen for it. None for a call without a lead (nothing to write on).
 */
export function closeWrites(settings: CloseSettings, leadId: string, scored: ScoredActivity): WriteRequest[] {
  if (leadId === '') return [];
  const writes: WriteRequest[] = [];
  if (settings.createActivities) writes.push({ kind: 'close-note', leadId, note: scoreNote(scored), marker: noteMarker(scored) });
  if (settings.updateLeadStatus && scored.isSuccessful !== undefined) {
    const statusId = scored.isSuccessful ? settings.successfulCallStatus : settings.unsuccessfulCallStatus;
    if (statusId !== '') writes.push({ kind: 'close-lead-status', leadId, statusId });
  }
  return writes;
}

/**
 * The writes to make in HubSpot for scored call `callId` with these contacts: always a note with
 * the score, on the contacts and the call, and a follow-up task for the call's owner when
 * createTasks is on. None for a call without contacts: HubSpot may refuse to put a note on a call,
 * and a note on nothing would show nowhere.
 */
export function hubspotWrites(settings: HubSpotSettings, callId: string, refs: { contactIds?: string[]; ownerId?: string }, scored: ScoredActivity): WriteRequest[] {
  const contactIds = refs.contactIds ?? [];
  if (contactIds.length === 0) return [];
  const ownerId = refs.ownerId ?? null;
  const marker = noteMarker(scored);
  const writes: WriteRequest[] = [{ kind: 'hubspot-note', contactIds, callId, ownerId, body: scoreNote(scored), marker, at: scored.evaluatedAt.toISOString() }];
  if (settings.createTasks) {
    const improvement = topImprovement(scored);
    writes.push({
      kind: 'hubspot-task',
      contactIds,
      ownerId,
      subject: `Follow up on a call scored ${formatScore(scored.score)}/10`,
      body: [improvement ? `Top improvement: ${improvement}` : 'Nothing to improve: every criterion passed.', marker].join('\n'),
      marker,
      dueAt: new Date(scored.evaluatedAt.getTime() + TASK_DUE_AFTER_MS).toISOString(),
    });
  }
  return writes;
}

/**
 * The note, in plain text:
 *
 *   Parlance score: 6.5/10 (successful)
 *   Failed criteria: Asked about the budget (Discovery), Agreed a next step (Closing)
 *   Top improvement: Ask what budget they have set aside before showing prices.
 *   Parlance activity 5f0c…, scored 2026-11-24T17:31:00.000Z
 */
export function scoreNote(scored: ScoredActivity): string {
  const outcome = scored.isSuccessful === undefined ? '' : scored.isSuccessful ? ' (successful)' : ' (unsuccessful)';
  const lines = [`Parlance score: ${formatScore(scored.score)}/10${outcome}`];
  const failed = failedCriteria(scored.verdicts);
  if (failed.length === 0) {
    lines.push('Failed criteria: none');
  } else {
    const named = failed.slice(0, NOTE_MAX_FAILED_CRITERIA).map((verdict) => (verdict.groupName ? `${verdict.criterionName} (${verdict.groupName})` : verdict.criterionName));
    const more = failed.length - named.length;
    lines.push(`Failed criteria: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`);
  }
  const improvement = topImprovement(scored);
  if (improvement) lines.push(`Top improvement: ${improvement}`);
  lines.push(noteMarker(scored));
  return lines.join('\n');
}

/** The note's last line: the activity and its scoring time, unique to one verdict. */
export function noteMarker(scored: Pick<ScoredActivity, 'activityId' | 'evaluatedAt'>): string {
  return `Parlance activity ${scored.activityId}, scored ${scored.evaluatedAt.toISOString()}`;
}

/** One decimal, as the leaderboard shows scores; a whole score without it ("7/10"). */
function formatScore(score: number): string {
  const rounded = Math.round(score * 10) / 10;
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
}

/** The criteria that applied and failed, heaviest first (what cost the most points). */
function failedCriteria(verdicts: readonly CriterionVerdict[]): CriterionVerdict[] {
  return verdicts.filter((verdict) => verdict.applicable && !verdict.passed).sort((a, b) => b.weight - a.weight);
}

/** The suggestion for the heaviest failed criterion; else the first of the Areas for Improvement. */
function topImprovement(scored: ScoredActivity): string | undefined {
  const heaviest = failedCriteria(scored.verdicts).find((verdict) => verdict.suggestion.trim() !== '');
  if (heaviest) return heaviest.suggestion.trim();
  for (const group of scored.improvements) {
    const suggestion = group.criteria.find((criterion) => criterion.suggestion.trim() !== '')?.suggestion.trim();
    if (suggestion) return suggestion;
  }
  return undefined;
}

/** The wait before trying a failed write again: 1 min, 2, 4… at most an hour. */
export function writeRetryDelayMs(failures: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, failures - 1), 60 * 60_000);
}

/** A write failing this many times in a row is given up and its failure kept for the screen (about 2 h of tries). */
export const WRITE_MAX_FAILURES = 8;
