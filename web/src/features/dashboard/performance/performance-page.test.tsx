import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import type { Options } from 'highcharts';
import { AppProviders } from '../../../app/providers';
import { makeStore } from '../../../app/store';
import { ToastRegion } from '../../../components/toast-region';
import type { GetRecommendationsApiResponse, Team } from '../../../lib/api/gateway-api.generated';
import { jsonResponse } from '../../../testing/json-response';
import { signedInState } from '../../../testing/signed-in';
import { stubGateway, type Route } from '../../../testing/stub-gateway';
import { downloadTextFile } from '../../../lib/download-file';
import { browserTimeZone, type PerformanceRouteState } from '../metrics';
import { PerformancePage } from './performance-page';
import { criteriaAnswer, inbound, outbound, recommendations, recruiting, teamMembers, timeAnswer } from './performance-test-fixtures';
import { dayOf, presetDays } from './period-presets';

// Highcharts does not run in jsdom: the chart shows the options it was given as text, and its
// exports record the file names they were asked for.
const charts = vi.hoisted(() => ({ exports: [] as [format: string, chart: string, file: string][] }));
vi.mock('../charts/chart', async () => {
  const { forwardRef, useImperativeHandle } = await import('react');
  type Handle = { downloadCsv(name: string): void; downloadPng(name: string): Promise<void>; csv(): string };
  const Chart = forwardRef<Handle, { options: Options; label: string }>(function Chart({ options, label }, ref) {
    useImperativeHandle(ref, () => ({
      downloadCsv: (name) => void charts.exports.push(['csv', label, name]),
      downloadPng: async (name) => void charts.exports.push(['png', label, name]),
      csv: () => '',
    }));
    const shown = {
      categories: (options.xAxis as { categories: string[] }).categories,
      yMax: (options.yAxis as { max?: number }).max,
      series: (options.series ?? []).map((series) => ({ name: series.name, data: (series as { data: unknown }).data, color: (series as { color?: string }).color })),
    };
    return (
      <figure aria-label={label}>
        <pre>{JSON.stringify(shown)}</pre>
      </figure>
    );
  });
  return { Chart, CHART_HEIGHT: 400 };
});

vi.mock('../../../lib/download-file', () => ({ downloadTextFile: vi.fn() }));

type Answers = { teams?: Team[]; recommendations?: () => Response; analytics?: (url: URL) => Response | undefined; extra?: Route };

function stubPerformance({ teams = [inbound, outbound, recruiting], recommendations: answerRecommendations, analytics, extra }: Answers = {}) {
  return stubGateway(async (request, url) => {
    const answer = await extra?.(request, url);
    if (answer) return answer;
    if (request.method !== 'GET') return undefined;
    if (url.pathname === '/api/teams/fetch/') return jsonResponse(teams);
    const members = /^\/api\/teams\/([^/]+)\/members$/.exec(url.pathname);
    if (members) return jsonResponse(teamMembers[members[1]!] ?? []);
    if (url.pathname === '/api/dashboard/analytics') {
      const given = analytics?.(url);
      if (given) return given;
      const metric = url.searchParams.get('metrics') ?? 'score';
      return jsonResponse(url.searchParams.get('groupBy') === 'parameter' ? criteriaAnswer(metric) : timeAnswer(metric));
    }
    if (url.pathname === '/api/dashboard/recommendations') return answerRecommendations ? answerRecommendations() : jsonResponse(recommendations);
    return undefined;
  });
}

function renderPerformance(routeState?: PerformanceRouteState) {
  const store = makeStore(signedInState({ department: 'sales', company: { departments: ['sales', 'hr'] } }));
  const router = createMemoryRouter(
    [
      {
        path: '/dashboard/performance',
        element: (
          <>
            <PerformancePage />
            <ToastRegion />
          </>
        ),
      },
      { path: '/dashboard', element: <h1>Dashboard</h1> },
    ],
    { initialEntries: [{ pathname: '/dashboard/performance', state: routeState }] },
  );
  render(<AppProviders store={store} router={router} />);
  return { store, router };
}

type Api = ReturnType<typeof stubGateway>;
const analyticsSent = (api: Api) => api.sent('GET', '/api/dashboard/analytics').map((request) => Object.fromEntries(request.search));
const lastAnalytics = (api: Api, groupBy: string) => analyticsSent(api).filter((params) => params.groupBy === groupBy).at(-1);
const lastGroups = (api: Api) => JSON.parse(api.sent('GET', '/api/dashboard/recommendations').at(-1)!.search.get('filterGroups')!) as Record<string, unknown>[];
const chartShown = (name: string) =>
  JSON.parse(screen.getByRole('figure', { name }).textContent!) as { categories: string[]; yMax?: number; series: { name: string; data: unknown[]; color: string }[] };
const group = (name: string) => screen.getByRole('region', { name });
const checkbox = (container: HTMLElement, name: string) => within(container).getByRole('checkbox', { name }) as HTMLInputElement;
const quarter = () => presetDays('this-quarter', new Date());

beforeEach(() => {
  charts.exports.length = 0;
  vi.mocked(downloadTextFile).mockClear();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('performance page', () => {
  it('asks, per filter group, for the score by day and the criteria by parameter, for all the department’s teams this quarter', async () => {
    const api = stubPerformance();
    renderPerformance();

    await waitFor(() => expect(analyticsSent(api)).toHaveLength(2));
    const days = quarter();
    const common = { mode: 'team', teamIds: 'team-1,team-2', from: days.fromDate, to: days.toDate, activityType: 'calls', timezone: browserTimeZone() };
    expect(lastAnalytics(api, 'day')).toEqual({ ...common, groupBy: 'day', metrics: 'score' });
    expect(lastAnalytics(api, 'parameter')).toEqual({ ...common, groupBy: 'parameter', metrics: 'total_calls' });
    expect(api.sent('GET', '/api/teams/fetch/')[0]!.search.get('department')).toBe('sales');

    await waitFor(() => expect(api.sent('GET', '/api/dashboard/recommendations')).toHaveLength(1));
    const recommendationsQuery = api.sent('GET', '/api/dashboard/recommendations')[0]!.search;
    expect(recommendationsQuery.get('activityType')).toBe('calls');
    expect(recommendationsQuery.get('timezone')).toBe(browserTimeZone());
    expect(lastGroups(api)).toEqual([
      {
        id: expect.any(String),
        name: 'Group 1',
        selectedMode: 'team',
        selectedTeams: ['team-1', 'team-2'],
        selectedMembers: [],
        dateRangeType: 'this-quarter',
        fromDate: days.fromDate,
        toDate: days.toDate,
      },
    ]);

    expect(screen.getByRole('tab', { name: 'Calls' }).getAttribute('aria-selected')).toBe('true');
    expect((screen.getByLabelText('By') as HTMLSelectElement).value).toBe('day');
    expect(checkbox(screen.getByRole('group', { name: 'Metrics' }), 'Avg Quality Score').checked).toBe(true);
    expect((within(group('Group 1')).getByLabelText('Period') as HTMLSelectElement).value).toBe('this-quarter');
    expect(screen.getByRole('heading', { name: 'Avg Quality Score by Day' })).toBeTruthy();

    // Days in time order, the API's colours, 0–10 for the score alone.
    await screen.findByRole('figure', { name: 'metrics chart' });
    expect(chartShown('metrics chart')).toEqual({
      categories: ['2025-07-01', '2025-07-02'],
      yMax: 10,
      series: [
        { name: 'Inbound sales', data: [7.5, 8], color: '#2f5bd3' },
        { name: 'Outbound sales', data: [null, 6], color: '#e8590c' },
      ],
    });
    await screen.findByRole('figure', { name: 'criteria chart' });
    expect(chartShown('criteria chart')).toMatchObject({ categories: ['Greeting', 'Next steps'], yMax: 100 });
  });

  it('starts from the router state a View Full link passes', async () => {
    const api = stubPerformance();
    renderPerformance({
      metric: 'total_calls',
      groupBy: 'week',
      activityType: 'meetings',
      initialFilter: { mode: 'representative', teamIds: ['team-2'], representatives: ['grace@example.com'], dateRangeType: 'custom', fromDate: '2025-03-01', toDate: '2025-03-31' },
    });

    await waitFor(() => expect(analyticsSent(api)).toHaveLength(2));
    const common = {
      mode: 'representative',
      teamIds: 'team-2',
      representatives: 'grace@example.com',
      from: '2025-03-01',
      to: '2025-03-31',
      activityType: 'meetings',
      timezone: browserTimeZone(),
    };
    // The calls total becomes the meetings total on the Meetings tab.
    expect(lastAnalytics(api, 'week')).toEqual({ ...common, groupBy: 'week', metrics: 'total_meetings' });
    expect(lastAnalytics(api, 'parameter')).toEqual({ ...common, groupBy: 'parameter', metrics: 'total_meetings' });

    expect(screen.getByRole('tab', { name: 'Meetings' }).getAttribute('aria-selected')).toBe('true');
    expect((screen.getByLabelText('By') as HTMLSelectElement).value).toBe('week');
    const metrics = screen.getByRole('group', { name: 'Metrics' });
    expect(checkbox(metrics, 'Total Meetings').checked).toBe(true);
    expect(checkbox(metrics, 'Avg Quality Score').checked).toBe(false);
    expect(within(metrics).queryByRole('checkbox', { name: 'Total Calls' })).toBeNull();
    const first = group('Group 1');
    expect((within(first).getByLabelText('Mode') as HTMLSelectElement).value).toBe('representative');
    expect(checkbox(first, 'Outbound sales').checked).toBe(true);
    expect(checkbox(first, 'Inbound sales').checked).toBe(false);
    expect((within(first).getByLabelText('Period') as HTMLSelectElement).value).toBe('custom');
    expect((within(first).getByLabelText('From') as HTMLInputElement).value).toBe('2025-03-01');
    expect((await within(first).findByRole('checkbox', { name: 'Grace Hopper' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('combobox', { name: 'Criteria Success Rate in' })).toBeTruthy();
    expect((screen.getByRole('option', { name: 'Total Meetings' }) as HTMLOptionElement).selected).toBe(true);
  });

  it('adds a group with the first group’s period, prefixes series with group names, renames and deletes it, and keeps the last one', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const api = stubPerformance();
    renderPerformance();
    await waitFor(() => expect(analyticsSent(api)).toHaveLength(2));

    fireEvent.change(within(group('Group 1')).getByLabelText('Period'), { target: { value: 'last-month' } });
    const lastMonth = presetDays('last-month', new Date());
    await waitFor(() => expect(lastAnalytics(api, 'day')).toMatchObject({ from: lastMonth.fromDate, to: lastMonth.toDate }));

    fireEvent.click(screen.getByRole('button', { name: 'Add filter group' }));
    const second = group('Group 2');
    expect((within(second).getByLabelText('Period') as HTMLSelectElement).value).toBe('last-month');
    expect(checkbox(second, 'Inbound sales').checked).toBe(false);

    // A group without a team asks nothing; with one it asks for its own teams and days.
    const before = analyticsSent(api).length;
    fireEvent.click(checkbox(second, 'Inbound sales'));
    await waitFor(() => expect(analyticsSent(api).filter((params) => params.teamIds === 'team-1')).toHaveLength(2));
    expect(analyticsSent(api).length).toBe(before + 2);
    expect(analyticsSent(api).filter((params) => params.teamIds === 'team-1')[0]).toMatchObject({ from: lastMonth.fromDate, to: lastMonth.toDate });
    await waitFor(() => expect(lastGroups(api).map((entry) => entry.name)).toEqual(['Group 1', 'Group 2']));
    await waitFor(() => expect(chartShown('metrics chart').series.map((series) => series.name)).toContain('Group 2 – Inbound sales'));
    expect(chartShown('metrics chart').series.map((series) => series.name)).toContain('Group 1 – Outbound sales');

    fireEvent.change(within(second).getByLabelText('Group name'), { target: { value: 'Seniors' } });
    expect(screen.getByRole('region', { name: 'Seniors' })).toBeTruthy();
    await waitFor(() => expect(lastGroups(api).map((entry) => entry.name)).toEqual(['Group 1', 'Seniors']));

    fireEvent.click(within(group('Seniors')).getByRole('button', { name: 'Delete group' }));
    expect(screen.queryByRole('region', { name: 'Seniors' })).toBeNull();
    await waitFor(() => expect(chartShown('metrics chart').series.map((series) => series.name)).toEqual(['Inbound sales', 'Outbound sales']));

    fireEvent.click(within(group('Group 1')).getByRole('button', { name: 'Delete group' }));
    expect(alert).toHaveBeenCalledWith('You need at least one filter group');
    expect(group('Group 1')).toBeTruthy();
  });

  it('clears a group’s teams and representatives when its mode changes', async () => {
    const api = stubPerformance();
    renderPerformance();
    await waitFor(() => expect(analyticsSent(api)).toHaveLength(2));
    const first = group('Group 1');
    fireEvent.click(await within(first).findByRole('checkbox', { name: 'Ada Lovelace' }));
    await waitFor(() => expect(lastAnalytics(api, 'day')?.representatives).toBe('ada@example.com'));

    fireEvent.change(within(first).getByLabelText('Mode'), { target: { value: 'representative' } });
    expect(checkbox(first, 'Inbound sales').checked).toBe(false);
    expect(checkbox(first, 'Outbound sales').checked).toBe(false);
    expect(within(first).queryByRole('checkbox', { name: 'Ada Lovelace' })).toBeNull();
    expect(screen.getAllByText('Choose at least one team in a filter group to see this chart.')).toHaveLength(2);
    expect(screen.getByText('Choose at least one team in a filter group to see the analysis.')).toBeTruthy();
    expect(analyticsSent(api).some((params) => params.mode === 'representative')).toBe(false);
  });

  it('enables representatives only once teams are chosen, offers the chosen teams’ members, and drops a removed team’s', async () => {
    const api = stubPerformance();
    renderPerformance();
    await waitFor(() => expect(analyticsSent(api)).toHaveLength(2));
    const first = group('Group 1');
    const representatives = () => within(first).getByRole('group', { name: 'Representatives' }) as HTMLFieldSetElement;

    fireEvent.click(within(first).getByRole('button', { name: 'Clear teams' }));
    expect(representatives().disabled).toBe(true);
    expect(within(representatives()).getByRole('button', { name: 'Select all representatives' }).matches(':disabled')).toBe(true);
    expect(within(representatives()).getByText('Select a team first.')).toBeTruthy();

    fireEvent.click(checkbox(first, 'Inbound sales'));
    expect(representatives().disabled).toBe(false);
    const inboundMembers = within(first).getByRole('group', { name: 'Inbound sales representatives' });
    await within(inboundMembers).findByRole('checkbox', { name: 'Ada Lovelace' });
    expect(within(first).queryByRole('checkbox', { name: 'Grace Hopper' })).toBeNull();

    fireEvent.click(checkbox(first, 'Outbound sales'));
    await within(first).findByRole('checkbox', { name: 'Grace Hopper' });
    fireEvent.click(within(first).getByRole('button', { name: 'Select all representatives' }));
    await waitFor(() =>
      expect(lastAnalytics(api, 'day')).toMatchObject({ teamIds: 'team-1,team-2', representatives: 'ada@example.com,alan@example.com,grace@example.com' }),
    );

    // Alan is in both teams, so he stays when Inbound sales goes; Ada leaves with it.
    fireEvent.click(checkbox(first, 'Inbound sales'));
    await waitFor(() => expect(lastAnalytics(api, 'day')).toMatchObject({ teamIds: 'team-2', representatives: 'alan@example.com,grace@example.com' }));
    expect(lastGroups(api)[0]).toMatchObject({ selectedTeams: ['team-2'], selectedMembers: ['alan@example.com', 'grace@example.com'] });
  });

  it('switches the criteria total and the metrics’ total with the tab', async () => {
    const api = stubPerformance();
    renderPerformance();
    await waitFor(() => expect(analyticsSent(api)).toHaveLength(2));
    fireEvent.click(checkbox(screen.getByRole('group', { name: 'Metrics' }), 'Total Calls'));
    await waitFor(() => expect(lastAnalytics(api, 'day')?.metrics).toBe('score,total_calls'));

    fireEvent.click(screen.getByRole('tab', { name: 'Meetings' }));
    await waitFor(() => expect(lastAnalytics(api, 'parameter')).toMatchObject({ activityType: 'meetings', metrics: 'total_meetings' }));
    expect(lastAnalytics(api, 'day')).toMatchObject({ activityType: 'meetings', metrics: 'score,total_meetings' });
    expect(checkbox(screen.getByRole('group', { name: 'Metrics' }), 'Total Meetings').checked).toBe(true);
    expect(screen.getByRole('option', { name: 'Total Meetings' })).toBeTruthy();
    await waitFor(() => expect(api.sent('GET', '/api/dashboard/recommendations').at(-1)!.search.get('activityType')).toBe('meetings'));

    fireEvent.change(screen.getByRole('combobox', { name: 'Criteria Success Rate in' }), { target: { value: 'unsuccessful' } });
    await waitFor(() => expect(lastAnalytics(api, 'parameter')?.metrics).toBe('unsuccessful'));
  });

  it('names the chart exports after the metrics, and the criteria exports criteria table and chart', async () => {
    stubPerformance();
    renderPerformance();
    await screen.findByRole('figure', { name: 'metrics chart' });
    await screen.findByRole('figure', { name: 'criteria chart' });

    fireEvent.click(screen.getByRole('button', { name: 'Export metrics chart as CSV' }));
    fireEvent.click(screen.getByRole('button', { name: 'Export metrics chart as PNG' }));
    fireEvent.click(checkbox(screen.getByRole('group', { name: 'Metrics' }), 'Conversion Rate'));
    fireEvent.click(screen.getByRole('button', { name: 'Export metrics chart as CSV' }));
    fireEvent.click(screen.getByRole('button', { name: 'Export criteria chart as CSV' }));
    fireEvent.click(screen.getByRole('button', { name: 'Export criteria chart as PNG' }));

    await waitFor(() =>
      expect(charts.exports).toEqual([
        ['csv', 'metrics chart', 'Avg Quality Score table'],
        ['png', 'metrics chart', 'Avg Quality Score chart'],
        ['csv', 'metrics chart', 'Avg Quality Score, Conversion Rate table'],
        ['csv', 'criteria chart', 'criteria table'],
        ['png', 'criteria chart', 'criteria chart'],
      ]),
    );
  });

  it('shows no data, and no export, when an analytics call fails', async () => {
    stubPerformance({ analytics: () => jsonResponse({ error: 'Analytics is unavailable.', message: 'Analytics is unavailable.' }, 503) });
    renderPerformance();
    await waitFor(() => expect(screen.getAllByText('No data for the selected filters.')).toHaveLength(2));
    expect((screen.getByRole('button', { name: 'Export metrics chart as CSV' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('figure')).toBeNull();
  });

  it('goes back to the dashboard', async () => {
    stubPerformance();
    const { router } = renderPerformance();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('shows each group’s teams and members with their figures, status in words, criteria worst first and advice, and exports them', async () => {
    stubPerformance();
    renderPerformance();
    const analysis = (await screen.findByRole('heading', { name: 'Performance Analysis' })).closest('section')!;
    await within(analysis).findByRole('heading', { name: 'Group 1' });
    expect(within(analysis).getByText('Jul 1, 2025 – Sep 30, 2025 · 30 working days')).toBeTruthy();

    const team = within(analysis).getByRole('article', { name: 'Inbound sales' });
    const figure = (label: string) => within(team).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(figure('Target')).toBe('30');
    expect(figure('Successful calls')).toBe('12');
    expect(figure('Total calls')).toBe('40');
    expect(figure('Conversion rate')).toBe('30.0%');
    expect(figure('Average score')).toBe('7.3');
    expect(figure('Additional calls needed')).toBe('60');
    expect(figure('Required conversion rate')).toBe('75.0%');
    expect(figure('Required average score')).toBe('10.0');
    expect(within(within(team).getByRole('list', { name: 'Advice for Inbound sales' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '18 successful calls short of the target of 30: about 60 more calls at the current conversion rate, or a conversion rate of 75% on the calls made.',
      'Average score 7.2/10 is below 8: coach on the criteria they fail most.',
      'Script match 78% should stay above 80%: go through the call script with them.',
      "Most failed: 'Next steps, agreed' (45% of 20 calls).",
    ]);

    const rows = within(within(team).getByRole('region', { name: 'Inbound sales members' })).getAllByRole('row');
    const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells(rows[1]!)).toEqual([
      'Ada',
      'Lovelace',
      'ada@example.com',
      '10',
      '11',
      '40',
      '30.0%',
      '8.0',
      '82.5%',
      'On target',
      '0',
      '75.0%',
      '10.0',
      'Next steps, agreed: 50.0%Greeting: 12.5%',
      "On target: 11 successful of 10.Good average score (8.0/10): keep it there.Most failed: 'Next steps, agreed' (50% of 8 calls).",
    ]);
    expect(cells(rows[2]!)).toEqual([
      'Alan',
      'Turing',
      'alan@example.com',
      '30',
      '0',
      '40',
      '0.0%',
      '7.3',
      'N/A',
      'Below target',
      '-',
      '75.0%',
      '10.0',
      'None judged',
      'No successful calls yet (target 30): review their last calls together and agree on how to close.',
    ]);
    expect(within(team).getAllByText('Below target')[0]!.closest('.performance-team__header')).toBeTruthy();

    fireEvent.click(within(analysis).getByRole('button', { name: 'Export Performance Analysis as CSV' }));
    expect(downloadTextFile).toHaveBeenCalledTimes(1);
    const [fileName, text] = vi.mocked(downloadTextFile).mock.calls[0]!;
    expect(fileName).toBe(`recommendations_${dayOf(new Date())}.csv`);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'Group,From,To,Team,First name,Last name,E-mail,Target,Successful calls,Total calls,Conversion rate (%),Average score,Script match (%),Status,Additional calls needed,Required conversion rate (%),Required average score,Criteria failure rates,Advice',
    );
    expect(lines[1]).toBe(
      `Group 1,2025-07-01,2025-09-30,Inbound sales,Ada,Lovelace,ada@example.com,10,11,40,30,8,82.5,On target,0,75,10,"Next steps, agreed: 50%; Greeting: 12.5%","On target: 11 successful of 10. | Good average score (8.0/10): keep it there. | Most failed: 'Next steps, agreed' (50% of 8 calls)."`,
    );
    expect(lines[2]).toBe(
      'Group 1,2025-07-01,2025-09-30,Inbound sales,Alan,Turing,alan@example.com,30,0,40,0,7.3,N/A,Below target,-,75,10,,No successful calls yet (target 30): review their last calls together and agree on how to close.',
    );
    expect(lines).toHaveLength(4);
  });

  it('tells why the recommendations could not be loaded, from the server’s error list', async () => {
    stubPerformance({ recommendations: () => jsonResponse({ error: ['filterGroups[0].fromDate is not valid', 'try again'] }, 400) });
    renderPerformance();
    expect((await screen.findByRole('alert')).textContent).toBe('Error loading recommendations: filterGroups[0].fromDate is not valid, try again');
    expect((screen.getByRole('button', { name: 'Export Performance Analysis as CSV' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says when no recommendation came back, and offers no export', async () => {
    const empty: GetRecommendationsApiResponse = [];
    stubPerformance({ recommendations: () => jsonResponse(empty) });
    renderPerformance();
    expect(await screen.findByText('No recommendations for the selected filters.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Export Performance Analysis as CSV' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
