import type { Logger } from '../logger.js';
import { createCaptureMailer } from './capture-mailer.js';
import type { MailConfig } from './mail-config.js';
import type { Mailer } from './mailer.js';
import { createSmtpMailer } from './smtp-mailer.js';

/**
 * Which mailer a process uses is configuration, never code: standalone captures e-mails on the
 * local disk (dev only, links logged), production sends through SMTP. Business code only ever
 * sees `Mailer`.
 */
export function createMailer(config: MailConfig, logger?: Logger): Mailer {
  switch (config.transport) {
    case 'capture':
      return createCaptureMailer({ dir: config.captureDir, from: config.from, logger });
    case 'smtp':
      return createSmtpMailer({ url: config.smtpUrl, from: config.from, logger });
  }
}

/** One line for `--list-targets` and start-up logs; never includes credentials. */
export function describeMailer(config: MailConfig): string {
  if (config.transport === 'capture') return `mailer (captured in ${config.captureDir}, dev only)`;
  try {
    const url = new URL(config.smtpUrl);
    return `mailer (SMTP at ${url.protocol}//${url.host})`;
  } catch {
    return 'mailer (SMTP)';
  }
}
