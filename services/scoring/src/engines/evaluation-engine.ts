/**
 * What every evaluation engine does: judge one activity's transcript against its team's criteria,
 * success prompt and kind, and summarise it. Engines sit behind this one interface and are chosen
 * by configuration (the offline evaluator by default, an OpenAI-compatible chat model when
 * SCORING_LLM_URL is set). What is measured rather than judged — the score from the weights, the
 * script match, the conversation statistics and the Areas for Improvement grouped from the
 * verdicts — is computed the same way whatever the engine (`domain/assemble-evaluation.ts`).
 */
import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';
import type { CriteriaGroup } from '@parlance/proto/parlance/identity/v1/teams';
import type { CriterionVerdict, Evidence, Summary } from '@parlance/proto/parlance/scoring/v1/evaluation';
import type { Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';


/** The team as scoring held it when the transcript arrived. */
export interface TeamSnapshot {
  id: string;
  /** Its version in `identity.team-changed.v1`. */
  version: number;
  name: string;
  /** sales, hr or support. */
  department: string;
  criteriaGroups: CriteriaGroup[];
  /** Decides `isSuccessful`; empty means success is not judged (N/A). */
  successPrompt: string;
  /** Empty when the team has no script. */
  callScript: string;
  /**
   * Below this confidence a verdict needs review (`domain/review.ts`): the team's own, chosen in
   * the team editor (0.5 to 0.95), DEFAULT_REVIEW_THRESHOLD for a team that never chose one.
   */
  reviewThreshold: number;
}

export interface EvaluationInput {
  activityId: string;
  kind: ActivityKindName;
  transcript: Transcript;
  team: TeamSnapshot;
  representative: { email: string; name: string };
}

/** One criterion of the team, with its group: what engines judge, one verdict each. */
export interface TeamCriterion {
  groupId: string;
  groupName: string;
  criterionId: string;
  name: string;
  prompt: string;
  weight: number;
}

/** The team's criteria in its order, flattened out of their groups. */
export function teamCriteria(team: TeamSnapshot): TeamCriterion[] {
  return team.criteriaGroups.flatMap((group) =>
    group.criteria.map((criterion) => ({
      groupId: group.id,
      groupName: group.name,
      criterionId: criterion.id,
      name: criterion.name,
      prompt: criterion.prompt,
      weight: criterion.weight,
    })),
  );
}

/** The fields of a verdict that name the criterion it judges. */
export function verdictIdentity(criterion: TeamCriterion): Pick<CriterionVerdict, 'groupId' | 'criterionId' | 'groupName' | 'criterionName' | 'weight'> {
  return { groupId: criterion.groupId, criterionId: criterion.criterionId, groupName: criterion.groupName, criterionName: criterion.name, weight: criterion.weight };
}

export interface SuccessJudgement {
  /** Undefined (N/A) when the team has no success prompt. */
  isSuccessful: boolean | undefined;
  /** One sentence saying why; empty when not judged. */
  reason: string;
  confidence: number;
  evidence: Evidence[];
}

/**
 * A verdict as an engine gives it. Whether it needs review is not the engine's to say: the
 * evaluation marks it from its confidence and the threshold (`domain/review.ts`).
 */
export type JudgedVerdict = Omit<CriterionVerdict, 'needsReview'>;

/** What an engine decides; everything measured is added by assembleEvaluation. */
export interface Judgement {
  /** Exactly one per criterion of the team, in the team's order. */
  verdicts: JudgedVerdict[];
  success: SuccessJudgement;
  summary: Summary;
  /** "offline-evidence", or "openai:<model>". */
  engine: string;
  /** Why the configured engine was not the one that judged; empty when it was. */
  fallbackReason: string;
  /** Insight tokens used (the chat engine: the usage its server reported). */
  insightTokens: number;
  warnings: string[];
}

export interface EvaluationEngine {
  /** For logs and the service description, e.g. "offline-evidence" or "openai:gpt-4o-mini". */
  readonly name: string;
  /**
   * Judges the activity. Rejects when the signal aborts (the work is abandoned), with an
   * UnjudgeableActivityError for an activity it cannot judge at all, or on a bug; otherwise an
   * engine that cannot judge well falls back or answers with what it could judge.
   */
  judge(input: EvaluationInput, signal: AbortSignal): Promise<Judgement>;
}

/**
 * Thrown by an engine for an activity it cannot judge at all (e.g. a transcript longer than it
 * reads); the message is for a person and becomes the job's failure reason.
 */
export class UnjudgeableActivityError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UnjudgeableActivityError';
  }
}
