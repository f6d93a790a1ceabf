import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium, headless, with the background networking it would otherwise attempt
 * switched off (this machine's network is closed; those connections only add noise and delay).
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}
