/** How many verdicts of an evaluation await review: what its summary says and the lists count and filter on. */
import type { CriterionVerdict } from '@parlance/proto/parlance/scoring/v1/evaluation';

export function criteriaNeedingReview(verdicts: readonly Pick<CriterionVerdict, 'needsReview'>[]): number {
  return verdicts.filter((verdict) => verdict.needsReview).length;
}
