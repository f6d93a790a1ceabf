/**
 * The integrations screen in Chromium against the standalone product (issue 16, first slice),
 * with a local stand-in for Close (a third-party SaaS tests cannot reach; it speaks Close's
 * documented API, services/integration/test/support/close-standin.ts): the demo manager sees the
 * three integrations, asks for another one, is refused with a key Close does not accept, connects Close with one it
 * does, changes its settings (each change stored, the lead statuses read from Close), and
 * disconnects it after the spec's question. Then a call made in Close by a representative of a
 * demo team comes in on Sync now, shows scored on the Calls screen, and its score goes back to
 * Close as a note on its lead with the lead's status set. The list and the settings view fit 375,
 * 768 and 1440 px. Screenshots are saved in .run/screenshots.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCloseStandin, STANDIN_SEED, type CloseCallRecord, type CloseStandin } from '../services/integration/test/support/close-standin.js';
import { HUBSPOT_STANDIN_SEED, startHubSpotStandin, type HubSpotStandin } from '../services/integration/test/support/hubspot-standin.js';
import { synthesizeCall, type SynthesizedCall } from '../services/transcription/test/support/synthesized-call.js';
import { explainFailures, horizontalOverflow, signInAsDemo, type StandaloneBrowser, startStandaloneBrowser, WIDTHS } from './support/standalone-browser.js';
import { waitFor } from './support/wait-for.js';

interface Listed {
  id: string;
  connection: { status: string; by: { email: string } | null; settings: Record<string, unknown> | null };
}

let product: StandaloneBrowser;
let close: CloseStandin;
let hubspot: HubSpotStandin;
let recording: SynthesizedCall;
explainFailures(() => product);

/** Maya Okafor of the demo team Inbound Sales, as a user of the Close organization. */
const MAYA = { id: 'user_maya', email: 'maya.okafor@parlance.local', first_name: 'Maya', last_name: 'Okafor', organizations: ['orga_standin'] };

beforeAll(async () => {
  close = await startCloseStandin({ users: [...STANDIN_SEED.users, MAYA] });
  hubspot = await startHubSpotStandin({
    owners: [...HUBSPOT_STANDIN_SEED.owners, { id: 'own_maya', email: MAYA.email, firstName: 'Maya', lastName: 'Okafor', userId: 7009, archived: false }],
  });
  [product, recording] = await Promise.all([
    startStandaloneBrowser({
      IDENTITY_DEMO_ACCOUNT: 'true',
      CLOSE_API_URL: close.baseUrl,
      HUBSPOT_CLIENT_ID: HUBSPOT_STANDIN_SEED.clientId,
      HUBSPOT_CLIENT_SECRET: HUBSPOT_STANDIN_SEED.clientSecret,
      HUBSPOT_AUTHORIZE_URL: hubspot.authorizeUrl,
      HUBSPOT_API_URL: hubspot.baseUrl,
    }),
    mkdtemp(path.join(tmpdir(), 'parlance-hubspot-call-')).then((dir) => synthesizeCall(dir, { script: 'sales', turns: 6, seed: 11, name: 'hubspot-call' })),
  ]);
}, 180_000);

afterAll(async () => {
  await product?.stop();
  await close?.close();
  await hubspot?.close();
});

/** An integration's connection as the API reports it, read with the page's session. */
async function connectionOf(page: Page, id: string): Promise<Listed['connection']> {
  const listed = (await page.evaluate(async () => (await fetch('/api/integrations')).json())) as Listed[];
  return listed.find((integration) => integration.id === id)!.connection;
}

const closeConnection = (page: Page) => connectionOf(page, 'close-crm');

const closeCard = (page: Page) => page.getByRole('article', { name: 'Close' });
const hubspotCard = (page: Page) => page.getByRole('article', { name: 'HubSpot' });

interface ListedCall {
  id: string;
  score: number | null;
  is_successful: boolean | null;
  contact_id: string;
  status: string;
}

/**
 * The imported call of `contactId` once the Calls screen shows it scored (the Inbound Sales team,
 * read again until then), with the same score the API gives.
 */
async function shownScored(page: Page, contactId: string): Promise<ListedCall> {
  return waitFor(
    `the call with ${contactId} to show scored on the Calls screen`,
    async () => {
      const listed = (await page.evaluate(async () => (await fetch('/api/calls/?limit=100')).json())) as { data: ListedCall[] };
      const call = listed.data.find((candidate) => candidate.contact_id === contactId && candidate.status === 'scored');
      if (!call) return undefined;
      await page.goto(`${product.base}/activities`);
      await page.getByRole('tabpanel').getByLabel('Team', { exact: true }).selectOption({ label: 'Inbound Sales' });
      const table = page.getByRole('table', { name: 'Calls' });
      await table.and(page.locator('[aria-busy="false"]')).waitFor();
      const row = table.getByRole('row').filter({ has: page.getByRole('button', { name: `Copy link to call ${call.id}` }) });
      if ((await row.count()) !== 1) return undefined;
      const headers = (await table.getByRole('columnheader').allTextContents()).map((header) => header.trim());
      const scoreCell = (await row.getByRole('cell').allTextContents())[headers.indexOf('Score')]?.trim();
      expect(scoreCell).toBe(call.score!.toFixed(1));
      return call;
    },
    90_000,
  );
}

/** Connects Close with the stand-in's key through the API, as the page's session. */
async function connectClose(page: Page): Promise<number> {
  return page.evaluate(async (apiKey) => {
    const { csrfToken } = (await (await fetch('/api/csrf-token')).json()) as { csrfToken: string };
    const response = await fetch('/api/integrations/close/connect', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken }, body: JSON.stringify({ apiKey }) });
    return response.status;
  }, STANDIN_SEED.apiKey);
}

describe('the integrations screen', () => {
  it('connects Close with a key Close accepts, changes its settings, and disconnects it', async () => {
    const { page, problems } = await product.open();
    await signInAsDemo(page, product.base);
    await page.goto(`${product.base}/integrations`);
    for (const name of ['Close', 'HubSpot', 'Google Workspace']) {
      await expect.poll(() => page.getByRole('article', { name }).getByText('Not Connected', { exact: true }).count(), { message: name }).toBe(1);
    }
    await product.screenshot(page, 'integrations');

    // Need another integration? The request is sent and thanked for.
    await page.getByRole('button', { name: 'Request Integration' }).click();
    const requestForm = page.getByRole('dialog', { name: 'Request Integration' });
    await requestForm.getByLabel('Integration', { exact: true }).fill('Salesforce');
    await requestForm.getByLabel('What would you use it for? (optional)').fill('Our EMEA team logs its calls there.');
    await requestForm.getByRole('button', { name: 'Send request' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Request sent' }).count()).toBe(1);
    await page.getByRole('dialog', { name: 'Request sent' }).getByRole('button', { name: 'OK' }).click();

    await closeCard(page).getByRole('button', { name: 'Connect' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect Close' });
    await dialog.getByLabel('Close API key').fill('api_not_a_real_key');
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => dialog.getByText('Close did not accept this API key', { exact: false }).count()).toBe(1);
    await dialog.getByLabel('Close API key').fill(STANDIN_SEED.apiKey);
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => closeCard(page).getByText('Connected', { exact: true }).count()).toBe(1);
    expect(await closeConnection(page)).toMatchObject({ status: 'connected', settings: { minCallDuration: 60, autoSync: false } });
    // Whatever else happens, the key never comes back from the API.
    expect(JSON.stringify(await page.evaluate(async () => (await fetch('/api/integrations')).text()))).not.toContain(STANDIN_SEED.apiKey);
    await page.keyboard.press('Escape');

    await closeCard(page).getByRole('button', { name: 'Settings' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Close Settings' }).count()).toBe(1);
    await page.getByRole('switch', { name: 'Auto sync' }).check();
    await waitFor('auto sync to be stored', async () => ((await closeConnection(page)).settings?.autoSync === true ? true : undefined));
    const duration = page.getByLabel('Minimum call duration (seconds)');
    await duration.fill('90');
    await duration.press('Enter');
    await expect.poll(() => page.getByText('≈ 1 min 30 s').count()).toBe(1);
    await waitFor('the duration to be stored', async () => ((await closeConnection(page)).settings?.minCallDuration === 90 ? true : undefined));
    await page.getByLabel('Successful call status', { exact: true }).selectOption({ label: 'Qualified' });
    await waitFor('the status to be stored', async () => ((await closeConnection(page)).settings?.successfulCallStatus === 'stat_qualified' ? true : undefined));
    expect(close.requests.some((request) => request.path === '/status/lead/')).toBe(true);
    await product.screenshot(page, 'integrations-close-settings');

    await page.goBack();
    await closeCard(page).getByRole('button', { name: 'Disconnect' }).click();
    const question = page.getByRole('dialog').filter({ hasText: 'Are you sure you want to disconnect this integration?' });
    await question.getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => closeCard(page).getByText('Not Connected', { exact: true }).count()).toBe(1);
    expect(await closeConnection(page)).toMatchObject({ status: 'not_connected', settings: null });
    // The refused key is answered 400, which Chromium reports as a failed resource; nothing else may go wrong.
    expect(problems.filter((problem) => !problem.includes('status of 400'))).toEqual([]);
    expect(problems).toHaveLength(1);
    await page.context().close();
  }, 120_000);

  it.each(Object.entries(WIDTHS))('fits the list and the settings view at %s width', async (name, width) => {
    const { page } = await product.open(width);
    await signInAsDemo(page, product.base);
    await page.goto(`${product.base}/integrations`);
    await expect.poll(() => closeCard(page).getByRole('button', { name: 'Connect' }).count()).toBe(1);
    expect(await horizontalOverflow(page), 'the integrations list is wider than the window').toBeLessThanOrEqual(0);
    await product.screenshot(page, `integrations-${name}`);
    await page.goto(`${product.base}/integrations?settings=google-workspace`);
    await expect.poll(() => page.getByText('Google Workspace is not connected. Connect it from the integrations list to choose its settings.').count()).toBe(1);
    expect(await horizontalOverflow(page), 'the Google Workspace settings are wider than the window').toBeLessThanOrEqual(0);

    // Close connected through the API (the first test connects it through the screen), then its settings view.
    expect(await connectClose(page)).toBe(200);
    await page.goto(`${product.base}/integrations?settings=close-crm`);
    await expect.poll(() => page.getByRole('heading', { name: 'Close Settings' }).count()).toBe(1);
    await expect.poll(() => page.getByLabel('Successful call status', { exact: true }).locator('option', { hasText: 'Qualified' }).count()).toBe(1);
    expect(await horizontalOverflow(page), 'the Close settings are wider than the window').toBeLessThanOrEqual(0);
    await product.screenshot(page, `integrations-close-settings-${name}`);
    await page.context().close();
  }, 60_000);
});

describe('from a Close call to its score, and back to Close', () => {
  /** A discovery call Maya made in Close an hour and a half ago, with Close's transcript. */
  const mayasCall: CloseCallRecord = {
    id: 'acti_maya_1',
    lead_id: 'lead_globex',
    contact_id: 'cont_morgan',
    user_id: MAYA.id,
    direction: 'outbound',
    duration: 95,
    recording_url: null,
    date_created: new Date(Date.now() - 90 * 60_000).toISOString(),
    note: 'Discovery call',
    recording_transcript: {
      utterances: [
        { speaker_label: 'Maya Okafor', speaker_side: 'close-user', start: 1, end: 6, text: 'Thank you for calling Parlance, this is Maya. May I ask who I am speaking with?' },
        { speaker_label: 'Morgan', speaker_side: 'contact', start: 6, end: 12, text: 'Morgan from Globex. We review our support calls by hand and it takes far too long.' },
        { speaker_label: 'Maya Okafor', speaker_side: 'close-user', start: 12, end: 20, text: 'Understood, Morgan. How do you review your calls now? I would suggest a short demo. Would Thursday at 10am suit you?' },
        { speaker_label: 'Morgan', speaker_side: 'contact', start: 20, end: 95, text: 'Thursday at 10 works, we agree to the demo.' },
      ],
      summary_text: '',
      summary_html: '',
    },
  };

  it('imports a call on Sync now, shows it scored on the Calls screen, and writes its score back to Close', async () => {
    close.addCall(mayasCall);
    const { page, problems } = await product.open();
    await signInAsDemo(page, product.base);
    expect(await connectClose(page)).toBe(200);

    await page.goto(`${product.base}/integrations?settings=close-crm`);
    await expect.poll(() => page.getByRole('heading', { name: 'Close Settings' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Nothing written back yet' }).count()).toBe(1);
    await page.getByRole('switch', { name: 'Create activities' }).check();
    await page.getByRole('switch', { name: 'Update lead status' }).check();
    await expect.poll(() => page.getByLabel('Successful call status', { exact: true }).locator('option', { hasText: 'Qualified' }).count()).toBe(1);
    await page.getByLabel('Successful call status', { exact: true }).selectOption({ label: 'Qualified' });
    await page.getByLabel('Unsuccessful call status', { exact: true }).selectOption({ label: 'Bad Fit' });
    await waitFor('the write-back settings to be stored', async () => {
      const { settings } = await closeConnection(page);
      return settings?.createActivities && settings.updateLeadStatus && settings.successfulCallStatus === 'stat_qualified' && settings.unsuccessfulCallStatus === 'stat_bad_fit' ? true : undefined;
    });

    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Sync started' }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByText(/^Last run: 1 call imported/).count(), { timeout: 30_000 }).toBe(1);
    expect(await page.getByRole('button', { name: 'Sync now' }).isEnabled()).toBe(true);
    await product.screenshot(page, 'integrations-close-synced');

    // The Calls screen lists it like an upload, scored once the pipeline is through.
    const call = await shownScored(page, 'cont_morgan');
    await product.screenshot(page, 'integrations-close-call-scored');

    // Close gets the score as a note on the call's lead, and the lead's status from the call's success.
    const [note] = await waitFor('the note written back to Close', async () => (close.notes.length > 0 ? close.notes : undefined), 30_000);
    expect(note!.lead_id).toBe('lead_globex');
    expect(note!.note.startsWith(`Parlance score: ${Math.round(call.score! * 10) / 10}/10`)).toBe(true);
    expect(note!.note).toContain(`Parlance activity ${call.id}, scored `);
    expect(call.is_successful).not.toBeNull();
    await waitFor('the lead’s status set in Close', async () => (close.leadStatusChanges.length > 0 ? true : undefined), 30_000);
    expect(close.leadStatusChanges).toEqual([{ leadId: 'lead_globex', statusId: call.is_successful ? 'stat_qualified' : 'stat_bad_fit' }]);

    // The settings view says when it was written back.
    await page.goto(`${product.base}/integrations?settings=close-crm`);
    await expect.poll(() => page.getByRole('status').filter({ hasText: /^Last written back: / }).count()).toBe(1);
    await product.screenshot(page, 'integrations-close-written-back');
    expect(close.notes).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 150_000);
});

describe('HubSpot: from its consent page to a scored call and back', () => {
  it('connects through HubSpot’s page, syncs a recorded call, writes a note and a task back, expires, reconnects and disconnects', async () => {
    const { page, problems } = await product.open();
    await signInAsDemo(page, product.base);
    await page.goto(`${product.base}/integrations`);

    // Connect: the browser goes to HubSpot's consent page, which sends it back to Parlance's callback.
    await hubspotCard(page).getByRole('button', { name: 'Connect' }).click();
    await page.waitForURL(`${product.base}/hubspot-oauth-success`);
    await expect.poll(() => page.getByRole('heading', { name: 'HubSpot connected' }).count()).toBe(1);
    await product.screenshot(page, 'integrations-hubspot-connected');
    expect(hubspot.requests.filter((request) => request.path === '/oauth/v1/token').map((request) => (request.body as Record<string, string>).grant_type)).toEqual(['authorization_code']);
    await page.getByRole('link', { name: 'View Integrations' }).click();
    await expect.poll(() => hubspotCard(page).getByText('Connected', { exact: true }).count()).toBe(1);

    await hubspotCard(page).getByRole('button', { name: 'Settings' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'HubSpot Settings' }).count()).toBe(1);
    await expect.poll(() => page.getByText(HUBSPOT_STANDIN_SEED.hubDomain, { exact: true }).count()).toBe(1);
    await page.getByRole('switch', { name: 'Create tasks' }).check();
    await waitFor('create tasks to be stored', async () => ((await connectionOf(page, 'hubspot-crm')).settings?.createTasks === true ? true : undefined));
    // The synthesized call is shorter than the default minute.
    expect(recording.durationMs).toBeGreaterThan(15_000);
    const duration = page.getByLabel('Minimum call duration (seconds)');
    await duration.fill('15');
    await duration.press('Enter');
    await waitFor('the minimum duration to be stored', async () => ((await connectionOf(page, 'hubspot-crm')).settings?.minCallDuration === 15 ? true : undefined));

    // A call Maya logged in HubSpot with its recording, on contact 501.
    hubspot.addCall(
      {
        id: '880001',
        properties: {
          hs_timestamp: new Date(Date.now() - 80 * 60_000).toISOString(),
          hs_lastmodifieddate: new Date(Date.now() - 75 * 60_000).toISOString(),
          hs_call_duration: String(recording.durationMs),
          hs_call_recording_url: hubspot.recordingUrlOf('880001'),
          hs_call_title: 'Discovery with Globex',
          hs_call_body: '<p>First call</p>',
          hs_call_direction: 'OUTBOUND',
          hubspot_owner_id: 'own_maya',
        },
      },
      await readFile(recording.stereoPath),
      ['501'],
    );
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Sync started' }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByText(/^Last run: 1 call imported/).count(), { timeout: 30_000 }).toBe(1);
    await product.screenshot(page, 'integrations-hubspot-synced');

    const call = await shownScored(page, '501');
    await product.screenshot(page, 'integrations-hubspot-call-scored');

    // HubSpot gets the score as a note on the call's contact, and a follow-up task for Maya.
    await waitFor('the note (on the call) and the task written back to HubSpot', async () => (hubspot.notes[0]?.callIds.length && hubspot.tasks.length > 0 ? true : undefined), 30_000);
    expect(hubspot.notes).toHaveLength(1);
    expect(hubspot.notes[0]).toMatchObject({ contactIds: ['501'], callIds: ['880001'], properties: { hubspot_owner_id: 'own_maya' } });
    expect(hubspot.notes[0]!.properties.hs_note_body).toContain(`Parlance score: ${Math.round(call.score! * 10) / 10}/10`);
    expect(hubspot.notes[0]!.properties.hs_note_body).toContain(`Parlance activity ${call.id}, scored `);
    expect(hubspot.tasks).toHaveLength(1);
    expect(hubspot.tasks[0]).toMatchObject({ contactIds: ['501'], properties: { hs_task_subject: `Follow up on a call scored ${Math.round(call.score! * 10) / 10}/10`, hubspot_owner_id: 'own_maya' } });

    // The app uninstalled in HubSpot: the next sync finds its access refused, and the card says Expired.
    hubspot.revokeRefreshTokens();
    await page.goto(`${product.base}/integrations?settings=hubspot-crm`);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.keyboard.press('Escape');
    await waitFor('HubSpot to be marked expired', async () => ((await connectionOf(page, 'hubspot-crm')).status === 'expired' ? true : undefined), 30_000);
    await page.goto(`${product.base}/integrations`);
    await expect.poll(() => hubspotCard(page).getByText('Expired', { exact: true }).count()).toBe(1);
    await product.screenshot(page, 'integrations-hubspot-expired');

    // Reconnect goes through HubSpot's page again, and keeps the settings.
    await hubspotCard(page).getByRole('button', { name: 'Reconnect' }).click();
    await page.waitForURL(`${product.base}/hubspot-oauth-success`);
    expect(await connectionOf(page, 'hubspot-crm')).toMatchObject({ status: 'connected', settings: { createTasks: true } });

    // A cancelled consent lands on the failure page, which says why.
    hubspot.denyNextConsent();
    await page.goto(`${product.base}/integrations`);
    const started = (await page.evaluate(async () => (await fetch('/api/integrations/hubspot/oauth')).json())) as { url: string };
    await page.goto(started.url);
    await page.waitForURL(/\/hubspot-oauth-failed\?reason=/);
    await expect.poll(() => page.getByText('HubSpot was not connected: the authorization was cancelled.').count()).toBe(1);
    await product.screenshot(page, 'integrations-hubspot-failed');
    expect((await connectionOf(page, 'hubspot-crm')).status).toBe('connected');

    await page.goto(`${product.base}/integrations`);
    await hubspotCard(page).getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('dialog').filter({ hasText: 'Are you sure you want to disconnect this integration?' }).getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => hubspotCard(page).getByText('Not Connected', { exact: true }).count()).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 180_000);
});

describe('HubSpot settings view sizes', () => {
  it.each(Object.entries(WIDTHS))('fits the HubSpot card and settings view at %s width', async (name, width) => {
    const { page } = await product.open(width);
    await signInAsDemo(page, product.base);
    // Connected through HubSpot's consent page, as the Connect button does.
    const { url } = (await page.evaluate(async () => (await fetch('/api/integrations/hubspot/oauth')).json())) as { url: string };
    await page.goto(url);
    await page.waitForURL(`${product.base}/hubspot-oauth-success`);
    expect(await horizontalOverflow(page), 'the connected page is wider than the window').toBeLessThanOrEqual(0);
    await page.goto(`${product.base}/integrations`);
    await expect.poll(() => hubspotCard(page).getByText('Connected', { exact: true }).count()).toBe(1);
    expect(await horizontalOverflow(page), 'the integrations list is wider than the window').toBeLessThanOrEqual(0);
    await page.goto(`${product.base}/integrations?settings=hubspot-crm`);
    await expect.poll(() => page.getByRole('heading', { name: 'HubSpot Settings' }).count()).toBe(1);
    expect(await horizontalOverflow(page), 'the HubSpot settings are wider than the window').toBeLessThanOrEqual(0);
    await product.screenshot(page, `integrations-hubspot-settings-${name}`);
    await page.goto(`${product.base}/hubspot-oauth-failed?reason=${encodeURIComponent('HubSpot was not connected: the authorization was cancelled.')}`);
    await expect.poll(() => page.getByRole('heading', { name: 'HubSpot was not connected' }).count()).toBe(1);
    expect(await horizontalOverflow(page), 'the failure page is wider than the window').toBeLessThanOrEqual(0);
    await page.context().close();
  }, 60_000);
});

