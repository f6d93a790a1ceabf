import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Options } from 'highcharts';
import { jsonResponse } from '../../../testing/json-response';
import type { stubGateway } from '../../../testing/stub-gateway';
import { localDay } from '../dashboard-filters';
import { coaching, probedLocation, renderDashboard, stubDashboard } from '../dashboard-test-fixtures';
import { browserTimeZone } from '../metrics';

// Highcharts does not run in jsdom: a chart shows the options it was given as text.
vi.mock('../charts/chart', () => ({
  Chart: ({ options, label }: { options: Options; label: string }) => (
    <figure aria-label={label}>
      <pre>
        {JSON.stringify({
          categories: (options.xAxis as { categories: string[] }).categories,
          yMax: (options.yAxis as { max?: number }).max,
          series: (options.series ?? []).map((series) => ({ name: series.name, data: (series as { data: unknown }).data })),
        })}
      </pre>
    </figure>
  ),
  CHART_HEIGHT: 400,
}));

type Api = ReturnType<typeof stubGateway>;
const ADA_PATH = '/api/dashboard/representatives/ada%40example.com';
const sent = (api: Api) => api.sent('GET', ADA_PATH).map((request) => Object.fromEntries(request.search));
const timezone = browserTimeZone();
const section = (name: string) => screen.getByRole('region', { name });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('coaching page', () => {
  it('asks for the representative of the path, in the browser’s time zone and with no period, and names them', async () => {
    const api = stubDashboard();
    renderDashboard('/dashboard/representatives/ada%40example.com');

    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeTruthy();
    expect(screen.getByText('ada@example.com')).toBeTruthy();
    expect(sent(api)).toEqual([{ activityType: 'calls', timezone }]);
    expect(screen.getByRole('tab', { name: 'Calls' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('link', { name: 'Back to dashboard' }).getAttribute('href')).toBe('/dashboard');
  });

  it('draws the weekly score trend on a 0–10 scale', async () => {
    stubDashboard();
    renderDashboard('/dashboard/representatives/ada%40example.com');

    const chart = await screen.findByRole('figure', { name: 'Weekly Score Trend' });
    expect(JSON.parse(chart.textContent!)).toEqual({
      categories: ['Mar 3', 'Mar 10'],
      yMax: 10,
      series: [
        {
          name: 'Ada Lovelace',
          data: [
            { y: 6.5, custom: { activities: 4 } },
            { y: 7.25, custom: { activities: 6 } },
          ],
        },
      ],
    });
  });

  it('lists the criteria they fail most, worst first, each linking to the calls that failed it', async () => {
    stubDashboard();
    renderDashboard('/dashboard/representatives/ada%40example.com');

    const criteria = await screen.findByRole('region', { name: 'Criteria They Fail Most' });
    const items = within(criteria).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByText(/^Fails /).textContent)).toEqual(['Fails 62.5%', 'Fails 12.5%']);
    expect(within(items[0]!).getByText('Next steps')).toBeTruthy();
    expect(within(items[0]!).getByText('Failed 5 of 8 calls judged on it.')).toBeTruthy();

    const link = within(criteria).getByRole('link', { name: 'View 5 failed calls for Next steps' });
    expect(link.getAttribute('href')).toBe('/activities?callId=call-5,call-4,call-3,call-2,call-1');
    expect(within(criteria).getByRole('link', { name: 'View 1 failed call for Greeting' }).getAttribute('href')).toBe('/activities?callId=call-7');

    fireEvent.click(link);
    const location = probedLocation((await screen.findByRole('status', { name: 'Location' })).textContent);
    expect(location).toMatchObject({ pathname: '/activities', search: '?callId=call-5,call-4,call-3,call-2,call-1' });
  });

  it('says when only the latest of the failed activities are linked', async () => {
    const many = Array.from({ length: 50 }, (_, index) => `call-${index}`);
    stubDashboard({
      coaching: () => jsonResponse({ ...coaching, failedCriteria: [{ ...coaching.failedCriteria[0]!, failed: 70, judged: 90, activityIds: many }] }),
    });
    renderDashboard('/dashboard/representatives/ada%40example.com');

    const link = await screen.findByRole('link', { name: 'View the latest 50 failed calls for Next steps' });
    expect(link.getAttribute('href')).toBe(`/activities?callId=${many.join(',')}`);
  });

  it('shows their statistics against the team median in a labelled table', async () => {
    stubDashboard();
    renderDashboard('/dashboard/representatives/ada%40example.com');

    const table = within(await screen.findByRole('region', { name: 'Statistics vs Team Median' })).getByRole('table');
    const rows = within(table).getAllByRole('row').map((row) => Array.from(row.querySelectorAll('th, td')).map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Statistic', 'Representative', 'Team Median', 'Standing'],
      ['Total Calls', '8', '6', 'Above median'],
      ['Conversion Rate', '37.5%', '50.0%', 'Below median'],
      ['Average Score', '6.9 / 10', '6.9 / 10', 'At median'],
      ['Script Match Rate', 'N/A', '72.0%', '—'],
      ['Average Call Duration', '3:05', '4:00', 'Below median'],
    ]);
  });

  it('switches to meetings: asked again for meetings, durations in h/m/s and links carrying meetingId', async () => {
    const api = stubDashboard();
    renderDashboard('/dashboard/representatives/ada%40example.com');
    await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' });

    fireEvent.click(screen.getByRole('tab', { name: 'Meetings' }));
    await waitFor(() => expect(sent(api).at(-1)).toEqual({ activityType: 'meetings', timezone }));
    const link = await screen.findByRole('link', { name: 'View 5 failed meetings for Next steps' });
    expect(link.getAttribute('href')).toBe('/activities?meetingId=call-5,call-4,call-3,call-2,call-1');
    expect(within(section('Statistics vs Team Median')).getByText('Average Meeting Duration')).toBeTruthy();
    expect(within(section('Statistics vs Team Median')).getByText('3m 5s')).toBeTruthy();
  });

  it('sends a chosen period as local days', async () => {
    const api = stubDashboard();
    renderDashboard('/dashboard/representatives/ada%40example.com');
    await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' });

    fireEvent.click(screen.getByRole('button', { name: 'Date range: Choose dates' }));
    fireEvent.change(screen.getByLabelText('Presets'), { target: { value: 'thisMonth' } });
    const today = new Date();
    const from = localDay(new Date(today.getFullYear(), today.getMonth(), 1));
    const to = localDay(new Date(today.getFullYear(), today.getMonth() + 1, 0));
    await waitFor(() => expect(sent(api).at(-1)).toEqual({ activityType: 'calls', timezone, from, to }));
  });

  it('opens on the tab and period the dashboard link carried', async () => {
    const api = stubDashboard();
    const range = { from: '2025-03-01', to: '2025-03-31', preset: 'this-month' };
    renderDashboard({ pathname: '/dashboard/representatives/ada%40example.com', state: { activityType: 'meetings', range } });

    await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' });
    expect(sent(api)).toEqual([{ activityType: 'meetings', timezone, from: '2025-03-01', to: '2025-03-31' }]);
    expect(screen.getByRole('button', { name: 'Date range: Mar 1, 2025 – Mar 31, 2025' })).toBeTruthy();
  });

  it('says plainly when the API knows no such representative (404)', async () => {
    stubDashboard({ coaching: () => jsonResponse({ error: 'Not found' }, 404) });
    renderDashboard('/dashboard/representatives/nobody%40example.com');

    expect(await screen.findByText('No activities or team membership for nobody@example.com')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'nobody@example.com' })).toBeTruthy();
  });

  it('offers to try again when the view cannot be loaded', async () => {
    let fail = true;
    stubDashboard({ coaching: () => (fail ? jsonResponse({ error: 'Unavailable' }, 503) : undefined) });
    renderDashboard('/dashboard/representatives/ada%40example.com');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This coaching view could not be loaded.');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeTruthy();
  });

  it('says when there is nothing to show yet', async () => {
    stubDashboard({ coaching: () => jsonResponse({ ...coaching, trend: [], failedCriteria: [], statistics: [] }) });
    renderDashboard('/dashboard/representatives/ada%40example.com');

    expect(await screen.findByText('No scored calls in this period.')).toBeTruthy();
    expect(screen.getByText('No failed criteria in this period.')).toBeTruthy();
    expect(screen.getByText('No statistics in this period.')).toBeTruthy();
    expect(screen.queryByRole('figure')).toBeNull();
  });
});
