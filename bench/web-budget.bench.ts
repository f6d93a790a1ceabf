/**
 * The public pages' JavaScript budget (issue 5): each public page, opened fresh in Chromium from
 * the standalone product, may load at most 200 KB of gzipped JavaScript, and never Highcharts.
 *
 * For every page the scripts the browser actually fetched are matched to the build's files, and
 * their gzip copies (written by web/scripts/compress-dist.ts, the bytes the gateway sends) are
 * added up. Also reported: the median time from navigation to the page's heading being shown,
 * over RUNS fresh loads, with the `/status` page (no API data beyond one call) for comparison.
 *
 *   npx tsx bench/web-budget.bench.ts     # needs a built web app (make bench builds it)
 *
 * Prints one JSON line per page: {"bench":"web.public-page","page":"/pricing","scripts":3,
 * "gzip_kb":…,"budget_kb":200,"within_budget":true,"highcharts":false,"median_ms":…}.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../test/support/browser.js';
import { freePort } from '../test/support/free-port.js';
import { repoRoot, startHostProcess, waitUntilReady } from '../test/support/host-process.js';
import { median } from './support/measure.js';
import { PUBLIC_PATHS } from '../web/src/app/public-paths.js';

export const PUBLIC_PAGE_BUDGET_KB = 200;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
// Every public path, plus the sign-up form and the pages' states that need a query.
const PAGES = [...PUBLIC_PATHS, '/login?mode=signup', '/auth/email-sent?email=someone%40example.com'];
const dist = path.join(repoRoot, 'web', 'dist');

const dataDir = await mkdtemp(path.join(tmpdir(), 'parlance-web-bench-'));
const env = { DATA_DIR: dataDir, GRPC_PORT: String(await freePort()), ADMIN_PORT: String(await freePort()), GATEWAY_PORT: String(await freePort()), LOG_LEVEL: 'warn' };
const base = `http://127.0.0.1:${env.GATEWAY_PORT}`;
const host = startHostProcess([], env);
await waitUntilReady(Number(env.ADMIN_PORT), host);
const browser = await launchBrowser();

try {
  for (const pagePath of PAGES) {
    const scripts = new Set<string>();
    const timings: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.add(request.url());
      });
      const started = performance.now();
      await page.goto(`${base}${pagePath}`);
      await page.locator('main h1').first().waitFor();
      timings.push(performance.now() - started);
      await page.waitForLoadState('networkidle');
      await context.close();
    }
    let gzipBytes = 0;
    let highcharts = false;
    for (const url of scripts) {
      const { origin, pathname } = new URL(url);
      if (origin !== base) throw new Error(`${pagePath} loaded a script from another origin: ${url}`);
      const file = path.join(dist, decodeURIComponent(pathname));
      gzipBytes += (await stat(`${file}.gz`)).size;
      if (/highcharts/i.test(pathname) || (await readFile(file, 'utf8')).includes('Highcharts')) highcharts = true;
    }
    const gzipKb = Math.round((gzipBytes / 1024) * 10) / 10;
    console.log(
      JSON.stringify({
        bench: 'web.public-page',
        page: pagePath,
        scripts: scripts.size,
        gzip_kb: gzipKb,
        budget_kb: PUBLIC_PAGE_BUDGET_KB,
        within_budget: gzipKb <= PUBLIC_PAGE_BUDGET_KB,
        highcharts,
        median_ms: Math.round(median(timings)),
        runs: RUNS,
      }),
    );
  }
} finally {
  await browser.close();
  host.child.kill('SIGTERM');
  await host.exited;
  await rm(dataDir, { recursive: true, force: true });
}
