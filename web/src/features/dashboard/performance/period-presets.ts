/**
 * The Period selector of a filter group (spec part 2 §2.10): each preset resolved to the local
 * days it covers, relative to a given 'now'. Weeks start on Monday (§9); this and last week, month,
 * quarter and year are whole calendar periods, as the activity screen's presets are.
 */
import {
  addDays,
  addMonths,
  endOfMonth,
  endOfQuarter,
  endOfWeek,
  startOfMonth,
  startOfQuarter,
  startOfWeek,
} from '../../../components/date-range/date-range-logic';
import { formatDay } from '../../../lib/format';
import type { PeriodPreset } from '../metrics';

export const PERIOD_LABELS: Record<PeriodPreset, string> = {
  custom: 'Custom',
  today: 'Today',
  yesterday: 'Yesterday',
  'this-week': 'This Week',
  'this-month': 'This Month',
  'this-quarter': 'This Quarter',
  'this-year': 'This Year',
  'last-week': 'Last Week',
  'last-month': 'Last Month',
  'last-quarter': 'Last Quarter',
  'last-year': 'Last Year',
  'same-month-last-year': 'Same Month Last Year',
  'same-quarter-last-year': 'Same Quarter Last Year',
};

/** §4: a filter group's period when nothing else is said. */
export const DEFAULT_PERIOD: PeriodPreset = 'this-quarter';

/** A range of local days, each YYYY-MM-DD; '' leaves that end open. */
export type DayRange = { fromDate: string; toDate: string };

const pad = (value: number) => String(value).padStart(2, '0');

/** The local calendar day of a time, as YYYY-MM-DD. */
export const dayOf = (date: Date): string => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** A YYYY-MM-DD day as local midnight; null for anything that is not a real day. */
export function parseDay(day: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const parsed = new Date(year, month, date);
  return parsed.getFullYear() === year && parsed.getMonth() === month && parsed.getDate() === date ? parsed : null;
}

const between = (start: Date, end: Date): DayRange => ({ fromDate: dayOf(start), toDate: dayOf(end) });

/** The days a preset covers on the day of `now`. */
export function presetDays(preset: Exclude<PeriodPreset, 'custom'>, now: Date): DayRange {
  const year = now.getFullYear();
  switch (preset) {
    case 'today':
      return between(now, now);
    case 'yesterday': {
      const yesterday = addDays(now, -1);
      return between(yesterday, yesterday);
    }
    case 'this-week':
      return between(startOfWeek(now), endOfWeek(now));
    case 'this-month':
      return between(startOfMonth(now), endOfMonth(now));
    case 'this-quarter':
      return between(startOfQuarter(now), endOfQuarter(now));
    case 'this-year':
      return between(new Date(year, 0, 1), new Date(year, 11, 31));
    case 'last-week': {
      const lastWeek = addDays(now, -7);
      return between(startOfWeek(lastWeek), endOfWeek(lastWeek));
    }
    case 'last-month': {
      const lastMonth = addMonths(now, -1);
      return between(lastMonth, endOfMonth(lastMonth));
    }
    case 'last-quarter': {
      const lastQuarter = addMonths(startOfQuarter(now), -3);
      return between(lastQuarter, endOfQuarter(lastQuarter));
    }
    case 'last-year':
      return between(new Date(year - 1, 0, 1), new Date(year - 1, 11, 31));
    case 'same-month-last-year': {
      const month = new Date(year - 1, now.getMonth(), 1);
      return between(month, endOfMonth(month));
    }
    case 'same-quarter-last-year': {
      const quarter = startOfQuarter(new Date(year - 1, now.getMonth(), 1));
      return between(quarter, endOfQuarter(quarter));
    }
  }
}

/** Custom days in order (entered the wrong way round they are swapped); an unreadable day leaves its end open. */
export function orderedDays(days: DayRange): DayRange {
  const fromDate = parseDay(days.fromDate) ? days.fromDate : '';
  const toDate = parseDay(days.toDate) ? days.toDate : '';
  // YYYY-MM-DD days compare as text.
  return fromDate && toDate && fromDate > toDate ? { fromDate: toDate, toDate: fromDate } : { fromDate, toDate };
}

/** The days a group's period covers: a preset's days on the day of `now`, or the custom days in order. */
export function resolvePeriod(preset: PeriodPreset, now: Date, custom: DayRange = { fromDate: '', toDate: '' }): DayRange {
  return preset === 'custom' ? orderedDays(custom) : presetDays(preset, now);
}

export const isPeriodPreset = (value: unknown): value is PeriodPreset => typeof value === 'string' && Object.hasOwn(PERIOD_LABELS, value);

/** 'Jul 1, 2025 – Sep 30, 2025'; an open end reads as such. */
export function formatPeriod(fromDate: string, toDate: string): string {
  const from = parseDay(fromDate);
  const to = parseDay(toDate);
  if (from && to) return `${formatDay(from)} – ${formatDay(to)}`;
  if (from) return `From ${formatDay(from)}`;
  if (to) return `Until ${formatDay(to)}`;
  return 'All dates';
}
