import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.js';
import { describeMailer } from './create-mailer.js';
import { loadMailConfig, maskSmtpUrl } from './mail-config.js';

describe('loadMailConfig', () => {
  it('captures e-mails in <DATA_DIR>/mail from Parlance <no-reply@parlance.local> by default', () => {
    expect(loadMailConfig({})).toEqual({ transport: 'capture', from: 'Parlance <no-reply@parlance.local>', captureDir: '.data/mail' });
    expect(loadMailConfig({ DATA_DIR: '/var/parlance' })).toMatchObject({ transport: 'capture', captureDir: '/var/parlance/mail' });
  });

  it('sends through SMTP by default in distributed mode, and says so when SMTP_URL is missing', () => {
    expect(() => loadMailConfig({ PARLANCE_MODE: 'distributed' })).toThrow(/SMTP_URL is required in distributed mode .*MAIL_TRANSPORT=capture/);
    expect(loadMailConfig({ PARLANCE_MODE: 'distributed', SMTP_URL: 'smtp://mail.example.com' }).transport).toBe('smtp');
    expect(loadMailConfig({ PARLANCE_MODE: 'distributed', MAIL_TRANSPORT: 'capture' }).transport).toBe('capture');
  });

  it('sends through SMTP_URL when MAIL_TRANSPORT is smtp', () => {
    expect(loadMailConfig({ MAIL_TRANSPORT: 'smtp', SMTP_URL: 'smtps://u:p@mail.example.com:465', MAIL_FROM: 'ops@example.com' })).toEqual({
      transport: 'smtp',
      from: 'ops@example.com',
      smtpUrl: 'smtps://u:p@mail.example.com:465',
    });
  });

  it('names SMTP_URL when MAIL_TRANSPORT is smtp and it is missing', () => {
    expect(() => loadMailConfig({ MAIL_TRANSPORT: 'smtp' })).toThrow('SMTP_URL is required when MAIL_TRANSPORT is smtp');
    expect(() => loadMailConfig({ MAIL_TRANSPORT: 'smtp', SMTP_URL: '' })).toThrow(ConfigError);
  });

  it('names a malformed SMTP_URL without repeating its password', () => {
    for (const url of ['http://u:hunter2@mail.example.com', 'smtp://u:hunter2@/']) {
      try {
        loadMailConfig({ MAIL_TRANSPORT: 'smtp', SMTP_URL: url });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as Error).message).toMatch(/SMTP_URL .*u:\*\*\*@/);
        expect((error as Error).message).not.toContain('hunter2');
      }
    }
  });

  it('names an unknown MAIL_TRANSPORT and a malformed MAIL_FROM', () => {
    expect(() => loadMailConfig({ MAIL_TRANSPORT: 'sendmail' })).toThrow(/MAIL_TRANSPORT .*\(got "sendmail"\)/);
    expect(() => loadMailConfig({ MAIL_FROM: 'Parlance <no-reply@parlance.local' })).toThrow(/MAIL_FROM must be an e-mail address/);
    expect(() => loadMailConfig({ MAIL_FROM: 'nobody' })).toThrow(/MAIL_FROM must be an e-mail address/);
  });

  it('ignores SMTP_URL while capturing', () => {
    expect(loadMailConfig({ SMTP_URL: 'smtp://mail.example.com' }).transport).toBe('capture');
  });
});

describe('maskSmtpUrl and describeMailer', () => {
  it('hide the password and keep everything else', () => {
    expect(maskSmtpUrl('smtp://user:p%40ss@mail.example.com:587')).toBe('smtp://user:***@mail.example.com:587');
    expect(maskSmtpUrl('smtp://mail.example.com:25')).toBe('smtp://mail.example.com:25');
    expect(describeMailer({ transport: 'smtp', from: 'a@b.co', smtpUrl: 'smtp://user:secret@mail.example.com:587' })).toBe(
      'mailer (SMTP at smtp://mail.example.com:587)',
    );
    expect(describeMailer({ transport: 'capture', from: 'a@b.co', captureDir: '.data/mail' })).toBe('mailer (captured in .data/mail, dev only)');
  });
});
