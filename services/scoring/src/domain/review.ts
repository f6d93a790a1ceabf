/**
 * Right or unsure: a verdict the engine is not sure enough of needs review, a third state beside
 * passed and failed. Its `passed` stays the side it leans to, and the score counts it that way, so
 * a score never moves until a person decides; the evaluation says how many criteria await review
 * ("7.5 / 10, 2 criteria need review").
 */
import { REVIEW_THRESHOLD } from '@parlance/platform/team/team-rules';
import type { CriterionVerdict } from '@parlance/proto/parlance/scoring/v1/evaluation';
import type { JudgedVerdict } from '../engines/evaluation-engine.js';

/**
 * Below this confidence a verdict needs review: an engine's confidence says how often such a
 * verdict is right, and a manager should not act on one that is wrong more than 3 times in 10.
 */
export const DEFAULT_REVIEW_THRESHOLD = REVIEW_THRESHOLD.default;

/**
 * A team's review threshold as it reached scoring: undefined in a team snapshot queued before
 * teams had one, 0 (protobuf's unset) in a team announced before then; both mean the default.
 */
export function reviewThresholdOf(announced: number | undefined): number {
  return announced !== undefined && Number.isFinite(announced) && announced > 0 && announced <= 1 ? announced : DEFAULT_REVIEW_THRESHOLD;
}

export function markForReview(verdicts: readonly JudgedVerdict[], threshold: number): CriterionVerdict[] {
  return verdicts.map((verdict) => ({ ...verdict, needsReview: verdict.confidence < threshold }));
}

/** Whether the success verdict needs review: a judged one (not N/A) below the threshold. */
export function successNeedsReview(success: { isSuccessful: boolean | undefined; confidence: number }, threshold: number): boolean {
  return success.isSuccessful !== undefined && success.confidence < threshold;
}
