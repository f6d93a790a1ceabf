/**
 * The activities screen's web budgets (issue 14, point 9): on the standalone product with demo
 * data, the JavaScript a signed-in manager's browser downloads to draw /activities (the app shell
 * plus the screen's chunk, gzipped as the gateway sends them) against 350 KB, and the time from
 * navigation to the calls table showing its rows against 1.5 s, median over RUNS fresh page loads
 * in headless Chromium (the session cookie kept, nothing else cached).
 *
 * The demo data is smaller than `make run`'s (support/screen-load.ts); the screen reads one page
 * of one team either way.
 *
 *   npx tsx bench/activities-screen.bench.ts     # needs a built web app (make bench builds it)
 *
 * Prints {"bench":"web.activities-screen","scripts":…,"gzip_kb":…,"budget_kb":350,
 * "within_budget":…,"median_ms":…,"budget_ms":1500,"within_time":…,"runs":…}.
 */
import { median } from './support/measure.js';
import { DEMO_DATA, measureScreenLoads, SCREEN_DRAWN_BUDGET_MS } from './support/screen-load.js';

const APP_SHELL_BUDGET_KB = 350;

const { timings, scripts, gzipKb, runs } = await measureScreenLoads('/activities', async (page) => {
  const calls = page.getByRole('table', { name: 'Calls' });
  await calls.and(page.locator('[aria-busy="false"]')).waitFor();
  await calls.locator('tbody tr').first().waitFor();
});
const medianMs = Math.round(median(timings));
console.log(
  JSON.stringify({
    bench: 'web.activities-screen',
    demo_calls: Number(DEMO_DATA.DEMO_CALLS),
    demo_meetings: Number(DEMO_DATA.DEMO_MEETINGS),
    scripts: scripts.length,
    gzip_kb: gzipKb,
    budget_kb: APP_SHELL_BUDGET_KB,
    within_budget: gzipKb <= APP_SHELL_BUDGET_KB,
    median_ms: medianMs,
    max_ms: Math.round(Math.max(...timings)),
    budget_ms: SCREEN_DRAWN_BUDGET_MS,
    within_time: medianMs <= SCREEN_DRAWN_BUDGET_MS,
    runs,
  }),
);
