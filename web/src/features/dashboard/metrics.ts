/**
 * What the dashboard and the performance screen share: the metrics and their labels (spec part 2
 * §3 "Enumerations", §9 "Metric labels"), the groupings, and the router state the dashboard's
 * 'View Full' links hand to /dashboard/performance (§2.9, §2.10).
 */

import type { ActivityType } from '../../components/activity-tabs';

export type { ActivityType };

export const METRICS = ['score', 'conversion_rate', 'total_calls', 'total_meetings', 'successful', 'unsuccessful', 'script_match'] as const;
export type MetricId = (typeof METRICS)[number];

/** §9: Avg Quality Score, Conversion Rate, Total Calls or Total Meetings, Successful and Unsuccessful, Script Match Rate. */
export const METRIC_LABELS: Record<MetricId, string> = {
  score: 'Avg Quality Score',
  conversion_rate: 'Conversion Rate',
  total_calls: 'Total Calls',
  total_meetings: 'Total Meetings',
  successful: 'Successful',
  unsuccessful: 'Unsuccessful',
  script_match: 'Script Match Rate',
};

/** The total metric of an activity type: Total Calls on the Calls tab, Total Meetings on the Meetings tab. */
export const totalMetricOf = (activityType: ActivityType): MetricId => (activityType === 'meetings' ? 'total_meetings' : 'total_calls');

/** The metrics a tab offers: the other tab's total is left out. */
export const metricsOf = (activityType: ActivityType): MetricId[] => METRICS.filter((metric) => metric !== totalMetricOf(activityType === 'calls' ? 'meetings' : 'calls'));

export type TimeGrouping = 'day' | 'week' | 'month';
export type Grouping = TimeGrouping | 'parameter';

export const TIME_GROUPINGS: readonly { id: TimeGrouping; label: string }[] = [
  { id: 'day', label: 'Day' },
  { id: 'week', label: 'Week' },
  { id: 'month', label: 'Month' },
];

/** §2.10 period presets, as a filter group's `dateRangeType`. */
export const PERIOD_PRESETS = [
  'custom',
  'today',
  'yesterday',
  'this-week',
  'this-month',
  'this-quarter',
  'this-year',
  'last-week',
  'last-month',
  'last-quarter',
  'last-year',
  'same-month-last-year',
  'same-quarter-last-year',
] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

export type DashboardMode = 'team' | 'representative';

/** What a 'View Full' link on the dashboard passes to /dashboard/performance as router state. */
export interface PerformanceRouteState {
  metric: MetricId;
  groupBy: TimeGrouping;
  activityType: ActivityType;
  initialFilter: {
    mode: DashboardMode;
    teamIds: string[];
    representatives: string[];
    /** A preset, or 'custom' with the days below. */
    dateRangeType: PeriodPreset;
    /** YYYY-MM-DD, local; absent when the dashboard's range was open. */
    fromDate?: string;
    toDate?: string;
  };
}

/** The browser's time zone, which the dashboard calls count days in (spec part 2 §7). */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
