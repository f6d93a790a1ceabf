/**
 * The dashboard's filters (spec part 2 §2.9) and what they ask of the API (§7 "Dashboard and
 * analytics"): the leaderboard, the metrics and three performance requests, all in the browser's
 * time zone, with the period as local days and left out while no period is chosen.
 */
import type {
  GetDashboardMetricsApiArg,
  GetLeaderboardApiArg,
  GetPerformanceApiArg,
} from '../../lib/api/gateway-api.generated';
import type { CompareOptions } from './compare-options';
import { totalMetricOf, type ActivityType, type DashboardMode, type MetricId, type PerformanceRouteState, type PeriodPreset, type TimeGrouping } from './metrics';

/** A chosen period: local days (YYYY-MM-DD), both counted, and the preset it came from. */
export interface DayRange {
  from: string;
  to: string;
  preset: PeriodPreset;
}

export interface DashboardFilters {
  mode: DashboardMode;
  /** Team ids (team mode) or representatives' e-mails (representative mode); none compares the whole department. */
  compared: string[];
  groupBy: TimeGrouping;
  /** Undefined at first: no default period (§2.9). */
  range: DayRange | undefined;
}

export const INITIAL_FILTERS: DashboardFilters = { mode: 'team', compared: [], groupBy: 'day', range: undefined };

export type FiltersEvent =
  | { type: 'modeChanged'; mode: DashboardMode }
  | { type: 'compareToggled'; id: string }
  | { type: 'allCompared'; ids: string[] }
  | { type: 'compareCleared' }
  | { type: 'groupingChanged'; groupBy: TimeGrouping }
  | { type: 'rangeChosen'; range: DayRange }
  | { type: 'filtersCleared' };

export function filtersReducer(state: DashboardFilters, event: FiltersEvent): DashboardFilters {
  switch (event.type) {
    case 'modeChanged':
      // Teams and representatives are different things to compare: a new mode starts afresh.
      return event.mode === state.mode ? state : { ...state, mode: event.mode, compared: [] };
    case 'compareToggled':
      return {
        ...state,
        compared: state.compared.includes(event.id) ? state.compared.filter((id) => id !== event.id) : [...state.compared, event.id],
      };
    case 'allCompared':
      return { ...state, compared: [...new Set(event.ids)] };
    case 'compareCleared':
      return state.compared.length === 0 ? state : { ...state, compared: [] };
    case 'groupingChanged':
      return { ...state, groupBy: event.groupBy };
    case 'rangeChosen':
      return { ...state, range: event.range };
    case 'filtersCleared':
      return INITIAL_FILTERS;
  }
}

/** What is compared, as the API takes it. */
export interface Scope {
  teamIds: string[];
  representatives: string[];
}

/** Team mode: the teams chosen. Representative mode: the representatives chosen and the teams they belong to (§7). */
export function scopeOf(filters: DashboardFilters, options: CompareOptions): Scope {
  if (filters.mode === 'team') return { teamIds: filters.compared, representatives: [] };
  const chosen = options.representatives.filter((representative) => filters.compared.includes(representative.email));
  return { teamIds: [...new Set(chosen.flatMap((representative) => representative.teamIds))], representatives: filters.compared };
}

/** What every dashboard request carries besides the filters. */
export interface RequestContext {
  activityType: ActivityType;
  department: string;
  timezone: string;
  companyId?: string;
}

// An empty list is left out, not sent empty: none means the whole department to the API.
const listOf = (values: readonly string[]) => (values.length > 0 ? [...values] : undefined);
const periodOf = (range: DayRange | undefined) => (range ? { from: range.from, to: range.to } : {});

/** GET /dashboard/leaderboard: companyId, teamIds, from, to, activityType (§7). */
export function leaderboardArgs(filters: DashboardFilters, scope: Scope, context: RequestContext): GetLeaderboardApiArg {
  return {
    activityType: context.activityType,
    department: context.department,
    teamIds: listOf(scope.teamIds),
    timezone: context.timezone,
    ...(context.companyId ? { companyId: context.companyId } : {}),
    ...periodOf(filters.range),
  };
}

/** GET /dashboard/metrics: teamIds in team mode; representatives and the teamIds of their teams in representative mode. */
export function metricsArgs(filters: DashboardFilters, scope: Scope, context: RequestContext): GetDashboardMetricsApiArg {
  return {
    activityType: context.activityType,
    department: context.department,
    mode: filters.mode,
    teamIds: listOf(scope.teamIds),
    representatives: listOf(scope.representatives),
    timezone: context.timezone,
    ...periodOf(filters.range),
  };
}

/** The dashboard's three performance charts. */
export type DashboardChart = 'score' | 'criteria' | 'totals';

/** The metric a chart shows: the score, or the tab's total (the criteria chart's pass rate is over all of them). */
export const chartMetric = (chart: DashboardChart, activityType: ActivityType): MetricId => (chart === 'score' ? 'score' : totalMetricOf(activityType));

/** GET /dashboard/performance: score by the grouping, totals by parameter (criteria), totals by the grouping. */
export function performanceArgs(chart: DashboardChart, filters: DashboardFilters, scope: Scope, context: RequestContext): GetPerformanceApiArg {
  return {
    activityType: context.activityType,
    department: context.department,
    mode: filters.mode,
    groupBy: chart === 'criteria' ? 'parameter' : filters.groupBy,
    metrics: chartMetric(chart, context.activityType),
    teamIds: listOf(scope.teamIds),
    representatives: listOf(scope.representatives),
    timezone: context.timezone,
    ...periodOf(filters.range),
  };
}

/**
 * What a 'View Full' link hands to /dashboard/performance. The performance screen gets what the
 * dashboard shows: with nothing chosen, every team (and in representative mode every
 * representative) of the department, rather than an empty selection.
 */
export function performanceRouteState(
  metric: MetricId,
  filters: DashboardFilters,
  activityType: ActivityType,
  options: CompareOptions,
): PerformanceRouteState {
  const scope = scopeOf(filters, options);
  const everyTeam = options.teams.map((team) => team.id);
  const representatives =
    filters.mode === 'team' ? [] : scope.representatives.length > 0 ? scope.representatives : options.representatives.map((representative) => representative.email);
  const { range } = filters;
  return {
    metric,
    groupBy: filters.groupBy,
    activityType,
    initialFilter: {
      mode: filters.mode,
      teamIds: scope.teamIds.length > 0 ? scope.teamIds : everyTeam,
      representatives,
      // With no period chosen the dashboard counts all time; the performance screen needs a period
      // and starts on its default, This Quarter (spec part 2 §4, §9).
      ...(range ? { dateRangeType: range.preset, fromDate: range.from, toDate: range.to } : { dateRangeType: 'this-quarter' as const }),
    },
  };
}

/** A local day as YYYY-MM-DD. */
export function localDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** YYYY-MM-DD as that local day's midnight; null when it is not such a day. */
export function parseLocalDay(day: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return date.getDate() === Number(match[3]) ? date : null;
}
