import { invalidArgument } from '../errors.js';

/**
 * The mailer: one interface, two implementations (smtp-mailer.ts sends through an SMTP server
 * with nodemailer; capture-mailer.ts keeps each message on the local disk for a developer to
 * read), one contract suite (test/mail.contract.ts) that both must pass. create-mailer.ts picks
 * one from configuration (mail-config.ts).
 *
 * What every implementation guarantees:
 * - the sender is the configured `MAIL_FROM`, never chosen by the caller;
 * - the recipient is exactly one plain address, checked before anything is sent, so a bad
 *   address is an `invalid-argument` error naming it, and nothing is delivered;
 * - `send` resolves only once the message is accepted (by the SMTP server, or written to disk);
 * - a failed delivery rejects with a `MailDeliveryError` whose message a person can read and
 *   which never contains the SMTP credentials;
 * - after `close()`, `send` rejects.
 *
 * Logging: messages carry secrets (a verification or invitation link is a bearer token), so the
 * SMTP mailer never logs bodies or links, only the message id and subject. The capture mailer
 * is for standalone development only and logs the links on purpose, so a developer can click
 * them; never point production at it.
 */
export interface MailMessage {
  /** One plain address, e.g. `ana@example.com`; no display name, no list. */
  to: string;
  subject: string;
  /** The plain-text body; every link the message carries must appear in it. */
  text: string;
  /** An optional HTML alternative of the same content. */
  html?: string;
  /**
   * Links the message carries, by purpose (e.g. `{ verify: 'https://…/verify?token=…' }`), for
   * the capture log and page. They are not added to the body. Name keys by purpose, not `token`:
   * the logger redacts keys called token, secret or password.
   */
  links?: Record<string, string>;
}

export interface SentMail {
  /** The Message-ID header of the sent message, angle brackets included. */
  messageId: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
  /** Waits for messages being sent, then releases connections; `send` rejects afterwards. */
  close(): Promise<void>;
}

/** Why a delivery failed, for callers that decide whether to retry or to tell the user. */
export type MailFailureReason =
  | 'recipient-refused'
  | 'sender-refused'
  | 'message-refused'
  | 'authentication-failed'
  | 'unreachable'
  | 'timeout'
  | 'tls-failed'
  | 'closed'
  | 'failed';

/** A message that could not be delivered; the message is readable and free of credentials. */
export class MailDeliveryError extends Error {
  constructor(
    readonly reason: MailFailureReason,
    message: string,
    readonly details: {
      /** The SMTP reply code, when the server answered (e.g. 550). */
      responseCode?: number;
      /** True when trying again later may succeed (4xx replies, network trouble). */
      retryable?: boolean;
    } = {},
  ) {
    super(message);
    this.name = 'MailDeliveryError';
  }

  get retryable(): boolean {
    return this.details.retryable ?? false;
  }
}

// One address, RFC 5321 sizes: local part up to 64, domain labels up to 63, whole up to 254.
// Deliberately stricter than RFC 5322 (no quoted local parts, no comments, no display names):
// the address comes from a person typing it into a form.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** True for one plain address such as `ana.lima+sales@example.co.uk`. */
export function isValidEmailAddress(address: string): boolean {
  if (address.length > 254) return false;
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return false;
  const local = address.slice(0, at);
  const labels = address.slice(at + 1).split('.');
  return local.length <= 64 && LOCAL_PART.test(local) && labels.length >= 2 && labels.every((label) => DOMAIN_LABEL.test(label));
}

/** Checks what every mailer checks before sending; throws `invalid-argument` naming the problem. */
export function assertSendable(message: MailMessage): void {
  if (typeof message.to !== 'string' || !isValidEmailAddress(message.to)) {
    throw invalidArgument(`The e-mail recipient ${JSON.stringify(message.to)} is not a valid e-mail address`, { field: 'to' });
  }
  if (typeof message.subject !== 'string' || message.subject.trim() === '') {
    throw invalidArgument('An e-mail needs a subject', { field: 'subject' });
  }
  if (typeof message.text !== 'string' || message.text.trim() === '') {
    throw invalidArgument('An e-mail needs a plain-text body', { field: 'text' });
  }
}

const mailerClosed = () => new MailDeliveryError('closed', 'The mailer is closed; no more e-mails can be sent');

/**
 * What every mailer does the same way around its own delivery: refuse once closed, check the
 * message before sending anything, and have `close` wait for sends in flight before it releases
 * the transport.
 */
export function guardedMailer(deliver: (message: MailMessage) => Promise<SentMail>, release: () => void): Mailer {
  let closed = false;
  const inFlight = new Set<Promise<unknown>>();
  return {
    async send(message) {
      if (closed) throw mailerClosed();
      assertSendable(message);
      const delivering = deliver(message);
      inFlight.add(delivering);
      try {
        return await delivering;
      } finally {
        inFlight.delete(delivering);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...inFlight]);
      release();
    },
  };
}
