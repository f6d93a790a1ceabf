/**
 * The dashboard's web budgets (issue 15, point 8): on the standalone product with demo data, the
 * JavaScript a signed-in manager's browser downloads to draw /dashboard (the app shell, the
 * screen's chunk and Highcharts, gzipped as the gateway sends them), and the time from navigation
 * to the dashboard drawn — the four KPI cards with their values, the three charts drawn by
 * Highcharts and the leaderboard's rows — against 1.5 s, median over RUNS fresh page loads in
 * headless Chromium (the session cookie kept, nothing else cached).
 *
 *   npx tsx bench/dashboard-screen.bench.ts     # needs a built web app (make bench builds it)
 *
 * Prints {"bench":"web.dashboard-screen","scripts":…,"gzip_kb":…,"median_ms":…,"budget_ms":1500,…}.
 */
import { signInAsDemo, startStandaloneBrowser } from '../test/support/standalone-browser.js';
import { waitFor } from '../test/support/wait-for.js';
import { builtScripts, kilobytes } from './support/built-scripts.js';
import { median } from './support/measure.js';

/** Issue 15: the dashboard drawn within 1.5 s of navigation. */
const SCREEN_DRAWN_BUDGET_MS = 1_500;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const DEMO_DATA = {
  IDENTITY_DEMO_ACCOUNT: 'true',
  DEMO_DATA: 'true',
  DEMO_CALLS: process.env.BENCH_DEMO_CALLS ?? '400',
  DEMO_MEETINGS: process.env.BENCH_DEMO_MEETINGS ?? '40',
  DEMO_RECORDED_CALLS: '0',
};

const product = await startStandaloneBrowser(DEMO_DATA);
const { base, browser, host } = product;

try {
  await waitFor('the demo data to be ready', async () => (host.output().includes('demo data ready') ? true : undefined), 600_000);

  const signedIn = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const first = await signedIn.newPage();
  await signInAsDemo(first, base);
  // The first visit in a time zone builds its rollups; the measured loads find them built, as every later visit does.
  await first.getByRole('region', { name: 'Leaderboard table' }).getByRole('link').first().waitFor({ timeout: 120_000 });
  const session = await signedIn.storageState();
  await signedIn.close();

  const scripts = new Set<string>();
  const timings: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: session });
    const page = await context.newPage();
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.add(request.url());
    });
    const started = performance.now();
    await page.goto(`${base}/dashboard`);
    for (const chart of ['Avg Success Score', 'Criteria Comparison', 'Calls Over Time']) {
      await page.getByRole('figure', { name: chart }).locator('svg.highcharts-root .highcharts-series').first().waitFor();
    }
    await page.getByRole('region', { name: 'Leaderboard table' }).getByRole('link').first().waitFor();
    await page.getByRole('article', { name: 'Success Score' }).getByText(/\/ 10/).waitFor();
    timings.push(performance.now() - started);
    await context.close();
  }

  const built = await builtScripts(scripts, base, '/dashboard');
  const gzipKb = kilobytes(built.reduce((sum, script) => sum + script.gzipBytes, 0));
  const medianMs = Math.round(median(timings));
  console.log(
    JSON.stringify({
      bench: 'web.dashboard-screen',
      demo_calls: Number(DEMO_DATA.DEMO_CALLS),
      demo_meetings: Number(DEMO_DATA.DEMO_MEETINGS),
      scripts: scripts.size,
      gzip_kb: gzipKb,
      highcharts_gzip_kb: kilobytes(built.filter((script) => script.file.includes('highcharts')).reduce((sum, script) => sum + script.gzipBytes, 0)),
      median_ms: medianMs,
      max_ms: Math.round(Math.max(...timings)),
      budget_ms: SCREEN_DRAWN_BUDGET_MS,
      within_time: medianMs <= SCREEN_DRAWN_BUDGET_MS,
      runs: RUNS,
    }),
  );
} finally {
  await product.stop();
}
