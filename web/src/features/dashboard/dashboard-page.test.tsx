import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Options } from 'highcharts';
import { jsonResponse } from '../../testing/json-response';
import type { stubGateway } from '../../testing/stub-gateway';
import { localDay } from './dashboard-filters';
import { downloadTextFile as downloadCsv } from '../../lib/download-file';
import { dashboardState, inbound, leaderboard, metrics, probedLocation, renderDashboard, stubDashboard } from './dashboard-test-fixtures';
import { browserTimeZone } from './metrics';

// Highcharts does not run in jsdom: a chart shows the options it was given as text.
vi.mock('./charts/chart', () => ({
  Chart: ({ options, label }: { options: Options; label: string }) => (
    <figure aria-label={label}>
      <pre>
        {JSON.stringify({
          type: options.chart?.type,
          categories: (options.xAxis as { categories: string[] }).categories,
          yMax: (options.yAxis as { max?: number }).max,
          series: (options.series ?? []).map((series) => ({ name: series.name, data: (series as { data: unknown }).data, color: (series as { color?: string }).color })),
        })}
      </pre>
    </figure>
  ),
  CHART_HEIGHT: 400,
}));

vi.mock('../../lib/download-file', () => ({ downloadTextFile: vi.fn() }));

type Api = ReturnType<typeof stubGateway>;
const params = (api: Api, path: string) => api.sent('GET', `/api/dashboard/${path}`).map((request) => Object.fromEntries(request.search));
const last = (api: Api, path: string) => params(api, path).at(-1)!;
const performance = (api: Api, groupBy: string, metric: string) => params(api, 'performance').filter((sent) => sent.groupBy === groupBy && sent.metrics === metric);
const lastPerformance = (api: Api, groupBy: string, metric: string) => performance(api, groupBy, metric).at(-1);
const chartShown = (name: string) => JSON.parse(screen.getByRole('figure', { name }).textContent!) as { type: string; categories: string[]; yMax?: number; series: { name: string; data: unknown[]; color: string }[] };
const card = (name: string) => screen.getByRole('article', { name });
const region = (name: string) => screen.getByRole('region', { name });
const compareButton = () => screen.getByRole('button', { name: /^Compare:/ });
const openCompare = () => fireEvent.click(compareButton());
const timezone = browserTimeZone();

/**
 * Metrics whose conversion rate tells which request they answer. Going back to filters already
 * asked for is answered from the cache, without a request; the rate on screen shows it happened.
 */
const metricsBy = (rate: (params: URLSearchParams) => number) => (url: URL) =>
  jsonResponse({ ...metrics, current: { ...metrics.current, conversionRate: rate(url.searchParams) } });
const conversionRate = () => within(card('Conversion Rate')).getByText(/%$/, { selector: '.kpi__value' }).textContent;

beforeEach(() => {
  vi.mocked(downloadCsv).mockClear();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('dashboard page', () => {
  it('asks for the leaderboard, the metrics and three performance series of the whole department, in the browser’s time zone, with no period', async () => {
    const api = stubDashboard();
    renderDashboard('/dashboard');

    await waitFor(() => expect(params(api, 'performance')).toHaveLength(3));
    const base = { activityType: 'calls', department: 'sales', timezone };
    expect(params(api, 'leaderboard')).toEqual([{ ...base, companyId: 'c-1' }]);
    expect(params(api, 'metrics')).toEqual([{ ...base, mode: 'team' }]);
    expect(params(api, 'performance')).toEqual(
      expect.arrayContaining([
        { ...base, mode: 'team', groupBy: 'day', metrics: 'score' },
        { ...base, mode: 'team', groupBy: 'parameter', metrics: 'total_calls' },
        { ...base, mode: 'team', groupBy: 'day', metrics: 'total_calls' },
      ]),
    );
    expect(api.sent('GET', '/api/teams/fetch/')[0]!.search.get('department')).toBe('sales');
    // Representatives are only read in representative mode.
    expect(api.requests.some((request) => request.path.endsWith('/members'))).toBe(false);
    expect(screen.getByRole('button', { name: 'Date range: Choose dates' })).toBeTruthy();
  });

  it('shows the four KPI cards with their change vs last period and a trend in words', async () => {
    stubDashboard();
    renderDashboard('/dashboard');

    await waitFor(() => expect(within(card('Conversion Rate')).getByText('45.0%')).toBeTruthy());
    expect(within(card('Conversion Rate')).getByText('+12.5% vs last period')).toBeTruthy();
    expect(within(card('Conversion Rate')).getByText('Up:')).toBeTruthy();
    // Nothing the period before: the change shows 0, the trend still says it rose.
    expect(within(card('Avg Calls per Team')).getByText('12.5')).toBeTruthy();
    expect(within(card('Avg Calls per Team')).getByText('0% vs last period')).toBeTruthy();
    expect(within(card('Avg Call Duration')).getByText('2:05')).toBeTruthy();
    expect(within(card('Avg Call Duration')).getByText('-16.7% vs last period')).toBeTruthy();
    expect(within(card('Avg Call Duration')).getByText('Down:')).toBeTruthy();
    expect(within(card('Success Score')).getByText('7.4 / 10')).toBeTruthy();
    expect(within(card('Success Score')).getByText('No change:')).toBeTruthy();
  });

  it('draws the score, criteria and volume charts from the API’s series and colours', async () => {
    stubDashboard();
    renderDashboard('/dashboard');

    await waitFor(() => expect(screen.getByRole('figure', { name: 'Avg Success Score' })).toBeTruthy());
    expect(chartShown('Avg Success Score')).toEqual({
      type: 'line',
      categories: ['Mar 3', 'Mar 10'],
      yMax: 10,
      series: [
        { name: 'Inbound sales', data: [7.5, null], color: '#2f7ed8' },
        { name: 'Outbound sales', data: [6, 8.25], color: '#0d233a' },
      ],
    });
    await waitFor(() => expect(screen.getByRole('figure', { name: 'Criteria Comparison' })).toBeTruthy());
    expect(chartShown('Criteria Comparison')).toMatchObject({ type: 'column', categories: ['Greeting', 'Next steps'], yMax: 100 });
    await waitFor(() => expect(screen.getByRole('figure', { name: 'Calls Over Time' })).toBeTruthy());
    expect(chartShown('Calls Over Time').series.map((series) => series.data)).toEqual([
      [12, 30],
      [4, 9],
    ]);
  });

  it('switches to meetings: the requests, the labels and the volume chart follow the tab', async () => {
    const api = stubDashboard();
    renderDashboard('/dashboard');
    await waitFor(() => expect(params(api, 'performance')).toHaveLength(3));

    fireEvent.click(screen.getByRole('tab', { name: 'Meetings' }));
    expect(screen.getByRole('tab', { name: 'Meetings' }).getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect(lastPerformance(api, 'parameter', 'total_meetings')).toMatchObject({ activityType: 'meetings' }));
    expect(lastPerformance(api, 'day', 'total_meetings')).toMatchObject({ activityType: 'meetings' });
    expect(last(api, 'metrics')).toMatchObject({ activityType: 'meetings' });
    expect(last(api, 'leaderboard')).toMatchObject({ activityType: 'meetings' });
    expect(await screen.findByRole('heading', { name: 'Meetings Over Time' })).toBeTruthy();
    expect(await screen.findByRole('article', { name: 'Avg Meetings per Team' })).toBeTruthy();
    expect(within(card('Avg Meeting Duration')).getByText('2m 5s')).toBeTruthy();
  });

  it('compares the chosen teams, all of them with Select All, and the whole department again after Clear', async () => {
    const api = stubDashboard({ metrics: metricsBy((sent) => (sent.get('teamIds') ?? '').split(',').filter(Boolean).length * 10 + 5) });
    renderDashboard('/dashboard');
    await waitFor(() => expect(conversionRate()).toBe('5.0%'));

    openCompare();
    const list = screen.getByRole('group', { name: 'Compare' });
    // Only the department's teams are offered.
    expect(within(list).getAllByRole('checkbox').map((box) => box.closest('label')!.textContent)).toEqual(['Inbound sales', 'Outbound sales']);

    fireEvent.click(within(list).getByRole('checkbox', { name: 'Outbound sales' }));
    await waitFor(() => expect(last(api, 'metrics').teamIds).toBe('team-2'));
    expect(last(api, 'leaderboard').teamIds).toBe('team-2');
    expect(lastPerformance(api, 'day', 'score')!.teamIds).toBe('team-2');
    expect(compareButton().textContent).toContain('Outbound sales');

    fireEvent.click(within(list).getByRole('button', { name: 'Select All' }));
    await waitFor(() => expect(last(api, 'metrics').teamIds).toBe('team-1,team-2'));
    expect((within(list).getByRole('checkbox', { name: 'Inbound sales' }) as HTMLInputElement).checked).toBe(true);
    expect(compareButton().textContent).toContain('2 of 2 teams');

    await waitFor(() => expect(conversionRate()).toBe('25.0%'));

    fireEvent.click(within(list).getByRole('button', { name: 'Clear' }));
    // The first answer again, from the cache: no team named, the whole department.
    await waitFor(() => expect(conversionRate()).toBe('5.0%'));
    expect(params(api, 'metrics').map((sent) => sent.teamIds)).toEqual([undefined, 'team-2', 'team-1,team-2']);
    expect(compareButton().textContent).toContain('All teams');
    expect(within(list).getAllByRole('checkbox').every((box) => !(box as HTMLInputElement).checked)).toBe(true);
  });

  it('clears the comparison when the mode changes, then compares representatives with the teams they belong to', async () => {
    const api = stubDashboard({ metrics: metricsBy((sent) => (sent.get('mode') === 'team' ? 10 : 20) + (sent.has('teamIds') ? 1 : 0)) });
    renderDashboard('/dashboard');
    await waitFor(() => expect(conversionRate()).toBe('10.0%'));
    openCompare();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Inbound sales' }));
    await waitFor(() => expect(last(api, 'metrics').teamIds).toBe('team-1'));

    fireEvent.change(screen.getByLabelText('Mode'), { target: { value: 'representative' } });
    await waitFor(() => expect(last(api, 'metrics')).toMatchObject({ mode: 'representative' }));
    expect(last(api, 'metrics').teamIds).toBeUndefined();
    expect(last(api, 'metrics').representatives).toBeUndefined();
    expect(compareButton().textContent).toContain('All representatives');
    expect(await screen.findByRole('article', { name: 'Avg Calls per Representative' })).toBeTruthy();

    // The members of every team of the department, once each.
    const list = screen.getByRole('group', { name: 'Compare' });
    await waitFor(() => expect(within(list).getAllByRole('checkbox')).toHaveLength(3));
    expect(within(list).getAllByRole('checkbox').map((box) => box.closest('label')!.textContent)).toEqual(['Ada Lovelace', 'Alan Turing', 'Grace Hopper']);

    fireEvent.click(within(list).getByRole('checkbox', { name: 'Alan Turing' }));
    await waitFor(() => expect(last(api, 'metrics').representatives).toBe('alan@example.com'));
    expect(last(api, 'metrics')).toMatchObject({ mode: 'representative', teamIds: 'team-1,team-2' });
    await waitFor(() => expect(lastPerformance(api, 'day', 'score')).toMatchObject({ mode: 'representative', representatives: 'alan@example.com', teamIds: 'team-1,team-2' }));

    fireEvent.change(screen.getByLabelText('Mode'), { target: { value: 'team' } });
    // Team mode over the whole department again (answered from the cache): Inbound sales was let go.
    await waitFor(() => expect(conversionRate()).toBe('10.0%'));
    expect(compareButton().textContent).toContain('All teams');
    expect(screen.getByRole('article', { name: 'Avg Calls per Team' })).toBeTruthy();
  });

  it('groups the score and volume charts by week, the criteria chart staying by parameter', async () => {
    const api = stubDashboard();
    renderDashboard('/dashboard');
    await waitFor(() => expect(params(api, 'performance')).toHaveLength(3));

    fireEvent.change(screen.getByLabelText('Group By'), { target: { value: 'week' } });
    await waitFor(() => expect(lastPerformance(api, 'week', 'score')).toBeTruthy());
    expect(lastPerformance(api, 'week', 'total_calls')).toBeTruthy();
    expect(performance(api, 'parameter', 'total_calls')).toHaveLength(1);
  });

  it('sends a chosen period as local days, and Clear filters goes back to no period, team mode and day', async () => {
    const api = stubDashboard({ metrics: metricsBy((sent) => (sent.get('mode') === 'team' && !sent.has('from') ? 10 : 20)) });
    renderDashboard('/dashboard');
    await waitFor(() => expect(conversionRate()).toBe('10.0%'));

    fireEvent.click(screen.getByRole('button', { name: 'Date range: Choose dates' }));
    fireEvent.change(screen.getByLabelText('Presets'), { target: { value: 'thisMonth' } });
    const today = new Date();
    const from = localDay(new Date(today.getFullYear(), today.getMonth(), 1));
    const to = localDay(new Date(today.getFullYear(), today.getMonth() + 1, 0));
    await waitFor(() => expect(last(api, 'metrics')).toMatchObject({ from, to }));
    expect(last(api, 'leaderboard')).toMatchObject({ from, to });
    expect(lastPerformance(api, 'parameter', 'total_calls')).toMatchObject({ from, to });

    fireEvent.change(screen.getByLabelText('Group By'), { target: { value: 'month' } });
    fireEvent.change(screen.getByLabelText('Mode'), { target: { value: 'representative' } });
    await waitFor(() => expect(last(api, 'metrics').mode).toBe('representative'));

    await waitFor(() => expect(conversionRate()).toBe('20.0%'));

    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    // Team mode and no period again: the first answer, from the cache.
    await waitFor(() => expect(conversionRate()).toBe('10.0%'));
    expect((screen.getByLabelText('Mode') as HTMLSelectElement).value).toBe('team');
    expect((screen.getByLabelText('Group By') as HTMLSelectElement).value).toBe('day');
    expect(screen.getByRole('button', { name: 'Date range: Choose dates' })).toBeTruthy();
  });

  it('writes the leaderboard with separators, 0% for a missing rate and N/A for a missing score, and exports the API’s rows as CSV', async () => {
    stubDashboard();
    renderDashboard('/dashboard');

    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').map((row) => Array.from(row.querySelectorAll('th, td')).map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Representative', 'Total Activities', 'Successful Activities', 'Success Rate', 'Average Score'],
      ['Ada Lovelaceada@example.com', '1,234', '823', '66.7%', '7.5'],
      ['Grace Hopper, PhDgrace@example.com', '0', '0', '0%', 'N/A'],
    ]);

    fireEvent.click(within(region('Leaderboard')).getByRole('button', { name: 'Export CSV' }));
    expect(downloadCsv).toHaveBeenCalledTimes(1);
    const [fileName, text] = vi.mocked(downloadCsv).mock.calls[0]!;
    expect(fileName).toBe('leaderboard.csv');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('team_id,representative_name,representative_email,total_activities,successful_activities,success_rate,average_score');
    const [ada] = leaderboard;
    expect(lines[1]).toBe([ada!.team_id, ada!.representative_name, ada!.representative_email, ada!.total_activities, ada!.successful_activities, ada!.success_rate, ada!.average_score].join(','));
    expect(lines[2]).toBe('team-2,"Grace Hopper, PhD",grace@example.com,0,0,,');
    expect(lines.slice(3)).toEqual(['']);
  });

  it('links each representative to their coaching view, which opens on the tab the dashboard showed', async () => {
    const api = stubDashboard();
    renderDashboard('/dashboard');
    fireEvent.click(screen.getByRole('tab', { name: 'Meetings' }));

    const link = await screen.findByRole('link', { name: 'Ada Lovelace' });
    expect(link.getAttribute('href')).toBe('/dashboard/representatives/ada%40example.com');
    fireEvent.click(link);

    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeTruthy();
    const sent = api.sent('GET', '/api/dashboard/representatives/ada%40example.com');
    expect(sent).toHaveLength(1);
    expect(Object.fromEntries(sent[0]!.search)).toEqual({ activityType: 'meetings', timezone });
    expect(screen.getByRole('tab', { name: 'Meetings' }).getAttribute('aria-selected')).toBe('true');
  });

  it('hands the performance screen the metric, grouping, tab and filters through View Full', async () => {
    const api = stubDashboard();
    renderDashboard('/dashboard');
    await waitFor(() => expect(params(api, 'metrics')).toHaveLength(1));
    fireEvent.change(screen.getByLabelText('Group By'), { target: { value: 'week' } });
    openCompare();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Inbound sales' }));

    const scoreCard = await screen.findByRole('region', { name: 'Avg Success Score' });
    fireEvent.click(within(scoreCard).getByRole('link', { name: 'View Full' }));

    const location = probedLocation((await screen.findByRole('status', { name: 'Location' })).textContent);
    expect(location.pathname).toBe('/dashboard/performance');
    expect(location.state).toEqual({
      metric: 'score',
      groupBy: 'week',
      activityType: 'calls',
      initialFilter: { mode: 'team', teamIds: ['team-1'], representatives: [], dateRangeType: 'this-quarter' },
    });
  });

  it('hands over the tab’s total metric from the volume chart, and the whole department when nothing is chosen', async () => {
    stubDashboard();
    renderDashboard('/dashboard');
    fireEvent.click(screen.getByRole('tab', { name: 'Meetings' }));

    const volume = await screen.findByRole('region', { name: 'Meetings Over Time' });
    fireEvent.click(within(volume).getByRole('link', { name: 'View Full' }));

    const location = probedLocation((await screen.findByRole('status', { name: 'Location' })).textContent);
    expect(location.state).toEqual({
      metric: 'total_meetings',
      groupBy: 'day',
      activityType: 'meetings',
      initialFilter: { mode: 'team', teamIds: ['team-1', 'team-2'], representatives: [], dateRangeType: 'this-quarter' },
    });
  });

  it('shows no data, silently, when the dashboard’s reads fail', async () => {
    const failure = () => jsonResponse({ error: 'Unable to load metrics data' }, 500);
    const api = stubDashboard({ leaderboard: failure, metrics: failure, performance: failure });
    renderDashboard('/dashboard');

    await waitFor(() => expect(params(api, 'performance')).toHaveLength(3));
    expect(await screen.findByText('No calls for these filters.', { selector: '.leaderboard p' })).toBeTruthy();
    expect(await screen.findByText('No scored calls for these filters.')).toBeTruthy();
    expect(screen.getByText('No criteria results for these filters.')).toBeTruthy();
    expect(within(region('Calls Over Time')).getByText('No calls for these filters.')).toBeTruthy();
    expect(within(card('Conversion Rate')).getByText('—')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('figure')).toBeNull();
    expect(within(region('Leaderboard')).getByRole('button', { name: 'Export CSV' }).hasAttribute('disabled')).toBe(true);
  });

  it('says when the department has no team, and reads nothing else', async () => {
    const api = stubDashboard({ teams: [{ ...inbound, department: 'hr' }] });
    renderDashboard('/dashboard', dashboardState('sales'));

    expect(await screen.findByText(/This department has no teams yet\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create a team' }).getAttribute('href')).toBe('/teams');
    expect(api.requests.filter((request) => request.path.startsWith('/api/dashboard/'))).toHaveLength(0);
  });
});
