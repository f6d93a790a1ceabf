/**
 * What the coaching view shows of GET /api/dashboard/representatives/{email}: the criteria a
 * representative fails most, each linked to those activities on the activity screen, and their
 * figures against the median of their teams.
 */
import type { GetCoachingApiResponse } from '../../../lib/api/gateway-api.generated';
import { formatAverageScore, formatCount, formatDuration, formatRate, isNumber } from '../format';
import { METRIC_LABELS, type ActivityType } from '../metrics';

export type Coaching = GetCoachingApiResponse;
export type FailedCriterion = Coaching['failedCriteria'][number];

/**
 * The activity screen pre-filtered on these activities: /activities?callId=a,b for calls,
 * ?meetingId= for meetings, as the activity screen reads its ids (comma-separated).
 */
export function activitiesLink(activityType: ActivityType, ids: readonly string[]): string {
  const param = activityType === 'meetings' ? 'meetingId' : 'callId';
  return `/activities?${param}=${ids.map(encodeURIComponent).join(',')}`;
}

export type Standing = 'above' | 'below' | 'equal' | 'unknown';

export const STANDING_TEXT: Record<Standing, string> = { above: 'Above median', below: 'Below median', equal: 'At median', unknown: '—' };

export interface StatisticRow {
  metric: string;
  label: string;
  value: string;
  teamMedian: string;
  standing: Standing;
}

const STATISTIC_ORDER = ['total_activities', 'conversion_rate', 'average_score', 'script_match', 'average_duration'];

function statisticLabel(metric: string, activityType: ActivityType): string {
  switch (metric) {
    case 'total_activities':
      return activityType === 'meetings' ? 'Total Meetings' : 'Total Calls';
    case 'conversion_rate':
      return METRIC_LABELS.conversion_rate;
    case 'average_score':
      return 'Average Score';
    case 'script_match':
      return METRIC_LABELS.script_match;
    case 'average_duration':
      return activityType === 'meetings' ? 'Average Meeting Duration' : 'Average Call Duration';
    default:
      // A figure this screen does not know yet is still shown, under its own name.
      return metric.replace(/_/g, ' ').replace(/^./, (first) => first.toUpperCase());
  }
}

function formatStatistic(metric: string, value: number | null, activityType: ActivityType): string {
  if (!isNumber(value)) return 'N/A';
  switch (metric) {
    case 'total_activities':
      return formatCount(value);
    case 'conversion_rate':
    case 'script_match':
      return formatRate(value);
    case 'average_score':
      return `${formatAverageScore(value)} / 10`;
    case 'average_duration':
      return formatDuration(value, activityType);
    default:
      return String(Math.round(value * 10) / 10);
  }
}

/** Where a value stands against the median; unknown when either is missing. */
export function standingOf(value: number | null, median: number | null): Standing {
  if (!isNumber(value) || !isNumber(median)) return 'unknown';
  if (value > median) return 'above';
  if (value < median) return 'below';
  return 'equal';
}

/** The statistics as table rows, in a fixed order (any unknown figure last), with labels and formatted values. */
export function statisticRows(statistics: Coaching['statistics'], activityType: ActivityType): StatisticRow[] {
  const rank = (metric: string) => {
    const index = STATISTIC_ORDER.indexOf(metric);
    return index === -1 ? STATISTIC_ORDER.length : index;
  };
  return [...statistics]
    .sort((a, b) => rank(a.metric) - rank(b.metric))
    .map((statistic) => ({
      metric: statistic.metric,
      label: statisticLabel(statistic.metric, activityType),
      value: formatStatistic(statistic.metric, statistic.value, activityType),
      teamMedian: formatStatistic(statistic.metric, statistic.teamMedian, activityType),
      standing: standingOf(statistic.value, statistic.teamMedian),
    }));
}

/** Whether the trend has any scored week to draw. */
export const hasScoredWeek = (trend: Coaching['trend']): boolean => trend.some((week) => isNumber(week.averageScore));
