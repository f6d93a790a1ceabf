/**
 * Highcharts options for the dashboard's charts, from the API's labels and datasets (spec part 2
 * §3 "Performance response", §9): score charts 0–10, the criteria chart 0–100 %, bars at most 40
 * px wide. Each series keeps the colour the API gave it from its 16-colour palette.
 */
import type { Options, PointOptionsObject, SeriesColumnOptions, SeriesLineOptions } from 'highcharts';
import type { GetPerformanceApiResponse } from '../../lib/api/gateway-api.generated';
import { activityTitle } from './format';
import type { ActivityType, Grouping } from './metrics';

export type PerformanceData = GetPerformanceApiResponse;
type Dataset = PerformanceData['datasets'][number];

export const SCORE_MAX = 10;
export const CRITERIA_MAX = 100;
export const BAR_SIZE = 40;

/** Whether there is anything to draw: some label and some value. */
export const hasChartData = (data: PerformanceData | undefined): data is PerformanceData =>
  !!data && data.labels.length > 0 && data.datasets.some((dataset) => dataset.data.some((value) => value !== null));

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;
const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const monthDayYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const monthYear = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric' });

/**
 * The axis labels of a time grouping: days and Mondays as 'Mar 3' ('Mar 3, 2025' when the labels
 * span more than one year), months as 'Mar 2025'. Anything else (criterion names) is kept.
 */
export function axisLabels(labels: readonly string[]): string[] {
  const years = new Set(labels.map((label) => DAY.exec(label)?.[1]).filter(Boolean));
  const days = years.size > 1 ? monthDayYear : monthDay;
  return labels.map((label) => {
    const day = DAY.exec(label);
    if (day) return days.format(new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
    const month = MONTH.exec(label);
    if (month) return monthYear.format(new Date(Number(month[1]), Number(month[2]) - 1, 1));
    return label;
  });
}

const GROUPING_TITLES: Record<Grouping, string> = { day: 'Day', week: 'Week (starting Monday)', month: 'Month', parameter: 'Criterion' };

/** The series of a dataset; values the API has none for (null) stay gaps. */
function seriesOf<T extends 'line' | 'column'>(type: T, dataset: Dataset) {
  return { type, name: dataset.label, data: [...dataset.data], ...(dataset.color ? { color: dataset.color } : {}) };
}

// What every dashboard chart shares: no title inside the chart (its card has the heading), a
// legend under it, and a tooltip listing every series of the hovered label.
const base = (categories: string[], xTitle: string): Options => ({
  title: { text: undefined },
  xAxis: { categories, title: { text: xTitle } },
  legend: { enabled: true },
  tooltip: { shared: true },
});

/** 'Avg Success Score': a line per team or representative, 0–10, by day, week or month. */
export function scoreTrendOptions(data: PerformanceData, grouping: Grouping): Options {
  return {
    ...base(axisLabels(data.labels), GROUPING_TITLES[grouping]),
    chart: { type: 'line' },
    yAxis: { min: 0, max: SCORE_MAX, tickInterval: 2, title: { text: 'Score' } },
    tooltip: { shared: true, valueDecimals: 1 },
    plotOptions: { line: { marker: { enabled: true } } },
    series: data.datasets.map((dataset): SeriesLineOptions => seriesOf('line', dataset)),
  };
}

/** 'Criteria Comparison': the pass rate of each criterion (0–100 %), a bar per team or representative. */
export function criteriaOptions(data: PerformanceData): Options {
  return {
    ...base(data.labels, GROUPING_TITLES.parameter),
    chart: { type: 'column' },
    yAxis: { min: 0, max: CRITERIA_MAX, title: { text: 'Pass rate' }, labels: { format: '{value}%' } },
    tooltip: { shared: true, valueDecimals: 1, valueSuffix: '%' },
    plotOptions: { column: { maxPointWidth: BAR_SIZE } },
    series: data.datasets.map((dataset): SeriesColumnOptions => seriesOf('column', dataset)),
  };
}

/** 'Calls Over Time' or 'Meetings Over Time': how many there were, by day, week or month. */
export function totalsOptions(data: PerformanceData, grouping: Grouping, activityType: ActivityType): Options {
  return {
    ...base(axisLabels(data.labels), GROUPING_TITLES[grouping]),
    chart: { type: 'column' },
    yAxis: { min: 0, allowDecimals: false, title: { text: activityTitle(activityType) } },
    plotOptions: { column: { maxPointWidth: BAR_SIZE } },
    series: data.datasets.map((dataset): SeriesColumnOptions => seriesOf('column', dataset)),
  };
}

/** A representative's weekly score (coaching view): one line, 0–10, the number of activities in the tooltip. */
export function weeklyScoreOptions(
  trend: readonly { week: string; averageScore: number | null; activities: number }[],
  name: string,
  activityType: ActivityType,
  color: string,
): Options {
  const data = trend.map((week): PointOptionsObject => ({ y: week.averageScore, custom: { activities: week.activities } }));
  return {
    ...base(axisLabels(trend.map((week) => week.week)), GROUPING_TITLES.week),
    chart: { type: 'line' },
    yAxis: { min: 0, max: SCORE_MAX, tickInterval: 2, title: { text: 'Score' } },
    legend: { enabled: false },
    tooltip: { valueDecimals: 1, pointFormat: `{series.name}: <b>{point.y:.1f}</b><br/>${activityTitle(activityType)}: {point.custom.activities}` },
    plotOptions: { line: { marker: { enabled: true } } },
    series: [{ type: 'line', name, color, data }],
  };
}
