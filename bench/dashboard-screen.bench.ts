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
import { kilobytes } from './support/built-scripts.js';
import { median } from './support/measure.js';
import { DEMO_DATA, measureScreenLoads, SCREEN_DRAWN_BUDGET_MS } from './support/screen-load.js';

const { timings, scripts, gzipKb, runs } = await measureScreenLoads(
  '/dashboard',
  async (page) => {
    for (const chart of ['Avg Success Score', 'Criteria Comparison', 'Calls Over Time']) {
      await page.getByRole('figure', { name: chart }).locator('svg.highcharts-root .highcharts-series').first().waitFor();
    }
    await page.getByRole('region', { name: 'Leaderboard table' }).getByRole('link').first().waitFor();
    await page.getByRole('article', { name: 'Success Score' }).getByText(/\/ 10/).waitFor();
  },
  // The first visit in a time zone builds its rollups; the measured loads find them built, as every later visit does.
  (page) => page.getByRole('region', { name: 'Leaderboard table' }).getByRole('link').first().waitFor({ timeout: 120_000 }),
);
const medianMs = Math.round(median(timings));
console.log(
  JSON.stringify({
    bench: 'web.dashboard-screen',
    demo_calls: Number(DEMO_DATA.DEMO_CALLS),
    demo_meetings: Number(DEMO_DATA.DEMO_MEETINGS),
    scripts: scripts.length,
    gzip_kb: gzipKb,
    highcharts_gzip_kb: kilobytes(scripts.filter((script) => script.file.includes('highcharts')).reduce((sum, script) => sum + script.gzipBytes, 0)),
    median_ms: medianMs,
    max_ms: Math.round(Math.max(...timings)),
    budget_ms: SCREEN_DRAWN_BUDGET_MS,
    within_time: medianMs <= SCREEN_DRAWN_BUDGET_MS,
    runs,
  }),
);
