import { createTransport, type NodemailerError } from 'nodemailer';
import type { Logger } from '../logger.js';
import { guardedMailer, MailDeliveryError, type Mailer, type MailMessage, type SentMail } from './mailer.js';

/** Where the SMTP server is: a URL, or its parts. */
export type SmtpServer =
  | {
      /** `smtp://user:pass@host:port` (STARTTLS when offered) or `smtps://…` (TLS from the start). */
      url: string;
    }
  | {
      host: string;
      port: number;
      /** TLS from the first byte (usually port 465); otherwise STARTTLS when the server offers it. */
      secure?: boolean;
      auth?: { user: string; pass: string };
    };

export type SmtpMailerOptions = SmtpServer & {
  /** The sender of every message, e.g. `Parlance <no-reply@parlance.example>`. */
  from: string;
  logger?: Logger;
  /** Open connections kept in the pool. Default 3. */
  maxConnections?: number;
  /** Time to open the TCP connection. Default 10 s. */
  connectionTimeoutMs?: number;
  /** Time for the server's greeting once connected. Default 10 s. */
  greetingTimeoutMs?: number;
  /** Inactivity on a connection before it is given up. Default 30 s. */
  socketTimeoutMs?: number;
};

interface ResolvedServer {
  host: string;
  port: number;
  secure: boolean;
  auth?: { user: string; pass: string };
}

/** Parses an `smtp://` or `smtps://` URL; the error never repeats the URL (it holds a password). */
export function parseSmtpUrl(url: string): ResolvedServer {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('The SMTP URL is not a valid URL (expected smtp://user:pass@host:port)');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new Error(`The SMTP URL must start with smtp:// or smtps:// (got ${parsed.protocol}//)`);
  }
  if (!parsed.hostname) throw new Error('The SMTP URL names no host (expected smtp://user:pass@host:port)');
  const secure = parsed.protocol === 'smtps:';
  const port = parsed.port ? Number(parsed.port) : secure ? 465 : 587;
  const user = decodeURIComponent(parsed.username);
  const pass = decodeURIComponent(parsed.password);
  // An IPv6 host keeps its brackets in URL.hostname; sockets want it bare.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, port, secure, ...(user ? { auth: { user, pass } } : {}) };
}

/**
 * Sends through an SMTP server with a nodemailer connection pool. Logs the message id and
 * subject of each message, never its body, recipient list or links.
 */
export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const server: ResolvedServer =
    'url' in options
      ? parseSmtpUrl(options.url)
      : {
          host: options.host,
          port: options.port,
          secure: options.secure ?? false,
          ...(options.auth ? { auth: options.auth } : {}),
        };
  const where = `${server.host}:${server.port}`;
  const connectionTimeout = options.connectionTimeoutMs ?? 10_000;
  const greetingTimeout = options.greetingTimeoutMs ?? 10_000;
  const socketTimeout = options.socketTimeoutMs ?? 30_000;
  const transport = createTransport({
    pool: true,
    host: server.host,
    port: server.port,
    secure: server.secure,
    ...(server.auth ? { auth: server.auth } : {}),
    maxConnections: options.maxConnections ?? 3,
    connectionTimeout,
    greetingTimeout,
    socketTimeout,
    // Idle pooled connections are closed well before typical server-side idle limits.
    idleTimeout: 60_000,
    // nodemailer's own logging would write SMTP traffic, bodies included: keep it off.
    logger: false,
    debug: false,
  });

  const secrets = server.auth?.pass ? [server.auth.pass, encodeURIComponent(server.auth.pass)] : [];
  const scrub = (text: string) => secrets.reduce((result, secret) => result.split(secret).join('[redacted]'), text);

  const describe = (error: NodemailerError, message: MailMessage): MailDeliveryError => {
    const responseCode = typeof error.responseCode === 'number' ? error.responseCode : undefined;
    const reply = scrub(error.response?.toString().trim() || error.message);
    // nodemailer classifies replies: 4xx (and 503) may succeed later, other 5xx will not.
    const transient = error.permanent === false;
    const failure = (reason: ConstructorParameters<typeof MailDeliveryError>[0], text: string, retryable = transient) =>
      new MailDeliveryError(reason, scrub(text), { ...(responseCode !== undefined ? { responseCode } : {}), retryable });

    // 530 (5.7.0): the server wants a login before it accepts mail.
    if (responseCode === 530) {
      const missing = server.auth ? '' : ' and no user name and password are configured';
      return failure('authentication-failed', `SMTP server at ${where} requires authentication${missing}: ${reply}`);
    }
    // A certificate the server cannot prove is a configuration problem, whatever the stage.
    if (error.code === 'ETLS' || /^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_)/.test(error.originalCode ?? '')) {
      return failure('tls-failed', `TLS with the SMTP server at ${where} failed: ${error.message}`, false);
    }
    switch (error.code) {
      case 'EENVELOPE':
        if (error.command === 'MAIL FROM') return failure('sender-refused', `SMTP server at ${where} refused the sender ${options.from}: ${reply}`);
        if (error.command === 'RCPT TO') return failure('recipient-refused', `SMTP server at ${where} refused the recipient ${message.to}: ${reply}`);
        return failure('message-refused', `SMTP server at ${where} refused the message: ${reply}`);
      case 'EMESSAGE':
        return failure('message-refused', `SMTP server at ${where} refused the message: ${reply}`);
      case 'EAUTH':
        return failure(
          'authentication-failed',
          `SMTP server at ${where} rejected the credentials of user ${JSON.stringify(server.auth?.user ?? '')}: ${reply}`,
        );
      case 'ENOAUTH':
        return failure('authentication-failed', `SMTP server at ${where} requires authentication and no user name and password are configured`);
      case 'ETIMEDOUT':
        return failure('timeout', `SMTP server at ${where} did not answer in time (${error.message})`, true);
      case 'ECONNECTION':
      case 'ESOCKET':
      case 'EDNS':
        return failure('unreachable', `Cannot reach the SMTP server at ${where}: ${error.message}`, true);
      default:
        return failure('failed', `Sending e-mail through the SMTP server at ${where} failed: ${reply}`);
    }
  };

  const deliver = async (message: MailMessage): Promise<SentMail> => {
    try {
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html !== undefined ? { html: message.html } : {}),
      });
      options.logger?.info({ messageId: info.messageId, subject: message.subject, smtp: where }, 'e-mail sent');
      return { messageId: info.messageId };
    } catch (error) {
      const failure = describe(error as NodemailerError, message);
      options.logger?.warn(
        { subject: message.subject, smtp: where, reason: failure.reason, responseCode: failure.details.responseCode },
        'e-mail not sent',
      );
      throw failure;
    }
  };

  return guardedMailer(deliver, () => transport.close());
}
