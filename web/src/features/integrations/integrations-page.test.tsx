import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CloseSettings, HubSpotSettings, Integration, WorkspaceSettings } from '../../lib/api/gateway-api.generated';
import { deferred } from '../../testing/deferred';
import { jsonResponse } from '../../testing/json-response';
import { renderApp } from '../../testing/render-app';
import { signedInState } from '../../testing/signed-in';
import { routeTable, stubGateway } from '../../testing/stub-gateway';
import { browserLocation } from './browser-location';
import { GoogleCodeError, googleCodeClient, WORKSPACE_SCOPES } from './google-code-client';
import { formatDateTime, formatLastSync, WORKSPACE_NOT_SET_UP } from './integration-rules';

const notConnected: Integration['connection'] = {
  connected: false,
  status: 'not_connected',
  by: null,
  date: null,
  settings: null,
  lastError: null,
  sync: { running: false, lastRun: null },
  writeback: { pending: 0, lastWrittenAt: null, lastError: null },
};

const settings: CloseSettings = {
  syncUsersAndTeams: false,
  autoSync: false,
  createActivities: true,
  updateLeadStatus: false,
  minCallDuration: 60,
  successfulCallStatus: 'stat_won',
  unsuccessfulCallStatus: '',
  lastSyncDate: null,
};

const connected = (overrides: Partial<Integration['connection']> = {}): Integration['connection'] => ({
  connected: true,
  status: 'connected',
  by: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  date: '2025-03-03T12:00:00.000Z',
  settings,
  lastError: null,
  sync: { running: false, lastRun: null },
  writeback: { pending: 0, lastWrittenAt: null, lastError: null },
  ...overrides,
});

const close = (connection: Integration['connection']): Integration => ({
  id: 'close-crm',
  name: 'Close',
  description: 'Import Close calls with their recordings, score them, and write notes and lead statuses back to Close.',
  icon: 'close',
  connection,
});
const hubspot: Integration = {
  id: 'hubspot-crm',
  name: 'HubSpot',
  description: 'Import HubSpot calls with their recordings, score them, and write notes and follow-up tasks back to HubSpot.',
  icon: 'hubspot',
  connection: notConnected,
};
const workspace: Integration = {
  id: 'google-workspace',
  name: 'Google Workspace',
  description: 'Import Google Meet transcripts from a Drive folder as meetings, scored against your team’s criteria.',
  icon: 'google-workspace',
  connection: notConnected,
};

/** GET /api/web-config, naming `googleClientId` (null: Google sign-in is not set up). */
const webConfig = (googleClientId: string | null) =>
  jsonResponse({ googleClientId, demoSchedulingUrl: null, demoContactEmail: 'demo@example.com', analyticsScriptUrl: null });

const REFUSED = 'Close did not accept this API key. Copy it again from Close (Settings, Developer, API Keys).';

type Handlers = Parameters<typeof routeTable>[0];

/** The gateway with Close in `closeConnection`; connect and disconnect change it, as the service does. */
function stubIntegrations(closeConnection: Integration['connection'], routes: Handlers = {}) {
  let current = closeConnection;
  return stubGateway(
    routeTable({
      'GET /api/integrations': () => jsonResponse([close(current), hubspot, workspace]),
      'POST /api/integrations/close/connect': () => {
        current = connected({ settings: { ...settings, lastSyncDate: null } });
        return jsonResponse(close(current));
      },
      'DELETE /api/integrations/close/disconnect': () => {
        current = notConnected;
        return jsonResponse({ success: true });
      },
      'GET /api/integrations/close/lead-statuses': () =>
        jsonResponse({
          statuses: [
            { id: 'stat_won', label: 'Won' },
            { id: 'stat_lost', label: 'Lost' },
          ],
        }),
      'PUT /api/integrations/close/settings': () => jsonResponse(settings),
      ...routes,
    }),
  );
}

const openPage = async (path = '/integrations') => {
  const view = renderApp(path, signedInState({ csrfToken: 'csrf-1' }));
  return view;
};
const card = (name: string) => screen.getByRole('article', { name });
const findCard = (name: string) => screen.findByRole('article', { name });
const badge = (name: string) => card(name).querySelector('.badge')!.textContent;

afterEach(() => {
  vi.useRealTimers();
});

describe('integrations page (spec part 2 §2.12)', () => {
  it('shows the three integrations with their logos, badges and descriptions; who connected Close, when, and its last sync error', async () => {
    const failedAt = '2025-03-04T08:30:00.000Z';
    stubIntegrations(connected({ lastError: { message: 'Close refused the API key.', at: failedAt } }));
    await openPage();

    const closeCard = await findCard('Close');
    expect(screen.getByRole('heading', { level: 1, name: 'Integrations' })).toBeTruthy();
    expect(screen.getAllByRole('article').map((article) => within(article).getByRole('heading').textContent)).toEqual([
      'Close',
      'HubSpot',
      'Google Workspace',
      'Need another integration?',
    ]);
    expect(badge('Close')).toBe('Connected');
    expect(badge('HubSpot')).toBe('Not Connected');
    expect(badge('Google Workspace')).toBe('Not Connected');
    expect(closeCard.querySelector('svg.integration-logo')).toBeTruthy();
    expect(within(closeCard).getByText(/Import Close calls with their recordings/)).toBeTruthy();
    expect(within(closeCard).getByText(/Connected by Ada Lovelace on/).textContent).toBe('Connected by Ada Lovelace on Mar 3, 2025');
    const error = closeCard.querySelector('.integration-card__error')!;
    expect(error.textContent).toBe(`Last sync failed on ${formatDateTime(failedAt)}: Close refused the API key.`);
    expect(within(closeCard).getByRole('button', { name: 'Settings' })).toBeTruthy();
    expect(within(closeCard).getByRole('button', { name: 'Disconnect' })).toBeTruthy();
    expect(within(closeCard).queryByRole('button', { name: 'Connect' })).toBeNull();
  });

  it('disables Google Workspace’s Connect and says it is not set up when the server names no Google client id; Close and HubSpot can be connected', async () => {
    stubIntegrations(notConnected, { 'GET /api/web-config': () => webConfig(null) });
    await openPage();

    const connect = within(await findCard('Google Workspace')).getByRole('button', { name: 'Connect' }) as HTMLButtonElement;
    await waitFor(() => expect(connect.disabled).toBe(true));
    const note = document.getElementById(connect.getAttribute('aria-describedby')!)!;
    expect(note.textContent).toBe(WORKSPACE_NOT_SET_UP);
    expect(within(card('Google Workspace')).queryByRole('button', { name: 'Settings' })).toBeNull();
    for (const name of ['Close', 'HubSpot']) {
      const button = within(card(name)).getByRole('button', { name: 'Connect' }) as HTMLButtonElement;
      expect(button.disabled).toBe(false);
      expect(button.hasAttribute('aria-describedby')).toBe(false);
      expect(within(card(name)).queryByText(/is not available in this version/)).toBeNull();
    }
  });

  it('shows an expired connection as Expired with a Reconnect that asks for a new key', async () => {
    const api = stubIntegrations(connected({ status: 'expired' }));
    await openPage();

    const closeCard = await findCard('Close');
    expect(badge('Close')).toBe('Expired');
    fireEvent.click(within(closeCard).getByRole('button', { name: 'Reconnect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reconnect Close' });
    fireEvent.change(within(dialog).getByLabelText('Close API key'), { target: { value: 'api_new' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reconnect' }));
    expect(await screen.findByRole('dialog', { name: 'Reconnection Successful!' })).toBeTruthy();
    expect(api.sent('POST', '/api/integrations/close/connect').map((request) => request.body)).toEqual([{ apiKey: 'api_new' }]);
  });

  it('sends a request for another integration with the CSRF token, shows a refusal in the form, and thanks on success', async () => {
    const THANKS = 'Thank you. Your request has been sent to the Parlance team.';
    const NO_NAME = 'Name the integration you need (at most 200 characters).';
    let refuse = true;
    const api = stubIntegrations(notConnected, {
      'POST /api/integrations/requests': () =>
        refuse ? jsonResponse({ error: NO_NAME, message: NO_NAME }, 400) : jsonResponse({ success: true, requestId: '4d7a3c2e-8f1b-4a6d-9c3e-2b5f7a9d1e0c', message: THANKS }),
    });
    await openPage();

    fireEvent.click(within(await findCard('Need another integration?')).getByRole('button', { name: 'Request Integration' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request Integration' });
    const send = within(dialog).getByRole('button', { name: 'Send request' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Integration'), { target: { value: ' Salesforce ' } });
    fireEvent.change(within(dialog).getByLabelText('What would you use it for? (optional)'), { target: { value: 'Calls and tasks. ' } });
    fireEvent.click(send);
    expect(await within(dialog).findByText(NO_NAME)).toBeTruthy();

    refuse = false;
    fireEvent.click(send);
    const thanks = await screen.findByRole('dialog', { name: 'Request sent' });
    expect(thanks.textContent).toContain(THANKS);
    const sent = api.sent('POST', '/api/integrations/requests');
    expect(sent.map((request) => request.body)).toEqual([
      { integrationName: 'Salesforce', details: 'Calls and tasks.' },
      { integrationName: 'Salesforce', details: 'Calls and tasks.' },
    ]);
    expect(sent.every((request) => request.headers.get('X-CSRF-Token') === 'csrf-1')).toBe(true);
  });
});

describe('connecting Close', () => {
  it('asks for the API key and where to find it, sends it with the CSRF token, then shows success and the connected card', async () => {
    const api = stubIntegrations(notConnected);
    await openPage();

    fireEvent.click(within(await findCard('Close')).getByRole('button', { name: 'Connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect Close' });
    const key = within(dialog).getByLabelText('Close API key') as HTMLInputElement;
    expect(key.type).toBe('password');
    expect(document.getElementById(key.getAttribute('aria-describedby')!)!.textContent).toContain('Settings, then Developer, then API Keys');
    const submit = within(dialog).getByRole('button', { name: 'Connect' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);

    fireEvent.change(key, { target: { value: '  api_123  ' } });
    fireEvent.submit(key.closest('form')!);

    const success = await screen.findByRole('dialog', { name: 'Connection Successful' });
    expect(success.textContent).toContain('Close is connected.');
    const sent = api.sent('POST', '/api/integrations/close/connect');
    expect(sent.map((request) => request.body)).toEqual([{ apiKey: 'api_123' }]);
    expect(sent[0]!.headers.get('X-CSRF-Token')).toBe('csrf-1');
    await waitFor(() => expect(badge('Close')).toBe('Connected'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Connect Close' })).toBeNull());
  });

  it('shows the server’s sentence in the dialog when Close refuses the key, and keeps the dialog open', async () => {
    stubIntegrations(notConnected, {
      'POST /api/integrations/close/connect': () => jsonResponse({ error: REFUSED, message: REFUSED }, 400),
    });
    await openPage();

    fireEvent.click(within(await findCard('Close')).getByRole('button', { name: 'Connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect Close' });
    const key = within(dialog).getByLabelText('Close API key');
    fireEvent.change(key, { target: { value: 'wrong' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));

    expect(await within(dialog).findByText(REFUSED)).toBeTruthy();
    expect(key.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(key);
    expect(screen.getByRole('dialog', { name: 'Connect Close' })).toBe(dialog);
    expect(badge('Close')).toBe('Not Connected');

    // Typing again clears the error.
    fireEvent.change(key, { target: { value: 'wrong2' } });
    expect(within(dialog).queryByText(REFUSED)).toBeNull();
  });

  it('says Close could not be reached when the server says so (503)', async () => {
    const unreachable = 'Close could not be reached. Try again in a few minutes.';
    stubIntegrations(notConnected, {
      'POST /api/integrations/close/connect': () => jsonResponse({ error: unreachable, message: unreachable }, 503),
    });
    await openPage();

    fireEvent.click(within(await findCard('Close')).getByRole('button', { name: 'Connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect Close' });
    fireEvent.change(within(dialog).getByLabelText('Close API key'), { target: { value: 'api_123' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    expect(await within(dialog).findByText(unreachable)).toBeTruthy();
  });
});

describe('disconnecting Close (spec part 2 §4)', () => {
  it('asks for confirmation first: Cancel sends nothing, Disconnect disconnects and says so', async () => {
    const api = stubIntegrations(connected());
    await openPage();

    fireEvent.click(within(await findCard('Close')).getByRole('button', { name: 'Disconnect' }));
    let dialog = await screen.findByRole('dialog', { name: 'Disconnect Close' });
    expect(dialog.textContent).toContain('Are you sure you want to disconnect this integration?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.sent('DELETE', '/api/integrations/close/disconnect')).toEqual([]);

    fireEvent.click(within(card('Close')).getByRole('button', { name: 'Disconnect' }));
    dialog = await screen.findByRole('dialog', { name: 'Disconnect Close' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));

    expect(await screen.findByRole('dialog', { name: 'Disconnected' })).toBeTruthy();
    expect(api.sent('DELETE', '/api/integrations/close/disconnect')).toHaveLength(1);
    await waitFor(() => expect(badge('Close')).toBe('Not Connected'));
    expect(within(card('Close')).getByRole('button', { name: 'Connect' })).toBeTruthy();
  });

  it('fails silently (spec part 2 §8): the question closes and the card stays connected', async () => {
    const api = stubIntegrations(connected(), {
      'DELETE /api/integrations/close/disconnect': () => jsonResponse({ error: 'Boom.', message: 'Boom.' }, 503),
    });
    await openPage();

    fireEvent.click(within(await findCard('Close')).getByRole('button', { name: 'Disconnect' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Disconnect Close' })).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(api.sent('DELETE', '/api/integrations/close/disconnect')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(badge('Close')).toBe('Connected');
  });
});

describe('loading failure (spec part 2 §8)', () => {
  it('shows Loading Error with the server’s message, staying until closed; Try again asks again', async () => {
    let fail = true;
    const api = stubGateway(
      routeTable({
        'GET /api/integrations': () =>
          fail ? jsonResponse({ error: 'The integration service is unavailable.', message: 'The integration service is unavailable.' }, 503) : jsonResponse([close(notConnected), hubspot, workspace]),
      }),
    );
    await openPage();

    const dialog = await screen.findByRole('dialog', { name: 'Loading Error' });
    expect(within(dialog).getByText('Failed to load integrations.')).toBeTruthy();
    expect(within(dialog).getByText('The integration service is unavailable.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await findCard('Close')).toBeTruthy();
    expect(api.sent('GET', '/api/integrations')).toHaveLength(2);
  });

  it('says an unknown error occurred when the request itself fails', async () => {
    stubGateway((_request, url) => {
      if (url.pathname === '/api/integrations') throw new TypeError('Failed to fetch');
      return undefined;
    });
    await openPage();

    const dialog = await screen.findByRole('dialog', { name: 'Loading Error' });
    expect(within(dialog).getByText('Failed to load integrations.')).toBeTruthy();
    expect(within(dialog).getByText('An unknown error occurred while fetching integration data.')).toBeTruthy();
  });
});

describe('notification timers (spec part 2 §9)', () => {
  it('closes the connect success by itself after 6 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubIntegrations(notConnected);
    await openPage();

    fireEvent.click(within(await findCard('Close')).getByRole('button', { name: 'Connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect Close' });
    fireEvent.change(within(dialog).getByLabelText('Close API key'), { target: { value: 'api_123' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await screen.findByRole('dialog', { name: 'Connection Successful' });

    await act(async () => {
      vi.advanceTimersByTime(5_000);
    });
    expect(screen.getByRole('dialog', { name: 'Connection Successful' })).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(1_000);
    });
    // Past the close animation.
    await act(async () => {
      vi.advanceTimersByTime(250);
    });
    expect(screen.queryByRole('dialog', { name: 'Connection Successful' })).toBeNull();
  });

  it('keeps the loading error open past every timer', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubGateway(routeTable({ 'GET /api/integrations': () => jsonResponse({ error: 'Boom.', message: 'Boom.' }, 500) }));
    await openPage();

    await screen.findByRole('dialog', { name: 'Loading Error' });
    await act(async () => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByRole('dialog', { name: 'Loading Error' })).toBeTruthy();
  });
});

describe('Close settings view (spec part 2 §2.12, §4, §5)', () => {
  const putBodies = (api: ReturnType<typeof stubIntegrations>) => api.sent('PUT', '/api/integrations/close/settings').map((request) => request.body);

  async function openSettings(routes: Handlers = {}) {
    const api = stubIntegrations(connected(), routes);
    const view = await openPage();
    fireEvent.click(within(await findCard('Close')).getByRole('button', { name: 'Settings' }));
    await screen.findByRole('heading', { level: 1, name: 'Close Settings' });
    return { api, ...view };
  }

  it('opens from Settings as a page of its own at ?settings=close-crm, and the browser’s Back returns to the cards', async () => {
    const { router } = await openSettings();
    expect(router.state.location.pathname).toBe('/integrations');
    expect(router.state.location.search).toBe('?settings=close-crm');

    await act(() => router.navigate(-1));
    expect(await findCard('Close')).toBeTruthy();
    expect(router.state.location.search).toBe('');
  });

  it('goes back to the cards with its Back button, also when opened by its address', async () => {
    stubIntegrations(connected());
    const { router } = await openPage('/integrations?settings=close-crm');
    fireEvent.click(await screen.findByRole('button', { name: '← Back to Integrations' }));
    expect(await findCard('Close')).toBeTruthy();
    expect(router.state.location.search).toBe('');
  });

  it('shows the stored settings: switches, minimum duration with its minutes, statuses from Close and Never for the last sync', async () => {
    await openSettings();

    expect((screen.getByRole('switch', { name: 'Sync users and teams' }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole('switch', { name: 'Auto sync' }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole('switch', { name: 'Create activities' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('switch', { name: 'Update lead status' }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByLabelText('Minimum call duration (seconds)') as HTMLInputElement).value).toBe('60');
    expect(screen.getByText('≈ 1 min')).toBeTruthy();
    const successful = screen.getByLabelText('Successful call status') as HTMLSelectElement;
    await waitFor(() => expect(Array.from(successful.options).map((option) => option.textContent)).toEqual(['No status change', 'Won', 'Lost']));
    expect(successful.value).toBe('stat_won');
    expect((screen.getByLabelText('Unsuccessful call status') as HTMLSelectElement).value).toBe('');
    expect(screen.getByText('Last sync').nextElementSibling!.textContent).toBe('Never');
  });

  it('applies a switch at once, stamping the last sync date with now, and sends only that field', async () => {
    const { api } = await openSettings();

    fireEvent.click(screen.getByRole('switch', { name: 'Auto sync' }));
    expect((screen.getByRole('switch', { name: 'Auto sync' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('Last sync').nextElementSibling!.textContent).not.toBe('Never');
    await waitFor(() => expect(putBodies(api)).toEqual([{ autoSync: true }]));

    fireEvent.click(screen.getByRole('switch', { name: 'Create activities' }));
    await waitFor(() => expect(putBodies(api)).toEqual([{ autoSync: true }, { createActivities: false }]));
  });

  it('sends a chosen lead status alone', async () => {
    const { api } = await openSettings();
    const unsuccessful = screen.getByLabelText('Unsuccessful call status') as HTMLSelectElement;
    await waitFor(() => expect(unsuccessful.options).toHaveLength(3));
    fireEvent.change(unsuccessful, { target: { value: 'stat_lost' } });
    expect(unsuccessful.value).toBe('stat_lost');
    await waitFor(() => expect(putBodies(api)).toEqual([{ unsuccessfulCallStatus: 'stat_lost' }]));
  });

  it('reads the minimum duration when it is left: non-numeric becomes 0, out of range is clamped, an unchanged value sends nothing', async () => {
    const { api } = await openSettings();
    const duration = screen.getByLabelText('Minimum call duration (seconds)') as HTMLInputElement;

    fireEvent.change(duration, { target: { value: '90' } });
    expect(screen.getByText('≈ 1 min 30 s')).toBeTruthy();
    expect(putBodies(api)).toEqual([]);
    fireEvent.keyDown(duration, { key: 'Enter' });
    await waitFor(() => expect(putBodies(api)).toEqual([{ minCallDuration: 90 }]));

    fireEvent.blur(duration);
    fireEvent.change(duration, { target: { value: '5000' } });
    fireEvent.blur(duration);
    expect(duration.value).toBe('3600');
    expect(screen.getByText('≈ 60 min')).toBeTruthy();

    fireEvent.change(duration, { target: { value: 'abc' } });
    fireEvent.blur(duration);
    expect(duration.value).toBe('0');
    await waitFor(() => expect(putBodies(api)).toEqual([{ minCallDuration: 90 }, { minCallDuration: 3600 }, { minCallDuration: 0 }]));
  });

  it('keeps a change on screen and says nothing when the update fails (spec part 2 §8)', async () => {
    const { api } = await openSettings({
      'PUT /api/integrations/close/settings': () => jsonResponse({ error: 'Boom.', message: 'Boom.' }, 503),
    });
    fireEvent.click(screen.getByRole('switch', { name: 'Update lead status' }));
    await waitFor(() => expect(putBodies(api)).toEqual([{ updateLeadStatus: true }]));
    await act(async () => {});
    expect((screen.getByRole('switch', { name: 'Update lead status' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says settings are not yet available for an integration without a settings view', async () => {
    stubIntegrations(notConnected);
    await openPage('/integrations?settings=salesforce');
    expect(await screen.findByText('Settings for salesforce are not yet available.')).toBeTruthy();
  });
});

describe('Sync now in the Close settings view', () => {
  const STARTED = 'The sync has started. New Close calls show up as they are imported.';
  const ALREADY_RUNNING = 'A sync is already running.';
  const syncButton = () => screen.getByRole('button', { name: /^(Sync now|Syncing…)$/ }) as HTMLButtonElement;
  const lastSync = () => screen.getByText('Last sync').nextElementSibling!.textContent;
  const lastRun = () => document.querySelector('.integration-settings__last-run')!.textContent;

  /** The gateway with a connected Close whose connection the test changes through `server.connection`. */
  function stubServer(initial: Integration['connection'], routes: Handlers = {}) {
    const server = { connection: initial };
    const api = stubIntegrations(initial, {
      'GET /api/integrations': () => jsonResponse([close(server.connection), hubspot, workspace]),
      ...routes,
    });
    return { server, api, reads: () => api.sent('GET', '/api/integrations').length };
  }

  const openSettingsPage = async () => {
    const view = await openPage('/integrations?settings=close-crm');
    await screen.findByRole('heading', { level: 1, name: 'Close Settings' });
    return view;
  };

  it('starts a sync with the CSRF token, shows the server’s message, and reads again until the sync ends', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { server, api, reads } = stubServer(connected(), {
      'POST /api/integrations/close/sync': () => {
        server.connection = { ...server.connection, sync: { running: true, lastRun: null } };
        return jsonResponse({ started: true, message: STARTED }, 202);
      },
    });
    await openSettingsPage();

    expect(syncButton().textContent).toBe('Sync now');
    expect(syncButton().disabled).toBe(false);
    expect(lastRun()).toBe('');
    fireEvent.click(syncButton());

    const dialog = await screen.findByRole('dialog', { name: 'Sync started' });
    expect(dialog.textContent).toContain(STARTED);
    const sent = api.sent('POST', '/api/integrations/close/sync');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.get('X-CSRF-Token')).toBe('csrf-1');
    await waitFor(() => expect(syncButton().textContent).toBe('Syncing…'));
    expect(syncButton().disabled).toBe(true);

    // Still running: read again every 2 seconds.
    const before = reads();
    await act(async () => {
      vi.advanceTimersByTime(2_000);
    });
    await waitFor(() => expect(reads()).toBe(before + 1));

    // The sync ends: the date, what it did and the button follow the next reading.
    const syncedAt = '2025-03-05T10:15:00.000Z';
    server.connection = {
      ...server.connection,
      settings: { ...settings, lastSyncDate: syncedAt },
      sync: { running: false, lastRun: { imported: 1, alreadyImported: 0, skipped: 4, refused: 0 } },
    };
    await act(async () => {
      vi.advanceTimersByTime(2_000);
    });
    await waitFor(() => expect(syncButton().textContent).toBe('Sync now'));
    expect(syncButton().disabled).toBe(false);
    expect(lastRun()).toBe('Last run: 1 call imported, 0 already imported, 4 skipped, 0 refused');
    expect(lastSync()).toBe(formatLastSync(syncedAt));

    // Then it stops reading.
    const after = reads();
    await act(async () => {
      vi.advanceTimersByTime(10_000);
    });
    expect(reads()).toBe(after);
  });

  it('shows the server’s sentence as an error when the sync cannot start (409)', async () => {
    const { api } = stubServer(connected(), {
      'POST /api/integrations/close/sync': () => jsonResponse({ error: ALREADY_RUNNING, message: ALREADY_RUNNING }, 409),
    });
    await openSettingsPage();

    fireEvent.click(syncButton());
    const dialog = await screen.findByRole('dialog', { name: 'Sync not started' });
    expect(within(dialog).getByText(ALREADY_RUNNING)).toBeTruthy();
    expect(dialog.querySelector('.notification--error')).toBeTruthy();
    expect(api.sent('POST', '/api/integrations/close/sync')).toHaveLength(1);
    await waitFor(() => expect(syncButton().disabled).toBe(false));
    expect(syncButton().textContent).toBe('Sync now');
  });

  it('says what the last run did, and shows the last sync’s error with its time', async () => {
    const failedAt = '2025-03-04T08:30:00.000Z';
    const stopped = 'The last sync stopped: Close could not be reached.';
    stubServer(
      connected({
        settings: { ...settings, lastSyncDate: '2025-03-04T08:00:00.000Z' },
        sync: { running: false, lastRun: { imported: 3, alreadyImported: 1, skipped: 2, refused: 0 } },
        lastError: { message: stopped, at: failedAt },
      }),
    );
    await openSettingsPage();

    expect(lastRun()).toBe('Last run: 3 calls imported, 1 already imported, 2 skipped, 0 refused');
    expect(lastSync()).toBe(formatLastSync('2025-03-04T08:00:00.000Z'));
    const error = document.querySelector('.integration-settings__error')!;
    expect(error.classList.contains('alert')).toBe(true);
    expect(error.textContent).toBe(`Sync error: ${formatDateTime(failedAt)} — ${stopped}`);
    expect(error.querySelector('time')!.getAttribute('dateTime')).toBe(failedAt);
  });

  it('shows nothing of a last run or error before the first sync', async () => {
    stubServer(connected());
    await openSettingsPage();

    expect(lastRun()).toBe('');
    expect(screen.queryByText(/Last run:/)).toBeNull();
    expect(document.querySelector('.integration-settings__error')).toBeNull();
  });

  it('keeps Sync now disabled while the loaded integration says a sync runs, reading again until it ends, then stops', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { server, api, reads } = stubServer(connected({ sync: { running: true, lastRun: null } }));
    await openSettingsPage();

    expect(syncButton().textContent).toBe('Syncing…');
    expect(syncButton().disabled).toBe(true);
    const first = reads();
    await act(async () => {
      vi.advanceTimersByTime(2_000);
    });
    await waitFor(() => expect(reads()).toBe(first + 1));
    expect(syncButton().disabled).toBe(true);

    server.connection = { ...server.connection, sync: { running: false, lastRun: { imported: 0, alreadyImported: 2, skipped: 0, refused: 1 } } };
    await act(async () => {
      vi.advanceTimersByTime(2_000);
    });
    await waitFor(() => expect(syncButton().disabled).toBe(false));
    expect(syncButton().textContent).toBe('Sync now');
    expect(lastRun()).toBe('Last run: 0 calls imported, 2 already imported, 0 skipped, 1 refused');

    const after = reads();
    await act(async () => {
      vi.advanceTimersByTime(10_000);
    });
    expect(reads()).toBe(after);
    expect(api.sent('POST', '/api/integrations/close/sync')).toEqual([]);
  });

  it('stops reading again when the view is left while a sync runs', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { reads } = stubServer(connected({ sync: { running: true, lastRun: null } }));
    const { unmount } = await openSettingsPage();

    unmount();
    const after = reads();
    await act(async () => {
      vi.advanceTimersByTime(10_000);
    });
    expect(reads()).toBe(after);
  });
});

describe('Write-back state in the Close settings view', () => {
  const writebackState = () => document.querySelector('.integration-settings__writeback')!;

  const openWith = async (writeback: Integration['connection']['writeback']) => {
    stubIntegrations(connected({ writeback }));
    await openPage('/integrations?settings=close-crm');
    await screen.findByRole('heading', { level: 1, name: 'Close Settings' });
  };

  it('says nothing was written back before the first write', async () => {
    await openWith({ pending: 0, lastWrittenAt: null, lastError: null });
    expect(within(writebackState() as HTMLElement).getByRole('status').textContent).toBe('Nothing written back yet');
    expect(writebackState().querySelector('.alert')).toBeNull();
  });

  it('shows when a score was last written back and how many wait', async () => {
    const writtenAt = '2025-03-04T09:15:00.000Z';
    await openWith({ pending: 2, lastWrittenAt: writtenAt, lastError: null });
    expect(within(writebackState() as HTMLElement).getByRole('status').textContent).toBe(`Last written back: ${formatDateTime(writtenAt)} · 2 scores waiting`);
  });

  it('shows the last write given up with its time, in the write-back section', async () => {
    const failedAt = '2025-03-04T10:00:00.000Z';
    const refused = 'A call’s score could not be written back: Close answered HTTP 404 to PUT /lead/lead_x/: Lead not found.';
    await openWith({ pending: 1, lastWrittenAt: null, lastError: { message: refused, at: failedAt } });

    const section = screen.getByRole('region', { name: 'Write back to Close' });
    const error = section.querySelector('.integration-settings__error')!;
    expect(error.textContent).toBe(`Write-back error: ${formatDateTime(failedAt)} — ${refused}`);
    expect(within(section).getByRole('status').textContent).toBe('Nothing written back yet · 1 score waiting');
  });
});

// HubSpot, the second CRM: connected through its consent page (spec part 2 §2.12, §7).

const hubspotSettings: HubSpotSettings = { syncCalls: true, createTasks: false, minCallDuration: 45, lastSyncDate: null, account: 'acme.hubspot.com' };

const hubspotConnected = (overrides: Partial<Integration['connection']> = {}): Integration['connection'] => connected({ settings: hubspotSettings, ...overrides });
const hubspotWith = (connection: Integration['connection']): Integration => ({ ...hubspot, connection });

const CONSENT_URL = 'https://app.hubspot.com/oauth/authorize?client_id=abc&state=s-1';
const NOT_CONFIGURED = 'HubSpot cannot be connected on this Parlance server yet: its administrator must set HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET.';

/**
 * The gateway with Close not connected and HubSpot in `server.connection` (the test may change
 * it); disconnect changes it as the service does. The consent page's URL is CONSENT_URL.
 */
function stubHubSpot(initial: Integration['connection'], routes: Handlers = {}) {
  const server = { connection: initial };
  const api = stubIntegrations(notConnected, {
    'GET /api/integrations': () => jsonResponse([close(notConnected), hubspotWith(server.connection), workspace]),
    'GET /api/integrations/hubspot/oauth': () => jsonResponse({ url: CONSENT_URL }),
    'PUT /api/integrations/hubspot/settings': () => jsonResponse(hubspotSettings),
    'DELETE /api/integrations/hubspot/disconnect': () => {
      server.connection = notConnected;
      return jsonResponse({ success: true });
    },
    ...routes,
  });
  return { server, api, reads: () => api.sent('GET', '/api/integrations').length };
}

describe('connecting HubSpot (spec part 2 §7)', () => {
  let assign: MockInstance<(url: string) => void>;
  beforeEach(() => {
    assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
  });
  afterEach(() => {
    assign.mockRestore();
  });

  it('asks the gateway for HubSpot’s consent page, says it is working meanwhile, then sends the browser there', async () => {
    const answer = deferred<Response>();
    const { api } = stubHubSpot(notConnected, { 'GET /api/integrations/hubspot/oauth': () => answer.promise });
    await openPage();

    fireEvent.click(within(await findCard('HubSpot')).getByRole('button', { name: 'Connect' }));
    const working = within(card('HubSpot')).getByRole('button', { name: 'Connecting…' }) as HTMLButtonElement;
    expect(working.disabled).toBe(true);
    expect(working.getAttribute('aria-busy')).toBe('true');
    await waitFor(() => expect(api.sent('GET', '/api/integrations/hubspot/oauth')).toHaveLength(1));
    expect(assign).not.toHaveBeenCalled();

    answer.resolve(jsonResponse({ url: CONSENT_URL }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(CONSENT_URL));
    expect(assign).toHaveBeenCalledTimes(1);
    // No dialog of its own: Close's key dialog stays shut.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.sent('POST', '/api/integrations/close/connect')).toEqual([]);
  });

  it('shows the server’s sentence as an error when HubSpot cannot be connected (409), and Connect is ready again', async () => {
    const { api } = stubHubSpot(notConnected, {
      'GET /api/integrations/hubspot/oauth': () => jsonResponse({ error: NOT_CONFIGURED, message: NOT_CONFIGURED }, 409),
    });
    await openPage();

    fireEvent.click(within(await findCard('HubSpot')).getByRole('button', { name: 'Connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connection Failed' });
    expect(within(dialog).getByText(NOT_CONFIGURED)).toBeTruthy();
    expect(dialog.querySelector('.notification--error')).toBeTruthy();
    expect(api.sent('GET', '/api/integrations/hubspot/oauth')).toHaveLength(1);
    expect(assign).not.toHaveBeenCalled();
    const connect = within(card('HubSpot')).getByRole('button', { name: 'Connect' }) as HTMLButtonElement;
    expect(connect.disabled).toBe(false);
  });

  it('says HubSpot could not be connected when the request itself fails', async () => {
    stubHubSpot(notConnected, {
      'GET /api/integrations/hubspot/oauth': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await openPage();

    fireEvent.click(within(await findCard('HubSpot')).getByRole('button', { name: 'Connect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connection Failed' });
    expect(dialog.querySelector('.notification--error')).toBeTruthy();
    expect(dialog.querySelector('.notification__message')!.textContent).toBe('Unable to connect your HubSpot integration. Please try again.');
    expect(assign).not.toHaveBeenCalled();
  });

  it('reconnects an expired connection through the consent page too', async () => {
    const { api } = stubHubSpot(hubspotConnected({ status: 'expired' }));
    await openPage();

    await findCard('HubSpot');
    expect(badge('HubSpot')).toBe('Expired');
    fireEvent.click(within(card('HubSpot')).getByRole('button', { name: 'Reconnect' }));
    expect((within(card('HubSpot')).getByRole('button', { name: 'Reconnecting…' }) as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(assign).toHaveBeenCalledWith(CONSENT_URL));
    expect(api.sent('GET', '/api/integrations/hubspot/oauth')).toHaveLength(1);
  });
});

describe('disconnecting HubSpot (spec part 2 §4, §7)', () => {
  it('asks for confirmation, then disconnects HubSpot (not Close) and says so', async () => {
    const { api } = stubHubSpot(hubspotConnected());
    await openPage();

    const hubspotCard = await findCard('HubSpot');
    expect(badge('HubSpot')).toBe('Connected');
    fireEvent.click(within(hubspotCard).getByRole('button', { name: 'Disconnect' }));
    let dialog = await screen.findByRole('dialog', { name: 'Disconnect HubSpot' });
    expect(dialog.textContent).toContain('Are you sure you want to disconnect this integration?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.sent('DELETE', '/api/integrations/hubspot/disconnect')).toEqual([]);

    fireEvent.click(within(card('HubSpot')).getByRole('button', { name: 'Disconnect' }));
    dialog = await screen.findByRole('dialog', { name: 'Disconnect HubSpot' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));

    const done = await screen.findByRole('dialog', { name: 'Disconnected' });
    expect(done.textContent).toContain('HubSpot is disconnected.');
    const sent = api.sent('DELETE', '/api/integrations/hubspot/disconnect');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.get('X-CSRF-Token')).toBe('csrf-1');
    expect(api.sent('DELETE', '/api/integrations/close/disconnect')).toEqual([]);
    await waitFor(() => expect(badge('HubSpot')).toBe('Not Connected'));
    expect(within(card('HubSpot')).getByRole('button', { name: 'Connect' })).toBeTruthy();
  });

  it('fails silently (spec part 2 §8): the question closes and the card stays connected', async () => {
    const { api } = stubHubSpot(hubspotConnected(), {
      'DELETE /api/integrations/hubspot/disconnect': () => jsonResponse({ error: 'Boom.', message: 'Boom.' }, 503),
    });
    await openPage();

    fireEvent.click(within(await findCard('HubSpot')).getByRole('button', { name: 'Disconnect' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Disconnect HubSpot' })).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(api.sent('DELETE', '/api/integrations/hubspot/disconnect')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(badge('HubSpot')).toBe('Connected');
  });
});

describe('HubSpot settings view (spec part 2 §2.12, §4, §5)', () => {
  type HubSpotApi = ReturnType<typeof stubHubSpot>['api'];
  const putBodies = (api: HubSpotApi) => api.sent('PUT', '/api/integrations/hubspot/settings').map((request) => request.body);
  const lastSync = () => screen.getByText('Last sync').nextElementSibling!.textContent;

  async function openSettings(connection = hubspotConnected(), routes: Handlers = {}) {
    const stub = stubHubSpot(connection, routes);
    const view = await openPage();
    fireEvent.click(within(await findCard('HubSpot')).getByRole('button', { name: 'Settings' }));
    await screen.findByRole('heading', { level: 1, name: 'HubSpot Settings' });
    return { ...stub, ...view };
  }

  it('opens from Settings as a page of its own at ?settings=hubspot-crm, and its Back button returns to the cards', async () => {
    const { router } = await openSettings();
    expect(router.state.location.search).toBe('?settings=hubspot-crm');
    fireEvent.click(screen.getByRole('button', { name: '← Back to Integrations' }));
    expect(await findCard('HubSpot')).toBeTruthy();
    expect(router.state.location.search).toBe('');
  });

  it('shows the account, the stored settings, the minimum duration with its minutes and Never for the last sync', async () => {
    await openSettings();

    expect(screen.getByText('HubSpot account').nextElementSibling!.textContent).toBe('acme.hubspot.com');
    expect((screen.getByRole('switch', { name: 'Sync calls' }) as HTMLInputElement).checked).toBe(true);
    const tasks = screen.getByRole('switch', { name: 'Create tasks' }) as HTMLInputElement;
    expect(tasks.checked).toBe(false);
    expect(document.getElementById(tasks.getAttribute('aria-describedby')!)!.textContent).toContain('A note with the score is always written.');
    expect((screen.getByLabelText('Minimum call duration (seconds)') as HTMLInputElement).value).toBe('45');
    expect(screen.getByText('≈ 45 s')).toBeTruthy();
    expect(lastSync()).toBe('Never');
    // Close's own settings are not here.
    expect(screen.queryByRole('switch', { name: 'Auto sync' })).toBeNull();
    expect(screen.queryByLabelText('Successful call status')).toBeNull();
    expect(screen.getByRole('region', { name: 'Sync' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Write back to HubSpot' })).toBeTruthy();
  });

  it('shows no account when HubSpot did not name one, and the stored last sync date', async () => {
    const syncedAt = '2025-03-04T08:00:00.000Z';
    await openSettings(hubspotConnected({ settings: { ...hubspotSettings, account: '', lastSyncDate: syncedAt } }));
    expect(screen.queryByText('HubSpot account')).toBeNull();
    expect(lastSync()).toBe(formatLastSync(syncedAt));
  });

  it('applies a switch at once, stamping the last sync date with now, and sends only that field to HubSpot’s settings', async () => {
    const { api } = await openSettings();

    fireEvent.click(screen.getByRole('switch', { name: 'Create tasks' }));
    expect((screen.getByRole('switch', { name: 'Create tasks' }) as HTMLInputElement).checked).toBe(true);
    expect(lastSync()).not.toBe('Never');
    await waitFor(() => expect(putBodies(api)).toEqual([{ createTasks: true }]));
    expect(api.sent('PUT', '/api/integrations/hubspot/settings')[0]!.headers.get('X-CSRF-Token')).toBe('csrf-1');

    fireEvent.click(screen.getByRole('switch', { name: 'Sync calls' }));
    await waitFor(() => expect(putBodies(api)).toEqual([{ createTasks: true }, { syncCalls: false }]));
    expect(api.sent('PUT', '/api/integrations/close/settings')).toEqual([]);
  });

  it('reads the minimum duration when it is left, non-numeric becoming 0, and sends it alone', async () => {
    const { api } = await openSettings();
    const duration = screen.getByLabelText('Minimum call duration (seconds)') as HTMLInputElement;

    fireEvent.change(duration, { target: { value: '90' } });
    expect(screen.getByText('≈ 1 min 30 s')).toBeTruthy();
    fireEvent.keyDown(duration, { key: 'Enter' });
    await waitFor(() => expect(putBodies(api)).toEqual([{ minCallDuration: 90 }]));

    fireEvent.change(duration, { target: { value: 'abc' } });
    fireEvent.blur(duration);
    expect(duration.value).toBe('0');
    expect(screen.getByText('≈ 0 s')).toBeTruthy();
    await waitFor(() => expect(putBodies(api)).toEqual([{ minCallDuration: 90 }, { minCallDuration: 0 }]));
  });

  it('keeps a change on screen and says nothing when the update fails (spec part 2 §8)', async () => {
    const { api } = await openSettings(hubspotConnected(), {
      'PUT /api/integrations/hubspot/settings': () => jsonResponse({ error: 'Boom.', message: 'Boom.' }, 503),
    });
    fireEvent.click(screen.getByRole('switch', { name: 'Sync calls' }));
    await waitFor(() => expect(putBodies(api)).toEqual([{ syncCalls: false }]));
    await act(async () => {});
    expect((screen.getByRole('switch', { name: 'Sync calls' }) as HTMLInputElement).checked).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('warns that an expired connection syncs nothing until HubSpot is reconnected, keeping its settings', async () => {
    stubHubSpot(hubspotConnected({ status: 'expired' }));
    await openPage('/integrations?settings=hubspot-crm');
    await screen.findByRole('heading', { level: 1, name: 'HubSpot Settings' });

    const warning = document.querySelector('.alert--warning')!;
    expect(warning.textContent).toContain('HubSpot no longer accepts the access Parlance holds');
    expect(warning.textContent).toContain('Reconnect HubSpot from the integrations list');
    expect(document.querySelector('.integration-settings__header .badge')!.textContent).toBe('Expired');
    expect((screen.getByRole('switch', { name: 'Sync calls' }) as HTMLInputElement).checked).toBe(true);
  });

  it('says HubSpot is not connected when it is not', async () => {
    stubHubSpot(notConnected);
    await openPage('/integrations?settings=hubspot-crm');
    expect(await screen.findByText('HubSpot is not connected. Connect it from the integrations list to choose its settings.')).toBeTruthy();
    expect(screen.queryByRole('switch')).toBeNull();
  });
});

describe('Sync now and write-back in the HubSpot settings view', () => {
  const STARTED = 'The sync has started. New HubSpot calls show up as they are imported.';
  const NOT_SYNCABLE = 'HubSpot is not connected.';
  const syncButton = () => screen.getByRole('button', { name: /^(Sync now|Syncing…)$/ }) as HTMLButtonElement;
  const lastRun = () => document.querySelector('.integration-settings__last-run')!.textContent;

  const openSettingsPage = async () => {
    const view = await openPage('/integrations?settings=hubspot-crm');
    await screen.findByRole('heading', { level: 1, name: 'HubSpot Settings' });
    return view;
  };

  it('starts a sync through HubSpot’s sync route, shows the server’s message, and reads again until the sync ends', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { server, api, reads } = stubHubSpot(hubspotConnected(), {
      'POST /api/integrations/hubspot/sync': () => {
        server.connection = { ...server.connection, sync: { running: true, lastRun: null } };
        return jsonResponse({ started: true, message: STARTED }, 202);
      },
    });
    await openSettingsPage();

    expect(syncButton().textContent).toBe('Sync now');
    fireEvent.click(syncButton());

    const dialog = await screen.findByRole('dialog', { name: 'Sync started' });
    expect(dialog.textContent).toContain(STARTED);
    const sent = api.sent('POST', '/api/integrations/hubspot/sync');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.get('X-CSRF-Token')).toBe('csrf-1');
    expect(api.sent('POST', '/api/integrations/close/sync')).toEqual([]);
    await waitFor(() => expect(syncButton().textContent).toBe('Syncing…'));
    expect(syncButton().disabled).toBe(true);

    const before = reads();
    await act(async () => {
      vi.advanceTimersByTime(2_000);
    });
    await waitFor(() => expect(reads()).toBe(before + 1));

    const syncedAt = '2025-03-05T10:15:00.000Z';
    server.connection = {
      ...server.connection,
      settings: { ...hubspotSettings, lastSyncDate: syncedAt },
      sync: { running: false, lastRun: { imported: 2, alreadyImported: 1, skipped: 0, refused: 0 } },
    };
    await act(async () => {
      vi.advanceTimersByTime(2_000);
    });
    await waitFor(() => expect(syncButton().textContent).toBe('Sync now'));
    expect(syncButton().disabled).toBe(false);
    expect(lastRun()).toBe('Last run: 2 calls imported, 1 already imported, 0 skipped, 0 refused');
    expect(screen.getByText('Last sync').nextElementSibling!.textContent).toBe(formatLastSync(syncedAt));

    const after = reads();
    await act(async () => {
      vi.advanceTimersByTime(10_000);
    });
    expect(reads()).toBe(after);
  });

  it('shows the server’s sentence as an error when the sync cannot start (409)', async () => {
    const { api } = stubHubSpot(hubspotConnected(), {
      'POST /api/integrations/hubspot/sync': () => jsonResponse({ error: NOT_SYNCABLE, message: NOT_SYNCABLE }, 409),
    });
    await openSettingsPage();

    fireEvent.click(syncButton());
    const dialog = await screen.findByRole('dialog', { name: 'Sync not started' });
    expect(within(dialog).getByText(NOT_SYNCABLE)).toBeTruthy();
    expect(dialog.querySelector('.notification--error')).toBeTruthy();
    expect(api.sent('POST', '/api/integrations/hubspot/sync')).toHaveLength(1);
    await waitFor(() => expect(syncButton().disabled).toBe(false));
  });

  it('shows the last sync’s error, and the write-back’s state and error under Write back to HubSpot', async () => {
    const failedAt = '2025-03-04T08:30:00.000Z';
    const writtenAt = '2025-03-04T09:15:00.000Z';
    const stopped = 'The last sync stopped: HubSpot could not be reached.';
    const refused = 'A call’s score could not be written back: HubSpot answered HTTP 404.';
    stubHubSpot(
      hubspotConnected({
        sync: { running: false, lastRun: { imported: 1, alreadyImported: 0, skipped: 0, refused: 0 } },
        lastError: { message: stopped, at: failedAt },
        writeback: { pending: 1, lastWrittenAt: writtenAt, lastError: { message: refused, at: failedAt } },
      }),
    );
    await openSettingsPage();

    expect(lastRun()).toBe('Last run: 1 call imported, 0 already imported, 0 skipped, 0 refused');
    const sync = screen.getByRole('region', { name: 'Sync' });
    expect(sync.querySelector('.integration-settings__error')!.textContent).toBe(`Sync error: ${formatDateTime(failedAt)} — ${stopped}`);
    const writeBack = screen.getByRole('region', { name: 'Write back to HubSpot' });
    expect(within(writeBack).getByRole('status').textContent).toBe(`Last written back: ${formatDateTime(writtenAt)} · 1 score waiting`);
    expect(writeBack.querySelector('.integration-settings__error')!.textContent).toBe(`Write-back error: ${formatDateTime(failedAt)} — ${refused}`);
  });
});

// Google Workspace, the workspace suite: connected through Google's code client (spec part 2 §4, §7, §8).

const CLIENT_ID = 'parlance-web.apps.googleusercontent.com';
const GOOGLE_CODE = '4/0AcvDMrB-code';

const workspaceSettings: WorkspaceSettings = {
  monitoringEnabled: false,
  minCallDuration: 60,
  lastSyncDate: null,
  selectedFolder: null,
  tokenValid: true,
  refreshTokenValid: true,
  scopes: WORKSPACE_SCOPES.split(' '),
  account: 'ada@example.com',
};
const MEETINGS_FOLDER = { id: 'folder-1', name: 'Meet Recordings' };

const workspaceConnected = (overrides: Partial<WorkspaceSettings> = {}, connection: Partial<Integration['connection']> = {}): Integration['connection'] =>
  connected({ settings: { ...workspaceSettings, ...overrides }, ...connection });
const workspaceWith = (connection: Integration['connection']): Integration => ({ ...workspace, connection });

const FOLDERS = [
  { id: 'folder-1', name: 'Meet Recordings', isShared: false, owners: [{ displayName: 'Ada Lovelace', isMe: true }] },
  { id: 'folder-2', name: 'Sales team calls', isShared: true, owners: [{ displayName: 'Grace Hopper', isMe: false }, { displayName: 'Ada Lovelace', isMe: true }] },
];

/**
 * The gateway with a Google client id in its web config, Close and HubSpot not connected, and
 * Google Workspace in `server.connection` (the test may change it). Connect, reconnect and
 * disconnect change it as the service does; reconnect answers `server.folderStatus`.
 */
const SIGN_IN_STATE = 'sign-in-state-1';

function stubWorkspace(initial: Integration['connection'], routes: Handlers = {}) {
  const server = { connection: initial, folderStatus: { exists: true, accessible: true } };
  const api = stubIntegrations(notConnected, {
    'GET /api/web-config': () => webConfig(CLIENT_ID),
    'GET /api/integrations': () => jsonResponse([close(notConnected), hubspot, workspaceWith(server.connection)]),
    'POST /api/integrations/google-workspace/state': () => jsonResponse({ state: SIGN_IN_STATE }),
    'POST /api/integrations/google-workspace/connect': () => {
      server.connection = workspaceConnected();
      return jsonResponse(workspaceWith(server.connection));
    },
    'POST /api/integrations/google-workspace/reconnect': () => {
      server.connection = workspaceConnected({ selectedFolder: MEETINGS_FOLDER });
      return jsonResponse({ success: true, folderStatus: server.folderStatus, integration: workspaceWith(server.connection) });
    },
    'PUT /api/integrations/google-workspace/settings': () => jsonResponse(workspaceSettings),
    'GET /api/integrations/google-workspace/folders': () => jsonResponse({ success: true, folders: FOLDERS }),
    'DELETE /api/integrations/google-workspace/disconnect': () => {
      server.connection = notConnected;
      return jsonResponse({ success: true });
    },
    ...routes,
  });
  return { server, api, reads: () => api.sent('GET', '/api/integrations').length };
}

type WorkspaceApi = ReturnType<typeof stubWorkspace>['api'];
const message = (dialog: HTMLElement) => dialog.querySelector('.notification__message')!.textContent;
const detail = (dialog: HTMLElement) => dialog.querySelector('.notification__detail')?.textContent;

describe('Google Workspace’s connect and reconnect (spec part 2 §4, §8)', () => {
  let requestCode: MockInstance<(clientId: string, state: string) => Promise<string>>;
  let preload: MockInstance<() => void>;
  beforeEach(() => {
    requestCode = vi.spyOn(googleCodeClient, 'requestCode').mockResolvedValue(GOOGLE_CODE);
    preload = vi.spyOn(googleCodeClient, 'preload').mockImplementation(() => {});
  });
  afterEach(() => {
    requestCode.mockRestore();
    preload.mockRestore();
  });

  const connectButton = async () => within(await findCard('Google Workspace')).findByRole('button', { name: 'Connect' }) as Promise<HTMLButtonElement>;

  it('gets a code from Google’s code client with the web config’s client id, posts it with the CSRF token, and says Workspace is connected', async () => {
    const code = deferred<string>();
    requestCode.mockReturnValue(code.promise);
    const { api } = stubWorkspace(notConnected);
    await openPage();

    const connect = await connectButton();
    await waitFor(() => expect(preload).toHaveBeenCalled());
    expect(connect.hasAttribute('aria-describedby')).toBe(false);
    fireEvent.click(connect);
    const working = within(card('Google Workspace')).getByRole('button', { name: 'Connecting…' }) as HTMLButtonElement;
    expect(working.disabled).toBe(true);
    await waitFor(() => expect(requestCode).toHaveBeenCalledWith(CLIENT_ID, SIGN_IN_STATE));
    expect(api.sent('POST', '/api/integrations/google-workspace/state')).toHaveLength(1);

    code.resolve(GOOGLE_CODE);
    const success = await screen.findByRole('dialog', { name: 'Connection Successful' });
    expect(success.querySelector('.notification--success')).toBeTruthy();
    expect(message(success)).toBe('Google Workspace is connected.');
    const sent = api.sent('POST', '/api/integrations/google-workspace/connect');
    expect(sent.map((request) => request.body)).toEqual([{ code: GOOGLE_CODE, state: SIGN_IN_STATE }]);
    expect(sent[0]!.headers.get('X-CSRF-Token')).toBe('csrf-1');
    expect(api.sent('POST', '/api/integrations/google-workspace/reconnect')).toEqual([]);
    await waitFor(() => expect(badge('Google Workspace')).toBe('Connected'));
    expect(within(card('Google Workspace')).getByRole('button', { name: 'Settings' })).toBeTruthy();
  });

  it('shows the authentication error when the Google popup is closed or denied, sending nothing, and Connect is ready again', async () => {
    requestCode.mockRejectedValue(new GoogleCodeError('authentication', 'popup_closed'));
    const { api } = stubWorkspace(notConnected);
    await openPage();

    fireEvent.click(await connectButton());
    const dialog = await screen.findByRole('dialog', { name: 'Authentication Error' });
    expect(dialog.querySelector('.notification--error')).toBeTruthy();
    expect(message(dialog)).toBe('Failed to authenticate with Google Workspace.');
    expect(detail(dialog)).toBe('Please try the connection process again.');
    expect(api.sent('POST', '/api/integrations/google-workspace/connect')).toEqual([]);
    expect((within(card('Google Workspace')).getByRole('button', { name: 'Connect' }) as HTMLButtonElement).disabled).toBe(false);
    expect(badge('Google Workspace')).toBe('Not Connected');
  });

  it('says Connection Failed with the server’s sentence when Google refuses the code (400)', async () => {
    const refused = 'Google did not accept this sign-in. Start again from the integrations screen.';
    stubWorkspace(notConnected, {
      'POST /api/integrations/google-workspace/connect': () => jsonResponse({ error: refused, message: refused }, 400),
    });
    await openPage();

    fireEvent.click(await connectButton());
    const dialog = await screen.findByRole('dialog', { name: 'Connection Failed' });
    expect(dialog.querySelector('.notification--error')).toBeTruthy();
    expect(message(dialog)).toBe('Unable to connect your Google Workspace integration.');
    expect(detail(dialog)).toBe(refused);
    expect(badge('Google Workspace')).toBe('Not Connected');
  });

  it('opens no Google popup when the gateway gives no sign-in state, and says why', async () => {
    const unconfigured = 'Google Workspace cannot be connected on this Parlance server yet: its administrator must set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET.';
    stubWorkspace(notConnected, {
      'POST /api/integrations/google-workspace/state': () => jsonResponse({ error: unconfigured, message: unconfigured }, 409),
    });
    await openPage();

    fireEvent.click(await connectButton());
    const dialog = await screen.findByRole('dialog', { name: 'Connection Failed' });
    expect(detail(dialog)).toBe(unconfigured);
    expect(requestCode).not.toHaveBeenCalled();
  });

  it.each([
    ['the gateway cannot be reached', 'request'],
    ['Google’s sign-in script cannot be loaded', 'script'],
  ])('says Connection Error when %s', async (_case, failing) => {
    if (failing === 'script') requestCode.mockRejectedValue(new GoogleCodeError('load', 'Google sign-in could not be loaded.'));
    const { api } = stubWorkspace(notConnected, {
      'POST /api/integrations/google-workspace/connect': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await openPage();

    fireEvent.click(await connectButton());
    const dialog = await screen.findByRole('dialog', { name: 'Connection Error' });
    expect(message(dialog)).toBe('An error occurred while connecting...');
    expect(detail(dialog)).toBe('Please check your internet connection and try again.');
    expect(api.sent('POST', '/api/integrations/google-workspace/connect')).toHaveLength(failing === 'request' ? 1 : 0);
  });

  it.each([
    [{ exists: true, accessible: true }, 'success', 'Google Workspace is fully restored: it is connected again, with your settings and Drive folder kept.'],
    [
      { exists: false, accessible: false },
      'warning',
      'Google Workspace is connected again, but the Drive folder “Meet Recordings” no longer exists. Choose a new folder so meetings are imported again.',
    ],
    [
      { exists: true, accessible: false },
      'warning',
      'Google Workspace is connected again, but the Drive folder “Meet Recordings” is no longer accessible to this Google account. Choose a new folder so meetings are imported again.',
    ],
  ])('reconnects an expired connection through Google’s popup and says what became of the folder (%o)', async (folderStatus, kind, said) => {
    const { server, api } = stubWorkspace(workspaceConnected({ selectedFolder: MEETINGS_FOLDER, refreshTokenValid: false, tokenValid: false }, { status: 'expired' }));
    server.folderStatus = folderStatus;
    const { router } = await openPage();

    await findCard('Google Workspace');
    expect(badge('Google Workspace')).toBe('Expired');
    fireEvent.click(within(card('Google Workspace')).getByRole('button', { name: 'Reconnect' }));
    expect((within(card('Google Workspace')).getByRole('button', { name: 'Reconnecting…' }) as HTMLButtonElement).disabled).toBe(true);

    const dialog = await screen.findByRole('dialog', { name: 'Reconnection Successful!' });
    expect(dialog.querySelector(`.notification--${kind}`)).toBeTruthy();
    expect(message(dialog)).toBe(said);
    expect(api.sent('POST', '/api/integrations/google-workspace/reconnect').map((request) => request.body)).toEqual([{ code: GOOGLE_CODE, state: SIGN_IN_STATE }]);
    expect(api.sent('POST', '/api/integrations/google-workspace/connect')).toEqual([]);
    await waitFor(() => expect(badge('Google Workspace')).toBe('Connected'));

    const choose = within(dialog).queryByRole('button', { name: 'Choose a new folder' });
    if (kind === 'success') {
      expect(choose).toBeNull();
      return;
    }
    // The folder must be chosen again: the settings view is a button away.
    fireEvent.click(choose!);
    expect(await screen.findByRole('heading', { level: 1, name: 'Google Workspace Settings' })).toBeTruthy();
    expect(router.state.location.search).toBe('?settings=google-workspace');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('keeps the reconnect’s folder warning open past its kind’s timer, as it asks for a next step', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { server } = stubWorkspace(workspaceConnected({ selectedFolder: MEETINGS_FOLDER, refreshTokenValid: false }, { status: 'expired' }));
    server.folderStatus = { exists: false, accessible: false };
    await openPage();

    fireEvent.click(within(await findCard('Google Workspace')).getByRole('button', { name: 'Reconnect' }));
    await screen.findByRole('dialog', { name: 'Reconnection Successful!' });
    await act(async () => {
      vi.advanceTimersByTime(30_000);
    });
    // Past any close animation too.
    await act(async () => {
      vi.advanceTimersByTime(250);
    });
    expect(screen.getByRole('dialog', { name: 'Reconnection Successful!' })).toBeTruthy();
  });

  it.each([
    [
      'the server refuses (503)',
      'Reconnection Failed',
      'Unable to reconnect your Google Workspace integration.',
      'Google could not be reached. Try again in a few minutes.',
    ],
    ['the request fails', 'Reconnection Error', 'An error occurred while reconnecting...', 'Please check your internet connection and try again.'],
    ['the Google popup is closed', 'Authentication Error', 'Failed to authenticate with Google Workspace.', 'Please try the reconnection process again.'],
  ])('says why a reconnect failed when %s', async (failure, title, said, then) => {
    const unreachable = 'Google could not be reached. Try again in a few minutes.';
    if (failure === 'the Google popup is closed') requestCode.mockRejectedValue(new GoogleCodeError('authentication', 'popup_closed'));
    stubWorkspace(workspaceConnected({ refreshTokenValid: false }, { status: 'expired' }), {
      'POST /api/integrations/google-workspace/reconnect': () => {
        if (failure === 'the request fails') throw new TypeError('Failed to fetch');
        return jsonResponse({ error: unreachable, message: unreachable }, 503);
      },
    });
    await openPage();

    fireEvent.click(within(await findCard('Google Workspace')).getByRole('button', { name: 'Reconnect' }));
    const dialog = await screen.findByRole('dialog', { name: title });
    expect(dialog.querySelector('.notification--error')).toBeTruthy();
    expect(message(dialog)).toBe(said);
    expect(detail(dialog)).toBe(then);
    expect(badge('Google Workspace')).toBe('Expired');
    expect((within(card('Google Workspace')).getByRole('button', { name: 'Reconnect' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('disables an expired Reconnect too when the server names no Google client id', async () => {
    stubWorkspace(workspaceConnected({ refreshTokenValid: false }, { status: 'expired' }), { 'GET /api/web-config': () => webConfig(null) });
    await openPage();

    const reconnect = within(await findCard('Google Workspace')).getByRole('button', { name: 'Reconnect' }) as HTMLButtonElement;
    await waitFor(() => expect(reconnect.disabled).toBe(true));
    expect(document.getElementById(reconnect.getAttribute('aria-describedby')!)!.textContent).toBe(WORKSPACE_NOT_SET_UP);
    expect((within(card('Google Workspace')).getByRole('button', { name: 'Settings' }) as HTMLButtonElement).disabled).toBe(false);
    expect(preload).not.toHaveBeenCalled();
    expect(requestCode).not.toHaveBeenCalled();
  });
});

describe('disconnecting Google Workspace (spec part 2 §4)', () => {
  it('asks for confirmation, then disconnects Workspace (not the CRMs) and says so', async () => {
    const { api } = stubWorkspace(workspaceConnected());
    await openPage();

    fireEvent.click(within(await findCard('Google Workspace')).getByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect Google Workspace' });
    expect(dialog.textContent).toContain('Are you sure you want to disconnect this integration?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));

    const done = await screen.findByRole('dialog', { name: 'Disconnected' });
    expect(done.textContent).toContain('Google Workspace is disconnected.');
    const sent = api.sent('DELETE', '/api/integrations/google-workspace/disconnect');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.get('X-CSRF-Token')).toBe('csrf-1');
    expect(api.sent('DELETE', '/api/integrations/close/disconnect')).toEqual([]);
    expect(api.sent('DELETE', '/api/integrations/hubspot/disconnect')).toEqual([]);
    await waitFor(() => expect(badge('Google Workspace')).toBe('Not Connected'));
  });

  it('fails silently (spec part 2 §8): the question closes and the card stays connected', async () => {
    const { api } = stubWorkspace(workspaceConnected(), {
      'DELETE /api/integrations/google-workspace/disconnect': () => jsonResponse({ error: 'Boom.', message: 'Boom.' }, 503),
    });
    await openPage();

    fireEvent.click(within(await findCard('Google Workspace')).getByRole('button', { name: 'Disconnect' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Disconnect Google Workspace' })).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(api.sent('DELETE', '/api/integrations/google-workspace/disconnect')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(badge('Google Workspace')).toBe('Connected');
  });
});

describe('Google Workspace settings view (spec part 2 §2.12, §3, §4)', () => {
  const putBodies = (api: WorkspaceApi) => api.sent('PUT', '/api/integrations/google-workspace/settings').map((request) => request.body);
  const fact = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling!;
  const syncButton = () => screen.getByRole('button', { name: /^(Sync now|Syncing…)$/ }) as HTMLButtonElement;

  async function openSettings(connection = workspaceConnected(), routes: Handlers = {}) {
    const stub = stubWorkspace(connection, routes);
    const view = await openPage();
    fireEvent.click(within(await findCard('Google Workspace')).getByRole('button', { name: 'Settings' }));
    await screen.findByRole('heading', { level: 1, name: 'Google Workspace Settings' });
    return { ...stub, ...view };
  }

  it('opens at ?settings=google-workspace with the account, token status, access in plain words and the stored settings; nothing is written back', async () => {
    const syncedAt = '2025-03-04T08:00:00.000Z';
    const { router } = await openSettings(workspaceConnected({ minCallDuration: 90, lastSyncDate: syncedAt, monitoringEnabled: true, selectedFolder: MEETINGS_FOLDER }));
    expect(router.state.location.search).toBe('?settings=google-workspace');

    expect(fact('Google account').textContent).toBe('ada@example.com');
    expect(fact('Token status').textContent).toBe('Access valid');
    expect(Array.from(fact('Access granted').querySelectorAll('li')).map((item) => item.textContent)).toEqual([
      'Know who you are on Google',
      'See your e-mail address',
      'See your Google Calendar events (read-only)',
      'See and download your Google Drive files (read-only)',
      'See your Google Docs documents (read-only)',
    ]);
    expect(fact('Drive folder').textContent).toBe('Meet Recordings');
    expect((screen.getByRole('switch', { name: 'Monitoring' }) as HTMLInputElement).checked).toBe(true);
    const duration = screen.getByLabelText('Minimum call duration (seconds)') as HTMLInputElement;
    expect(duration.value).toBe('90');
    expect(document.getElementById(duration.getAttribute('aria-describedby')!)!.textContent).toContain('Meetings shorter than this are not imported.');
    expect(screen.getByText('≈ 1 min 30 s')).toBeTruthy();
    expect(fact('Last sync').textContent).toBe(formatLastSync(syncedAt));
    expect(screen.getAllByRole('region').map((region) => within(region).getByRole('heading').textContent)).toEqual(['Google account', 'Drive folder', 'Sync']);
    expect(screen.queryByText(/Write back/)).toBeNull();
    expect(document.querySelector('.integration-settings__writeback')).toBeNull();
  });

  it.each([
    [{ tokenValid: false, refreshTokenValid: true }, 'Access refreshed when next used', false],
    [{ tokenValid: false, refreshTokenValid: false }, 'Expired — reconnect', true],
  ])('shows the token status %o as %s', async (tokens, status, expired) => {
    await openSettings(workspaceConnected(tokens, expired ? { status: 'expired' } : {}));
    expect(fact('Token status').textContent).toBe(status);
    const warning = document.querySelector('.alert--warning');
    if (!expired) {
      expect(warning).toBeNull();
      return;
    }
    expect(warning!.textContent).toContain('Reconnect Google Workspace from the integrations list; these settings are kept.');
    expect(document.querySelector('.integration-settings__header .badge')!.textContent).toBe('Expired');
  });

  it('says which access Google did not grant, which meetings need', async () => {
    await openSettings(workspaceConnected({ scopes: ['openid', 'https://www.googleapis.com/auth/userinfo.email', 'https://www.googleapis.com/auth/drive.readonly'] }));
    expect(document.querySelector('.integration-settings__missing-scopes')!.textContent).toContain('Google did not grant: See your Google Docs documents (read-only).');
  });

  it('lists the Drive folders with their owners and Shared, and sends the chosen folder’s id and name alone, showing it at once', async () => {
    const { api } = await openSettings();
    expect(fact('Drive folder').textContent).toBe('None chosen');

    fireEvent.click(screen.getByRole('button', { name: 'Choose folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a Drive folder' });
    const mine = await within(dialog).findByRole('button', { name: 'Meet Recordings' });
    const shared = within(dialog).getByRole('button', { name: 'Sales team calls' });
    expect(document.getElementById(mine.getAttribute('aria-describedby')!)!.textContent).toBe('Owner: You');
    expect(document.getElementById(shared.getAttribute('aria-describedby')!)!.textContent).toBe('Shared · Owners: Grace Hopper, You');
    expect(within(dialog).getByRole('list', { name: 'Drive folders' })).toBeTruthy();
    expect(api.sent('GET', '/api/integrations/google-workspace/folders')).toHaveLength(1);

    fireEvent.click(shared);
    expect(fact('Drive folder').textContent).toBe('Sales team calls');
    expect(fact('Last sync').textContent).not.toBe('Never');
    await waitFor(() => expect(putBodies(api)).toEqual([{ selectedFolderId: 'folder-2', selectedFolderName: 'Sales team calls' }]));
    expect(api.sent('PUT', '/api/integrations/google-workspace/settings')[0]!.headers.get('X-CSRF-Token')).toBe('csrf-1');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Opened again, the list marks the folder now watched.
    fireEvent.click(screen.getByRole('button', { name: 'Choose folder' }));
    const again = await screen.findByRole('dialog', { name: 'Choose a Drive folder' });
    const current = await within(again).findByRole('button', { name: 'Sales team calls' });
    expect(current.getAttribute('aria-current')).toBe('true');
    expect(document.getElementById(current.getAttribute('aria-describedby')!)!.textContent).toBe('Shared · Owners: Grace Hopper, You · Current folder');
    fireEvent.click(within(again).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(putBodies(api)).toHaveLength(1);
  });

  it('shows an empty list with a neutral hint, and nothing else, when the folders cannot be read (spec part 2 §8)', async () => {
    const gone = 'Google no longer accepts the access Parlance holds.';
    await openSettings(workspaceConnected(), {
      'GET /api/integrations/google-workspace/folders': () => jsonResponse({ error: gone, message: gone }, 409),
    });

    fireEvent.click(screen.getByRole('button', { name: 'Choose folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a Drive folder' });
    expect(await within(dialog).findByText('No Drive folders to show.')).toBeTruthy();
    expect(within(dialog).queryByRole('list')).toBeNull();
    expect(screen.queryByText(gone)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
  });

  it('applies Monitoring and the minimum duration at once and sends each alone; a failed update is silent', async () => {
    const { api } = await openSettings(workspaceConnected(), {
      'PUT /api/integrations/google-workspace/settings': () => jsonResponse({ error: 'Boom.', message: 'Boom.' }, 503),
    });

    fireEvent.click(screen.getByRole('switch', { name: 'Monitoring' }));
    expect((screen.getByRole('switch', { name: 'Monitoring' }) as HTMLInputElement).checked).toBe(true);
    await waitFor(() => expect(putBodies(api)).toEqual([{ monitoringEnabled: true }]));

    const duration = screen.getByLabelText('Minimum call duration (seconds)');
    fireEvent.change(duration, { target: { value: '120' } });
    fireEvent.blur(duration);
    await waitFor(() => expect(putBodies(api)).toEqual([{ monitoringEnabled: true }, { minCallDuration: 120 }]));
    await act(async () => {});
    expect((screen.getByRole('switch', { name: 'Monitoring' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.sent('PUT', '/api/integrations/close/settings')).toEqual([]);
  });

  it('keeps Sync now disabled until a Drive folder is chosen, saying so', async () => {
    const { api } = await openSettings();

    expect(syncButton().disabled).toBe(true);
    expect(document.getElementById(syncButton().getAttribute('aria-describedby')!)!.textContent).toBe('Choose a Drive folder first');

    fireEvent.click(screen.getByRole('button', { name: 'Choose folder' }));
    fireEvent.click(await within(await screen.findByRole('dialog', { name: 'Choose a Drive folder' })).findByRole('button', { name: 'Meet Recordings' }));
    expect(syncButton().disabled).toBe(false);
    expect(syncButton().hasAttribute('aria-describedby')).toBe(false);
    expect(screen.queryByText('Choose a Drive folder first')).toBeNull();
    expect(api.sent('POST', '/api/integrations/google-workspace/sync')).toEqual([]);
  });

  it('starts a sync through Workspace’s sync route with a folder, and says what the last run imported in meetings', async () => {
    const STARTED = 'The sync has started. New Meet transcripts show up as meetings as they are imported.';
    const { api } = await openSettings(
      workspaceConnected({ selectedFolder: MEETINGS_FOLDER }, { sync: { running: false, lastRun: { imported: 1, alreadyImported: 2, skipped: 0, refused: 0 } } }),
      { 'POST /api/integrations/google-workspace/sync': () => jsonResponse({ started: true, message: STARTED }, 202) },
    );

    expect(document.querySelector('.integration-settings__last-run')!.textContent).toBe('Last run: 1 meeting imported, 2 already imported, 0 skipped, 0 refused');
    fireEvent.click(syncButton());
    const dialog = await screen.findByRole('dialog', { name: 'Sync started' });
    expect(dialog.textContent).toContain(STARTED);
    const sent = api.sent('POST', '/api/integrations/google-workspace/sync');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.get('X-CSRF-Token')).toBe('csrf-1');
    expect(api.sent('POST', '/api/integrations/close/sync')).toEqual([]);
    expect(api.sent('POST', '/api/integrations/hubspot/sync')).toEqual([]);
  });

  it('says Google Workspace is not connected when it is not', async () => {
    stubWorkspace(notConnected);
    await openPage('/integrations?settings=google-workspace');
    expect(await screen.findByText('Google Workspace is not connected. Connect it from the integrations list to choose its settings.')).toBeTruthy();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Choose folder' })).toBeNull();
  });
});
