/**
 * The web shell in a real browser (Debian's Chromium driven by playwright-core), served by the
 * standalone host's gateway and talking to its real API.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { freePort } from './support/free-port.js';
import { repoRoot, startHostProcess, waitUntilReady, type HostProcess } from './support/host-process.js';

let host: HostProcess;
let browser: Browser;
let base: string;
let dataDir: string;
const screenshots = path.join(repoRoot, '.run', 'screenshots');

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'parlance-browser-'));
  const env = {
    DATA_DIR: dataDir,
    GRPC_PORT: String(await freePort()),
    ADMIN_PORT: String(await freePort()),
    GATEWAY_PORT: String(await freePort()),
  };
  base = `http://127.0.0.1:${env.GATEWAY_PORT}`;
  host = startHostProcess([], env);
  await Promise.all([waitUntilReady(Number(env.ADMIN_PORT), host), mkdir(screenshots, { recursive: true })]);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  host?.child.kill('SIGTERM');
  await host?.exited;
  await rm(dataDir, { recursive: true, force: true });
});

describe('web shell in Chromium', () => {
  it('shows every service as serving on the status page, with no policy violation or script error', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${base}/status`);
    for (const service of ['identity', 'ingest', 'transcription', 'scoring', 'analytics', 'integration']) {
      await page.getByText(service, { exact: true }).waitFor();
    }
    expect(await page.getByText('serving', { exact: true }).count()).toBe(6);
    expect(problems).toEqual([]);
    await page.screenshot({ path: path.join(screenshots, 'status.png'), fullPage: true });
    await page.close();
  });

  it('follows a top-bar link through the browser router to the not-found page and back home', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    await page.getByRole('link', { name: 'Teams' }).click();
    await page.waitForURL(`${base}/teams`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.getByText('There is no page at /teams.').count()).toBe(1);
    await page.screenshot({ path: path.join(screenshots, 'not-found.png'), fullPage: true });
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await page.waitForURL(`${base}/`);
    await page.close();
  });
});
