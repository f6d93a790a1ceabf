import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { waitFor } from './wait-for.js';

export type CapturedMail = { to: string; subject: string; text: string; html?: string; links: Record<string, string>; sentAt: string };

/**
 * Every e-mail the standalone product captured under `dataDir`, newest first (its capture transport
 * writes each message as <DATA_DIR>/mail/<id>.json, ids sorting by time).
 */
async function capturedMails(dataDir: string): Promise<CapturedMail[]> {
  const folder = path.join(dataDir, 'mail');
  const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.json')).sort().reverse();
  return Promise.all(names.map(async (name) => JSON.parse(await readFile(path.join(folder, name), 'utf8')) as CapturedMail));
}

/** The newest e-mail the standalone product captured for `to`, waiting for it to arrive. */
export function capturedMail(dataDir: string, to: string, timeoutMs = 15_000): Promise<CapturedMail> {
  return waitFor(`an e-mail to ${to}`, async () => (await capturedMails(dataDir)).find((mail) => mail.to.toLowerCase() === to.toLowerCase()), timeoutMs);
}

/**
 * The link named `link` (e.g. 'verify' or 'accept') in the newest e-mail the standalone product
 * captured for `to` that has one, waiting for it to arrive.
 */
export async function capturedLink(dataDir: string, to: string, link: string, timeoutMs = 15_000): Promise<string> {
  return waitFor(
    `an e-mail to ${to} with a ${link} link`,
    async () => (await capturedMails(dataDir)).find((mail) => mail.to.toLowerCase() === to.toLowerCase() && mail.links[link])?.links[link],
    timeoutMs,
  );
}
