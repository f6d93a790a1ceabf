import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCaptureMailer, type CaptureMailer } from '../src/mail/capture-mailer.js';
import { createMailer } from '../src/mail/create-mailer.js';
import { loadMailConfig } from '../src/mail/mail-config.js';
import { createLogger } from '../src/logger.js';
import { parseDelivered } from '../src/testing/smtp-server.js';
import { CONTRACT_FROM, mailContract } from './mail.contract.js';

const makeDir = () => mkdtemp(path.join(tmpdir(), 'parlance-mail-'));

mailContract('capture', async (from) => {
  const dir = await makeDir();
  const mailer = createCaptureMailer({ dir, from });
  return {
    mailer,
    // What a developer would open: the .eml files, found through listCaptured.
    delivered: async () =>
      Promise.all((await mailer.listCaptured()).map(async (mail) => parseDelivered(await readFile(mail.emlPath)))),
    close: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('capture mailer (dev only)', () => {
  let dir: string;
  let lines: string[];
  let mailer: CaptureMailer;

  beforeEach(async () => {
    dir = await makeDir();
    lines = [];
    const logger = createLogger({ service: 'mail-test', level: 'info', pretty: false, destination: { write: (line: string) => void lines.push(line) } });
    mailer = createCaptureMailer({ dir, from: CONTRACT_FROM, logger });
  });

  afterEach(async () => {
    await mailer.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('logs one info line with the recipient, subject and links, marked dev only', async () => {
    const link = 'https://app.parlance.test/verify?token=abc123';
    await mailer.send({ to: 'ana@example.com', subject: 'Confirm your e-mail address', text: `Open ${link}`, links: { verify: link } });

    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 30,
      msg: 'e-mail captured (dev only)',
      to: 'ana@example.com',
      subject: 'Confirm your e-mail address',
      links: { verify: link },
    });
    const [captured] = await mailer.listCaptured();
    expect(line.file).toBe(captured!.emlPath);
  });

  it('lists captured e-mails newest first, even within one millisecond, and reads one back by id', async () => {
    const frozen = new Date('2030-01-02T03:04:05.006Z');
    const clocked = createCaptureMailer({ dir, from: CONTRACT_FROM, now: () => frozen });
    for (const subject of ['first', 'second', 'third']) {
      await clocked.send({ to: 'bruno@example.com', subject, text: `${subject} body`, html: `<b>${subject}</b>`, links: { open: `https://x.test/${subject}` } });
    }

    const listed = await clocked.listCaptured();
    expect(listed.map((mail) => mail.subject)).toEqual(['third', 'second', 'first']);
    expect(listed[2]!.sentAt).toBe('2030-01-02T03:04:05.006Z');
    expect(listed[2]!.id).toMatch(/^20300102T030405006Z-[0-9a-f]{8}$/);

    const second = await clocked.readCaptured(listed[1]!.id);
    expect(second).toEqual(listed[1]);
    expect(second).toMatchObject({
      from: CONTRACT_FROM,
      to: 'bruno@example.com',
      subject: 'second',
      text: 'second body',
      html: '<b>second</b>',
      links: { open: 'https://x.test/second' },
      emlPath: path.join(dir, `${listed[1]!.id}.eml`),
    });
    expect(second!.messageId).toMatch(/^<.+>$/);
    await clocked.close();
  });

  it('keeps exactly one .eml and one .json per e-mail, and nothing half-written', async () => {
    await mailer.send({ to: 'carla@example.com', subject: 'One', text: 'one' });
    await mailer.send({ to: 'carla@example.com', subject: 'Two', text: 'two' });

    const ids = (await mailer.listCaptured()).map((mail) => mail.id);
    expect((await readdir(dir)).sort()).toEqual(ids.flatMap((id) => [`${id}.eml`, `${id}.json`]).sort());
    const raw = await readFile(path.join(dir, `${ids[0]}.eml`), 'utf8');
    expect(raw).toMatch(/^Content-Type: text\/plain; charset=utf-8$/m);
    expect(raw).toMatch(/^Date: /m);
  });

  it('reads nothing outside its folder and nothing for an unknown id', async () => {
    await mailer.send({ to: 'dora@example.com', subject: 'Real', text: 'real' });

    expect(await mailer.readCaptured('../../../etc/passwd')).toBeUndefined();
    expect(await mailer.readCaptured(`../${path.basename(dir)}/x`)).toBeUndefined();
    expect(await mailer.readCaptured('20300102T030405006Z-00000000')).toBeUndefined();
  });

  it('lists nothing before the first e-mail creates the folder', async () => {
    const fresh = createCaptureMailer({ dir: path.join(dir, 'not-yet'), from: CONTRACT_FROM });
    expect(await fresh.listCaptured()).toEqual([]);

    await fresh.send({ to: 'eva@example.com', subject: 'Hi', text: 'hi' });
    expect(await fresh.listCaptured()).toHaveLength(1);
    await fresh.close();
  });

  it('is what the default configuration creates, writing to MAIL_CAPTURE_DIR', async () => {
    const config = loadMailConfig({ MAIL_CAPTURE_DIR: dir });
    expect(config).toEqual({ transport: 'capture', from: 'Parlance <no-reply@parlance.local>', captureDir: dir });
    const configured = createMailer(config);
    await configured.send({ to: 'fabio@example.com', subject: 'Configured', text: 'hello' });
    await configured.close();

    const [captured] = await mailer.listCaptured();
    expect(captured).toMatchObject({ from: 'Parlance <no-reply@parlance.local>', subject: 'Configured' });
  });
});
