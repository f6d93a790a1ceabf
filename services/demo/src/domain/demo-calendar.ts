/**
 * When demo conversations took place: over the previous quarter and the current one up to now, so
 * the activities screen's default range (This Quarter) has data on any day the product is started,
 * even the first day of a quarter. Working days and hours in UTC, never in the future.
 */

/** The share of activities placed in the current quarter (the rest go to the previous one). */
export const CURRENT_QUARTER_SHARE = 0.45;
const DAY_MS = 86_400_000;
const WORKDAY_START_HOUR = 8;
const WORKDAY_HOURS = 10;

export interface DemoPeriod {
  previousQuarterStart: Date;
  currentQuarterStart: Date;
  now: Date;
}

export function demoPeriod(now: Date): DemoPeriod {
  const quarterMonth = Math.floor(now.getUTCMonth() / 3) * 3;
  const currentQuarterStart = new Date(Date.UTC(now.getUTCFullYear(), quarterMonth, 1));
  const previousQuarterStart = new Date(Date.UTC(now.getUTCFullYear(), quarterMonth - 3, 1));
  return { previousQuarterStart, currentQuarterStart, now };
}

/** A moment in the period from two numbers in [0, 1): which quarter and where in it, then the time of day. */
export function demoMoment(period: DemoPeriod, random: () => number): Date {
  const inCurrent = random() < CURRENT_QUARTER_SHARE;
  const from = inCurrent ? period.currentQuarterStart.getTime() : period.previousQuarterStart.getTime();
  const to = inCurrent ? period.now.getTime() : period.currentQuarterStart.getTime();
  const day = startOfUtcDay(from + random() * (to - from));
  const workday = latestWeekdayOnOrBefore(day, from);
  const moment = workday + (WORKDAY_START_HOUR + random() * WORKDAY_HOURS) * 3_600_000;
  if (moment < to) return new Date(moment);
  // Today, before working hours have passed: earlier today, still inside the range.
  return new Date(Math.max(from, to - 1 - random() * Math.min(to - from, 2 * 3_600_000)));
}

function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** The day itself when it is Monday to Friday, else the Friday before, unless that leaves the range. */
function latestWeekdayOnOrBefore(day: number, notBefore: number): number {
  const weekday = new Date(day).getUTCDay();
  const back = weekday === 6 ? 1 : weekday === 0 ? 2 : 0;
  const moved = day - back * DAY_MS;
  return moved >= startOfUtcDay(notBefore) ? moved : day;
}
