import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTransport } from 'nodemailer';
import type { Logger } from '../logger.js';
import { guardedMailer, type Mailer, type SentMail } from './mailer.js';

/**
 * DEV ONLY. The standalone mailer: nothing leaves the machine. Each message is written to
 * `<dir>/<id>.eml` (a real RFC 822 message, the bytes an SMTP server would have received; open
 * it in any mail client) and `<dir>/<id>.json` (what a dev page needs), and one info line
 * "e-mail captured (dev only)" logs the recipient, subject and **links**, so a developer can
 * follow a verification link straight from the terminal. Links are bearer secrets: this is
 * acceptable only because the capture mailer never runs in production.
 *
 * The id is `<UTC timestamp>-<random>`, so ids sort by the time they were captured.
 */
export interface CaptureMailerOptions {
  /** Folder for the captured messages; created when missing. */
  dir: string;
  /** The sender of every message. */
  from: string;
  logger?: Logger;
  /** Clock, for tests. */
  now?: () => Date;
}

export interface CapturedMail {
  id: string;
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  links: Record<string, string>;
  /** ISO 8601 time of capture. */
  sentAt: string;
  /** Absolute path of the RFC 822 file. */
  emlPath: string;
}

export interface CaptureMailer extends Mailer {
  /** Every captured message in the folder, newest first. */
  listCaptured(): Promise<CapturedMail[]>;
  /** One captured message, or undefined when there is none with that id (or the id is malformed). */
  readCaptured(id: string): Promise<CapturedMail | undefined>;
}

// Ids come back from a future dev page's URL: only this shape ever touches the file system.
const CAPTURE_ID = /^\d{8}T\d{9}Z-[0-9a-f]{8}$/;

type StoredMail = Omit<CapturedMail, 'emlPath'>;

export function createCaptureMailer(options: CaptureMailerOptions): CaptureMailer {
  const dir = path.resolve(options.dir);
  const now = options.now ?? (() => new Date());
  // Builds the exact bytes an SMTP transport would send, without sending them anywhere.
  const composer = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let lastStamp = 0;

  /** A millisecond timestamp that never repeats or goes back in this process, so ids sort. */
  const nextStamp = () => {
    lastStamp = Math.max(now().getTime(), lastStamp + 1);
    return new Date(lastStamp);
  };

  const emlPath = (id: string) => path.join(dir, `${id}.eml`);

  const capture = async (message: Parameters<Mailer['send']>[0]): Promise<SentMail> => {
    const sentAt = nextStamp();
    const id = `${sentAt.toISOString().replace(/[-:.]/g, '')}-${randomBytes(4).toString('hex')}`;
    const info = await composer.sendMail({
      from: options.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html !== undefined ? { html: message.html } : {}),
      date: sentAt,
    });
    const stored: StoredMail = {
      id,
      messageId: info.messageId,
      from: options.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html !== undefined ? { html: message.html } : {}),
      links: { ...message.links },
      sentAt: sentAt.toISOString(),
    };

    await mkdir(dir, { recursive: true });
    await writeFile(emlPath(id), info.message as Buffer);
    // The JSON file is what listing reads, so it appears last and whole (rename is atomic).
    const jsonPath = path.join(dir, `${id}.json`);
    await writeFile(`${jsonPath}.tmp`, `${JSON.stringify(stored, null, 2)}\n`);
    await rename(`${jsonPath}.tmp`, jsonPath);

    // Dev only: the links are logged on purpose (see the comment at the top of this file).
    options.logger?.info({ to: message.to, subject: message.subject, links: stored.links, file: emlPath(id) }, 'e-mail captured (dev only)');
    return { messageId: info.messageId };
  };

  return {
    ...guardedMailer(capture, () => composer.close()),

    listCaptured: () => listCapturedMail(dir),
    readCaptured: (id) => readCapturedMail(dir, id),
  };
}

/** One captured message in `dir`, or undefined when there is none with that id (or the id is malformed). */
export async function readCapturedMail(dir: string, id: string): Promise<CapturedMail | undefined> {
  if (!CAPTURE_ID.test(id)) return undefined;
  const folder = path.resolve(dir);
  let content: string;
  try {
    content = await readFile(path.join(folder, `${id}.json`), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const stored = JSON.parse(content) as StoredMail;
  return { ...stored, emlPath: path.join(folder, `${id}.eml`) };
}

/**
 * Every message captured in `dir`, newest first: what a developer (or a test) reads there,
 * whichever process captured it.
 */
export async function listCapturedMail(dir: string): Promise<CapturedMail[]> {
  let names: string[];
  try {
    names = await readdir(path.resolve(dir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const ids = names
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .filter((id) => CAPTURE_ID.test(id))
    .sort()
    .reverse();
  const mails = await Promise.all(ids.map((id) => readCapturedMail(dir, id)));
  return mails.filter((mail): mail is CapturedMail => mail !== undefined);
}
