import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DomainError } from '../src/errors.js';
import { MailDeliveryError, type Mailer } from '../src/mail/mailer.js';
import type { DeliveredMail } from '../src/testing/smtp-server.js';

export interface MailHarness {
  mailer: Mailer;
  /** Every message delivered so far, parsed from what the receiving side holds. */
  delivered(): Promise<DeliveredMail[]>;
  /** Stops whatever the harness started (the mailer is closed by the suite). */
  close(): Promise<void>;
}

/** The sender the suite configures every mailer with. */
export const CONTRACT_FROM = 'Parlance Test <no-reply@parlance.test>';

const LINK = /https?:\/\/[^\s<>"]+/g;

/**
 * The behaviour every Mailer must show. mail-smtp.test.ts runs it against a real SMTP server
 * started in the test; mail-capture.test.ts against a temporary capture folder. Each test reads
 * what was actually delivered, the way a person receiving it would.
 */
export function mailContract(name: string, makeHarness: (from: string) => Promise<MailHarness>): void {
  describe(`mailer contract: ${name}`, () => {
    let harness: MailHarness;
    // A stand-in for the identity service's verification endpoint, so the test can follow the link.
    let site: Server;
    let siteUrl: string;
    const issued = new Set<string>();
    const verified: string[] = [];

    beforeAll(async () => {
      site = createServer((request, response) => {
        const url = new URL(request.url ?? '/', siteUrl);
        const token = url.searchParams.get('token') ?? '';
        if (url.pathname === '/verify' && issued.has(token)) {
          verified.push(token);
          response.writeHead(200, { 'content-type': 'text/plain' }).end('e-mail address verified');
        } else {
          response.writeHead(404).end('unknown link');
        }
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await new Promise<void>((resolve, reject) => site.close((error) => (error ? reject(error) : resolve())));
    });

    beforeEach(async () => {
      harness = await makeHarness(CONTRACT_FROM);
    });

    afterEach(async () => {
      await harness.mailer.close();
      await harness.close();
    });

    const verificationLink = () => {
      const token = randomBytes(24).toString('base64url');
      issued.add(token);
      return { token, link: `${siteUrl}/verify?token=${token}` };
    };

    const verificationEmail = (to: string, link: string) => ({
      to,
      subject: 'Confirm your e-mail address',
      text: `Hello,\n\nconfirm your e-mail address for Parlance by opening this link:\n\n${link}\n\nThe link expires in 24 hours.\n`,
      html: `<p>Hello,</p><p>confirm your e-mail address for Parlance: <a href="${link.replace(/&/g, '&amp;')}">confirm</a></p>`,
      links: { verify: link },
    });

    const onlyDelivered = async () => {
      const delivered = await harness.delivered();
      expect(delivered).toHaveLength(1);
      return delivered[0]!;
    };

    it('delivers a verification e-mail whose link, read from the text body, can be followed', async () => {
      const { token, link } = verificationLink();
      await harness.mailer.send(verificationEmail('ana.lima@example.com', link));

      const received = await onlyDelivered();
      const found = received.text?.match(LINK) ?? [];
      expect(found).toEqual([link]);

      const response = await fetch(found[0]!);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('e-mail address verified');
      expect(verified).toContain(token);
    });

    it('sends from the configured sender to the recipient, with the subject and message id it reports', async () => {
      const { link } = verificationLink();
      const sent = await harness.mailer.send(verificationEmail('bruno+sales@example.co.uk', link));

      const received = await onlyDelivered();
      expect(received.from).toEqual({ name: 'Parlance Test', address: 'no-reply@parlance.test' });
      expect(received.to).toEqual(['bruno+sales@example.co.uk']);
      expect(received.subject).toBe('Confirm your e-mail address');
      expect(sent.messageId).toMatch(/^<.+@.+>$/);
      expect(received.messageId).toBe(sent.messageId);
    });

    it('keeps the HTML alternative next to the plain text, with the same link', async () => {
      const { link } = verificationLink();
      await harness.mailer.send(verificationEmail('carla@example.com', link));

      const received = await onlyDelivered();
      expect(received.html).toContain(`href="${link}"`);
      expect(received.text).not.toContain('<a ');
      expect(received.text?.match(LINK)).toEqual([link]);
    });

    it('sends a plain-text e-mail without an HTML part', async () => {
      await harness.mailer.send({ to: 'dora@example.com', subject: 'Plain', text: 'Nothing but text.' });

      const received = await onlyDelivered();
      expect(received.text?.trim()).toBe('Nothing but text.');
      expect(received.html).toBeUndefined();
    });

    it('keeps non-ASCII subjects and bodies intact', async () => {
      const subject = 'Bestätigen Sie Ihre E-Mail-Adresse — Parlance ✓';
      const text = 'Grüße aus São Paulo: çà et là, 日本語のテキスト.';
      await harness.mailer.send({ to: 'eva@example.com', subject, text });

      const received = await onlyDelivered();
      expect(received.subject).toBe(subject);
      expect(received.text?.trim()).toBe(text);
    });

    it('gives every message its own message id', async () => {
      const first = await harness.mailer.send({ to: 'fabio@example.com', subject: 'One', text: 'one' });
      const second = await harness.mailer.send({ to: 'fabio@example.com', subject: 'Two', text: 'two' });

      expect(first.messageId).not.toBe(second.messageId);
      const delivered = await harness.delivered();
      expect(delivered.map((mail) => mail.messageId).sort()).toEqual([first.messageId, second.messageId].sort());
    });

    it.each([
      ['not-an-address'],
      [''],
      ['two@example.com, three@example.com'],
      ['Name <named@example.com>'],
      ['no-domain@'],
      ['user@localhost'],
      ['a@b@example.com'],
      ['injected@example.com\r\nBcc: victim@example.com'],
    ])('rejects the invalid recipient %j with a clear message and delivers nothing', async (to) => {
      const sending = harness.mailer.send({ to, subject: 'Hello', text: 'Hello' });

      await expect(sending).rejects.toThrow(`The e-mail recipient ${JSON.stringify(to)} is not a valid e-mail address`);
      await expect(sending).rejects.toBeInstanceOf(DomainError);
      await expect(sending).rejects.toMatchObject({ kind: 'invalid-argument', details: { field: 'to' } });
      expect(await harness.delivered()).toEqual([]);
    });

    it('rejects a message without a subject or text body', async () => {
      await expect(harness.mailer.send({ to: 'gil@example.com', subject: ' ', text: 'x' })).rejects.toThrow('An e-mail needs a subject');
      await expect(harness.mailer.send({ to: 'gil@example.com', subject: 'x', text: '' })).rejects.toThrow(
        'An e-mail needs a plain-text body',
      );
      expect(await harness.delivered()).toEqual([]);
    });

    it('refuses to send once closed', async () => {
      await harness.mailer.close();

      const sending = harness.mailer.send({ to: 'hana@example.com', subject: 'Late', text: 'too late' });
      await expect(sending).rejects.toBeInstanceOf(MailDeliveryError);
      await expect(sending).rejects.toMatchObject({ reason: 'closed' });
      expect(await harness.delivered()).toEqual([]);
    });
  });
}
