import { describe, expect, it } from 'vitest';
import { seededRandom } from '@parlance/platform/testing/seeded-random';
import { CURRENT_QUARTER_SHARE, demoMoment, demoPeriod } from './demo-calendar.js';

const moments = (now: Date, count = 4_000) => {
  const period = demoPeriod(now);
  const random = seededRandom(7);
  return { period, dates: Array.from({ length: count }, () => demoMoment(period, random)) };
};

describe('demo calendar', () => {
  it('spans the previous quarter and the current one up to now', () => {
    const { period } = moments(new Date('2026-11-23T10:00:00Z'), 0);
    expect(period.previousQuarterStart.toISOString()).toBe('2026-07-01T00:00:00.000Z');
    expect(period.currentQuarterStart.toISOString()).toBe('2026-10-01T00:00:00.000Z');
    expect(demoPeriod(new Date('2026-02-10T00:00:00Z')).previousQuarterStart.toISOString()).toBe('2025-10-01T00:00:00.000Z');
  });

  it('never dates a conversation in the future or before the previous quarter', () => {
    const now = new Date('2026-11-23T10:00:00Z');
    const { period, dates } = moments(now);
    for (const date of dates) {
      expect(date.getTime()).toBeLessThan(now.getTime());
      expect(date.getTime()).toBeGreaterThanOrEqual(period.previousQuarterStart.getTime());
    }
  });

  it('puts its share in the current quarter, on working days and hours', () => {
    const { period, dates } = moments(new Date('2026-11-23T10:00:00Z'));
    const current = dates.filter((date) => date >= period.currentQuarterStart).length / dates.length;
    expect(current).toBeCloseTo(CURRENT_QUARTER_SHARE, 1);
    const weekend = dates.filter((date) => date.getUTCDay() === 0 || date.getUTCDay() === 6).length;
    expect(weekend).toBe(0);
    expect(dates.every((date) => date.getUTCHours() >= 8 && date.getUTCHours() < 18)).toBe(true);
  });

  it('still fills the current quarter on its very first morning', () => {
    const now = new Date('2027-01-01T06:30:00Z');
    const { period, dates } = moments(now);
    const current = dates.filter((date) => date >= period.currentQuarterStart);
    expect(current.length / dates.length).toBeCloseTo(CURRENT_QUARTER_SHARE, 1);
    expect(current.every((date) => date < now)).toBe(true);
  });
});
