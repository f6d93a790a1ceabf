/**
 * The two charts of the performance screen as Highcharts options, and their export file names
 * (spec part 2 §2.10, §9): pure functions of what the analytics calls answered.
 */
import type { DashStyleValue, Options, SeriesOptionsType } from 'highcharts';
import type { GetAnalyticsApiResponse } from '../../../lib/api/gateway-api.generated';
import { METRIC_LABELS, TIME_GROUPINGS, type MetricId, type TimeGrouping } from '../metrics';

/** What one filter group's analytics call gave: nothing yet (or nothing on error), or its rows. */
export type GroupAnalytics = { groupName: string; answer: GetAnalyticsApiResponse | undefined };

/** §9: score charts run 0–10, the criteria chart 0–100 %, its bars 40 px wide at most. */
export const SCORE_MAX = 10;
export const PERCENT_MAX = 100;
export const BAR_SIZE = 40;

const PERCENT_METRICS: ReadonlySet<string> = new Set<MetricId>(['conversion_rate', 'script_match']);
const COUNT_METRICS: ReadonlySet<string> = new Set<MetricId>(['total_calls', 'total_meetings', 'successful', 'unsuccessful']);

// The API colours series by team or representative, so one team in two groups gets one colour;
// each group after the first draws its lines in a dash pattern of its own.
const GROUP_DASHES: readonly DashStyleValue[] = ['Solid', 'ShortDash', 'ShortDot', 'DashDot', 'LongDash', 'Dot', 'LongDashDot', 'ShortDashDot'];

/** 'Avg Quality Score, Conversion Rate': the metrics' labels, as titles and file names use them. */
export const metricsTitle = (metrics: readonly MetricId[]): string => metrics.map((metric) => METRIC_LABELS[metric]).join(', ');

/** §2.10: the metrics chart's CSV is '{metrics} table'; Highcharts adds '.csv'. */
export const metricsCsvName = (metrics: readonly MetricId[]): string => `${metricsTitle(metrics)} table`;
/** §2.10: the metrics chart's PNG is '{metrics} chart.png'; Highcharts adds '.png'. */
export const metricsPngName = (metrics: readonly MetricId[]): string => `${metricsTitle(metrics)} chart`;
export const CRITERIA_CSV_NAME = 'criteria table';
export const CRITERIA_PNG_NAME = 'criteria chart';

/** A series name, led by its group's name when there is more than one group. */
const seriesName = (groups: readonly GroupAnalytics[], group: GroupAnalytics, name: string) => (groups.length > 1 ? `${group.groupName} – ${name}` : name);

const valueOf = (row: GetAnalyticsApiResponse['rows'][number] | undefined, key: string): number | null => {
  const value = row?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
};

/** The labels of all groups' rows, each once, in the order `order` gives them. */
function labelsOf(groups: readonly GroupAnalytics[], order: 'sorted' | 'as-given'): string[] {
  const labels = [...new Set(groups.flatMap((group) => group.answer?.rows.map((row) => row.label) ?? []))];
  // Days, Mondays (YYYY-MM-DD) and months (YYYY-MM) sort in time order as text.
  return order === 'sorted' ? labels.sort() : labels;
}

/** Whether any group's answer holds a series with a value to draw. */
export function hasValues(groups: readonly GroupAnalytics[]): boolean {
  return groups.some(({ answer }) => answer?.series.some((series) => answer.rows.some((row) => valueOf(row, series.name) !== null)) ?? false);
}

function seriesOf(groups: readonly GroupAnalytics[], labels: readonly string[], type: 'line' | 'column'): SeriesOptionsType[] {
  return groups.flatMap((group, groupIndex) => {
    const answer = group.answer;
    if (!answer) return [];
    const byLabel = new Map(answer.rows.map((row) => [row.label, row]));
    return answer.series.map((series): SeriesOptionsType => {
      const data = labels.map((label) => valueOf(byLabel.get(label), series.name));
      const suffix = PERCENT_METRICS.has(series.metric) || type === 'column' ? '%' : '';
      const decimals = COUNT_METRICS.has(series.metric) && type === 'line' ? 0 : 1;
      const common = { name: seriesName(groups, group, series.name), data, color: answer.colors[series.name], tooltip: { valueSuffix: suffix, valueDecimals: decimals } };
      return type === 'line'
        ? { ...common, type: 'line', dashStyle: GROUP_DASHES[groupIndex % GROUP_DASHES.length], marker: { enabled: true, radius: 3 } }
        : { ...common, type: 'column' };
    });
  });
}

const GROUPING_TITLES: Record<TimeGrouping, string> = { day: 'Day', week: 'Week (from Monday)', month: 'Month' };

/**
 * The line chart of the chosen metrics over time, every group's series together. The y axis
 * runs 0–10 when only the score is shown, 0–100 % when only percentages are, else from 0 up.
 */
export function metricsChartOptions(groups: readonly GroupAnalytics[], metrics: readonly MetricId[], groupBy: TimeGrouping): Options {
  const labels = labelsOf(groups, 'sorted');
  const onlyScore = metrics.length > 0 && metrics.every((metric) => metric === 'score');
  const onlyPercent = metrics.length > 0 && metrics.every((metric) => PERCENT_METRICS.has(metric));
  const title = `${metricsTitle(metrics)} by ${TIME_GROUPINGS.find((grouping) => grouping.id === groupBy)?.label ?? groupBy}`;
  return {
    chart: { type: 'line' },
    // The page's heading names the chart; the exported image carries its own title.
    title: { text: undefined },
    exporting: { chartOptions: { title: { text: title } } },
    xAxis: { categories: labels, title: { text: GROUPING_TITLES[groupBy] } },
    yAxis: {
      min: 0,
      ...(onlyScore ? { max: SCORE_MAX } : onlyPercent ? { max: PERCENT_MAX, labels: { format: '{value}%' } } : {}),
      title: { text: metricsTitle(metrics) },
    },
    tooltip: { shared: true },
    legend: { enabled: true },
    series: seriesOf(groups, labels, 'line'),
  };
}

/** The bar chart of each criterion's success rate (0–100 %) among the chosen activities. */
export function criteriaChartOptions(groups: readonly GroupAnalytics[], metric: MetricId): Options {
  const labels = labelsOf(groups, 'as-given');
  return {
    chart: { type: 'column' },
    title: { text: undefined },
    exporting: { chartOptions: { title: { text: `Criteria Success Rate in ${METRIC_LABELS[metric]}` } } },
    xAxis: { categories: labels, title: { text: 'Criterion' } },
    yAxis: { min: 0, max: PERCENT_MAX, title: { text: 'Success rate (%)' }, labels: { format: '{value}%' } },
    plotOptions: { column: { maxPointWidth: BAR_SIZE } },
    tooltip: { shared: true },
    legend: { enabled: true },
    series: seriesOf(groups, labels, 'column'),
  };
}
