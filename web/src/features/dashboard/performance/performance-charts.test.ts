import { describe, expect, it } from 'vitest';
import type { SeriesLineOptions } from 'highcharts';
import {
  criteriaChartOptions,
  CRITERIA_CSV_NAME,
  CRITERIA_PNG_NAME,
  hasValues,
  metricsChartOptions,
  metricsCsvName,
  metricsPngName,
  type GroupAnalytics,
} from './performance-charts';
import { criteriaAnswer, timeAnswer } from './performance-test-fixtures';

const one: GroupAnalytics[] = [{ groupName: 'Group 1', answer: timeAnswer() }];
const series = (groups: readonly GroupAnalytics[]) => (metricsChartOptions(groups, ['score'], 'day').series ?? []) as SeriesLineOptions[];
const yAxis = (metrics: Parameters<typeof metricsChartOptions>[1]) => metricsChartOptions(one, metrics, 'day').yAxis as { min?: number; max?: number };

describe('performance charts', () => {
  it('names the exports after the metrics, and the criteria exports criteria table and chart', () => {
    expect(metricsCsvName(['score'])).toBe('Avg Quality Score table');
    expect(metricsPngName(['score'])).toBe('Avg Quality Score chart');
    expect(metricsCsvName(['score', 'conversion_rate', 'total_meetings'])).toBe('Avg Quality Score, Conversion Rate, Total Meetings table');
    expect([CRITERIA_CSV_NAME, CRITERIA_PNG_NAME]).toEqual(['criteria table', 'criteria chart']);
  });

  it('draws each series over the days in time order, in the API’s colours, null where there is nothing', () => {
    const options = metricsChartOptions(one, ['score'], 'day');
    expect((options.xAxis as { categories: string[] }).categories).toEqual(['2025-07-01', '2025-07-02']);
    expect(series(one).map(({ name, data, color }) => ({ name, data, color }))).toEqual([
      { name: 'Inbound sales', data: [7.5, 8], color: '#2f5bd3' },
      { name: 'Outbound sales', data: [null, 6], color: '#e8590c' },
    ]);
  });

  it('leads series with their group’s name when there is more than one group, a group without an answer adding none', () => {
    const two: GroupAnalytics[] = [...one, { groupName: 'Seniors', answer: { ...timeAnswer(), rows: [{ label: '2025-07-03', 'Inbound sales': 9 }] } }, { groupName: 'Empty', answer: undefined }];
    expect(series(two).map((entry) => entry.name)).toEqual(['Group 1 – Inbound sales', 'Group 1 – Outbound sales', 'Seniors – Inbound sales', 'Seniors – Outbound sales']);
    expect(series(two)[2]!.data).toEqual([null, null, 9]);
    // One team in two groups keeps its colour; the second group's lines are dashed.
    expect(series(two).map((entry) => entry.dashStyle)).toEqual(['Solid', 'Solid', 'ShortDash', 'ShortDash']);
  });

  it('runs the y axis 0–10 for the score alone, 0–100 for percentages alone, else from 0 up', () => {
    expect(yAxis(['score'])).toMatchObject({ min: 0, max: 10 });
    expect(yAxis(['conversion_rate', 'script_match'])).toMatchObject({ min: 0, max: 100 });
    expect(yAxis(['score', 'total_calls']).max).toBeUndefined();
    expect(yAxis(['score', 'total_calls']).min).toBe(0);
  });

  it('draws the criteria as 0–100 % bars at most 40 px wide, in the order the API sent them', () => {
    const options = criteriaChartOptions([{ groupName: 'Group 1', answer: criteriaAnswer() }], 'total_calls');
    expect((options.xAxis as { categories: string[] }).categories).toEqual(['Greeting', 'Next steps']);
    expect(options.yAxis).toMatchObject({ min: 0, max: 100 });
    expect(options.plotOptions?.column?.maxPointWidth).toBe(40);
    expect((options.series as { type: string; data: unknown[] }[]).map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'column', data: [80, 40] },
      { type: 'column', data: [55.5, null] },
    ]);
    expect(options.exporting?.chartOptions?.title?.text).toBe('Criteria Success Rate in Total Calls');
  });

  it('knows when there is nothing to draw', () => {
    expect(hasValues(one)).toBe(true);
    expect(hasValues([{ groupName: 'Group 1', answer: undefined }])).toBe(false);
    expect(hasValues([{ groupName: 'Group 1', answer: { ...timeAnswer(), rows: [{ label: '2025-07-01', 'Inbound sales': null }] } }])).toBe(false);
    expect(hasValues([{ groupName: 'Group 1', answer: { rows: [], colors: {}, series: [] } }])).toBe(false);
  });
});
