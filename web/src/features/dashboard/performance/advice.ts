/**
 * The advice a manager can act on, for a team or a member (spec part 2 §9's thresholds), worded
 * from the figures the API sends: how far from the target and what would close the gap, the
 * average score, the script match and the criterion failed most. The API computes the figures;
 * the words are the browser's, like every other label. Pure, so each rule is unit-tested.
 */
import type { ActivityType } from '../metrics';
import { activityNoun, worstFirst, type TeamRecommendation } from './recommendations-format';

/** §9: an average score of 10 is perfect, 8 or more good. */
export const PERFECT_SCORE = 10;
export const GOOD_SCORE = 8;
/** §9: script correlation should stay above 80 %. */
export const SCRIPT_MATCH_FLOOR = 80;

/** What a team and a member both carry, and all the advice reads. */
export type AdviceFigures = Pick<
  TeamRecommendation,
  'target' | 'successfulCalls' | 'totalCalls' | 'onTarget' | 'additionalNeeded' | 'requiredConversionRate' | 'averageScore' | 'scoredCalls' | 'scriptMatch'
> & { criteria: readonly TeamRecommendation['criteria'][number][] };

/** One decimal, rounded down, so a score just under a threshold never reads as reaching it. */
const oneDecimal = (value: number) => (Math.floor(value * 10 + 1e-9) / 10).toFixed(1);
const percent = (value: number) => `${Math.round(value)}%`;

/** Most important first. */
export function adviceFor(figures: AdviceFigures, activityType: ActivityType): string[] {
  const noun = activityNoun(activityType);
  const { target, successfulCalls, totalCalls, onTarget, additionalNeeded, requiredConversionRate, averageScore, scoredCalls, scriptMatch } = figures;
  const advice: string[] = [];
  if (totalCalls === 0) {
    advice.push(target > 0 ? `No ${noun} in this period against a target of ${target} successful: check their pipeline and schedule.` : `No ${noun} in this period.`);
  } else if (onTarget) {
    advice.push(`On target: ${successfulCalls} successful of ${target}.`);
  } else if (additionalNeeded === '-') {
    advice.push(`No successful ${noun} yet (target ${target}): review their last ${noun} together and agree on how to close.`);
  } else {
    advice.push(
      `${target - successfulCalls} successful ${noun} short of the target of ${target}: about ${additionalNeeded} more ${noun} at the current conversion rate, or a conversion rate of ${percent(requiredConversionRate)} on the ${noun} made.`,
    );
  }
  if (scoredCalls > 0) {
    if (averageScore >= PERFECT_SCORE) advice.push('Perfect average score (10/10): ask them to share what works with the team.');
    else if (averageScore >= GOOD_SCORE) advice.push(`Good average score (${oneDecimal(averageScore)}/10): keep it there.`);
    else advice.push(`Average score ${oneDecimal(averageScore)}/10 is below ${GOOD_SCORE}: coach on the criteria they fail most.`);
  }
  if (scriptMatch !== null && scriptMatch <= SCRIPT_MATCH_FLOOR) {
    advice.push(`Script match ${percent(scriptMatch)} should stay above ${SCRIPT_MATCH_FLOOR}%: go through the call script with them.`);
  }
  const worst = worstFirst(figures.criteria).find((criterion) => criterion.failed > 0);
  if (worst) advice.push(`Most failed: '${worst.criterionName}' (${percent(worst.failureRate)} of ${worst.judged} ${noun}).`);
  return advice;
}
