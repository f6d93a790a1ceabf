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
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startStandaloneBrowser } from '../test/support/standalone-browser.js';
import { builtScripts, kilobytes } from './support/built-scripts.js';
import { median } from './support/measure.js';
import { PUBLIC_PATHS } from '../web/src/app/public-paths.js';

export const PUBLIC_PAGE_BUDGET_KB = 200;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
// Every public path, plus the sign-up form and the pages' states that need a query.
const PAGES = [...PUBLIC_PATHS, '/login?mode=signup', '/auth/email-sent?email=someone%40example.com'];

const product = await startStandaloneBrowser({ LOG_LEVEL: 'warn' });
const { base, browser } = product;

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
    const built = await builtScripts(scripts, base, pagePath);
    const gzipKb = kilobytes(built.reduce((sum, script) => sum + script.gzipBytes, 0));
    let highcharts = false;
    for (const { file } of built) if (/highcharts/i.test(path.basename(file)) || (await readFile(file, 'utf8')).includes('Highcharts')) highcharts = true;
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
  await product.stop();
}
