/**
 * The dashboards in Chromium against the standalone product and its demo data, sent through the
 * real pipeline (issue 15, point 7), nothing faked: the demo manager switches the mode, compares
 * two teams, groups by week and reads a KPI's change against the API's figures; exports the
 * leaderboard CSV and finds the API's rows in it; opens a representative's coaching view from the
 * leaderboard; on the performance screen builds two filter groups, exports the metric chart as a
 * PNG (drawn in the browser; the test reads the PNG and checks it holds a picture, not a blank)
 * and opens the recommendations. The public pages and the activities screen never download the
 * charts or the dashboard's code (point 6). Every screen at 375, 768 and 1440 px fits the window.
 * Screenshots are saved in .run/screenshots.
 */
import { readFile } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from './support/csv.js';
import { explainFailures, horizontalOverflow, signInAsDemo, type StandaloneBrowser, startStandaloneBrowser, WIDTHS } from './support/standalone-browser.js';
import { waitFor } from './support/wait-for.js';

const DEMO_DATA = { IDENTITY_DEMO_ACCOUNT: 'true', DEMO_DATA: 'true', DEMO_CALLS: '120', DEMO_MEETINGS: '10', DEMO_RECORDED_CALLS: '0' } as const;
const TEAMS = ['Inbound Sales', 'Outbound Sales'];
/** What only the dashboards download. */
const CHART_CODE = /highcharts-setup|dashboard-page|performance-page|coaching-page/;

let product: StandaloneBrowser;
explainFailures(() => product);

beforeAll(async () => {
  product = await startStandaloneBrowser(DEMO_DATA);
}, 120_000);

afterAll(async () => {
  await product?.stop();
});

/** The next answer of the dashboard call `path` whose query satisfies `wanted`. */
function nextAnswer(page: Page, path: string, wanted: (query: URLSearchParams) => boolean = () => true): Promise<Response> {
  return page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname === path && response.status() === 200 && wanted(url.searchParams);
  });
}

/** Waits until the demo data has gone through the pipeline, so the dashboards have figures. */
async function demoDataReady(): Promise<void> {
  await waitFor('the demo data to be ready', async () => (product.host.output().includes('demo data ready') ? true : undefined), 240_000);
}

/** A PNG's size, and how many different pixel bytes its image data holds (1 for a blank picture). */
function pngPicture(bytes: Buffer): { width: number; height: number; distinctBytes: number } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  let width = 0;
  let height = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('ascii', at + 4, at + 8);
    const chunk = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = chunk.readUInt32BE(0);
      height = chunk.readUInt32BE(4);
    }
    if (type === 'IDAT') data.push(chunk);
    at += 12 + length;
  }
  const pixels = inflateSync(Buffer.concat(data));
  return { width, height, distinctBytes: new Set(pixels).size };
}

async function expectFits(page: Page, what: string): Promise<void> {
  expect(await horizontalOverflow(page), `${what} is wider than the window`).toBeLessThanOrEqual(0);
}

describe('the dashboards in Chromium, with the standalone product and its demo data', () => {
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    ({ page, problems } = await product.open(WIDTHS.desktop));
    await demoDataReady();
    await signInAsDemo(page, product.base);
  }, 300_000);

  it('switches the mode, compares two teams, groups by week and shows each KPI’s change as the API counts it', async () => {
    const metrics = nextAnswer(page, '/api/dashboard/metrics');
    await page.goto(`${product.base}/dashboard`);
    await (await metrics).finished();
    await page.getByRole('figure', { name: 'Avg Success Score' }).locator('svg.highcharts-root').first().waitFor();
    await product.screenshot(page, 'dashboard');

    const representative = nextAnswer(page, '/api/dashboard/performance', (query) => query.get('mode') === 'representative');
    await page.getByLabel('Mode').selectOption('representative');
    await representative;
    await page.getByRole('article', { name: 'Avg Calls per Representative' }).waitFor();
    await page.getByLabel('Mode').selectOption('team');

    await page.getByRole('button', { name: /^Compare:/ }).click();
    const compared = nextAnswer(page, '/api/dashboard/performance', (query) => query.getAll('teamIds').length === 2 || (query.get('teamIds') ?? '').split(',').length === 2);
    for (const team of TEAMS) await page.getByRole('checkbox', { name: team }).check();
    const comparedAnswer = (await (await compared).json()) as { datasets: Array<{ label: string }> };
    expect(comparedAnswer.datasets.map((dataset) => dataset.label).sort()).toEqual(expect.arrayContaining(TEAMS));
    await page.keyboard.press('Escape');

    const weekly = nextAnswer(page, '/api/dashboard/performance', (query) => query.get('groupBy') === 'week');
    await page.getByLabel('Group By').selectOption('week');
    const weeks = (await (await weekly).json()) as { labels: string[] };
    for (const label of weeks.labels) expect(new Date(`${label}T00:00:00Z`).getUTCDay(), `${label} starts a week`).toBe(1);
    await product.screenshot(page, 'dashboard-compared-by-week');

    // A period, so there is a period before to compare with.
    const withPeriod = nextAnswer(page, '/api/dashboard/metrics', (query) => query.has('from') && query.has('to'));
    await page.getByRole('button', { name: /^Date range: / }).click();
    await page.getByLabel('Presets').selectOption({ label: 'This Quarter' });
    const figures = (await (await withPeriod).json()) as { current: Record<string, number>; previous: Record<string, number> };
    await page.keyboard.press('Escape');
    const card = page.getByRole('article', { name: 'Conversion Rate' });
    const change = figures.previous.conversionRate === 0 ? 0 : ((figures.current.conversionRate! - figures.previous.conversionRate!) / figures.previous.conversionRate!) * 100;
    const shown = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(Math.round(change * 10) / 10);
    await card.getByText(`${shown}% vs last period`).waitFor();
    await product.screenshot(page, 'dashboard-kpi-change');
    expect(problems).toEqual([]);
  }, 60_000);

  it('exports the leaderboard as CSV holding the rows the API answers, and opens a representative from it', async () => {
    // A fresh load: the leaderboard of the whole department, for all time.
    const answer = nextAnswer(page, '/api/dashboard/leaderboard');
    await page.goto(`${product.base}/dashboard`);
    const rows = (await (await answer).json()) as Array<Record<string, string | number | null>>;
    expect(rows.length).toBeGreaterThan(1);
    await page.getByRole('region', { name: 'Leaderboard table' }).getByRole('row').nth(1).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('leaderboard.csv');
    // The file leads with a byte-order mark, for spreadsheets.
    const [header, ...lines] = parseCsv((await readFile((await file.path())!, 'utf8')).replace(/^\uFEFF/, ''));
    expect(header).toEqual(['team_id', 'representative_name', 'representative_email', 'total_activities', 'successful_activities', 'success_rate', 'average_score']);
    expect(lines).toEqual(rows.map((row) => header!.map((column) => (row[column] === null ? '' : String(row[column])))));

    const first = rows[0]!;
    await page.getByRole('link', { name: String(first.representative_name) }).first().click();
    await page.getByRole('heading', { name: String(first.representative_name) }).waitFor();
    await page.getByRole('figure').locator('svg.highcharts-root').first().waitFor();
    expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(`/dashboard/representatives/${String(first.representative_email)}`);
    await product.screenshot(page, 'dashboard-coaching');
    expect(problems).toEqual([]);
  }, 60_000);

  it('builds two filter groups on the performance screen, exports the metric chart as a PNG drawn in the browser, and opens the recommendations', async () => {
    await page.goto(`${product.base}/dashboard`);
    await page.getByRole('link', { name: 'View Full' }).first().click();
    await page.waitForURL(`${product.base}/dashboard/performance`);
    const filters = page.getByRole('complementary', { name: 'Filters' });
    // The panel as a person sees it once the department's teams are in, before they add a group.
    await filters.getByRole('region', { name: 'Group 1' }).getByRole('checkbox', { name: TEAMS[0]! }).waitFor();
    await filters.getByRole('button', { name: 'Add filter group' }).click();
    // A new group starts with no team (§4): it gets the second team only.
    const second = filters.getByRole('region', { name: 'Group 2' });
    const analytics = nextAnswer(page, '/api/dashboard/analytics', (query) => query.get('groupBy') !== 'parameter' && (query.get('teamIds') ?? query.getAll('teamIds').join(',')) !== '');
    await second.getByRole('checkbox', { name: TEAMS[1]! }).check();
    await analytics;
    const recommendations = page.getByRole('heading', { name: 'Performance Analysis' });
    await recommendations.waitFor();
    await page.getByRole('article', { name: TEAMS[1]! }).first().waitFor();
    // The advice is worded in the browser from the figures the API sends, first how far the team is from its target.
    const advice = page.getByRole('list', { name: `Advice for ${TEAMS[1]}` }).first().getByRole('listitem');
    expect(await advice.first().textContent()).toMatch(/^(On target: \d+ successful of \d+\.|\d+ successful calls short of the target of \d+: about \d+ more calls|No (successful )?calls)/);
    await page.getByRole('button', { name: 'Export metrics chart as PNG' }).waitFor();
    await waitFor('the metric chart to be drawn', async () => ((await page.getByRole('button', { name: 'Export metrics chart as PNG' }).isEnabled()) ? true : undefined));
    await product.screenshot(page, 'performance-two-groups');

    const exportServer: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(product.base) && !request.url().startsWith('data:') && !request.url().startsWith('blob:')) exportServer.push(request.url());
    });
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export metrics chart as PNG' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/ chart\.png$/);
    const picture = pngPicture(await readFile((await file.path())!));
    expect(picture.width).toBeGreaterThan(300);
    expect(picture.height).toBeGreaterThan(200);
    // Axes, lines and labels: far more than the one byte value of a blank picture.
    expect(picture.distinctBytes).toBeGreaterThan(20);
    expect(exportServer).toEqual([]);
    expect(problems).toEqual([]);
  }, 90_000);

  it('never downloads the charts or the dashboard’s code on the public pages or the activities screen', async () => {
    const { context, page: fresh } = await product.open(WIDTHS.desktop);
    const downloaded: string[] = [];
    fresh.on('request', (request) => downloaded.push(new URL(request.url()).pathname));
    for (const path of ['/', '/pricing', '/calculator']) {
      await fresh.goto(`${product.base}${path}`);
      await fresh.waitForLoadState('networkidle');
    }
    await signInAsDemo(fresh, product.base);
    const dashboardCode = downloaded.filter((path) => CHART_CODE.test(path));
    downloaded.length = 0;
    await fresh.goto(`${product.base}/activities`);
    await fresh.getByRole('tab', { name: 'Calls' }).waitFor();
    await fresh.waitForLoadState('networkidle');
    expect(downloaded.filter((path) => CHART_CODE.test(path))).toEqual([]);
    // Signing in lands on the dashboard, which does load them: the pattern names real chunks.
    expect(dashboardCode.length).toBeGreaterThan(0);
    await context.close();
  }, 60_000);

  for (const width of [WIDTHS.phone, WIDTHS.tablet, WIDTHS.desktop]) {
    it(`at ${width} px the dashboard, the performance screen and the coaching view fit the window`, async () => {
      const { context, page: sized, problems: sizedProblems } = await product.open(width);
      await signInAsDemo(sized, product.base);
      await sized.getByRole('figure', { name: 'Avg Success Score' }).locator('svg.highcharts-root').first().waitFor();
      await expectFits(sized, 'the dashboard');
      await product.screenshot(sized, `dashboard-${width}`);
      const leader = sized.getByRole('region', { name: 'Leaderboard table' }).getByRole('link').first();
      await leader.click();
      await sized.getByRole('link', { name: 'Back to dashboard' }).waitFor();
      await sized.getByRole('figure').locator('svg.highcharts-root').first().waitFor();
      await expectFits(sized, 'the coaching view');
      await product.screenshot(sized, `coaching-${width}`);
      await sized.goto(`${product.base}/dashboard/performance`);
      await sized.getByRole('heading', { name: 'Performance Analysis' }).waitFor();
      await sized.locator('svg.highcharts-root').first().waitFor();
      await expectFits(sized, 'the performance screen');
      await product.screenshot(sized, `performance-${width}`);
      expect(sizedProblems).toEqual([]);
      await context.close();
    }, 60_000);
  }
});
