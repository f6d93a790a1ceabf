/**
 * The four KPI cards of the dashboard (spec part 2 §2.9): their labels, values, and the change
 * against the period before ('vs last period'), which is 0 when the previous value is 0 (§9).
 */
import type { GetDashboardMetricsApiResponse } from '../../lib/api/gateway-api.generated';
import { formatAverage, formatAverageScore, formatDuration, formatRate, isNumber } from './format';
import type { ActivityType, DashboardMode } from './metrics';

export type Trend = 'up' | 'down' | 'flat';

/** (current − previous) ÷ previous × 100; 0 when the previous value is 0 or either is missing. */
export function percentChange(current: number | null | undefined, previous: number | null | undefined): number {
  if (!isNumber(current) || !isNumber(previous) || previous === 0) return 0;
  return ((current - previous) / Math.abs(previous)) * 100;
}

/**
 * Which way a value moved. It reads the values themselves, so a rise from 0 is still 'up' though
 * its percent change shows 0.
 */
export function trendOf(current: number | null | undefined, previous: number | null | undefined): Trend {
  const now = isNumber(current) ? current : 0;
  const before = isNumber(previous) ? previous : 0;
  if (now > before) return 'up';
  if (now < before) return 'down';
  return 'flat';
}

const signed = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, signDisplay: 'exceptZero' });

/** '+12.5%', '-3%', '0%'. */
export function formatChange(change: number): string {
  const rounded = Math.round(change * 10) / 10;
  return `${signed.format(Number.isFinite(rounded) && rounded !== 0 ? rounded : 0)}%`;
}

/** What a trend is called for a screen reader (the arrow and colour repeat it for the eye). */
export const TREND_TEXT: Record<Trend, string> = { up: 'Up', down: 'Down', flat: 'No change' };

export type KpiId = 'conversionRate' | 'avgActivitiesPerRep' | 'avgDuration' | 'successScore';

export interface KpiCard {
  id: KpiId;
  label: string;
  /** The value shown, '—' without data. */
  value: string;
  /** '+12.5% vs last period'; null without data. */
  change: string | null;
  trend: Trend;
}

export const VS_LAST_PERIOD = 'vs last period';

/** 'Avg Calls per Team', 'Avg Meetings per Representative'. */
export const averageActivitiesLabel = (activityType: ActivityType, mode: DashboardMode): string =>
  `Avg ${activityType === 'meetings' ? 'Meetings' : 'Calls'} per ${mode === 'team' ? 'Team' : 'Representative'}`;

/** 'Avg Call Duration' or 'Avg Meeting Duration'. */
export const averageDurationLabel = (activityType: ActivityType): string => `Avg ${activityType === 'meetings' ? 'Meeting' : 'Call'} Duration`;

const LABELS = (activityType: ActivityType, mode: DashboardMode): Record<KpiId, string> => ({
  conversionRate: 'Conversion Rate',
  avgActivitiesPerRep: averageActivitiesLabel(activityType, mode),
  avgDuration: averageDurationLabel(activityType),
  successScore: 'Success Score',
});

const KPI_IDS: readonly KpiId[] = ['conversionRate', 'avgActivitiesPerRep', 'avgDuration', 'successScore'];

function formatKpi(id: KpiId, value: number, activityType: ActivityType): string {
  switch (id) {
    case 'conversionRate':
      return formatRate(value);
    case 'avgActivitiesPerRep':
      return formatAverage(value);
    case 'avgDuration':
      return formatDuration(value, activityType);
    case 'successScore':
      return `${formatAverageScore(value)} / 10`;
  }
}

/** The four cards, in the spec's order; without metrics (loading, or a failed request) their values are '—'. */
export function kpiCards(metrics: GetDashboardMetricsApiResponse | undefined, activityType: ActivityType, mode: DashboardMode): KpiCard[] {
  const labels = LABELS(activityType, mode);
  return KPI_IDS.map((id) => {
    if (!metrics) return { id, label: labels[id], value: '—', change: null, trend: 'flat' };
    const current = metrics.current[id];
    const previous = metrics.previous[id];
    return {
      id,
      label: labels[id],
      value: formatKpi(id, current, activityType),
      change: `${formatChange(percentChange(current, previous))} ${VS_LAST_PERIOD}`,
      trend: trendOf(current, previous),
    };
  });
}
