/**
 * The activities screen's web budgets (issue 14, point 9): on the standalone product with demo
 * data, the JavaScript a signed-in manager's browser downloads to draw /activities (the app shell
 * plus the screen's chunk, gzipped as the gateway sends them) against 350 KB, and the time from
 * navigation to the calls table showing its rows against 1.5 s, median over RUNS fresh page loads
 * in headless Chromium (the session cookie kept, nothing else cached).
 *
 * The demo data is smaller than `make run`'s (BENCH_DEMO_CALLS, BENCH_DEMO_MEETINGS) so the bench
 * does not wait minutes for it; the screen reads one page of one team either way.
 *
 *   npx tsx bench/activities-screen.bench.ts     # needs a built web app (make bench builds it)
 *
 * Prints {"bench":"web.activities-screen","scripts":…,"gzip_kb":…,"budget_kb":350,
 * "within_budget":…,"median_ms":…,"budget_ms":1500,"within_time":…,"runs":…}.
 */
import { signInAsDemo, startStandaloneBrowser } from '../test/support/standalone-browser.js';
import { waitFor } from '../test/support/wait-for.js';
import { builtScripts, kilobytes } from './support/built-scripts.js';
import { median } from './support/measure.js';

export const APP_SHELL_BUDGET_KB = 350;
export const SCREEN_DRAWN_BUDGET_MS = 1_500;
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
  await signInAsDemo(await signedIn.newPage(), base);
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
    await page.goto(`${base}/activities`);
    const calls = page.getByRole('table', { name: 'Calls' });
    await calls.and(page.locator('[aria-busy="false"]')).waitFor();
    await calls.locator('tbody tr').first().waitFor();
    timings.push(performance.now() - started);
    await context.close();
  }

  const built = await builtScripts(scripts, base, '/activities');
  const gzipKb = kilobytes(built.reduce((sum, script) => sum + script.gzipBytes, 0));
  const medianMs = Math.round(median(timings));
  console.log(
    JSON.stringify({
      bench: 'web.activities-screen',
      demo_calls: Number(DEMO_DATA.DEMO_CALLS),
      demo_meetings: Number(DEMO_DATA.DEMO_MEETINGS),
      scripts: scripts.size,
      gzip_kb: gzipKb,
      budget_kb: APP_SHELL_BUDGET_KB,
      within_budget: gzipKb <= APP_SHELL_BUDGET_KB,
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
