import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { jsonResponse } from '../../testing/json-response';
import type { HealthResponse } from './system-api';

const healthy: HealthResponse = {
  status: 'ok',
  version: '0.1.0',
  mode: 'standalone',
  modules: [
    { name: 'identity', state: 'running' },
    { name: 'scoring', state: 'running' },
  ],
};

function stubFetch(respond: (request: Request) => Promise<Response>) {
  const fetchMock = vi.fn(respond);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('system status page', () => {
  it('lists the modules the gateway reports', async () => {
    const fetchMock = stubFetch(async () => jsonResponse(healthy));

    renderApp('/status');

    expect(await screen.findByText('Checking the Parlance server…')).toBeTruthy();
    const table = await screen.findByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['identity', 'running'],
      ['scoring', 'running'],
    ]);
    expect(screen.getByText('All systems operational')).toBeTruthy();
    expect(screen.getByText('0.1.0')).toBeTruthy();
    expect(screen.getByText('Standalone (one process)')).toBeTruthy();

    const request = fetchMock.mock.calls.map(([call]) => call).find((call) => new URL(call.url).pathname === '/api/health');
    expect(request?.credentials).toBe('include');
  });

  it('shows the report of a degraded system answered with 503', async () => {
    stubFetch(async () =>
      jsonResponse({ ...healthy, status: 'degraded', modules: [{ name: 'scoring', state: 'failed' }] }, 503),
    );

    renderApp('/status');

    expect(await screen.findByText('Degraded')).toBeTruthy();
    expect(screen.getByText('failed')).toBeTruthy();
  });

  it('explains a server error in words, with the server message', async () => {
    stubFetch(async () => jsonResponse({ error: 'Database unreachable' }, 503));

    renderApp('/status');

    expect((await screen.findByRole('alert')).textContent).toBe(
      'The Parlance server answered with an error (HTTP 503): Database unreachable',
    );
  });

  it('explains that the server could not be reached', async () => {
    stubFetch(async () => {
      throw new TypeError('fetch failed');
    });

    renderApp('/status');

    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not reach the Parlance server. Check your connection and try again.',
    );
  });
});
