import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createMailer } from '../src/mail/create-mailer.js';
import { loadMailConfig } from '../src/mail/mail-config.js';
import { MailDeliveryError, type Mailer } from '../src/mail/mailer.js';
import { createSmtpMailer } from '../src/mail/smtp-mailer.js';
import { startSmtpServer } from '../src/testing/smtp-server.js';
import { CONTRACT_FROM, mailContract } from './mail.contract.js';

mailContract('smtp', async (from) => {
  const smtp = await startSmtpServer();
  return {
    mailer: createSmtpMailer({ url: `smtp://127.0.0.1:${smtp.port}`, from }),
    delivered: async () => [...smtp.received],
    close: () => smtp.close(),
  };
});

describe('smtp mailer', () => {
  // Special characters on purpose: the URL carries them percent-encoded.
  const user = 'mailer@parlance.test';
  const password = 'S3cr3t p@ss:w/rd%!';
  const urlFor = (port: number, pass = password) => `smtp://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${port}`;
  const letter = (to = 'ana@example.com') => ({
    to,
    subject: 'Confirm your e-mail address',
    text: 'Open https://app.parlance.test/verify?token=tok-secret-123',
    links: { verify: 'https://app.parlance.test/verify?token=tok-secret-123' },
  });

  let servers: Array<{ close(): Promise<void> }>;
  let mailers: Mailer[];
  const track = <T extends { close(): Promise<void> }>(server: T) => (servers.push(server), server);
  const mailerFor = (...args: Parameters<typeof createSmtpMailer>) => {
    const mailer = createSmtpMailer(...args);
    mailers.push(mailer);
    return mailer;
  };

  beforeEach(() => {
    servers = [];
    mailers = [];
  });

  afterEach(async () => {
    await Promise.all(mailers.map((mailer) => mailer.close()));
    await Promise.all(servers.map((server) => server.close()));
  });

  /** A TCP server that accepts connections and never says a word. */
  const startSilentServer = async () => {
    const sockets = new Set<Socket>();
    const server: TcpServer = createTcpServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as AddressInfo).port,
      close: () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => resolve());
        }),
    };
  };

  /** A port on which nothing listens. */
  const closedPort = async () => {
    const silent = await startSilentServer();
    await silent.close();
    return silent.port;
  };

  const failureOf = async (sending: Promise<unknown>): Promise<MailDeliveryError> => {
    const error = await sending.then(
      () => expect.unreachable('the e-mail was sent'),
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(MailDeliveryError);
    return error as MailDeliveryError;
  };

  it('explains that the server refused the recipient, with the server’s reply', async () => {
    const smtp = track(await startSmtpServer({ refuse: (address) => address.startsWith('gone@') }));
    const mailer = mailerFor({ url: `smtp://127.0.0.1:${smtp.port}`, from: CONTRACT_FROM });

    const failure = await failureOf(mailer.send(letter('gone@example.com')));
    expect(failure.message).toBe(
      `SMTP server at 127.0.0.1:${smtp.port} refused the recipient gone@example.com: 550 5.1.1 <gone@example.com>: Recipient address rejected: User unknown`,
    );
    expect(failure).toMatchObject({ reason: 'recipient-refused', details: { responseCode: 550 }, retryable: false });
    expect(smtp.received).toEqual([]);

    // The pooled connection is still good for the next message.
    await mailer.send(letter('ana@example.com'));
    expect(smtp.received.map((mail) => mail.to)).toEqual([['ana@example.com']]);
  });

  it('authenticates with the user and password from the URL', async () => {
    const smtp = track(await startSmtpServer({ auth: { user, pass: password } }));
    const mailer = mailerFor({ url: urlFor(smtp.port), from: CONTRACT_FROM });

    await mailer.send(letter());
    expect(smtp.logins).toEqual([user]);
    expect(smtp.received).toHaveLength(1);
  });

  it('authenticates with host, port and credentials given as parts', async () => {
    const smtp = track(await startSmtpServer({ auth: { user, pass: password } }));
    const mailer = mailerFor({ host: '127.0.0.1', port: smtp.port, auth: { user, pass: password }, from: CONTRACT_FROM });

    await mailer.send(letter());
    expect(smtp.logins).toEqual([user]);
  });

  it('explains that the server rejected the credentials, naming the user but not the password', async () => {
    const smtp = track(await startSmtpServer({ auth: { user, pass: 'the-right-one' } }));
    const mailer = mailerFor({ url: urlFor(smtp.port), from: CONTRACT_FROM });

    const failure = await failureOf(mailer.send(letter()));
    expect(failure.reason).toBe('authentication-failed');
    expect(failure.message).toMatch(new RegExp(`^SMTP server at 127\\.0\\.0\\.1:${smtp.port} rejected the credentials of user "mailer@parlance\\.test": 535 `));
    expect(smtp.received).toEqual([]);
  });

  it('explains that a server which requires a login got none', async () => {
    const smtp = track(await startSmtpServer({ auth: { user, pass: password } }));
    const mailer = mailerFor({ url: `smtp://127.0.0.1:${smtp.port}`, from: CONTRACT_FROM });

    const failure = await failureOf(mailer.send(letter()));
    expect(failure.message).toBe(
      `SMTP server at 127.0.0.1:${smtp.port} requires authentication and no user name and password are configured: 530 Error: authentication Required`,
    );
    expect(failure).toMatchObject({ reason: 'authentication-failed', details: { responseCode: 530 }, retryable: false });
  });

  it('explains that nothing answers at the configured address', async () => {
    const port = await closedPort();
    const mailer = mailerFor({ url: urlFor(port), from: CONTRACT_FROM });

    const failure = await failureOf(mailer.send(letter()));
    expect(failure.message).toMatch(new RegExp(`^Cannot reach the SMTP server at 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
    expect(failure).toMatchObject({ reason: 'unreachable', retryable: true });
  });

  it('gives up on a server that never greets, after the greeting timeout', async () => {
    const silent = track(await startSilentServer());
    const mailer = mailerFor({ url: urlFor(silent.port), from: CONTRACT_FROM, greetingTimeoutMs: 300 });

    const started = Date.now();
    const failure = await failureOf(mailer.send(letter()));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(failure.message).toMatch(new RegExp(`^SMTP server at 127\\.0\\.0\\.1:${silent.port} did not answer in time`));
    expect(failure).toMatchObject({ reason: 'timeout', retryable: true });
  });

  it('refuses a TLS server whose certificate cannot be verified, and says so', async () => {
    // smtp-server's built-in certificate is self-signed (and expired): it must not be trusted.
    const tlsServer = new SMTPServer({ secure: true, logger: false, authOptional: true, closeTimeout: 1_000 });
    tlsServer.on('error', () => undefined);
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    track({ close: () => new Promise<void>((resolve) => tlsServer.close(() => resolve())) });
    const { port } = tlsServer.server.address() as AddressInfo;
    const mailer = mailerFor({ url: `smtps://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`, from: CONTRACT_FROM });

    const failure = await failureOf(mailer.send(letter()));
    expect(failure.message).toMatch(new RegExp(`^TLS with the SMTP server at 127\\.0\\.0\\.1:${port} failed: .*certificate`));
    expect(failure).toMatchObject({ reason: 'tls-failed', retryable: false });
  });

  it('never puts the password from SMTP_URL into an error message', async () => {
    const refusing = track(await startSmtpServer({ auth: { user, pass: password }, refuse: () => true }));
    const wrongPassword = track(await startSmtpServer({ auth: { user, pass: 'another' } }));
    const silent = track(await startSilentServer());
    const port = await closedPort();

    const errors: unknown[] = [];
    for (const target of [refusing.port, wrongPassword.port, silent.port, port]) {
      const mailer = mailerFor({ url: urlFor(target), from: CONTRACT_FROM, greetingTimeoutMs: 300 });
      errors.push(await failureOf(mailer.send(letter())));
    }
    for (const smtpUrl of [urlFor(1).replace('smtp:', 'smtpx:'), `${encodeURIComponent(user)}:${password}@127.0.0.1:25`, 'smtp://u:p@ss@/nohost']) {
      errors.push(
        (() => {
          try {
            loadMailConfig({ MAIL_TRANSPORT: 'smtp', SMTP_URL: smtpUrl });
          } catch (error) {
            expect(error).toBeInstanceOf(ConfigError);
            return error;
          }
          return expect.unreachable(`SMTP_URL ${smtpUrl} was accepted`);
        })(),
      );
    }

    expect(errors.map((error) => (error as Error).message)).toEqual([
      expect.stringContaining('refused the recipient'),
      expect.stringContaining('rejected the credentials'),
      expect.stringContaining('did not answer in time'),
      expect.stringContaining('Cannot reach the SMTP server'),
      expect.stringContaining('SMTP_URL'),
      expect.stringContaining('SMTP_URL'),
      expect.stringContaining('SMTP_URL'),
    ]);
    for (const error of errors) {
      const everything = `${String((error as Error).stack)} ${JSON.stringify(error)}`;
      for (const secret of [password, encodeURIComponent(password), 'p@ss']) expect(everything).not.toContain(secret);
    }
  });

  it('logs the message id and subject of each e-mail, never its body or links', async () => {
    const smtp = track(await startSmtpServer({ refuse: (address) => address.startsWith('gone@') }));
    const lines: string[] = [];
    const logger = createLogger({ service: 'mail-test', level: 'trace', pretty: false, destination: { write: (line: string) => void lines.push(line) } });
    const mailer = mailerFor({ url: `smtp://127.0.0.1:${smtp.port}`, from: CONTRACT_FROM, logger });

    const sent = await mailer.send({ ...letter(), html: '<a href="https://app.parlance.test/verify?token=tok-secret-123">Open</a>' });
    await failureOf(mailer.send(letter('gone@example.com')));

    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: 30, msg: 'e-mail sent', messageId: sent.messageId, subject: 'Confirm your e-mail address' }),
      expect.objectContaining({ level: 40, msg: 'e-mail not sent', reason: 'recipient-refused', responseCode: 550 }),
    ]);
    expect(lines.join('\n')).not.toContain('tok-secret-123');
    expect(lines.join('\n')).not.toContain('Open');
  });

  it('is what MAIL_TRANSPORT=smtp creates, sending from MAIL_FROM through SMTP_URL', async () => {
    const smtp = track(await startSmtpServer({ auth: { user, pass: password } }));
    const mailer = createMailer(loadMailConfig({ MAIL_TRANSPORT: 'smtp', SMTP_URL: urlFor(smtp.port), MAIL_FROM: 'Acme Sales <sales@acme.test>' }));
    mailers.push(mailer);

    await mailer.send(letter());
    expect(smtp.received[0]?.from).toEqual({ name: 'Acme Sales', address: 'sales@acme.test' });
    expect(smtp.logins).toEqual([user]);
  });
});
