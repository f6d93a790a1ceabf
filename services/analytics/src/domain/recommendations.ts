/**
 * Spec part 2 §9's recommendation rules, for a team or a member over a period. Pure arithmetic on
 * counts, so every rule and edge is unit-tested. The advice a manager reads is worded from these
 * figures in the web app (web/src/features/dashboard/performance/advice.ts).
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
