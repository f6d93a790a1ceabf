/**
 * Google Workspace in Chromium against the standalone product, with a local stand-in for Google
 * (a third-party SaaS tests cannot reach; services/integration/test/support/google-standin.ts
 * speaks Google's OAuth token, user-info and Drive APIs). The browser's Google Identity Services
 * script, which the page loads from accounts.google.com, is answered by the stand-in's: its code
 * client asks the stand-in's consent (played as the user agreeing) and hands the page a code, as
 * Google's popup does; the login page's sign-in button gets a do-nothing stand-in. The demo
 * manager connects Google Workspace, picks the Drive folder, syncs a Meet transcript of Maya's,
 * watches it become a scored meeting on the Meetings tab, sees the connection expire when Google
 * revokes its access, reconnects (restored, then with the folder gone out of reach), and
 * disconnects. The settings view fits 375, 768 and 1440 px. Screenshots in .run/screenshots.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOGLE_STANDIN_SEED, startGoogleStandin, type GoogleStandin } from '../services/integration/test/support/google-standin.js';
import { explainFailures, horizontalOverflow, signInAsDemo, type StandaloneBrowser, startStandaloneBrowser, WIDTHS } from './support/standalone-browser.js';
import { waitFor } from './support/wait-for.js';

const GOOGLE_IDENTITY = 'https://accounts.google.com';

let product: StandaloneBrowser;
let google: GoogleStandin;
explainFailures(() => product);

beforeAll(async () => {
  google = await startGoogleStandin();
  product = await startStandaloneBrowser({
    IDENTITY_DEMO_ACCOUNT: 'true',
    GOOGLE_CLIENT_ID: GOOGLE_STANDIN_SEED.clientId,
    GOOGLE_CLIENT_SECRET: GOOGLE_STANDIN_SEED.clientSecret,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    GOOGLE_USERINFO_URL: google.userinfoUrl,
    GOOGLE_DRIVE_URL: google.driveUrl,
    GOOGLE_CALENDAR_URL: google.calendarUrl,
    GOOGLE_MEET_URL: google.meetUrl,
  });
}, 120_000);

afterAll(async () => {
  await product?.stop();
  await google?.close();
});

/**
 * Answers the page's requests to Google Identity Services with the stand-in: its client library
 * (pointed at accounts.google.com, the one origin the page's policy lets it reach) and its
 * consent, fetched from the stand-in.
 */
async function standInForGoogleIdentity(context: BrowserContext): Promise<void> {
  const library = (await (await fetch(google.gisScriptUrl)).text()).replaceAll(google.baseUrl, GOOGLE_IDENTITY);
  // The login page's sign-in button: drawn by Google, nothing to do here.
  const signInButton = '(function () { var a = window.google.accounts; a.id = a.id || { initialize: function () {}, renderButton: function () {} }; })();';
  await context.route(`${GOOGLE_IDENTITY}/**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/gsi/client') {
      await route.fulfill({ status: 200, contentType: 'text/javascript', body: `${library}\n${signInButton}` });
      return;
    }
    const response = await route.fetch({ url: `${google.baseUrl}${url.pathname}${url.search}` });
    await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
  });
}

async function open(width?: number): Promise<{ page: Page; problems: string[] }> {
  const { context, page, problems } = await product.open(width);
  await standInForGoogleIdentity(context);
  await signInAsDemo(page, product.base);
  return { page, problems };
}

interface WorkspaceConnection {
  status: string;
  settings: { selectedFolder: { id: string; name: string } | null; tokenValid: boolean; refreshTokenValid: boolean } | null;
}

async function workspaceOf(page: Page): Promise<WorkspaceConnection> {
  const listed = (await page.evaluate(async () => (await fetch('/api/integrations')).json())) as Array<{ id: string; connection: WorkspaceConnection }>;
  return listed.find((integration) => integration.id === 'google-workspace')!.connection;
}

const workspaceCard = (page: Page) => page.getByRole('article', { name: 'Google Workspace' });

/** A Meet transcript as Google saves it in Drive, `minutes` long. */
function meetTranscript(title: string, minutes: number): string {
  return [
    `${title} - Transcript`,
    'Attendees',
    'Maya Okafor, Morgan Reyes',
    'Transcript',
    '00:00:00',
    'Maya Okafor: Thank you for joining, Morgan. How do you review your calls today?',
    'Morgan Reyes: By hand, and it takes far too long. We want to improve coaching.',
    `00:${String(minutes).padStart(2, '0')}:00`,
    'Maya Okafor: Then a short demo would help. Would Thursday at 10am suit you?',
    'Morgan Reyes: Thursday at 10 works, we agree to the demo.',
  ].join('\n');
}

async function closeDialog(page: Page, title: string | RegExp): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title });
  await expect.poll(() => dialog.count()).toBe(1);
  await page.keyboard.press('Escape');
  await expect.poll(() => dialog.count()).toBe(0);
}

describe('Google Workspace', () => {
  it('connects through the code client, picks a folder, syncs a Meet transcript into a scored meeting, expires, reconnects and disconnects', async () => {
    const { page, problems } = await open();
    await page.goto(`${product.base}/integrations`);

    await workspaceCard(page).getByRole('button', { name: 'Connect' }).click();
    await closeDialog(page, 'Connection Successful');
    await expect.poll(() => workspaceCard(page).getByText('Connected', { exact: true }).count()).toBe(1);
    expect(google.consents.at(-1)).toMatchObject({ clientId: GOOGLE_STANDIN_SEED.clientId, outcome: 'granted' });
    expect(google.consents.at(-1)!.scopes).toEqual(expect.arrayContaining(['https://www.googleapis.com/auth/drive.readonly', 'https://www.googleapis.com/auth/documents.readonly']));
    await product.screenshot(page, 'integrations-google-connected');

    // The folder picker lists what Drive holds, with who owns it.
    await workspaceCard(page).getByRole('button', { name: 'Settings' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Google Workspace Settings' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: 'Sync now' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Choose folder' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose a Drive folder' });
    await expect.poll(() => picker.getByRole('button', { name: 'Meet Recordings' }).count()).toBe(1);
    await product.screenshot(page, 'integrations-google-folder-picker');
    await picker.getByRole('button', { name: 'Meet Recordings' }).click();
    await waitFor('the folder to be stored', async () => ((await workspaceOf(page)).settings?.selectedFolder?.id === 'fold_meet' ? true : undefined));

    // A Meet transcript of Maya's lands in the folder; Sync now brings it in as a meeting.
    google.addDocument({ id: 'doc_globex', name: 'Discovery with Globex - 2026/11/24 10:00 CET - Transcript', folderId: 'fold_meet', text: meetTranscript('Discovery with Globex', 5) });
    await page.getByRole('button', { name: 'Sync now' }).click();
    await closeDialog(page, 'Sync started');
    await expect.poll(() => page.getByText(/^Last run: 1 meeting imported/).count(), { timeout: 30_000 }).toBe(1);
    await product.screenshot(page, 'integrations-google-synced');

    // The Meetings tab lists it scored, with its title.
    const meeting = await waitFor(
      'the imported meeting to show scored on the Meetings tab',
      async () => {
        const listed = (await page.evaluate(async () => (await fetch('/api/meetings?limit=100')).json())) as { data: Array<{ id: string; title: string; status: string; score: number | null }> };
        const found = listed.data.find((candidate) => candidate.title === 'Discovery with Globex' && candidate.status === 'scored');
        if (!found) return undefined;
        await page.goto(`${product.base}/activities?meetingId=${found.id}`);
        await page.getByRole('tabpanel').getByLabel('Team', { exact: true }).selectOption({ label: 'Inbound Sales' });
        const table = page.getByRole('table', { name: 'Meetings' });
        await table.and(page.locator('[aria-busy="false"]')).waitFor();
        const row = table.getByRole('row').filter({ has: page.getByRole('button', { name: `Copy link to meeting ${found.id}` }) });
        return (await row.count()) === 1 ? found : undefined;
      },
      90_000,
    );
    expect(meeting.score).toEqual(expect.any(Number));
    await product.screenshot(page, 'integrations-google-meeting-scored');

    // Google revokes Parlance's access: the next sync finds it refused, and the card says Expired.
    google.revokeGrant();
    await page.goto(`${product.base}/integrations?settings=google-workspace`);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.keyboard.press('Escape');
    await waitFor('Google Workspace to be marked expired', async () => ((await workspaceOf(page)).status === 'expired' ? true : undefined), 30_000);
    await page.goto(`${product.base}/integrations`);
    await expect.poll(() => workspaceCard(page).getByText('Expired', { exact: true }).count()).toBe(1);
    await product.screenshot(page, 'integrations-google-expired');

    // Reconnect: restored, folder and all.
    await workspaceCard(page).getByRole('button', { name: 'Reconnect' }).click();
    const restored = page.getByRole('dialog', { name: 'Reconnection Successful!' });
    await expect.poll(() => restored.getByText(/fully restored/).count()).toBe(1);
    await page.keyboard.press('Escape');
    expect(await workspaceOf(page)).toMatchObject({ status: 'connected', settings: { selectedFolder: { id: 'fold_meet' }, refreshTokenValid: true } });

    // Revoked again, and the folder is no longer the account's to read: reconnecting says to pick another.
    google.revokeGrant();
    google.makeFolderInaccessible('fold_meet');
    await page.goto(`${product.base}/integrations?settings=google-workspace`);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.keyboard.press('Escape');
    await waitFor('Google Workspace to be marked expired again', async () => ((await workspaceOf(page)).status === 'expired' ? true : undefined), 30_000);
    await page.goto(`${product.base}/integrations`);
    await workspaceCard(page).getByRole('button', { name: 'Reconnect' }).click();
    const unreachable = page.getByRole('dialog', { name: 'Reconnection Successful!' });
    await expect.poll(() => unreachable.getByText(/no longer accessible/).count()).toBe(1);
    await product.screenshot(page, 'integrations-google-folder-inaccessible');
    await unreachable.getByRole('button', { name: 'Choose a new folder' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Google Workspace Settings' }).count()).toBe(1);

    await page.goto(`${product.base}/integrations`);
    await workspaceCard(page).getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('dialog', { name: 'Disconnect Google Workspace' }).getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => workspaceCard(page).getByText('Not Connected', { exact: true }).count()).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 180_000);

  it.each(Object.entries(WIDTHS))('fits the Google Workspace card, settings view and folder picker at %s width', async (name, width) => {
    const { page } = await open(width);
    const connected = await page.evaluate(async (code) => {
      const { csrfToken } = (await (await fetch('/api/csrf-token')).json()) as { csrfToken: string };
      const headers = { 'content-type': 'application/json', 'x-csrf-token': csrfToken };
      const { state } = (await (await fetch('/api/integrations/google-workspace/state', { method: 'POST', headers, body: '{}' })).json()) as { state: string };
      const response = await fetch('/api/integrations/google-workspace/connect', { method: 'POST', headers, body: JSON.stringify({ code, state }) });
      return response.status;
    }, google.consentCode());
    expect(connected).toBe(200);
    await page.goto(`${product.base}/integrations`);
    await expect.poll(() => workspaceCard(page).getByText('Connected', { exact: true }).count()).toBe(1);
    expect(await horizontalOverflow(page), 'the integrations list is wider than the window').toBeLessThanOrEqual(0);
    await page.goto(`${product.base}/integrations?settings=google-workspace`);
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Google Workspace Settings' }).count()).toBe(1);
    expect(await horizontalOverflow(page), 'the Google Workspace settings are wider than the window').toBeLessThanOrEqual(0);
    await product.screenshot(page, `integrations-google-settings-${name}`);
    await page.getByRole('button', { name: 'Choose folder' }).click();
    // The first test took 'Meet Recordings' out of the account's reach: the shared folder is left.
    await expect.poll(() => page.getByRole('dialog', { name: 'Choose a Drive folder' }).getByRole('button', { name: 'Customer Calls (Sales)' }).count()).toBe(1);
    expect(await horizontalOverflow(page), 'the folder picker is wider than the window').toBeLessThanOrEqual(0);
    await product.screenshot(page, `integrations-google-folder-picker-${name}`);
    await page.context().close();
  }, 60_000);
});
