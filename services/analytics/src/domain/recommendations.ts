/**
 * Spec part 2 §9's recommendation rules, for a team or a member over a period, and the advice a
 * manager can act on. Pure arithmetic on counts, so every rule and edge is unit-tested.
 */
import { compareText } from './dashboard-figures.js';

export interface PeriodFigures {
  /** Successful activities the member (or the team's members together) should reach in the period. */
  target: number;
  successful: number;
  total: number;
  /** Average score of the scored activities; 0 with none. */
  averageScore: number;
}

export interface Standing {
  target: number;
  successfulCalls: number;
  totalCalls: number;
  /** successful ÷ total × 100; 0 with no activities. */
  conversionRate: number;
  averageScore: number;
  onTarget: boolean;
  /** Activities still to make at the current conversion rate; 0 on target, null ('-') when the rate is 0. */
  additionalNeeded: number | null;
  requiredConversionRate: number;
  requiredAverageScore: number;
}

export const MAX_SCORE = 10;
/** §9: an average score of 10 is perfect, 8 or more good. */
export const PERFECT_SCORE = 10;
export const GOOD_SCORE = 8;
/** §9: script correlation should stay above 80 %. */
export const SCRIPT_MATCH_FLOOR = 80;

export function standingOf({ target, successful, total, averageScore }: PeriodFigures): Standing {
  const conversionRate = total === 0 ? 0 : (successful / total) * 100;
  const onTarget = successful >= target;
  const remaining = Math.max(0, target - successful);
  return {
    target,
    successfulCalls: successful,
    totalCalls: total,
    conversionRate,
    averageScore,
    onTarget,
    // ceil(remaining ÷ (rate ÷ 100)), with rate ÷ 100 = successful ÷ total: exact in integers, where
    // the rate as a float would turn 3 ÷ 0.3 into 10.000000000000002 and ask for 11.
    additionalNeeded: onTarget ? 0 : successful === 0 ? null : Math.ceil((remaining * total) / successful),
    requiredConversionRate: total === 0 ? 100 : Math.min(100, (remaining / total) * 100 + conversionRate),
    requiredAverageScore: Math.min(MAX_SCORE, (averageScore * target) / Math.max(1, successful)),
  };
}

export interface CriterionFailureRate {
  criterionName: string;
  failureRate: number;
  failed: number;
  judged: number;
}

export interface AdviceFacts {
  standing: Standing;
  /** Scored activities; advice on the score needs some. */
  scored: number;
  /** Average script match; null when no scored activity had a script. */
  scriptMatch: number | null;
  /** Most failed first. */
  criteria: readonly CriterionFailureRate[];
  /** "calls" or "meetings", as the advice names them. */
  activities: string;
}

/** One decimal, rounded down, so a score just under a threshold never reads as reaching it. */
const one = (value: number) => (Math.floor(value * 10 + 1e-9) / 10).toFixed(1);
const percent = (value: number) => `${Math.round(value)}%`;

/** What a manager can act on, most important first. */
export function adviceFor({ standing, scored, scriptMatch, criteria, activities }: AdviceFacts): string[] {
  const advice: string[] = [];
  const { onTarget, target, successfulCalls, totalCalls, additionalNeeded, requiredConversionRate, averageScore } = standing;
  if (totalCalls === 0) {
    advice.push(target > 0 ? `No ${activities} in this period against a target of ${target} successful: check their pipeline and schedule.` : `No ${activities} in this period.`);
  } else if (onTarget) {
    advice.push(`On target: ${successfulCalls} successful of ${target}.`);
  } else if (additionalNeeded === null) {
    advice.push(`No successful ${activities} yet (target ${target}): review their last ${activities} together and agree on how to close.`);
  } else {
    advice.push(
      `${target - successfulCalls} successful ${activities} short of the target of ${target}: about ${additionalNeeded} more ${activities} at the current conversion rate, or a conversion rate of ${percent(requiredConversionRate)} on the ${activities} made.`,
    );
  }
  if (scored > 0) {
    if (averageScore >= PERFECT_SCORE) advice.push('Perfect average score (10/10): ask them to share what works with the team.');
    else if (averageScore >= GOOD_SCORE) advice.push(`Good average score (${one(averageScore)}/10): keep it there.`);
    else advice.push(`Average score ${one(averageScore)}/10 is below ${GOOD_SCORE}: coach on the criteria they fail most.`);
  }
  if (scriptMatch !== null && scriptMatch <= SCRIPT_MATCH_FLOOR) advice.push(`Script match ${percent(scriptMatch)} should stay above ${SCRIPT_MATCH_FLOOR}%: go through the call script with them.`);
  const worst = criteria.find((criterion) => criterion.failed > 0);
  if (worst) advice.push(`Most failed: '${worst.criterionName}' (${percent(worst.failureRate)} of ${worst.judged} ${activities}).`);
  return advice;
}

/** Failed ÷ judged × 100; judged must not be 0. */
export const failureRate = (failed: number, judged: number): number => (failed / judged) * 100;

/** The order of failure rates: most failed first, then most failures, then by name (equal ones keep their order). */
export function mostFailedFirst(a: CriterionFailureRate, b: CriterionFailureRate): number {
  // Signs rather than differences: a difference of rates is a float, boxed on every return, and a
  // recommendation compares thousands.
  if (a.failureRate !== b.failureRate) return a.failureRate > b.failureRate ? -1 : 1;
  if (a.failed !== b.failed) return a.failed > b.failed ? -1 : 1;
  return compareText(a.criterionName, b.criterionName);
}

/** A member's criteria with their failure rates, in `mostFailedFirst` order; those never judged are left out. */
export function failureRates<T extends { criterionName: string; failed: number; judged: number }>(criteria: readonly T[]): (T & { failureRate: number })[] {
  return sortShort(
    criteria.filter((criterion) => criterion.judged > 0).map((criterion) => ({ ...criterion, failureRate: failureRate(criterion.failed, criterion.judged) })),
    mostFailedFirst,
  );
}

/**
 * Sorts a short list in place, stably (an insertion sort). Array.prototype.sort allocates about a
 * kilobyte on every call whatever the length, and a recommendation sorts hundreds of lists of a
 * few criteria each.
 */
export function sortShort<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  for (let next = 1; next < items.length; next++) {
    const item = items[next]!;
    let at = next;
    for (; at > 0 && compare(items[at - 1]!, item) > 0; at--) items[at] = items[at - 1]!;
    items[at] = item;
  }
  return items;
}

/** The median of the values (the mean of the middle two for an even count); null with none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
