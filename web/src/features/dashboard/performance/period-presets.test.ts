import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERIOD_PRESETS } from '../metrics';
import { dayOf, formatPeriod, isPeriodPreset, parseDay, presetDays, PERIOD_LABELS, resolvePeriod } from './period-presets';

const days = (fromDate: string, toDate: string) => ({ fromDate, toDate });

describe('period presets', () => {
  // A zone with daylight saving, so no preset drifts off its days across a clock change.
  const zoneBefore = process.env.TZ;
  // Thursday 14 August 2025, late evening (still the 14th locally); made once the zone is set.
  let now: Date;
  beforeAll(() => {
    process.env.TZ = 'Europe/Berlin';
    now = new Date(2025, 7, 14, 23, 30);
  });
  afterAll(() => {
    process.env.TZ = zoneBefore;
    if (zoneBefore === undefined) delete process.env.TZ;
  });

  it('resolves today and yesterday to single days', () => {
    expect(presetDays('today', now)).toEqual(days('2025-08-14', '2025-08-14'));
    expect(presetDays('yesterday', now)).toEqual(days('2025-08-13', '2025-08-13'));
    expect(presetDays('yesterday', new Date(2025, 0, 1, 0, 5))).toEqual(days('2024-12-31', '2024-12-31'));
  });

  it('starts this week on Monday and ends it on Sunday, a Sunday belonging to the week before it', () => {
    expect(presetDays('this-week', now)).toEqual(days('2025-08-11', '2025-08-17'));
    expect(presetDays('this-week', new Date(2025, 7, 17, 22))).toEqual(days('2025-08-11', '2025-08-17'));
    expect(presetDays('this-week', new Date(2025, 7, 18))).toEqual(days('2025-08-18', '2025-08-24'));
    expect(presetDays('this-week', new Date(2026, 0, 1))).toEqual(days('2025-12-29', '2026-01-04'));
  });

  it('takes the whole month, quarter and year', () => {
    expect(presetDays('this-month', now)).toEqual(days('2025-08-01', '2025-08-31'));
    expect(presetDays('this-month', new Date(2024, 1, 10))).toEqual(days('2024-02-01', '2024-02-29'));
    expect(presetDays('this-quarter', now)).toEqual(days('2025-07-01', '2025-09-30'));
    expect(presetDays('this-quarter', new Date(2025, 2, 31, 23, 59))).toEqual(days('2025-01-01', '2025-03-31'));
    expect(presetDays('this-year', now)).toEqual(days('2025-01-01', '2025-12-31'));
  });

  it('takes the Monday-to-Sunday week before this one, across a year boundary too', () => {
    expect(presetDays('last-week', now)).toEqual(days('2025-08-04', '2025-08-10'));
    expect(presetDays('last-week', new Date(2025, 7, 11))).toEqual(days('2025-08-04', '2025-08-10'));
    expect(presetDays('last-week', new Date(2026, 0, 4))).toEqual(days('2025-12-22', '2025-12-28'));
  });

  it('takes the month before, from a 31st and from January too', () => {
    expect(presetDays('last-month', now)).toEqual(days('2025-07-01', '2025-07-31'));
    expect(presetDays('last-month', new Date(2025, 2, 31))).toEqual(days('2025-02-01', '2025-02-28'));
    expect(presetDays('last-month', new Date(2025, 0, 15))).toEqual(days('2024-12-01', '2024-12-31'));
  });

  it('takes the quarter before, the last one of the year before in the first quarter', () => {
    expect(presetDays('last-quarter', now)).toEqual(days('2025-04-01', '2025-06-30'));
    expect(presetDays('last-quarter', new Date(2025, 1, 3))).toEqual(days('2024-10-01', '2024-12-31'));
  });

  it('takes the whole year before', () => {
    expect(presetDays('last-year', now)).toEqual(days('2024-01-01', '2024-12-31'));
  });

  it('takes the same month and quarter a year ago, a leap February included', () => {
    expect(presetDays('same-month-last-year', now)).toEqual(days('2024-08-01', '2024-08-31'));
    expect(presetDays('same-month-last-year', new Date(2025, 1, 28))).toEqual(days('2024-02-01', '2024-02-29'));
    expect(presetDays('same-quarter-last-year', now)).toEqual(days('2024-07-01', '2024-09-30'));
    expect(presetDays('same-quarter-last-year', new Date(2025, 11, 31))).toEqual(days('2024-10-01', '2024-12-31'));
  });

  it('keeps custom days, puts them in order, and leaves an unreadable or missing end open', () => {
    expect(resolvePeriod('custom', now, days('2025-03-01', '2025-03-15'))).toEqual(days('2025-03-01', '2025-03-15'));
    expect(resolvePeriod('custom', now, days('2025-03-15', '2025-03-01'))).toEqual(days('2025-03-01', '2025-03-15'));
    expect(resolvePeriod('custom', now, days('2025-02-30', ''))).toEqual(days('', ''));
    expect(resolvePeriod('custom', now)).toEqual(days('', ''));
    expect(resolvePeriod('last-week', now, days('2020-01-01', '2020-01-02'))).toEqual(days('2025-08-04', '2025-08-10'));
  });

  it('labels every preset of the spec and recognises only those', () => {
    expect(PERIOD_PRESETS.every((preset) => PERIOD_LABELS[preset].length > 0)).toBe(true);
    expect(isPeriodPreset('same-quarter-last-year')).toBe(true);
    expect(isPeriodPreset('toString')).toBe(false);
    expect(isPeriodPreset(undefined)).toBe(false);
  });

  it('reads and writes local days', () => {
    expect(dayOf(new Date(2025, 2, 30, 23, 59))).toBe('2025-03-30');
    expect(parseDay('2024-02-29')?.getDate()).toBe(29);
    expect(parseDay('2025-02-29')).toBeNull();
    expect(parseDay('2025-2-1')).toBeNull();
  });
});

// Outside the zone change above: day formatters are made for the zone the page starts in.
describe('period wording', () => {
  it('words a period, open ends included', () => {
    expect(formatPeriod('2025-07-01', '2025-09-30')).toBe('Jul 1, 2025 – Sep 30, 2025');
    expect(formatPeriod('2025-07-01', '')).toBe('From Jul 1, 2025');
    expect(formatPeriod('', '2025-09-30')).toBe('Until Sep 30, 2025');
    expect(formatPeriod('', '')).toBe('All dates');
  });
});
