/**
 * What the performance screen asks the API (spec part 2 §7 "Dashboard and analytics"): per filter
 * group, analytics by the chosen grouping and by parameter; the recommendations for all groups.
 * Also the screen's starting settings, read from the dashboard's 'View Full' router state (§2.10)
 * or the defaults of §4.
 */
import type { GetAnalyticsApiArg, GetRecommendationsApiArg } from '../../../lib/api/gateway-api.generated';
import {
  browserTimeZone,
  metricsOf,
  METRICS,
  TIME_GROUPINGS,
  totalMetricOf,
  type ActivityType,
  type DashboardMode,
  type MetricId,
  type TimeGrouping,
} from '../metrics';
import { groupLabel, type FilterGroup, type InitialFilter } from './filter-groups';
import { isPeriodPreset, orderedDays } from './period-presets';

/** The criteria chart's selector: successful, unsuccessful, or all activities of the tab. */
export type CriteriaBasis = 'successful' | 'unsuccessful' | 'total';

export interface PerformanceSettings {
  activityType: ActivityType;
  groupBy: TimeGrouping;
  metrics: MetricId[];
  initialFilter?: InitialFilter;
}

/** §4: calls, by day, the score. */
export const DEFAULT_SETTINGS: PerformanceSettings = { activityType: 'calls', groupBy: 'day', metrics: ['score'] };

/** §4: the criteria chart counts all activities until told otherwise. */
export const DEFAULT_CRITERIA_BASIS: CriteriaBasis = 'total';

const isMetric = (value: unknown): value is MetricId => typeof value === 'string' && (METRICS as readonly string[]).includes(value);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '') : []);
const dayOrNothing = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The same metric on the other tab: its total becomes that tab's total; others stay. */
export function metricFor(metric: MetricId, activityType: ActivityType): MetricId {
  return metric === 'total_calls' || metric === 'total_meetings' ? totalMetricOf(activityType) : metric;
}

/** The metrics a tab shows, in the order the tab lists them, without repeats. */
export function metricsFor(metrics: readonly MetricId[], activityType: ActivityType): MetricId[] {
  const wanted = new Set(metrics.map((metric) => metricFor(metric, activityType)));
  return metricsOf(activityType).filter((metric) => wanted.has(metric));
}

function initialFilterOf(value: unknown): InitialFilter | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const filter = value as Record<string, unknown>;
  const mode: DashboardMode = filter.mode === 'representative' || filter.mode === 'members' ? 'representative' : 'team';
  return {
    mode,
    teamIds: strings(filter.teamIds),
    representatives: strings(filter.representatives),
    dateRangeType: isPeriodPreset(filter.dateRangeType) ? filter.dateRangeType : 'this-quarter',
    fromDate: dayOrNothing(filter.fromDate),
    toDate: dayOrNothing(filter.toDate),
  };
}

/**
 * The screen's starting settings from the router state a 'View Full' link passes (metric,
 * groupBy, activityType, initialFilter); each part that is missing or unreadable takes its §4
 * default, so the screen opened directly starts from the defaults.
 */
export function settingsFromRouteState(state: unknown): PerformanceSettings {
  if (typeof state !== 'object' || state === null) return DEFAULT_SETTINGS;
  const given = state as Record<string, unknown>;
  const activityType: ActivityType = given.activityType === 'meetings' ? 'meetings' : 'calls';
  const groupBy = TIME_GROUPINGS.find((grouping) => grouping.id === given.groupBy)?.id ?? DEFAULT_SETTINGS.groupBy;
  const metrics = isMetric(given.metric) ? metricsFor([given.metric], activityType) : DEFAULT_SETTINGS.metrics;
  const initialFilter = initialFilterOf(given.initialFilter);
  return { activityType, groupBy, metrics: metrics.length > 0 ? metrics : DEFAULT_SETTINGS.metrics, ...(initialFilter ? { initialFilter } : {}) };
}

/** The metric the criteria chart asks for: successful, unsuccessful, or the tab's total. */
export const criteriaMetricOf = (basis: CriteriaBasis, activityType: ActivityType): MetricId => (basis === 'total' ? totalMetricOf(activityType) : basis);

/** A group's days as its period resolved them when chosen, in order ('' for an open end). */
const daysOf = (group: FilterGroup) => orderedDays({ fromDate: group.fromDate, toDate: group.toDate });

/** A group is asked about only once it has a team: with none, the API would count every team. */
export const isAskable = (group: FilterGroup): boolean => group.selectedTeams.length > 0;

/**
 * One analytics request of a group: its mode, teams, representatives and days, the tab, the
 * grouping and the metrics; undefined for a group without a team. Days are local, counted in the
 * browser's time zone.
 */
export function analyticsArg(
  group: FilterGroup,
  query: { activityType: ActivityType; groupBy: TimeGrouping | 'parameter'; metrics: readonly MetricId[] },
): GetAnalyticsApiArg | undefined {
  if (!isAskable(group)) return undefined;
  const { fromDate, toDate } = daysOf(group);
  return {
    mode: group.selectedMode,
    teamIds: group.selectedTeams,
    ...(group.selectedMembers.length > 0 ? { representatives: group.selectedMembers } : {}),
    ...(fromDate ? { from: fromDate } : {}),
    ...(toDate ? { to: toDate } : {}),
    groupBy: query.groupBy,
    metrics: [...query.metrics],
    activityType: query.activityType,
    timezone: browserTimeZone(),
  };
}

/**
 * The recommendations request: every group that has a team, as §3 filter groups with their
 * days resolved (JSON), the tab and the time zone; undefined when no group has a team.
 */
export function recommendationsArg(groups: readonly FilterGroup[], activityType: ActivityType): GetRecommendationsApiArg | undefined {
  const askable = groups.flatMap((group, index) => {
    if (!isAskable(group)) return [];
    const { fromDate, toDate } = daysOf(group);
    return [
      {
        id: group.id,
        name: groupLabel(group, index),
        selectedMode: group.selectedMode,
        selectedTeams: group.selectedTeams,
        selectedMembers: group.selectedMembers,
        dateRangeType: group.dateRangeType,
        fromDate,
        toDate,
      },
    ];
  });
  if (askable.length === 0) return undefined;
  return { filterGroups: JSON.stringify(askable), activityType, timezone: browserTimeZone() };
}
