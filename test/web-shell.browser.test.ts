/**
 * The web shell in a real browser (Debian's Chromium driven by playwright-core), served by the
 * standalone host's gateway and talking to its real API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainFailures, type StandaloneBrowser, startStandaloneBrowser } from './support/standalone-browser.js';

let product: StandaloneBrowser;
explainFailures(() => product);

beforeAll(async () => {
  product = await startStandaloneBrowser();
}, 120_000);

afterAll(async () => {
  await product?.stop();
});

describe('web shell in Chromium', () => {
  it('shows every service as serving on the status page, with no policy violation or script error', async () => {
    const { context, page, problems } = await product.open();
    await page.goto(`${product.base}/status`);
    for (const service of ['identity', 'ingest', 'transcription', 'scoring', 'analytics', 'integration']) {
      await page.getByText(service, { exact: true }).waitFor();
    }
    expect(await page.getByText('serving', { exact: true }).count()).toBe(6);
    expect(problems).toEqual([]);
    await product.screenshot(page, 'status');
    await context.close();
  });

  it('sends a signed-out visitor of a signed-in page, or of an unknown path, to the login page', async () => {
    const { context, page, problems } = await product.open();
    for (const path of ['/teams', '/settings', '/no-such-page']) {
      await page.goto(`${product.base}${path}`);
      await page.waitForURL(`${product.base}/login`);
      await page.getByRole('heading', { name: 'Sign in to Parlance' }).waitFor();
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});
