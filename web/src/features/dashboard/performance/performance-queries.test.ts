import { describe, expect, it } from 'vitest';
import { browserTimeZone } from '../metrics';
import type { FilterGroup } from './filter-groups';
import { analyticsArg, criteriaMetricOf, DEFAULT_SETTINGS, metricsFor, recommendationsArg, settingsFromRouteState } from './performance-queries';

const group = (overrides: Partial<FilterGroup> = {}): FilterGroup => ({
  id: 'g-1',
  name: 'Group 1',
  selectedMode: 'team',
  selectedTeams: ['team-1'],
  selectedMembers: [],
  dateRangeType: 'this-quarter',
  fromDate: '2025-07-01',
  toDate: '2025-09-30',
  ...overrides,
});

describe('performance settings from router state', () => {
  it('starts from the §4 defaults without state, or with state it cannot read', () => {
    expect(settingsFromRouteState(undefined)).toEqual({ activityType: 'calls', groupBy: 'day', metrics: ['score'] });
    expect(settingsFromRouteState('nonsense')).toEqual(DEFAULT_SETTINGS);
    expect(settingsFromRouteState({ metric: 'speed', groupBy: 'year', activityType: 'emails' })).toEqual(DEFAULT_SETTINGS);
  });

  it('takes the metric, grouping, tab and filter a View Full link passes', () => {
    expect(
      settingsFromRouteState({
        metric: 'conversion_rate',
        groupBy: 'month',
        activityType: 'meetings',
        initialFilter: { mode: 'members', teamIds: ['t1', 3, ''], representatives: ['a@example.com'], dateRangeType: 'last-week' },
      }),
    ).toEqual({
      activityType: 'meetings',
      groupBy: 'month',
      metrics: ['conversion_rate'],
      initialFilter: { mode: 'representative', teamIds: ['t1'], representatives: ['a@example.com'], dateRangeType: 'last-week', fromDate: undefined, toDate: undefined },
    });
  });

  it('reads a total for the tab it opens on, and an unknown period as this quarter', () => {
    const settings = settingsFromRouteState({ metric: 'total_meetings', activityType: 'calls', initialFilter: { mode: 'team', dateRangeType: 'fortnight' } });
    expect(settings.metrics).toEqual(['total_calls']);
    expect(settings.initialFilter).toMatchObject({ mode: 'team', teamIds: [], representatives: [], dateRangeType: 'this-quarter' });
  });
});

describe('performance queries', () => {
  it('keeps the tab’s metrics in its order and swaps the other tab’s total for its own', () => {
    expect(metricsFor(['script_match', 'total_calls', 'score'], 'meetings')).toEqual(['score', 'total_meetings', 'script_match']);
    expect(criteriaMetricOf('total', 'meetings')).toBe('total_meetings');
    expect(criteriaMetricOf('total', 'calls')).toBe('total_calls');
    expect(criteriaMetricOf('unsuccessful', 'calls')).toBe('unsuccessful');
  });

  it('asks for a group’s teams, representatives and days in order, in the browser’s zone', () => {
    expect(analyticsArg(group({ selectedMembers: ['a@example.com'], dateRangeType: 'custom', fromDate: '2025-03-31', toDate: '2025-03-01' }), { activityType: 'calls', groupBy: 'week', metrics: ['score', 'script_match'] })).toEqual({
      mode: 'team',
      teamIds: ['team-1'],
      representatives: ['a@example.com'],
      from: '2025-03-01',
      to: '2025-03-31',
      groupBy: 'week',
      metrics: ['score', 'script_match'],
      activityType: 'calls',
      timezone: browserTimeZone(),
    });
  });

  it('leaves out open ends and an empty representative list, and asks nothing for a group without a team', () => {
    const arg = analyticsArg(group({ dateRangeType: 'custom', fromDate: '', toDate: '2025-03-01' }), { activityType: 'meetings', groupBy: 'parameter', metrics: ['successful'] });
    expect(arg).not.toHaveProperty('from');
    expect(arg).not.toHaveProperty('representatives');
    expect(arg?.to).toBe('2025-03-01');
    expect(analyticsArg(group({ selectedTeams: [] }), { activityType: 'calls', groupBy: 'day', metrics: ['score'] })).toBeUndefined();
  });

  it('sends the groups with a team as §3 filter groups, a blank name as Group n', () => {
    const arg = recommendationsArg([group({ name: ' ' }), group({ id: 'g-2', selectedTeams: [] }), group({ id: 'g-3', name: 'Seniors', selectedMode: 'representative', selectedMembers: ['a@example.com'] })], 'meetings');
    expect(arg?.activityType).toBe('meetings');
    expect(arg?.timezone).toBe(browserTimeZone());
    expect(JSON.parse(arg!.filterGroups)).toEqual([
      { id: 'g-1', name: 'Group 1', selectedMode: 'team', selectedTeams: ['team-1'], selectedMembers: [], dateRangeType: 'this-quarter', fromDate: '2025-07-01', toDate: '2025-09-30' },
      { id: 'g-3', name: 'Seniors', selectedMode: 'representative', selectedTeams: ['team-1'], selectedMembers: ['a@example.com'], dateRangeType: 'this-quarter', fromDate: '2025-07-01', toDate: '2025-09-30' },
    ]);
    expect(recommendationsArg([group({ selectedTeams: [] })], 'calls')).toBeUndefined();
  });
});
