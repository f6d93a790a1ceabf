/**
 * The same identity, one process, no servers: PGlite, the in-memory bus and the capture mailer
 * (standalone's defaults). E-mails land in <DATA_DIR>/mail as .eml and .json files, and one log
 * line per message carries its links, so a developer can sign up without any mail server.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCapturedMail } from '@parlance/platform/mail/capture-mailer';
import { linkIn } from '../support/api-client.js';
import { startIdentityStack, uniqueEmail, type IdentityStack } from '../support/identity-stack.js';
import { waitFor } from '../support/wait-for.js';

let stack: IdentityStack;

beforeAll(async () => {
  stack = await startIdentityStack({ infrastructure: 'pglite-memory', env: { MAIL_TRANSPORT: '' } });
}, 90_000);

afterAll(async () => {
  await stack?.stop();
});

/** The e-mail captured to this address, read from <DATA_DIR>/mail as a developer would. */
const capturedTo = (email: string) =>
  waitFor(`a captured e-mail to ${email}`, async () => (await listCapturedMail(path.join(stack.dataDir, 'mail'))).find((mail) => mail.to === email));

describe('standalone identity', () => {
  it('captures the verification e-mail on disk and logs its link, and the link signs the person in', async () => {
    const email = uniqueEmail('solo');
    const browser = stack.browser();
    expect((await browser.post('/api/auth/signup', { firstName: 'Solo', lastName: 'Dev', email, password: 'one process only 7' })).status).toBe(200);

    const mail = await capturedTo(email);
    const link = linkIn(mail.text, '/auth/verify-email');
    expect(mail.links.verify).toBe(link.href);
    expect(await readFile(mail.emlPath, 'utf8')).toContain('Subject: Confirm your e-mail address for Parlance');
    const logLine = stack
      .logs()
      .split('\n')
      .find((line) => line.includes('e-mail captured (dev only)') && line.includes(email));
    expect(logLine).toContain(link.href);

    const verified = await browser.post<{ user: { role: string } }>('/api/auth/verify-email', { token: link.searchParams.get('token') });
    expect(verified.status).toBe(200);
    expect(verified.body.user.role).toBe('admin');
    expect((await browser.get('/api/auth/session')).status).toBe(200);
  });

  it('charges usage events from the in-memory bus to the subscription', async () => {
    const email = uniqueEmail('usage');
    const browser = stack.browser();
    await browser.post('/api/auth/signup', { firstName: 'Use', lastName: 'Age', email, password: 'counting tokens 42' });
    const verified = await browser.post<{ company: { id: string } }>('/api/auth/verify-email', {
      token: linkIn((await capturedTo(email)).text, '/auth/verify-email').searchParams.get('token'),
    });
    await stack.publishInsightTokens({ companyId: verified.body.company.id, tokens: 321 });
    const usage = await browser.get<{ usage: { total_insight_tokens: number } }>('/api/billing/subscription');
    expect(usage.body.usage.total_insight_tokens).toBe(321);
  });
});
