/**
 * An activity as analytics knows it, and the one rule that changes it: `mergeActivityFact`.
 *
 * Each event of the pipeline brings one part (received, transcribed, evaluated) or one mark
 * (failed, deleted). Events of different topics arrive in any order and any number of times, so
 * the rule must not care about order: a part is replaced only by a newer one of its own kind, a
 * failure keeps its earliest time, a deletion empties the activity for good, and what the lists
 * show (status, duration) is derived from the parts present rather than from the last event.
 */
import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';
import type { Improvement } from '@parlance/proto/parlance/scoring/v1/evaluation';

/** Whether a recording can be played ("audio") or the activity came as text. */
export type MediaName = 'audio' | 'text';
export type ActivityStatus = 'processing' | 'scored' | 'failed';

/** What `ingest.activity-received.v1` says. */
export interface ReceivedPart {
  /** When ingest announced it: a later receipt replaces an earlier one. */
  receivedAt: Date;
  kind: ActivityKindName;
  teamId: string;
  occurredAt: Date;
  /** Lower-case, so filters compare e-mails in any case. */
  representativeEmail: string;
  representativeName: string;
  contactId: string;
  contactName: string;
  contactCompany: string;
  contactRole: string;
  link: string;
  title: string;
  fileName: string;
  media: MediaName;
}

/** What `transcription.transcript-ready.v1` says. */
export interface TranscribedPart {
  /** When transcription announced it: a later transcript replaces an earlier one. */
  transcribedAt: Date;
  /** 0 when the transcript has no times. */
  durationSeconds: number;
  /** Meetings only ("[m:ss] Speaker: text" lines); empty for calls, which read it elsewhere. */
  transcript: string;
}

/** One applicable verdict. */
export interface CriterionResult {
  groupId: string;
  criterionId: string;
  passed: boolean;
}

/** What `scoring.activity-scored.v1` says. */
export interface EvaluatedPart {
  /** A re-scoring replaces the evaluation only when it was made later. */
  evaluatedAt: Date;
  score: number;
  /** Null when the team has no call script. */
  scriptMatch: number | null;
  /** Null (N/A) when the team has no success prompt. */
  isSuccessful: boolean | null;
  results: CriterionResult[];
  /**
   * How many verdicts need review (inapplicable ones too, as the summary counts them). An
   * evaluation made before scoring marked verdicts says 0.
   */
  criteriaNeedingReview: number;
  /** Kept for calls too, whose shared summary is read from here; the lists show it for meetings only. */
  summary: string;
  improvements: Improvement[];
  /** Measured by scoring from the transcript's times; 0 when unknown. */
  durationSeconds: number;
}

export interface ActivityState {
  received: ReceivedPart | null;
  transcribed: TranscribedPart | null;
  evaluated: EvaluatedPart | null;
  /** The earliest failure reported by transcription or scoring. */
  failedAt: Date | null;
  /** Set once deleted; the activity then holds nothing else and takes nothing more. */
  deletedAt: Date | null;
}

export type ActivityFact =
  | { type: 'received'; part: ReceivedPart }
  | { type: 'transcribed'; part: TranscribedPart }
  | { type: 'evaluated'; part: EvaluatedPart }
  | { type: 'failed'; at: Date }
  | { type: 'deleted'; at: Date };

export const UNKNOWN_ACTIVITY: ActivityState = { received: null, transcribed: null, evaluated: null, failedAt: null, deletedAt: null };

/**
 * The activity after one more fact. Commutative and idempotent for the facts the pipeline
 * produces (parts of one kind carry different times), so every order of delivery, with any
 * repeats, ends in the same state.
 */
export function mergeActivityFact(state: ActivityState, fact: ActivityFact): ActivityState {
  // A deletion wins over everything, before or after it: nothing about the activity is kept.
  if (fact.type === 'deleted') return { ...UNKNOWN_ACTIVITY, deletedAt: earliest(state.deletedAt, fact.at) };
  if (state.deletedAt) return state;
  switch (fact.type) {
    case 'received':
      return { ...state, received: newer(state.received, fact.part, (part) => part.receivedAt) };
    case 'transcribed':
      return { ...state, transcribed: newer(state.transcribed, fact.part, (part) => part.transcribedAt) };
    case 'evaluated':
      return { ...state, evaluated: newer(state.evaluated, fact.part, (part) => part.evaluatedAt) };
    case 'failed':
      return { ...state, failedAt: earliest(state.failedAt, fact.at) };
  }
}

/** Scored beats failed beats processing: a later successful evaluation outranks an earlier failure. */
export function activityStatus(state: ActivityState): ActivityStatus {
  if (state.evaluated) return 'scored';
  if (state.failedAt) return 'failed';
  return 'processing';
}

/** The transcript's duration when it has one, else the one scoring measured; 0 while unknown. */
export function activityDurationSeconds(state: ActivityState): number {
  const transcribed = state.transcribed?.durationSeconds ?? 0;
  return transcribed > 0 ? transcribed : (state.evaluated?.durationSeconds ?? 0);
}

/** The held part, unless the incoming one is strictly newer (a redelivery changes nothing). */
function newer<T>(held: T | null, incoming: T, timeOf: (part: T) => Date): T {
  return held === null || timeOf(incoming).getTime() > timeOf(held).getTime() ? incoming : held;
}

function earliest(held: Date | null, incoming: Date): Date {
  return held !== null && held.getTime() <= incoming.getTime() ? held : incoming;
}
