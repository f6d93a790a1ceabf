/**
 * Every public page in Chromium at phone, tablet and desktop widths (375, 768, 1440 px): it
 * renders its heading, fits the window without sideways scrolling, logs no script or policy
 * error, loads no Highcharts, and leaves a screenshot in .run/screenshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainFailures, horizontalOverflow, type StandaloneBrowser, startStandaloneBrowser, WIDTHS } from './support/standalone-browser.js';

let product: StandaloneBrowser;
explainFailures(() => product);

beforeAll(async () => {
  product = await startStandaloneBrowser();
}, 120_000);

afterAll(async () => {
  await product?.stop();
});

const PUBLIC_PAGES: Array<[name: string, path: string]> = [
  ['home', '/'],
  ['login', '/login'],
  ['signup', '/login?mode=signup'],
  ['pricing', '/pricing'],
  ['calculator', '/calculator'],
  ['terms', '/terms'],
  ['privacy', '/privacy'],
  ['dpa', '/dpa'],
  ['subprocessors', '/subprocessors'],
  ['cookies', '/cookies'],
  ['email-sent', '/auth/email-sent?email=someone%40example.com'],
  ['verify-email-no-token', '/auth/verify-email'],
  ['verify-email-bad-token', '/auth/verify-email?token=not-a-real-token'],
  ['accept-invite-no-token', '/auth/accept-invite'],
  ['accept-invite-bad-token', '/auth/accept-invite?token=not-a-real-token'],
  ['crm-connected', '/hubspot-oauth-success'],
  ['crm-failed', '/hubspot-oauth-failed'],
];

describe('public pages in Chromium', () => {
  for (const [label, width] of Object.entries(WIDTHS)) {
    it(`render at ${width} px (${label}) without overflow, errors or Highcharts`, async () => {
      const { context, page, problems } = await product.open(width);
      const scripts: string[] = [];
      const refused: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(request.url());
      });
      page.on('response', (response) => {
        if (response.status() >= 400) refused.push(`${response.status()} ${new URL(response.url()).pathname}`);
      });
      for (const [name, path] of PUBLIC_PAGES) {
        await page.goto(`${product.base}${path}`);
        await page.locator('main h1').first().waitFor();
        await page.waitForLoadState('networkidle');
        expect({ page: path, overflow: await horizontalOverflow(page) }).toEqual({ page: path, overflow: 0 });
        await product.screenshot(page, `public-${name}-${width}`);
      }
      // The two made-up tokens are refused by the server, as they should be; the browser logs
      // each refusal as a console error. Nothing else may fail.
      expect(refused).toEqual(['400 /api/auth/verify-email', '400 /api/auth/accept-invite']);
      expect(problems.filter((problem) => !problem.startsWith('Failed to load resource: the server responded with a status of 400'))).toEqual([]);
      expect(problems).toHaveLength(2);
      expect(scripts.filter((url) => /highcharts/i.test(url))).toEqual([]);
      expect(scripts.every((url) => url.startsWith(product.base))).toBe(true);
      await context.close();
    }, 120_000);
  }

  it('opens the demo modal from the keyboard and closes it with Escape and with the backdrop', async () => {
    const { context, page, problems } = await product.open(WIDTHS.desktop);
    await page.goto(`${product.base}/`);
    const demoButton = page.getByRole('banner').getByRole('button', { name: 'Request a Demo' });
    await demoButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Schedule Your Parlance Demo' });
    await dialog.waitFor();
    await dialog.getByText('Your information is secure and will only be used for scheduling purposes.').waitFor();
    await product.screenshot(page, 'demo-modal-1440');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await demoButton.click();
    await dialog.waitFor();
    await page.mouse.click(5, 400);
    await dialog.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the links themselves from 768 px up, with no Menu button', async () => {
    for (const width of [WIDTHS.tablet, WIDTHS.desktop]) {
      const { context, page } = await product.open(width);
      await page.goto(`${product.base}/`);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Pricing' }).waitFor();
      expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
      await context.close();
    }
  });

  it('works the phone menu: the links are behind a Menu button that opens and closes', async () => {
    const { context, page } = await product.open(WIDTHS.phone);
    await page.goto(`${product.base}/`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await page.getByRole('button', { name: 'Menu' }).waitFor();
    expect(await nav.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Pricing' }).waitFor();
    await product.screenshot(page, 'phone-menu-375');
    await nav.getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL(`${product.base}/pricing`);
    // The menu closes as the link is followed (the page itself may still be loading).
    await nav.waitFor({ state: 'hidden', timeout: 2_000 });
    await context.close();
  });
});
