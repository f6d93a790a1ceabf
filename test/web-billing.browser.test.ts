/**
 * Insight tokens reach the bill (issue 6, point 6), in Chromium against the standalone product,
 * nothing faked: the demo admin signs in, reads the tokens used on Settings → Billing and Usage,
 * uploads a call from the page's own session (fetch with the CSRF token, as the app does), and once
 * its job has completed sees the tokens used grow by exactly what scoring charged for that call
 * (the evaluation's insightTokens, from GET /api/calls/summary/{callId}). The screens are saved in
 * .run/screenshots.
 */
import type { Page } from 'playwright-core';
import { DEMO_ACCOUNT } from '@parlance/identity/demo-account';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainFailures, signInAsDemo, type StandaloneBrowser, startStandaloneBrowser, WIDTHS } from './support/standalone-browser.js';
import { waitFor } from './support/wait-for.js';

let product: StandaloneBrowser;
explainFailures(() => product);
const DEMO_NAME = `${DEMO_ACCOUNT.firstName} ${DEMO_ACCOUNT.lastName}`;

beforeAll(async () => {
  product = await startStandaloneBrowser({ IDENTITY_DEMO_ACCOUNT: 'true' });
}, 120_000);

afterAll(async () => {
  await product?.stop();
}, 60_000);

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Settings → Billing and Usage, as a person opens it from the account menu. */
async function openBillingAndUsage(page: Page): Promise<void> {
  await page.getByRole('button', { name: DEMO_NAME }).click();
  await page.getByRole('list', { name: 'Account' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  await page.getByRole('tab', { name: 'Billing and Usage' }).click();
  await page.getByRole('heading', { name: 'Billing and Usage' }).waitFor();
}

/** The "N of M insight tokens used" line, and N. */
async function tokensUsedOnScreen(page: Page): Promise<{ line: string; used: number }> {
  const line = (await page.getByRole('tabpanel').getByText(/ of .+ insight tokens used$/).textContent({ timeout: 15_000 }))!.trim();
  const figure = /^([\d,]+) of /.exec(line)?.[1];
  if (!figure) throw new Error(`no figure in "${line}"`);
  return { line, used: Number(figure.replace(/,/g, '')) };
}

/** A request from the page's session, with the CSRF token fetched first for a change, as the web app sends it. */
function fromThePage<T>(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const headers: Record<string, string> = {};
      if (method !== 'GET') {
        const { csrfToken } = (await (await fetch('/api/csrf-token')).json()) as { csrfToken: string };
        headers['x-csrf-token'] = csrfToken;
      }
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      return { status: response.status, body: (await response.json()) as T };
    },
    { method, url, body },
  );
}

describe('insight tokens on Settings → Billing and Usage, in Chromium', () => {
  it('grow by the insight tokens of a call scored after an upload from the signed-in page', async () => {
    const { context, page, problems } = await product.open(WIDTHS.desktop);
    await signInAsDemo(page, product.base);

    await openBillingAndUsage(page);
    const before = await tokensUsedOnScreen(page);
    await product.screenshot(page, 'billing-usage-before-upload');

    const teams = await fromThePage<Array<{ id: string; name: string; members: string[] }>>(page, 'GET', '/api/teams/fetch/?department=sales');
    expect(teams.status).toBe(200);
    const team = teams.body.find((candidate) => candidate.members.length > 0)!;
    const upload = await fromThePage<{ jobId: string; message: string }>(page, 'POST', '/api/calls/transcribe/text', {
      fileName: 'demo-request.txt',
      content: [
        '[00:00:02] Maya: Thank you for calling Parlance, this is Maya. May I ask who I am speaking with?',
        '[00:00:07] Jordan: Hi Maya, this is Jordan. We want a better way to review our support calls.',
        '[00:00:13] Maya: Thanks Jordan. How do you review your calls now, and what would you like to improve?',
        '[00:00:20] Jordan: Managers listen to a few recordings a week, and it takes far too long.',
        '[00:00:27] Maya: Based on what you said, I would suggest a short demo. Would Thursday at ten suit you?',
        '[00:00:33] Jordan: Yes, Thursday at ten works.',
      ].join('\n'),
      teamId: team.id,
      representative: team.members[0],
      repName: 'Maya',
    });
    expect(upload).toMatchObject({ status: 200, body: { message: 'File received. Processing has started.' } });
    const { jobId } = upload.body;

    // The page polls the job the way the app does (it polls every 2 s; here every 100 ms).
    const job = await waitFor(
      'the job to finish',
      async () => {
        const polled = await fromThePage<{ status: string; isCompleted: boolean; isFailed: boolean; failedReason: string; activityId: string }>(page, 'GET', `/api/queue/job/${jobId}`);
        return polled.body.isCompleted || polled.body.isFailed ? polled.body : undefined;
      },
      90_000,
    );
    expect(job).toMatchObject({ status: 'completed', isCompleted: true, isFailed: false, failedReason: '' });

    // The job names the call it processed.
    const callId = job.activityId;
    const summary = await fromThePage<{ evaluation: { insightTokens: number; engine: string } | null }>(page, 'GET', `/api/calls/summary/${callId}`);
    expect(summary.status).toBe(200);
    expect(summary.body.evaluation?.engine).toBe('offline-evidence+minilm');
    const charged = summary.body.evaluation!.insightTokens;
    expect(charged).toBeGreaterThan(0);

    // The charge travels scoring → bus → identity; a reload shows it once it has arrived.
    const expected = `${count.format(before.used + charged)} of `;
    const after = await waitFor(
      `Billing and Usage to show ${before.used + charged} tokens used`,
      async () => {
        await page.reload();
        await page.getByRole('heading', { name: 'Billing and Usage' }).waitFor();
        const shown = await tokensUsedOnScreen(page);
        return shown.line.startsWith(expected) ? shown : undefined;
      },
      30_000,
    );
    expect(after.used - before.used).toBe(charged);
    expect(after.line.slice(after.line.indexOf(' of '))).toBe(before.line.slice(before.line.indexOf(' of ')));
    expect(page.url()).toBe(`${product.base}/settings?tab=billing`);
    await product.screenshot(page, 'billing-usage-after-scored-call');

    // The server agrees with the screen.
    const subscription = await fromThePage<{ usage: { total_insight_tokens: number } }>(page, 'GET', '/api/billing/subscription');
    expect(subscription.body.usage.total_insight_tokens).toBe(before.used + charged);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});
