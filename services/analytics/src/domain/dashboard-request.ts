/**
 * The dashboard's requests read and checked (spec part 2 §3, §7 "Dashboard and analytics"), and
 * the calendar they are counted on: local days of the caller's time zone, weeks starting on
 * Monday (§9), months. A day is a 'YYYY-MM-DD' string throughout; its arithmetic is done on UTC
 * dates, where every day is 24 hours long.
 */
import { invalidArgument } from '@parlance/platform/errors';

export type Day = string;

export const METRICS = ['score', 'conversion_rate', 'total_calls', 'total_meetings', 'successful', 'unsuccessful', 'script_match'] as const;
export type Metric = (typeof METRICS)[number];

/** §9's metric labels. */
export const METRIC_LABELS: Record<Metric, string> = {
  score: 'Avg Quality Score',
  conversion_rate: 'Conversion Rate',
  total_calls: 'Total Calls',
  total_meetings: 'Total Meetings',
  successful: 'Successful',
  unsuccessful: 'Unsuccessful',
  script_match: 'Script Match Rate',
};

export const GROUPINGS = ['day', 'week', 'month', 'parameter'] as const;
export type Grouping = (typeof GROUPINGS)[number];
export type Mode = 'team' | 'representative';

/** §9: a palette of 16 chart colours, cycled over a chart's series. */
export const PALETTE = [
  '#2563eb',
  '#16a34a',
  '#dc2626',
  '#d97706',
  '#7c3aed',
  '#0891b2',
  '#db2777',
  '#65a30d',
  '#9333ea',
  '#ea580c',
  '#0d9488',
  '#4f46e5',
  '#be123c',
  '#ca8a04',
  '#475569',
  '#059669',
] as const;

export const DASHBOARD_MESSAGES = {
  timeZone: (zone: string) => `Unknown time zone: ${zone}. Send an IANA name such as Europe/Kyiv or America/New_York.`,
  day: (name: string) => `${name} must be a day (YYYY-MM-DD) or an ISO 8601 time.`,
  range: 'to must not be before from.',
  mode: 'mode must be team or representative.',
  groupBy: 'groupBy must be day, week, month or parameter.',
  metric: (metric: string) => `Unknown metric: ${metric}. The metrics are ${METRICS.join(', ')}.`,
  parameterMetric: 'By parameter, metrics must be one of successful, unsuccessful, total_calls or total_meetings.',
  groupRange: (index: number) => `filterGroups[${index}] needs both fromDate and toDate.`,
  groupMode: (index: number) => `filterGroups[${index}].selectedMode must be team or representative.`,
  email: 'representative e-mail is required.',
} as const;

/** The legacy name the spec says browsers still send (§7). */
const RENAMED_ZONES: Readonly<Record<string, string>> = { 'Europe/Kiev': 'Europe/Kyiv' };

/**
 * An IANA time zone, as the caller spelled it (with the case of its canonical name); empty means
 * UTC. Node's ICU canonicalises some zones to older names (Europe/Kyiv to Europe/Kiev,
 * Asia/Kathmandu to Asia/Katmandu), so the canonical name is used only to check the zone and
 * mend its case; the spec's legacy Kiev is renamed after.
 */
export function readTimeZone(raw: string): string {
  const value = raw.trim();
  if (value === '') return 'UTC';
  // Checking a zone builds a formatter (a fraction of a millisecond): each spelling is checked once.
  return held(ZONES_READ, value, () => {
    let canonical: string;
    try {
      canonical = dayFormat(value).resolvedOptions().timeZone;
    } catch {
      throw invalidArgument(DASHBOARD_MESSAGES.timeZone(value));
    }
    const spelled = canonical.toLowerCase() === value.toLowerCase() ? canonical : value;
    return RENAMED_ZONES[spelled] ?? spelled;
  });
}

/** Callers send few zones; more than this many are worked out again each time rather than held. */
const ZONES_HELD = 1_000;
const ZONES_READ = new Map<string, string>();
const DAY_FORMATS = new Map<string, Intl.DateTimeFormat>();

/** `key`'s value in `values`, made and kept there the first time (while fewer than ZONES_HELD are). */
function held<T>(values: Map<string, T>, key: string, make: () => T): T {
  const known = values.get(key);
  if (known !== undefined) return known;
  const value = make();
  if (values.size < ZONES_HELD) values.set(key, value);
  return value;
}

/** The zone's day formatter, built once per zone. */
const dayFormat = (zone: string): Intl.DateTimeFormat =>
  held(DAY_FORMATS, zone, () => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }));

const DAY_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A day of `zone`: given as one, or the day an ISO time falls on there. Empty gives null (an open end). */
export function readDay(name: string, raw: string, zone: string): Day | null {
  const value = raw.trim();
  if (value === '') return null;
  const match = DAY_ONLY.exec(value);
  if (match) {
    const date = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) throw invalidArgument(DASHBOARD_MESSAGES.day(name));
    return value;
  }
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) throw invalidArgument(DASHBOARD_MESSAGES.day(name));
  return dayIn(instant, zone);
}

/** The day `instant` falls on in `zone`. */
export function dayIn(instant: Date, zone: string): Day {
  const parts = dayFormat(zone).formatToParts(instant);
  const part = (type: string) => parts.find((entry) => entry.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

export interface DayRange {
  /** Inclusive; null when open. */
  from: Day | null;
  to: Day | null;
}

export function readRange(from: string, to: string, zone: string, names = { from: 'from', to: 'to' }): DayRange {
  const range = { from: readDay(names.from, from, zone), to: readDay(names.to, to, zone) };
  if (range.from && range.to && range.to < range.from) throw invalidArgument(DASHBOARD_MESSAGES.range);
  return range;
}

/** "team" or "representative" ("members" is the spec's other name for it); empty picks by whether people are named. */
export function readMode(raw: string, peopleNamed: boolean, message: string = DASHBOARD_MESSAGES.mode): Mode {
  const value = raw.trim().toLowerCase();
  if (value === '') return peopleNamed ? 'representative' : 'team';
  if (value === 'team') return 'team';
  if (value === 'representative' || value === 'members') return 'representative';
  throw invalidArgument(message);
}

export function readGrouping(raw: string): Grouping {
  const value = raw.trim().toLowerCase();
  if (value === '') return 'day';
  if (!(GROUPINGS as readonly string[]).includes(value)) throw invalidArgument(DASHBOARD_MESSAGES.groupBy);
  return value as Grouping;
}

/** The metrics asked for, each once, in the order asked; none means score. */
export function readMetrics(raw: readonly string[]): Metric[] {
  const metrics = [...new Set(raw.map((metric) => metric.trim().toLowerCase()).filter((metric) => metric !== ''))];
  for (const metric of metrics) if (!(METRICS as readonly string[]).includes(metric)) throw invalidArgument(DASHBOARD_MESSAGES.metric(metric));
  return metrics.length === 0 ? ['score'] : (metrics as Metric[]);
}

/** Which activities' verdicts a by-parameter chart counts (§2.10 'Criteria Success Rate in'). */
export type VerdictSubset = 'successful' | 'unsuccessful' | 'all';

export function verdictSubsetOf(metrics: readonly Metric[]): VerdictSubset {
  const [metric, ...others] = metrics;
  if (others.length > 0) throw invalidArgument(DASHBOARD_MESSAGES.parameterMetric);
  if (metric === 'successful' || metric === 'unsuccessful') return metric;
  if (metric === 'total_calls' || metric === 'total_meetings' || metric === 'score') return 'all';
  throw invalidArgument(DASHBOARD_MESSAGES.parameterMetric);
}

// Calendar arithmetic on days.

const MS_PER_DAY = 86_400_000;
const utc = (day: Day) => Date.parse(`${day}T00:00:00Z`);
/** A day as its number of days after 1970-01-01 (what `epochDay` names). */
const dayNumber = (day: Day): number => Math.round(utc(day) / MS_PER_DAY);

export const addDays = (day: Day, days: number): Day => epochDay(dayNumber(day) + days);

/**
 * The day `days` after 1970-01-01, by arithmetic (H. Hinnant's civil_from_days, in 400-year eras):
 * a chart by day names hundreds, and a Date and its ISO string cost five times as much each.
 */
export function epochDay(days: number): Day {
  const shifted = days + 719_468; // from 0000-03-01, so that a leap day ends its year
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1_460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

/** Days from `from` to `to`, both counted. */
export const daysBetween = (from: Day, to: Day): number => dayNumber(to) - dayNumber(from) + 1;
/** Monday 0 … Sunday 6. */
const weekday = (day: Day) => (new Date(utc(day)).getUTCDay() + 6) % 7;
export const mondayOf = (day: Day): Day => addDays(day, -weekday(day));
export const monthOf = (day: Day): Day => startOf(day, 'm');
export function addMonths(month: Day, months: number): Day {
  const date = new Date(utc(month));
  date.setUTCMonth(date.getUTCMonth() + months, 1);
  return epochDay(date.getTime() / MS_PER_DAY);
}

/** The bucket a day is counted in. */
export function bucketOf(day: Day, grouping: Exclude<Grouping, 'parameter'>): Day {
  if (grouping === 'week') return mondayOf(day);
  if (grouping === 'month') return monthOf(day);
  return day;
}

/** A bucket's label: the day, the week's Monday, or the month as YYYY-MM. */
export const bucketLabel = (bucket: Day, grouping: Exclude<Grouping, 'parameter'>): string => (grouping === 'month' ? bucket.slice(0, 7) : bucket);

/** Every bucket from the one holding `from` to the one holding `to`. */
export function bucketsBetween(from: Day, to: Day, grouping: Exclude<Grouping, 'parameter'>): Day[] {
  const buckets: Day[] = [];
  const last = bucketOf(to, grouping);
  if (grouping === 'month') {
    for (let bucket = bucketOf(from, grouping); bucket <= last; bucket = addMonths(bucket, 1)) buckets.push(bucket);
    return buckets;
  }
  const step = grouping === 'week' ? 7 : 1;
  for (let day = dayNumber(bucketOf(from, grouping)), end = dayNumber(last); day <= end; day += step) buckets.push(epochDay(day));
  return buckets;
}

/** A rollup cell's span: a local day, month or quarter (its `period` is the first day of it). */
export type Span = 'd' | 'm' | 'q';
type LongSpan = Exclude<Span, 'd'>;

/**
 * Which cells a range is read from: day cells only (to bucket by day or week); whole months where
 * they fit (to bucket by month); or the fewest cells, whole quarters first (no bucket).
 */
export type Spans = 'days' | 'months' | 'quarters';
const LONG_SPANS: Record<Spans, LongSpan[]> = { days: [], months: ['m'], quarters: ['q', 'm'] };

/**
 * A run of cells of one span: from the period `from` to the period `to`, both counted (for a
 * month or quarter, the first day of the first and of the last); null reaches every period that
 * way.
 */
export interface CoverPart {
  span: Span;
  from: Day | null;
  to: Day | null;
}

const MONTHS_IN: Record<LongSpan, number> = { m: 1, q: 3 };
/** The first day of the month or quarter holding `day`. */
function startOf(day: Day, span: LongSpan): Day {
  const month = Number(day.slice(5, 7));
  return `${day.slice(0, 5)}${String(month - ((month - 1) % MONTHS_IN[span])).padStart(2, '0')}-01`;
}

/**
 * How the rollups cover a range with the cells `spans` allows: the longest whole periods inside
 * it first, then shorter ones, then the days left at either end. An open end reaches every period
 * of the longest span that way.
 */
export function coverOf(range: DayRange, spans: Spans): CoverPart[] {
  return coverWith(range, LONG_SPANS[spans]);
}

function coverWith({ from, to }: DayRange, [span, ...shorter]: LongSpan[]): CoverPart[] {
  if (span === undefined) return from !== null && to !== null && from > to ? [] : [{ span: 'd', from, to }];
  const months = MONTHS_IN[span];
  const first = from === null ? null : from === startOf(from, span) ? from : addMonths(startOf(from, span), months);
  const last = to === null ? null : addDays(addMonths(startOf(to, span), months), -1) === to ? startOf(to, span) : addMonths(startOf(to, span), -months);
  if (first !== null && last !== null && first > last) return coverWith({ from, to }, shorter);
  const parts: CoverPart[] = [{ span, from: first, to: last }];
  if (from !== null && first !== null && from < first) parts.push(...coverWith({ from, to: addDays(first, -1) }, shorter));
  if (to !== null && last !== null) {
    const afterLast = addMonths(last, months);
    if (to >= afterLast) parts.push(...coverWith({ from: afterLast, to }, shorter));
  }
  return parts;
}

/** The same number of days just before the range; null when the range is open. */
export function previousRange({ from, to }: DayRange): { from: Day; to: Day } | null {
  if (from === null || to === null) return null;
  const length = daysBetween(from, to);
  return { from: addDays(from, -length), to: addDays(from, -1) };
}

/** Monday to Friday days from `from` to the earlier of `to` and `today`, both counted; 0 when the range starts after today. */
export function workingDays(from: Day, to: Day, today: Day): number {
  const last = to < today ? to : today;
  if (last < from) return 0;
  const total = daysBetween(from, last);
  const whole = Math.floor(total / 7);
  let count = whole * 5;
  for (let day = addDays(from, whole * 7); day <= last; day = addDays(day, 1)) if (weekday(day) < 5) count += 1;
  return count;
}

/** Two decimals, as every figure of the dashboard is answered. */
export const rounded = (value: number): number => Math.round(value * 100) / 100;
