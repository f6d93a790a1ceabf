import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  calendarLimits,
  isReportable,
  monthWeeks,
  presetOf,
  presetRange,
  rangeBetween,
  startOfWeek,
  type DateRange,
} from './date-range-logic';

/** 'YYYY-MM-DD HH:mm:ss.SSS' in local time, so expectations read as calendar days. */
const local = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')} ` +
  `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}:${String(date.getSeconds()).padStart(2, '0')}.${String(date.getMilliseconds()).padStart(3, '0')}`;
const shown = (range: DateRange) => [local(range.start), local(range.end)];

// A zone with daylight saving, so the arithmetic is checked across the clock changes
// (Europe/Berlin: 2025-03-30 02:00 → 03:00, 2025-10-26 03:00 → 02:00).
const zoneBefore = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Europe/Berlin';
});
afterAll(() => {
  process.env.TZ = zoneBefore;
  if (zoneBefore === undefined) delete process.env.TZ;
});

describe('date range presets', () => {
  // Thursday 14 August 2025, mid-afternoon.
  const thursday = new Date(2025, 7, 14, 15, 30);

  it('starts This Week on the Monday and ends it on the Sunday', () => {
    expect(shown(presetRange('thisWeek', thursday))).toEqual(['2025-08-11 00:00:00.000', '2025-08-17 23:59:59.999']);
  });

  it('keeps a Sunday in the week that began the Monday before, and a Monday in its own week', () => {
    expect(local(startOfWeek(new Date(2025, 7, 17, 23, 0)))).toBe('2025-08-11 00:00:00.000');
    expect(local(startOfWeek(new Date(2025, 7, 18, 0, 0)))).toBe('2025-08-18 00:00:00.000');
  });

  it('takes a week across a month and year boundary', () => {
    expect(shown(presetRange('thisWeek', new Date(2026, 0, 1)))).toEqual(['2025-12-29 00:00:00.000', '2026-01-04 23:59:59.999']);
  });

  it('covers the whole month, February of a leap year included', () => {
    expect(shown(presetRange('thisMonth', thursday))).toEqual(['2025-08-01 00:00:00.000', '2025-08-31 23:59:59.999']);
    expect(shown(presetRange('thisMonth', new Date(2024, 1, 10)))).toEqual(['2024-02-01 00:00:00.000', '2024-02-29 23:59:59.999']);
  });

  it('covers the calendar quarter, at its first and last days too', () => {
    expect(shown(presetRange('thisQuarter', thursday))).toEqual(['2025-07-01 00:00:00.000', '2025-09-30 23:59:59.999']);
    expect(shown(presetRange('thisQuarter', new Date(2025, 0, 1, 0, 0)))).toEqual(['2025-01-01 00:00:00.000', '2025-03-31 23:59:59.999']);
    expect(shown(presetRange('thisQuarter', new Date(2025, 2, 31, 23, 59)))).toEqual(['2025-01-01 00:00:00.000', '2025-03-31 23:59:59.999']);
    expect(shown(presetRange('thisQuarter', new Date(2025, 3, 1)))).toEqual(['2025-04-01 00:00:00.000', '2025-06-30 23:59:59.999']);
    expect(shown(presetRange('thisQuarter', new Date(2025, 11, 31)))).toEqual(['2025-10-01 00:00:00.000', '2025-12-31 23:59:59.999']);
  });

  it('counts today in the last n days', () => {
    expect(shown(presetRange('last7Days', thursday))).toEqual(['2025-08-08 00:00:00.000', '2025-08-14 23:59:59.999']);
    expect(shown(presetRange('last14Days', thursday))).toEqual(['2025-08-01 00:00:00.000', '2025-08-14 23:59:59.999']);
    expect(shown(presetRange('last30Days', thursday))).toEqual(['2025-07-16 00:00:00.000', '2025-08-14 23:59:59.999']);
    expect(shown(presetRange('last90Days', thursday))).toEqual(['2025-05-17 00:00:00.000', '2025-08-14 23:59:59.999']);
  });

  it('keeps ranges on midnight across the daylight-saving changes', () => {
    // 31 March 2025: the clocks went forward on the 30th, so 6 × 24 h earlier would be 23:00 on the 24th.
    expect(shown(presetRange('last7Days', new Date(2025, 2, 31, 12)))).toEqual(['2025-03-25 00:00:00.000', '2025-03-31 23:59:59.999']);
    // 27 October 2025: the clocks went back on the 26th.
    expect(shown(presetRange('last7Days', new Date(2025, 9, 27, 12)))).toEqual(['2025-10-21 00:00:00.000', '2025-10-27 23:59:59.999']);
    expect(local(addDays(new Date(2025, 2, 29), 2))).toBe('2025-03-31 00:00:00.000');
    expect(local(addDays(new Date(2025, 9, 27), -2))).toBe('2025-10-25 00:00:00.000');
  });

  it('recognises the preset a range stands for, else calls it custom', () => {
    expect(presetOf(presetRange('thisQuarter', thursday), thursday)).toBe('thisQuarter');
    expect(presetOf(presetRange('last30Days', thursday), thursday)).toBe('last30Days');
    expect(presetOf(rangeBetween(new Date(2025, 7, 2), new Date(2025, 7, 9)), thursday)).toBe('custom');
  });
});

describe('custom selection', () => {
  it('reports only when both ends are set and are different days', () => {
    expect(isReportable(null, null)).toBe(false);
    expect(isReportable(new Date(2025, 7, 1), null)).toBe(false);
    expect(isReportable(null, new Date(2025, 7, 1))).toBe(false);
    expect(isReportable(new Date(2025, 7, 1, 9), new Date(2025, 7, 1, 17))).toBe(false);
    expect(isReportable(new Date(2025, 7, 1), new Date(2025, 7, 2))).toBe(true);
  });

  it('orders two clicked days into whole days', () => {
    expect(shown(rangeBetween(new Date(2025, 7, 9, 10), new Date(2025, 7, 2, 8)))).toEqual(['2025-08-02 00:00:00.000', '2025-08-09 23:59:59.999']);
  });
});

describe('calendar', () => {
  it('reaches 100 years back and 20 years ahead', () => {
    expect(shown(calendarLimits(new Date(2025, 7, 14, 10)))).toEqual(['1925-08-14 00:00:00.000', '2045-08-14 23:59:59.999']);
  });

  it('lays a month out in Monday-first weeks filled from the neighbouring months', () => {
    // June 2025 starts on a Sunday and ends on a Monday.
    const weeks = monthWeeks(new Date(2025, 5, 15));
    expect(weeks).toHaveLength(6);
    expect(weeks.every((week) => week.length === 7 && week[0]!.getDay() === 1)).toBe(true);
    expect(local(weeks[0]![0]!)).toBe('2025-05-26 00:00:00.000');
    expect(local(weeks[0]![6]!)).toBe('2025-06-01 00:00:00.000');
    expect(local(weeks[5]![0]!)).toBe('2025-06-30 00:00:00.000');
    // February 2021 is exactly four weeks, Monday 1st to Sunday 28th.
    const february = monthWeeks(new Date(2021, 1, 1));
    expect(february.map((week) => week[0]!.getDate())).toEqual([1, 8, 15, 22]);
  });

  it('keeps every calendar day on midnight through a daylight-saving month', () => {
    const days = monthWeeks(new Date(2025, 2, 1)).flat();
    expect(days.every((day) => day.getHours() === 0 && day.getMinutes() === 0)).toBe(true);
    expect(days.map((day) => day.getDate()).slice(28, 36)).toEqual([24, 25, 26, 27, 28, 29, 30, 31]);
  });
});
