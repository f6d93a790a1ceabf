/**
 * The score of an activity: the weights of the criteria it passed, added up. A team's weights
 * total 10 (identity checks that), so a score is 0 to 10 — the dashboards' "x.x / 10".
 */
import type { CriteriaGroup } from '@parlance/proto/parlance/identity/v1/teams';

export interface CriterionVerdict {
  groupId: string;
  criterionId: string;
  passed: boolean;
}

/**
 * Adds the weights of the passed criteria, to two decimals. A criterion without a verdict counts
 * as not passed. A verdict for a criterion the team does not have, or a second verdict for one, is
 * an error: the evaluation was not made against these criteria.
 */
export function weightedScore(groups: readonly CriteriaGroup[], verdicts: readonly CriterionVerdict[]): number {
  const weights = new Map<string, number>();
  for (const group of groups) for (const criterion of group.criteria) weights.set(`${group.id}/${criterion.id}`, criterion.weight);
  const judged = new Set<string>();
  let hundredths = 0;
  for (const verdict of verdicts) {
    const key = `${verdict.groupId}/${verdict.criterionId}`;
    const weight = weights.get(key);
    if (weight === undefined) throw new Error(`verdict for criterion ${verdict.criterionId} in group ${verdict.groupId}, which the team does not have`);
    if (judged.has(key)) throw new Error(`two verdicts for criterion ${verdict.criterionId} in group ${verdict.groupId}`);
    judged.add(key);
    if (verdict.passed) hundredths += Math.round(weight * 100);
  }
  return hundredths / 100;
}
