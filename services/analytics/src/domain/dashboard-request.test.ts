import { describe, expect, it } from 'vitest';
import {
  bucketsBetween,
  coverOf,
  epochDay,
  previousRange,
  readDay,
  readGrouping,
  readMetrics,
  readMode,
  readRange,
  readTimeZone,
  verdictSubsetOf,
  workingDays,
} from './dashboard-request.js';
import { metricValue, passRate, periodMetrics, NO_COUNTS } from './dashboard-figures.js';

describe('reading a dashboard request', () => {
  it('reads time zones by their IANA names, the legacy Kiev as Kyiv, none as UTC, and refuses others', () => {
    expect(readTimeZone('Europe/Kiev')).toBe('Europe/Kyiv');
    expect(readTimeZone('Europe/Kyiv')).toBe('Europe/Kyiv');
    expect(readTimeZone('america/new_york')).toBe('America/New_York');
    // Not the older name Node's ICU gives it: rollups are kept per zone as named.
    expect(readTimeZone('Asia/Kathmandu')).toBe('Asia/Kathmandu');
    expect(readTimeZone('')).toBe('UTC');
    expect(() => readTimeZone('Mars/Olympus')).toThrow('Unknown time zone: Mars/Olympus.');
  });

  it('reads a day as given, and an ISO time as its day in the zone', () => {
    expect(readDay('from', '2026-11-01', 'Europe/Kyiv')).toBe('2026-11-01');
    expect(readDay('from', '2026-10-31T22:30:00Z', 'Europe/Kyiv')).toBe('2026-11-01');
    expect(readDay('from', '2026-10-31T22:30:00Z', 'America/New_York')).toBe('2026-10-31');
    expect(readDay('from', ' ', 'UTC')).toBeNull();
    expect(() => readDay('from', '2026-02-30', 'UTC')).toThrow('from must be a day (YYYY-MM-DD) or an ISO 8601 time.');
    expect(() => readDay('to', 'yesterday', 'UTC')).toThrow('to must be a day');
    expect(() => readRange('2026-11-02', '2026-11-01', 'UTC')).toThrow('to must not be before from.');
  });

  it('reads modes, groupings and metrics, naming what it refuses', () => {
    expect(readMode('', false)).toBe('team');
    expect(readMode('', true)).toBe('representative');
    expect(readMode('members', false)).toBe('representative');
    expect(() => readMode('company', false)).toThrow('mode must be team or representative.');
    expect(readGrouping('')).toBe('day');
    expect(() => readGrouping('year')).toThrow('groupBy must be day, week, month or parameter.');
    expect(readMetrics([])).toEqual(['score']);
    expect(readMetrics(['score', 'SCORE', 'script_match'])).toEqual(['score', 'script_match']);
    expect(() => readMetrics(['revenue'])).toThrow('Unknown metric: revenue.');
    expect(verdictSubsetOf(['total_meetings'])).toBe('all');
    expect(verdictSubsetOf(['unsuccessful'])).toBe('unsuccessful');
    expect(() => verdictSubsetOf(['conversion_rate'])).toThrow('By parameter, metrics must be one of');
  });
});

describe('the calendar', () => {
  it('buckets by day, Monday-first week and month', () => {
    expect(bucketsBetween('2026-11-01', '2026-11-10', 'week')).toEqual(['2026-10-26', '2026-11-02', '2026-11-09']);
    expect(bucketsBetween('2026-11-30', '2026-12-02', 'day')).toEqual(['2026-11-30', '2026-12-01', '2026-12-02']);
    expect(bucketsBetween('2026-11-15', '2027-01-01', 'month')).toEqual(['2026-11-01', '2026-12-01', '2027-01-01']);
    expect(bucketsBetween('2028-02-27', '2028-03-01', 'day')).toEqual(['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01']);
    expect(bucketsBetween('2026-12-31', '2026-12-31', 'day')).toEqual(['2026-12-31']);
  });

  it('names a day by its number after 1970-01-01 as the calendar does, leap years and centuries included', () => {
    expect(epochDay(0)).toBe('1970-01-01');
    expect(epochDay(-1)).toBe('1969-12-31');
    expect(epochDay(11_016)).toBe('2000-02-29');
    expect(epochDay(47_541)).toBe('2100-03-01');
    // Against the ISO date: every day from 1899 to 2101, and every 13th from the year 1 to 9999.
    const MS_PER_DAY = 86_400_000;
    const numberOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / MS_PER_DAY;
    const check = (from: string, to: string, step: number) => {
      for (let day = numberOf(from); day <= numberOf(to); day += step) {
        const expected = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
        if (epochDay(day) !== expected) expect(epochDay(day)).toBe(expected);
      }
    };
    check('1899-01-01', '2101-12-31', 1);
    check('0001-01-01', '9999-12-31', 13);
  });

  it('covers a range with whole months and the days left at either end', () => {
    expect(coverOf({ from: '2026-10-15', to: '2026-12-31' }, 'months')).toEqual([
      { span: 'm', from: '2026-11-01', to: '2026-12-01' },
      { span: 'd', from: '2026-10-15', to: '2026-10-31' },
    ]);
    expect(coverOf({ from: '2026-10-01', to: '2026-12-10' }, 'months')).toEqual([
      { span: 'm', from: '2026-10-01', to: '2026-11-01' },
      { span: 'd', from: '2026-12-01', to: '2026-12-10' },
    ]);
    expect(coverOf({ from: '2026-10-15', to: '2026-11-10' }, 'months')).toEqual([{ span: 'd', from: '2026-10-15', to: '2026-11-10' }]);
    expect(coverOf({ from: null, to: null }, 'months')).toEqual([{ span: 'm', from: null, to: null }]);
    expect(coverOf({ from: '2026-10-15', to: null }, 'months')).toEqual([
      { span: 'm', from: '2026-11-01', to: null },
      { span: 'd', from: '2026-10-15', to: '2026-10-31' },
    ]);
    expect(coverOf({ from: null, to: '2026-02-27' }, 'months')).toEqual([
      { span: 'm', from: null, to: '2026-01-01' },
      { span: 'd', from: '2026-02-01', to: '2026-02-27' },
    ]);
  });

  it('covers a range with whole quarters first, then whole months, then days', () => {
    expect(coverOf({ from: '2026-10-01', to: '2026-12-31' }, 'quarters')).toEqual([{ span: 'q', from: '2026-10-01', to: '2026-10-01' }]);
    expect(coverOf({ from: '2026-01-01', to: '2026-12-31' }, 'quarters')).toEqual([{ span: 'q', from: '2026-01-01', to: '2026-10-01' }]);
    expect(coverOf({ from: '2026-09-15', to: '2027-05-20' }, 'quarters')).toEqual([
      { span: 'q', from: '2026-10-01', to: '2027-01-01' },
      { span: 'd', from: '2026-09-15', to: '2026-09-30' },
      { span: 'm', from: '2027-04-01', to: '2027-04-01' },
      { span: 'd', from: '2027-05-01', to: '2027-05-20' },
    ]);
    // No whole quarter inside: months and days alone.
    expect(coverOf({ from: '2026-10-15', to: '2026-12-31' }, 'quarters')).toEqual([
      { span: 'm', from: '2026-11-01', to: '2026-12-01' },
      { span: 'd', from: '2026-10-15', to: '2026-10-31' },
    ]);
    expect(coverOf({ from: '2026-11-03', to: '2026-11-03' }, 'quarters')).toEqual([{ span: 'd', from: '2026-11-03', to: '2026-11-03' }]);
    expect(coverOf({ from: null, to: null }, 'quarters')).toEqual([{ span: 'q', from: null, to: null }]);
    expect(coverOf({ from: '2026-08-01', to: null }, 'quarters')).toEqual([
      { span: 'q', from: '2026-10-01', to: null },
      { span: 'm', from: '2026-08-01', to: '2026-09-01' },
    ]);
    expect(coverOf({ from: null, to: '2026-02-27' }, 'quarters')).toEqual([
      { span: 'q', from: null, to: '2025-10-01' },
      { span: 'm', from: '2026-01-01', to: '2026-01-01' },
      { span: 'd', from: '2026-02-01', to: '2026-02-27' },
    ]);
  });

  it('compares with the same number of days just before, and counts working days up to today', () => {
    expect(previousRange({ from: '2026-11-01', to: '2026-11-30' })).toEqual({ from: '2026-10-02', to: '2026-10-31' });
    expect(previousRange({ from: null, to: '2026-11-30' })).toBeNull();
    // 2 to 13 November 2026: two working weeks.
    expect(workingDays('2026-11-02', '2026-11-15', '2026-12-01')).toBe(10);
    expect(workingDays('2026-11-02', '2026-11-30', '2026-11-04')).toBe(3);
    expect(workingDays('2026-11-07', '2026-11-08', '2026-12-01')).toBe(0);
    expect(workingDays('2026-12-01', '2026-12-31', '2026-11-30')).toBe(0);
  });
});

describe('figures', () => {
  const counts = { ...NO_COUNTS, activities: 3, successful: 1, unsuccessful: 1, scored: 2, scoreSum: 13, scriptMatched: 1, scriptMatchSum: 66.666, timed: 2, durationSum: 300 };

  it('computes each metric, null where an average has nothing to average', () => {
    expect(metricValue(counts, 'score')).toBe(6.5);
    expect(metricValue(counts, 'conversion_rate')).toBe(33.33);
    expect(metricValue(counts, 'total_calls')).toBe(3);
    expect(metricValue(counts, 'unsuccessful')).toBe(1);
    expect(metricValue(counts, 'script_match')).toBe(66.67);
    expect(metricValue(NO_COUNTS, 'score')).toBeNull();
    expect(metricValue(NO_COUNTS, 'conversion_rate')).toBeNull();
  });

  it('averages activities over the units that had any; zeros with none', () => {
    expect(periodMetrics([counts, { ...NO_COUNTS, activities: 1 }, NO_COUNTS])).toEqual({ conversionRate: 25, avgActivitiesPerRep: 2, avgDuration: 150, successScore: 6.5 });
    expect(periodMetrics([])).toEqual({ conversionRate: 0, avgActivitiesPerRep: 0, avgDuration: 0, successScore: 0 });
  });

  it('rates a criterion over the subset asked for', () => {
    const verdicts = { passed: 3, failed: 1, passedSuccessful: 2, failedSuccessful: 0, passedUnsuccessful: 0, failedUnsuccessful: 1 };
    expect(passRate(verdicts, 'all')).toBe(75);
    expect(passRate(verdicts, 'successful')).toBe(100);
    expect(passRate(verdicts, 'unsuccessful')).toBe(0);
    expect(passRate({ ...verdicts, passedSuccessful: 0 }, 'successful')).toBeNull();
  });
});
