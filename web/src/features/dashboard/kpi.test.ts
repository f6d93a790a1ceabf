import { describe, expect, it } from 'vitest';
import type { GetDashboardMetricsApiResponse } from '../../lib/api/gateway-api.generated';
import { formatChange, kpiCards, percentChange, trendOf } from './kpi';

const metrics = (current: Partial<GetDashboardMetricsApiResponse['current']>, previous: Partial<GetDashboardMetricsApiResponse['previous']>) => ({
  current: { conversionRate: 0, avgActivitiesPerRep: 0, avgDuration: 0, successScore: 0, ...current },
  previous: { conversionRate: 0, avgActivitiesPerRep: 0, avgDuration: 0, successScore: 0, ...previous },
  currentPeriod: { from: '2025-03-01', to: '2025-03-31' },
  previousPeriod: { from: '2025-01-29', to: '2025-02-28' },
});

describe('percent change', () => {
  it('is the change against the previous value, in percent', () => {
    expect(percentChange(110, 100)).toBeCloseTo(10);
    expect(percentChange(75, 100)).toBeCloseTo(-25);
    expect(percentChange(3, 2)).toBeCloseTo(50);
  });

  it('is 0 when the previous value is 0 or a value is missing', () => {
    expect(percentChange(5, 0)).toBe(0);
    expect(percentChange(0, 0)).toBe(0);
    expect(percentChange(null, 4)).toBe(0);
    expect(percentChange(4, undefined)).toBe(0);
  });

  it('keeps its sign when the previous value is negative', () => {
    expect(percentChange(-1, -2)).toBeCloseTo(50);
  });
});

describe('trend', () => {
  it('goes up, down or stays flat with the values, a rise from 0 included', () => {
    expect(trendOf(2, 1)).toBe('up');
    expect(trendOf(1, 2)).toBe('down');
    expect(trendOf(2, 2)).toBe('flat');
    expect(trendOf(5, 0)).toBe('up');
    expect(trendOf(null, null)).toBe('flat');
  });
});

describe('change text', () => {
  it('is signed, with at most one decimal, and 0% without a sign', () => {
    expect(formatChange(12.46)).toBe('+12.5%');
    expect(formatChange(-3)).toBe('-3%');
    expect(formatChange(0)).toBe('0%');
    expect(formatChange(0.04)).toBe('0%');
    expect(formatChange(-0.04)).toBe('0%');
    expect(formatChange(1234.5)).toBe('+1,234.5%');
  });
});

describe('KPI cards', () => {
  it('labels, formats and compares the four figures of a calls period in team mode', () => {
    const cards = kpiCards(metrics({ conversionRate: 45, avgActivitiesPerRep: 12.5, avgDuration: 125, successScore: 7.4 }, { conversionRate: 40, avgActivitiesPerRep: 10, avgDuration: 125, successScore: 8 }), 'calls', 'team');
    expect(cards).toEqual([
      { id: 'conversionRate', label: 'Conversion Rate', value: '45.0%', change: '+12.5% vs last period', trend: 'up' },
      { id: 'avgActivitiesPerRep', label: 'Avg Calls per Team', value: '12.5', change: '+25% vs last period', trend: 'up' },
      { id: 'avgDuration', label: 'Avg Call Duration', value: '2:05', change: '0% vs last period', trend: 'flat' },
      { id: 'successScore', label: 'Success Score', value: '7.4 / 10', change: '-7.5% vs last period', trend: 'down' },
    ]);
  });

  it('names the average per representative and writes meeting durations in h/m/s', () => {
    const cards = kpiCards(metrics({ avgDuration: 3725, avgActivitiesPerRep: 3 }, {}), 'meetings', 'representative');
    expect(cards.map((card) => card.label)).toEqual(['Conversion Rate', 'Avg Meetings per Representative', 'Avg Meeting Duration', 'Success Score']);
    expect(cards[2]!.value).toBe('1h 2m 5s');
    // Nothing before: the change shows 0, the trend still says it rose.
    expect(cards[1]).toMatchObject({ change: '0% vs last period', trend: 'up' });
  });

  it('shows no values and no change without metrics', () => {
    const cards = kpiCards(undefined, 'calls', 'team');
    expect(cards.map((card) => [card.value, card.change])).toEqual([
      ['—', null],
      ['—', null],
      ['—', null],
      ['—', null],
    ]);
  });
});
