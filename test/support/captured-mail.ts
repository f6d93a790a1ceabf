import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { waitFor } from './wait-for.js';

type CapturedMail = { to: string; subject: string; text: string; links: Record<string, string>; sentAt: string };

/**
 * The newest e-mail the standalone product captured for `to` (its capture transport writes each
 * message as <DATA_DIR>/mail/<id>.json), waiting for it to arrive. `link` names the link wanted,
 * e.g. 'verify' or 'accept'.
 */
export async function capturedLink(dataDir: string, to: string, link: string, timeoutMs = 15_000): Promise<string> {
  const folder = path.join(dataDir, 'mail');
  return waitFor(
    `an e-mail to ${to} with a ${link} link`,
    async () => {
      const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.json')).sort().reverse();
      for (const name of names) {
        const mail = JSON.parse(await readFile(path.join(folder, name), 'utf8')) as CapturedMail;
        if (mail.to.toLowerCase() === to.toLowerCase() && mail.links[link]) return mail.links[link];
      }
      return undefined;
    },
    timeoutMs,
  );
}
