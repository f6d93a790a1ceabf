import { describe, expect, it } from 'vitest';
import type { SeriesColumnOptions, SeriesLineOptions, XAxisOptions, YAxisOptions } from 'highcharts';
import { axisLabels, BAR_SIZE, criteriaOptions, hasChartData, scoreTrendOptions, totalsOptions, weeklyScoreOptions, type PerformanceData } from './chart-options';

const data = (overrides: Partial<PerformanceData> = {}): PerformanceData => ({
  labels: ['2025-03-03', '2025-03-10'],
  datasets: [
    { label: 'Inbound sales', data: [7.5, null], color: '#2f7ed8', key: 'team-1', metric: 'score' },
    { label: 'Outbound sales', data: [6, 8.25], color: '#0d233a', key: 'team-2', metric: 'score' },
  ],
  ...overrides,
});

const xAxis = (options: { xAxis?: unknown }) => options.xAxis as XAxisOptions;
const yAxis = (options: { yAxis?: unknown }) => options.yAxis as YAxisOptions;

describe('chart data', () => {
  it('is there only with a label and a value', () => {
    expect(hasChartData(data())).toBe(true);
    expect(hasChartData(undefined)).toBe(false);
    expect(hasChartData(data({ labels: [] }))).toBe(false);
    expect(hasChartData(data({ datasets: [] }))).toBe(false);
    expect(hasChartData(data({ datasets: [{ label: 'A', data: [null, null], color: '#000', key: 'a', metric: 'score' }] }))).toBe(false);
  });
});

describe('axis labels', () => {
  it('writes days and Mondays as month and day, months as month and year, and keeps other labels', () => {
    expect(axisLabels(['2025-03-03', '2025-03-10'])).toEqual(['Mar 3', 'Mar 10']);
    expect(axisLabels(['2025-01', '2025-02'])).toEqual(['Jan 2025', 'Feb 2025']);
    expect(axisLabels(['Greeting', 'Next steps'])).toEqual(['Greeting', 'Next steps']);
  });

  it('adds the year to days when they span more than one year', () => {
    expect(axisLabels(['2024-12-30', '2025-01-06'])).toEqual(['Dec 30, 2024', 'Jan 6, 2025']);
  });
});

describe('Avg Success Score options', () => {
  it('draws a line per dataset on a 0–10 scale, keeping the API colours and gaps', () => {
    const options = scoreTrendOptions(data(), 'week');
    expect(options.chart?.type).toBe('line');
    expect(yAxis(options)).toMatchObject({ min: 0, max: 10 });
    expect(xAxis(options).categories).toEqual(['Mar 3', 'Mar 10']);
    expect(xAxis(options).title?.text).toBe('Week (starting Monday)');
    const series = options.series as SeriesLineOptions[];
    expect(series.map((entry) => [entry.type, entry.name, entry.color, entry.data])).toEqual([
      ['line', 'Inbound sales', '#2f7ed8', [7.5, null]],
      ['line', 'Outbound sales', '#0d233a', [6, 8.25]],
    ]);
    expect(options.title?.text).toBeUndefined();
  });
});

describe('Criteria Comparison options', () => {
  it('draws bars of at most 40 px on a 0–100 % scale, a category per criterion', () => {
    const options = criteriaOptions(
      data({ labels: ['Greeting', 'Next steps'], datasets: [{ label: 'Inbound sales', data: [80, 42.5], color: '#8bbc21', key: 'team-1', metric: 'total_calls' }] }),
    );
    expect(options.chart?.type).toBe('column');
    expect(yAxis(options)).toMatchObject({ min: 0, max: 100, labels: { format: '{value}%' } });
    expect(xAxis(options).categories).toEqual(['Greeting', 'Next steps']);
    expect(options.plotOptions?.column?.maxPointWidth).toBe(BAR_SIZE);
    expect(BAR_SIZE).toBe(40);
    const [series] = options.series as SeriesColumnOptions[];
    expect(series).toMatchObject({ type: 'column', name: 'Inbound sales', color: '#8bbc21', data: [80, 42.5] });
  });
});

describe('Over Time options', () => {
  it('counts whole activities by the grouping, titled by the tab', () => {
    const options = totalsOptions(data({ labels: ['2025-01', '2025-02'] }), 'month', 'meetings');
    expect(options.chart?.type).toBe('column');
    expect(yAxis(options)).toMatchObject({ min: 0, allowDecimals: false, title: { text: 'Meetings' } });
    expect(xAxis(options).categories).toEqual(['Jan 2025', 'Feb 2025']);
    expect(xAxis(options).title?.text).toBe('Month');
    expect((options.series as SeriesColumnOptions[]).map((entry) => entry.name)).toEqual(['Inbound sales', 'Outbound sales']);
  });
});

describe('weekly score options (coaching)', () => {
  it('draws one 0–10 line by week, each point carrying its number of activities', () => {
    const options = weeklyScoreOptions(
      [
        { week: '2025-03-03', averageScore: 6.5, activities: 4 },
        { week: '2025-03-10', averageScore: null, activities: 0 },
      ],
      'Ada Lovelace',
      'calls',
      '#2f5bd3',
    );
    expect(yAxis(options)).toMatchObject({ min: 0, max: 10 });
    expect(xAxis(options).categories).toEqual(['Mar 3', 'Mar 10']);
    const [series] = options.series as SeriesLineOptions[];
    expect(series).toMatchObject({
      type: 'line',
      name: 'Ada Lovelace',
      color: '#2f5bd3',
      data: [
        { y: 6.5, custom: { activities: 4 } },
        { y: null, custom: { activities: 0 } },
      ],
    });
    expect(options.tooltip?.pointFormat).toContain('Calls: {point.custom.activities}');
  });
});
