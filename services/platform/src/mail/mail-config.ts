import path from 'node:path';
import Type, { type Static } from 'typebox';
import { ConfigError, loadConfig } from '../config.js';
import { isValidEmailAddress } from './mailer.js';
import { parseSmtpUrl } from './smtp-mailer.js';

/** The mail settings of a process, read from the environment. */
export const MailConfigSchema = Type.Object({
  MAIL_TRANSPORT: Type.Optional(
    Type.Union([Type.Literal('capture'), Type.Literal('smtp')], {
      description:
        'capture: write e-mails to MAIL_CAPTURE_DIR and log their links (development only); smtp: send through SMTP_URL. ' +
        'Default: capture when PARLANCE_MODE is standalone, smtp when distributed',
    }),
  ),
  SMTP_URL: Type.Optional(
    Type.String({
      pattern: '^smtps?://',
      // It may hold a password: a config error shows it with the password masked.
      secret: maskSmtpUrl,
      description: 'SMTP server, smtp://user:pass@host:port (STARTTLS when offered) or smtps://… (TLS); percent-encode special characters',
    }),
  ),
  MAIL_FROM: Type.String({
    default: 'Parlance <no-reply@parlance.local>',
    description: 'sender of every e-mail, an address or "Name <address>"',
  }),
  MAIL_CAPTURE_DIR: Type.Optional(Type.String({ description: 'where the capture transport writes e-mails; default <DATA_DIR>/mail' })),
});

export type RawMailConfig = Static<typeof MailConfigSchema>;

export type MailConfig =
  | { transport: 'capture'; from: string; captureDir: string }
  | { transport: 'smtp'; from: string; smtpUrl: string };

/**
 * Loads and cross-checks the mail settings; throws ConfigError naming each bad variable. A
 * distributed deployment sends real mail unless told otherwise: the capture transport logs
 * links, which are bearer secrets, so it must be chosen on purpose.
 */
export function loadMailConfig(env: NodeJS.ProcessEnv = process.env): MailConfig {
  const raw = loadConfig(MailConfigSchema, env);
  const problems: string[] = [];
  const from = senderAddress(raw.MAIL_FROM);
  if (!from || !isValidEmailAddress(from)) {
    problems.push(`MAIL_FROM must be an e-mail address or "Name <address>" (got ${JSON.stringify(raw.MAIL_FROM)})`);
  }
  const transport = raw.MAIL_TRANSPORT ?? (env.PARLANCE_MODE === 'distributed' ? 'smtp' : 'capture');
  const captureDir = raw.MAIL_CAPTURE_DIR ?? path.join(env.DATA_DIR || './.data', 'mail');
  let config: MailConfig = { transport: 'capture', from: raw.MAIL_FROM, captureDir };
  if (transport === 'smtp') {
    if (!raw.SMTP_URL) {
      problems.push(
        raw.MAIL_TRANSPORT === 'smtp'
          ? 'SMTP_URL is required when MAIL_TRANSPORT is smtp'
          : 'SMTP_URL is required in distributed mode (or set MAIL_TRANSPORT=capture to keep e-mails on disk, development only)',
      );
    }
    else {
      try {
        parseSmtpUrl(raw.SMTP_URL);
      } catch (error) {
        problems.push(`SMTP_URL is malformed: ${(error as Error).message} (got ${JSON.stringify(maskSmtpUrl(raw.SMTP_URL))})`);
      }
    }
    config = { transport: 'smtp', from: raw.MAIL_FROM, smtpUrl: raw.SMTP_URL ?? '' };
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** The address inside `Name <address>`, or the whole value when it has no angle brackets. */
function senderAddress(value: string): string | undefined {
  const bracketed = /^[^<>]*<([^<>]+)>\s*$/.exec(value.trim());
  if (bracketed) return bracketed[1];
  return /[<>]/.test(value) ? undefined : value.trim();
}

/** The URL with its password replaced, safe to print in an error or a log. */
export function maskSmtpUrl(url: string): string {
  const at = url.lastIndexOf('@');
  if (at < 0) return url;
  const schemeEnd = url.indexOf('://');
  const start = schemeEnd >= 0 && schemeEnd < at ? schemeEnd + 3 : 0;
  const userinfo = url.slice(start, at);
  const colon = userinfo.indexOf(':');
  if (colon < 0) return url;
  return `${url.slice(0, start)}${userinfo.slice(0, colon)}:***${url.slice(at)}`;
}
