/**
 * The date arithmetic of the activity screen's range picker (spec part 2 §2.1, §9): presets, the
 * calendar's Monday-first weeks and its limits. Pure functions of local calendar dates: a day is
 * moved by its date fields (new Date(y, m, d + n)), never by adding 24 h, so a daylight-saving
 * change never shifts a range off midnight.
 */

export type PresetId = 'thisWeek' | 'thisMonth' | 'thisQuarter' | 'last7Days' | 'last14Days' | 'last30Days' | 'last90Days' | 'custom';

export const PRESETS: readonly { id: PresetId; label: string }[] = [
  { id: 'thisWeek', label: 'This Week' },
  { id: 'thisMonth', label: 'This Month' },
  { id: 'thisQuarter', label: 'This Quarter' },
  { id: 'last7Days', label: 'Last 7 days' },
  { id: 'last14Days', label: 'Last 14 days' },
  { id: 'last30Days', label: 'Last 30 days' },
  { id: 'last90Days', label: 'Last 90 days' },
  { id: 'custom', label: 'Custom Range' },
];

/** Spec part 2 §9: the range shown when none is given. */
export const DEFAULT_PRESET: Exclude<PresetId, 'custom'> = 'thisQuarter';

/** Spec part 2 §9: the calendar reaches 100 years back and 20 years ahead. */
export const YEARS_BACK = 100;
export const YEARS_AHEAD = 20;

/** Monday-first week-day headings, with their full names for screen readers. */
export const WEEKDAYS: readonly { short: string; long: string }[] = [
  { short: 'Mo', long: 'Monday' },
  { short: 'Tu', long: 'Tuesday' },
  { short: 'We', long: 'Wednesday' },
  { short: 'Th', long: 'Thursday' },
  { short: 'Fr', long: 'Friday' },
  { short: 'Sa', long: 'Saturday' },
  { short: 'Su', long: 'Sunday' },
];

/** A range of whole days: from the first day's 00:00:00.000 to the last day's 23:59:59.999, local time. */
export type DateRange = { start: Date; end: Date };

export const startOfDay = (date: Date): Date => new Date(date.getFullYear(), date.getMonth(), date.getDate());
export const endOfDay = (date: Date): Date => new Date(date.getFullYear(), date.getMonth(), date.getDate(), 23, 59, 59, 999);

/** The same time of day, n calendar days later (n may be negative). */
export const addDays = (date: Date, days: number): Date =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate() + days, date.getHours(), date.getMinutes(), date.getSeconds(), date.getMilliseconds());

export const startOfMonth = (date: Date): Date => new Date(date.getFullYear(), date.getMonth(), 1);
export const endOfMonth = (date: Date): Date => new Date(date.getFullYear(), date.getMonth() + 1, 0, 23, 59, 59, 999);

/** The first day of the month n months later (n may be negative). */
export const addMonths = (date: Date, months: number): Date => new Date(date.getFullYear(), date.getMonth() + months, 1);

/** Monday-based index of a week day: Monday 0 … Sunday 6. */
export const weekdayIndex = (date: Date): number => (date.getDay() + 6) % 7;

/** The Monday of the date's week, 00:00. */
export const startOfWeek = (date: Date): Date => addDays(startOfDay(date), -weekdayIndex(date));
/** The Sunday of the date's week, 23:59:59.999. */
export const endOfWeek = (date: Date): Date => endOfDay(addDays(startOfWeek(date), 6));

const quarterFirstMonth = (date: Date) => Math.floor(date.getMonth() / 3) * 3;
export const startOfQuarter = (date: Date): Date => new Date(date.getFullYear(), quarterFirstMonth(date), 1);
export const endOfQuarter = (date: Date): Date => new Date(date.getFullYear(), quarterFirstMonth(date) + 3, 0, 23, 59, 59, 999);

export const isSameDay = (a: Date, b: Date): boolean =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** Negative, zero or positive as day a is before, on or after day b (times ignored). */
export const compareDays = (a: Date, b: Date): number => startOfDay(a).getTime() - startOfDay(b).getTime();

/** 'Last n days' counts today: today and the n − 1 days before it. */
const lastDays = (today: Date, days: number): DateRange => ({ start: addDays(startOfDay(today), -(days - 1)), end: endOfDay(today) });

/** The range a preset stands for on the given day. This week, month and quarter are whole periods. */
export function presetRange(preset: Exclude<PresetId, 'custom'>, today: Date): DateRange {
  switch (preset) {
    case 'thisWeek':
      return { start: startOfWeek(today), end: endOfWeek(today) };
    case 'thisMonth':
      return { start: startOfMonth(today), end: endOfMonth(today) };
    case 'thisQuarter':
      return { start: startOfQuarter(today), end: endOfQuarter(today) };
    case 'last7Days':
      return lastDays(today, 7);
    case 'last14Days':
      return lastDays(today, 14);
    case 'last30Days':
      return lastDays(today, 30);
    case 'last90Days':
      return lastDays(today, 90);
  }
}

/** The preset whose days are exactly the range's, else 'custom'. */
export function presetOf(range: DateRange, today: Date): PresetId {
  for (const { id } of PRESETS) {
    if (id === 'custom') continue;
    const candidate = presetRange(id, today);
    if (isSameDay(candidate.start, range.start) && isSameDay(candidate.end, range.end)) return id;
  }
  return 'custom';
}

/**
 * Spec part 2 §2.1: a selection is reported only when both ends are set and are different days
 * (the first click of a custom range sets the start alone).
 */
export function isReportable(start: Date | null, end: Date | null): boolean {
  return start !== null && end !== null && !isSameDay(start, end);
}

/** A range in order, as whole days, from two clicked days in either order. */
export function rangeBetween(a: Date, b: Date): DateRange {
  return compareDays(a, b) <= 0 ? { start: startOfDay(a), end: endOfDay(b) } : { start: startOfDay(b), end: endOfDay(a) };
}

/** The first and last selectable days: 100 years back and 20 years ahead of today (spec part 2 §9). */
export function calendarLimits(today: Date): DateRange {
  return {
    start: new Date(today.getFullYear() - YEARS_BACK, today.getMonth(), today.getDate()),
    end: new Date(today.getFullYear() + YEARS_AHEAD, today.getMonth(), today.getDate(), 23, 59, 59, 999),
  };
}

export const isWithin = (day: Date, limits: DateRange): boolean => compareDays(day, limits.start) >= 0 && compareDays(day, limits.end) <= 0;

/**
 * The weeks of a month as the calendar shows them: Monday first, each week seven days, the days
 * of the neighbouring months filling the first and last weeks.
 */
export function monthWeeks(month: Date): Date[][] {
  const first = startOfMonth(month);
  const last = endOfMonth(month);
  const weeks: Date[][] = [];
  for (let monday = startOfWeek(first); compareDays(monday, last) <= 0; monday = addDays(monday, 7)) {
    weeks.push(Array.from({ length: 7 }, (_, index) => addDays(monday, index)));
  }
  return weeks;
}

const monthTitle = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' });
const dayLabel = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });

/** 'March 2025'. */
export const formatMonth = (month: Date): string => monthTitle.format(month);
/** 'Monday, March 3, 2025'. */
export const formatDayLabel = (day: Date): string => dayLabel.format(day);
