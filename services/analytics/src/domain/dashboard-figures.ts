/**
 * The dashboard's figures from summed counts (spec part 2 §3 "Metrics response", "Enumerations"):
 * pure arithmetic, the same whichever source the counts were summed from.
 */
import type { Metric } from './dashboard-request.js';
import { rounded } from './dashboard-request.js';

/** Text in code-unit order: the same on every machine and in every locale, where `localeCompare` is not. */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Counts summed over some activities (what a rollup cell holds). */
export interface Counts {
  activities: number;
  successful: number;
  unsuccessful: number;
  scored: number;
  scoreSum: number;
  scriptMatched: number;
  scriptMatchSum: number;
  timed: number;
  durationSum: number;
}

export const averageScore = (counts: Counts): number | null => (counts.scored === 0 ? null : counts.scoreSum / counts.scored);
export const averageScriptMatch = (counts: Counts): number | null => (counts.scriptMatched === 0 ? null : counts.scriptMatchSum / counts.scriptMatched);
export const averageDuration = (counts: Counts): number | null => (counts.timed === 0 ? null : counts.durationSum / counts.timed);
/** successful ÷ activities × 100. */
export const conversionRate = (counts: Counts): number | null => (counts.activities === 0 ? null : (counts.successful / counts.activities) * 100);

/** The counts each metric is computed from (columns of the rollups). */
export const METRIC_MEASURES: Record<Metric, readonly ('activities' | 'successful' | 'unsuccessful' | 'scored' | 'score_sum' | 'script_matched' | 'script_match_sum')[]> = {
  score: ['scored', 'score_sum'],
  conversion_rate: ['activities', 'successful'],
  total_calls: ['activities'],
  total_meetings: ['activities'],
  successful: ['successful'],
  unsuccessful: ['unsuccessful'],
  script_match: ['script_matched', 'script_match_sum'],
};

/** A metric's value for the counts (rounded to two decimals); null where an average has nothing to average. */
export function metricValue(counts: Counts, metric: Metric): number | null {
  let value: number | null;
  switch (metric) {
    case 'score':
      value = averageScore(counts);
      break;
    case 'conversion_rate':
      value = conversionRate(counts);
      break;
    case 'total_calls':
    case 'total_meetings':
      value = counts.activities;
      break;
    case 'successful':
      value = counts.successful;
      break;
    case 'unsuccessful':
      value = counts.unsuccessful;
      break;
    case 'script_match':
      value = averageScriptMatch(counts);
      break;
  }
  return value === null ? null : rounded(value);
}

export interface PeriodMetrics {
  conversionRate: number;
  avgActivitiesPerRep: number;
  avgDuration: number;
  successScore: number;
}

/**
 * The four KPIs of a period from each unit's counts (a unit is a team or a representative, by
 * mode); averages of nothing are 0, as the cards show them.
 */
export function periodMetrics(units: readonly Counts[]): PeriodMetrics {
  const total = units.reduce(addCounts, NO_COUNTS);
  const active = units.filter((unit) => unit.activities > 0).length;
  return {
    conversionRate: rounded(conversionRate(total) ?? 0),
    avgActivitiesPerRep: rounded(active === 0 ? 0 : total.activities / active),
    avgDuration: rounded(averageDuration(total) ?? 0),
    successScore: rounded(averageScore(total) ?? 0),
  };
}

export const NO_COUNTS: Counts = { activities: 0, successful: 0, unsuccessful: 0, scored: 0, scoreSum: 0, scriptMatched: 0, scriptMatchSum: 0, timed: 0, durationSum: 0 };

export function addCounts(a: Counts, b: Counts): Counts {
  return {
    activities: a.activities + b.activities,
    successful: a.successful + b.successful,
    unsuccessful: a.unsuccessful + b.unsuccessful,
    scored: a.scored + b.scored,
    scoreSum: a.scoreSum + b.scoreSum,
    scriptMatched: a.scriptMatched + b.scriptMatched,
    scriptMatchSum: a.scriptMatchSum + b.scriptMatchSum,
    timed: a.timed + b.timed,
    durationSum: a.durationSum + b.durationSum,
  };
}

/** Verdicts of a criterion summed over some activities. */
export interface Verdicts {
  passed: number;
  failed: number;
  passedSuccessful: number;
  failedSuccessful: number;
  passedUnsuccessful: number;
  failedUnsuccessful: number;
}

/** The pass rate (%) over the activities of the subset; null when none of them was judged on it. */
export function passRate(verdicts: Verdicts, subset: 'successful' | 'unsuccessful' | 'all'): number | null {
  const [passed, failed] =
    subset === 'successful'
      ? [verdicts.passedSuccessful, verdicts.failedSuccessful]
      : subset === 'unsuccessful'
        ? [verdicts.passedUnsuccessful, verdicts.failedUnsuccessful]
        : [verdicts.passed, verdicts.failed];
  return passed + failed === 0 ? null : rounded((passed / (passed + failed)) * 100);
}

export function addVerdicts(a: Verdicts, b: Verdicts): Verdicts {
  return {
    passed: a.passed + b.passed,
    failed: a.failed + b.failed,
    passedSuccessful: a.passedSuccessful + b.passedSuccessful,
    failedSuccessful: a.failedSuccessful + b.failedSuccessful,
    passedUnsuccessful: a.passedUnsuccessful + b.passedUnsuccessful,
    failedUnsuccessful: a.failedUnsuccessful + b.failedUnsuccessful,
  };
}

export const NO_VERDICTS: Verdicts = { passed: 0, failed: 0, passedSuccessful: 0, failedSuccessful: 0, passedUnsuccessful: 0, failedUnsuccessful: 0 };
