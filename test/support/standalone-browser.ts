import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeEach } from 'vitest';
import { DEMO_ACCOUNT } from '@parlance/identity/demo-account';
import { launchBrowser } from './browser.js';
import { repoRoot, standaloneEnv, startHostProcess, waitUntilReady, type HostProcess } from './host-process.js';

/** Where browser tests save a screenshot of every screen they pass (look at them). */
export const SCREENSHOTS = path.join(repoRoot, '.run', 'screenshots');

export const WIDTHS = { phone: 375, tablet: 768, desktop: 1440 } as const;

export interface StandaloneBrowser {
  base: string;
  dataDir: string;
  browser: Browser;
  host: HostProcess;
  /** A fresh browser context (its own cookies and storage) at a width, recording page problems. */
  open(width?: number): Promise<{ context: BrowserContext; page: Page; problems: string[] }>;
  screenshot(page: Page, name: string): Promise<void>;
  /** The pages opened and not yet closed, with the problems each recorded. */
  openPages(): { page: Page; problems: string[] }[];
  stop(): Promise<void>;
}

/**
 * The standalone product (one process: PGlite, in-memory bus, captured e-mail under DATA_DIR)
 * serving the built web app, and Debian's Chromium to drive it.
 */
export async function startStandaloneBrowser(extraEnv: Record<string, string> = {}): Promise<StandaloneBrowser> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'parlance-browser-'));
  const env = {
    ...(await standaloneEnv(dataDir)),
    ...extraEnv,
  };
  const base = `http://127.0.0.1:${env.GATEWAY_PORT}`;
  const host = startHostProcess([], env);
  await Promise.all([waitUntilReady(Number(env.ADMIN_PORT), host), mkdir(SCREENSHOTS, { recursive: true })]);
  const browser = await launchBrowser();
  const pages = new Set<{ page: Page; problems: string[] }>();
  return {
    base,
    dataDir,
    browser,
    host,
    async open(width: number = WIDTHS.desktop) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      const opened = { page, problems };
      pages.add(opened);
      page.on('close', () => pages.delete(opened));
      return { context, page, problems };
    },
    openPages: () => [...pages],
    async screenshot(page, name) {
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
    },
    async stop() {
      await browser.close();
      host.child.kill('SIGTERM');
      await host.exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * When a test of the file fails, saves each page still open as `failed-{test}-{n}.png` and prints
 * its address and the problems it recorded: a failure seen once in a full run explains itself.
 */
export function explainFailures(product: () => StandaloneBrowser | undefined): void {
  beforeEach(({ onTestFailed, task }) => {
    onTestFailed(async () => {
      const name = task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80);
      for (const [index, { page, problems }] of (product()?.openPages() ?? []).entries()) {
        await page.screenshot({ path: path.join(SCREENSHOTS, `failed-${name}-${index}.png`), fullPage: true }).catch(() => undefined);
        process.stderr.write(`[${task.name}] page ${index} at ${page.url()}; problems: ${JSON.stringify(problems)}\n`);
      }
    });
  });
}

/** Signs the demo account in through the login form, as a person does, and waits for the dashboard. */
export async function signInAsDemo(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(DEMO_ACCOUNT.email);
  await page.getByLabel('Password').fill(DEMO_ACCOUNT.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(`${base}/dashboard`);
}

/** How far the page is wider than the window (0 when nothing forces sideways scrolling). */
export function horizontalOverflow(page: Page): Promise<number> {
  // Evaluated in the page, where document and window exist.
  return page.evaluate('document.documentElement.scrollWidth - window.innerWidth') as Promise<number>;
}
