import { describe, expect, it } from 'vitest';
import type { CompareOptions } from './compare-options';
import {
  filtersReducer,
  INITIAL_FILTERS,
  leaderboardArgs,
  localDay,
  metricsArgs,
  parseLocalDay,
  performanceArgs,
  performanceRouteState,
  scopeOf,
  type DashboardFilters,
  type RequestContext,
} from './dashboard-filters';

const options: CompareOptions = {
  teams: [
    { id: 'team-1', name: 'Inbound sales' },
    { id: 'team-2', name: 'Outbound sales' },
  ],
  representatives: [
    { email: 'ada@example.com', name: 'Ada Lovelace', teamIds: ['team-1'] },
    { email: 'alan@example.com', name: 'Alan Turing', teamIds: ['team-1', 'team-2'] },
    { email: 'grace@example.com', name: 'Grace Hopper', teamIds: ['team-2'] },
  ],
};

const context: RequestContext = { activityType: 'calls', department: 'sales', timezone: 'Europe/Kyiv', companyId: 'c-1' };
const march = { from: '2025-03-01', to: '2025-03-31', preset: 'this-month' } as const;
const filters = (overrides: Partial<DashboardFilters> = {}): DashboardFilters => ({ ...INITIAL_FILTERS, ...overrides });

describe('dashboard filters', () => {
  it('start in team mode, grouped by day, comparing the whole department over no period', () => {
    expect(INITIAL_FILTERS).toEqual({ mode: 'team', compared: [], groupBy: 'day', range: undefined });
  });

  it('clear what is compared when the mode changes, and only then', () => {
    const teams = filters({ compared: ['team-1'] });
    expect(filtersReducer(teams, { type: 'modeChanged', mode: 'representative' })).toEqual(filters({ mode: 'representative', compared: [] }));
    expect(filtersReducer(teams, { type: 'modeChanged', mode: 'team' })).toBe(teams);
  });

  it('toggle, select all and clear the compared entries', () => {
    let state = filtersReducer(INITIAL_FILTERS, { type: 'compareToggled', id: 'team-1' });
    expect(state.compared).toEqual(['team-1']);
    state = filtersReducer(state, { type: 'compareToggled', id: 'team-1' });
    expect(state.compared).toEqual([]);
    state = filtersReducer(state, { type: 'allCompared', ids: ['team-1', 'team-2', 'team-1'] });
    expect(state.compared).toEqual(['team-1', 'team-2']);
    state = filtersReducer(state, { type: 'compareCleared' });
    expect(state.compared).toEqual([]);
  });

  it('go back to the start on Clear filters', () => {
    const busy = filters({ mode: 'representative', compared: ['ada@example.com'], groupBy: 'month', range: march });
    expect(filtersReducer(busy, { type: 'filtersCleared' })).toEqual(INITIAL_FILTERS);
    expect(filtersReducer(INITIAL_FILTERS, { type: 'groupingChanged', groupBy: 'week' }).groupBy).toBe('week');
    expect(filtersReducer(INITIAL_FILTERS, { type: 'rangeChosen', range: march }).range).toEqual(march);
  });
});

describe('scope', () => {
  it('is the chosen teams in team mode', () => {
    expect(scopeOf(filters({ compared: ['team-2'] }), options)).toEqual({ teamIds: ['team-2'], representatives: [] });
  });

  it('is the chosen representatives and the teams they belong to in representative mode', () => {
    expect(scopeOf(filters({ mode: 'representative', compared: ['ada@example.com', 'alan@example.com'] }), options)).toEqual({
      teamIds: ['team-1', 'team-2'],
      representatives: ['ada@example.com', 'alan@example.com'],
    });
  });
});

describe('request parameters', () => {
  it('leave out an empty selection and an open period, and always carry the time zone and department', () => {
    const scope = scopeOf(INITIAL_FILTERS, options);
    expect(leaderboardArgs(INITIAL_FILTERS, scope, context)).toEqual({ activityType: 'calls', department: 'sales', teamIds: undefined, timezone: 'Europe/Kyiv', companyId: 'c-1' });
    expect(metricsArgs(INITIAL_FILTERS, scope, context)).toEqual({
      activityType: 'calls',
      department: 'sales',
      mode: 'team',
      teamIds: undefined,
      representatives: undefined,
      timezone: 'Europe/Kyiv',
    });
  });

  it('send the period as local days', () => {
    const chosen = filters({ compared: ['team-1'], range: march });
    expect(metricsArgs(chosen, scopeOf(chosen, options), context)).toMatchObject({ teamIds: ['team-1'], from: '2025-03-01', to: '2025-03-31' });
    expect(leaderboardArgs(chosen, scopeOf(chosen, options), context)).toMatchObject({ teamIds: ['team-1'], from: '2025-03-01', to: '2025-03-31' });
  });

  it('ask for the score by the grouping, the criteria by parameter and the totals by the grouping', () => {
    const chosen = filters({ mode: 'representative', compared: ['grace@example.com'], groupBy: 'week' });
    const scope = scopeOf(chosen, options);
    const meetings = { ...context, activityType: 'meetings' as const };
    expect(performanceArgs('score', chosen, scope, meetings)).toMatchObject({
      mode: 'representative',
      groupBy: 'week',
      metrics: 'score',
      teamIds: ['team-2'],
      representatives: ['grace@example.com'],
      activityType: 'meetings',
      timezone: 'Europe/Kyiv',
    });
    expect(performanceArgs('criteria', chosen, scope, meetings)).toMatchObject({ groupBy: 'parameter', metrics: 'total_meetings' });
    expect(performanceArgs('totals', chosen, scope, meetings)).toMatchObject({ groupBy: 'week', metrics: 'total_meetings' });
    expect(performanceArgs('totals', chosen, scope, context)).toMatchObject({ metrics: 'total_calls' });
  });
});

describe('View Full router state', () => {
  it('carries the metric, grouping, tab, mode, compared teams and the period', () => {
    const chosen = filters({ compared: ['team-2'], groupBy: 'month', range: march });
    expect(performanceRouteState('score', chosen, 'calls', options)).toEqual({
      metric: 'score',
      groupBy: 'month',
      activityType: 'calls',
      initialFilter: { mode: 'team', teamIds: ['team-2'], representatives: [], dateRangeType: 'this-month', fromDate: '2025-03-01', toDate: '2025-03-31' },
    });
  });

  it('hands over every team of the department when none is chosen, and, for an open period, the performance screen’s default This Quarter', () => {
    expect(performanceRouteState('total_calls', INITIAL_FILTERS, 'calls', options).initialFilter).toEqual({
      mode: 'team',
      teamIds: ['team-1', 'team-2'],
      representatives: [],
      dateRangeType: 'this-quarter',
    });
  });

  it('hands over the chosen representatives and their teams, or everyone when none is chosen', () => {
    const chosen = filters({ mode: 'representative', compared: ['ada@example.com'] });
    expect(performanceRouteState('score', chosen, 'meetings', options).initialFilter).toMatchObject({
      mode: 'representative',
      teamIds: ['team-1'],
      representatives: ['ada@example.com'],
    });
    expect(performanceRouteState('score', filters({ mode: 'representative' }), 'calls', options).initialFilter).toMatchObject({
      teamIds: ['team-1', 'team-2'],
      representatives: ['ada@example.com', 'alan@example.com', 'grace@example.com'],
    });
  });
});

describe('local days', () => {
  it('write and read YYYY-MM-DD in local time', () => {
    expect(localDay(new Date(2025, 2, 9, 23, 59))).toBe('2025-03-09');
    expect(parseLocalDay('2025-03-09')).toEqual(new Date(2025, 2, 9));
    expect(parseLocalDay('2025-02-30')).toBeNull();
    expect(parseLocalDay('March 9')).toBeNull();
  });
});
