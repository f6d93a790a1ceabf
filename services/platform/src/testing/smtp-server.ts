/**
 * A real SMTP server for tests (the npm smtp-server package) on 127.0.0.1 and a free port, and a
 * parser that reads what it received the way a mail client would. Used by the mailer contract
 * suite and by every service test that follows a link from an e-mail.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message as the receiving side saw it, parsed from the RFC 822 bytes it got. */
export interface DeliveredMail {
  messageId: string | undefined;
  from: { name: string; address: string | undefined };
  to: string[];
  subject: string | undefined;
  text: string | undefined;
  html: string | undefined;
}

/** Parses raw RFC 822 bytes the way a mail client would. */
export async function parseDelivered(raw: Buffer | string): Promise<DeliveredMail> {
  const parsed = await simpleParser(raw);
  const addresses = (field: AddressObject | AddressObject[] | undefined) =>
    (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) => object.value.map((entry) => entry.address ?? ''));
  const sender = parsed.from?.value[0];
  return {
    messageId: parsed.messageId,
    from: { name: sender?.name ?? '', address: sender?.address },
    to: addresses(parsed.to),
    subject: parsed.subject,
    text: parsed.text,
    html: typeof parsed.html === 'string' ? parsed.html : undefined,
  };
}

export interface TestSmtpServer {
  port: number;
  received: DeliveredMail[];
  /** User names that authenticated successfully. */
  logins: string[];
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 and a free port. Without `auth` anyone may send; with it, only
 * that user and password. `refuse` answers 550 to RCPT TO for the addresses it matches.
 */
export async function startSmtpServer(options: { auth?: { user: string; pass: string }; refuse?: (address: string) => boolean } = {}) {
  const received: DeliveredMail[] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
    logger: false,
    // No TLS here (its built-in certificate is self-signed); plain AUTH is allowed on loopback.
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    closeTimeout: 1_000,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) {
        logins.push(auth.username ?? '');
        return callback(null, { user: auth.username });
      }
      return callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (options.refuse?.(address.address)) {
        return callback(Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown`), { responseCode: 550 }));
      }
      return callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        parseDelivered(Buffer.concat(chunks)).then(
          (mail) => {
            received.push(mail);
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies TestSmtpServer;
}
