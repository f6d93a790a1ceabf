/**
 * Abuse and secrets: rate limits on sign-in, sign-up, verification and invitations (429 with a
 * sentence and Retry-After); a mail server that is down gives a readable 503 and leaves nothing
 * usable behind; and after a whole journey logged at the most verbose level, no password, token,
 * cookie or CSRF secret appears in any log line.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT } from '@parlance/identity/demo-account';
import { linkIn, type ApiClient } from '../support/api-client.js';
import { startFakeGoogle } from '../support/fake-google.js';
import { freePort } from '../support/free-port.js';
import { closeIdentitySql, identitySql } from '../support/identity-db.js';
import { startIdentityStack, uniqueEmail, type IdentityStack } from '../support/identity-stack.js';

afterAll(async () => {
  await closeIdentitySql();
});

async function withStack<T>(options: Parameters<typeof startIdentityStack>[0], run: (stack: IdentityStack) => Promise<T>): Promise<T> {
  const stack = await startIdentityStack(options);
  try {
    return await run(stack);
  } finally {
    await stack.stop();
  }
}

/** Makes `times` requests that must all still be allowed. */
async function allowed(times: number, send: () => Promise<{ status: number }>): Promise<void> {
  for (let i = 0; i < times; i++) expect((await send()).status).not.toBe(429);
}

describe('rate limits', () => {
  it('stops password guessing on one account, then from one address, with 429 and a sentence', async () => {
    await withStack({ app: { rateLimits: { login: { max: 3, windowMs: 60_000 }, 'login-address': { max: 5, windowMs: 60_000 } } } }, async (stack) => {
      const { person } = await stack.signUpVerified();
      const browser = stack.browser();
      await allowed(3, () => browser.post('/api/auth/login', { email: person.email, password: 'guess number 1' }));
      const limited = await browser.post('/api/auth/login', { email: person.email, password: person.password });
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ error: 'Too many sign-in attempts. Please wait 1 minute and try again.' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);

      // Other accounts from the same address until the address's own limit.
      await browser.post('/api/auth/login', { email: uniqueEmail('other'), password: 'guess number 2' });
      const spray = await browser.post('/api/auth/login', { email: uniqueEmail('another'), password: 'guess number 3' });
      expect(spray.status).toBe(429);
      expect(spray.body).toMatchObject({ error: 'Too many sign-in attempts from your network. Please wait 1 minute and try again.' });
    });
  }, 60_000);

  it('limits sign-ups, verification attempts, invitations and invitation links', async () => {
    const limits = { max: 2, windowMs: 10 * 60_000 };
    await withStack(
      { app: { rateLimits: { 'verify-email': limits, invite: limits, 'accept-invite': limits } } },
      async (stack) => {
        const { browser } = await stack.signUpVerified();
        await allowed(1, () => browser.post('/api/auth/verify-email', { token: 'D'.repeat(43) }));
        const verify = await browser.post('/api/auth/verify-email', { token: 'D'.repeat(43) });
        expect(verify.status).toBe(429);
        expect(verify.body).toMatchObject({ error: 'Too many verification attempts. Please wait 10 minutes and try again.' });

        await allowed(2, () => browser.post('/api/auth/invite', { email: uniqueEmail('i'), role: 'manager' }));
        const invite = await browser.post('/api/auth/invite', { email: uniqueEmail('i'), role: 'manager' });
        expect(invite.status).toBe(429);
        expect(invite.body).toMatchObject({ error: 'You have sent too many invitations. Please wait 10 minutes and try again.' });

        await allowed(2, () => browser.get(`/api/auth/accept-invite?token=${'E'.repeat(43)}`));
        const accept = await browser.get(`/api/auth/accept-invite?token=${'E'.repeat(43)}`);
        expect(accept.status).toBe(429);
        expect(accept.body).toMatchObject({ error: 'Too many invitation attempts. Please wait 10 minutes and try again.' });
      },
    );
    await withStack({ app: { rateLimits: { signup: { max: 2, windowMs: 60 * 60_000 } } } }, async (stack) => {
      const browser = stack.browser();
      for (let i = 0; i < 2; i++) {
        expect((await browser.post('/api/auth/signup', { firstName: 'S', lastName: 'U', email: uniqueEmail('su'), password: 'sign up spam 12345' })).status).toBe(200);
      }
      const third = await browser.post('/api/auth/signup', { firstName: 'S', lastName: 'U', email: uniqueEmail('su'), password: 'sign up spam 12345' });
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({ error: 'Too many sign-up attempts from your network. Please wait 60 minutes and try again.' });
    });
    // One mailbox is not flooded with links, whatever addresses the sign-ups come from.
    await withStack({ app: { rateLimits: { 'signup-email': { max: 2, windowMs: 60 * 60_000 } } } }, async (stack) => {
      const target = uniqueEmail('target');
      for (let i = 0; i < 2; i++) {
        expect((await stack.browser().post('/api/auth/signup', { firstName: 'S', lastName: 'U', email: target, password: 'sign up spam 12345' })).status).toBe(200);
      }
      const third = await stack.browser().post('/api/auth/signup', { firstName: 'S', lastName: 'U', email: target.toUpperCase(), password: 'sign up spam 12345' });
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({ error: 'Too many sign-up attempts for this e-mail address. Please wait 60 minutes and try again.' });
      expect(stack.mailCount(target)).toBe(2);
    });
  }, 90_000);
});

describe('when e-mail cannot be sent', () => {
  it('answers 503 with a sentence, and an invitation nobody received cannot be used', async () => {
    // A port that accepts connections and closes them at once: an SMTP server that is down.
    const broken = createServer((socket) => socket.destroy());
    const port = await freePort();
    await new Promise<void>((resolve) => broken.listen(port, '127.0.0.1', resolve));
    try {
      // The demo account is an admin that needs no e-mail to exist.
      await withStack({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, IDENTITY_DEMO_ACCOUNT: 'true' } }, async (stack) => {
        const email = uniqueEmail('unlucky');
        const signup = await stack.browser().post('/api/auth/signup', { firstName: 'Un', lastName: 'Lucky', email, password: 'no mail today 123' });
        expect(signup.status).toBe(503);
        expect(signup.body).toMatchObject({ error: `We could not send an e-mail to ${email} just now. Please try again in a few minutes.` });
        expect(stack.logs()).toContain('e-mail could not be sent');
        // The unverified account is kept, so signing up again once mail works sends a new link.
        expect(await identitySql('select 1 from identity.users where email = $1 and email_verified_at is null', [email])).toHaveLength(1);

        const admin = stack.browser();
        expect((await admin.post('/api/auth/login', { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password })).status).toBe(200);
        const invitee = uniqueEmail('never-told');
        const invite = await admin.post('/api/auth/invite', { email: invitee, role: 'manager' });
        expect(invite.status).toBe(503);
        expect(invite.body).toMatchObject({ error: `We could not send an e-mail to ${invitee} just now. Please try again in a few minutes.` });
        const invitations = await identitySql<{ revoked_at: Date | null }>('select revoked_at from identity.invitations where email = $1', [invitee]);
        expect(invitations).toHaveLength(1);
        expect(invitations[0]?.revoked_at).not.toBeNull();
      });
    } finally {
      await new Promise<void>((resolve) => broken.close(() => resolve()));
    }
  }, 60_000);
});

describe('secrets in logs', () => {
  it('logs no password, token, cookie or CSRF value anywhere in a whole journey at trace level', async () => {
    const google = await startFakeGoogle();
    try {
      await withStack({ logLevel: 'trace', env: { GOOGLE_CLIENT_ID: google.clientId, GOOGLE_JWKS_URL: google.jwksUrl } }, async (stack) => {
        const secrets = new Set<string>();
        const browsers: ApiClient[] = [];
        const remember = (browser: ApiClient) => browsers.push(browser);

        const admin = await stack.signUpVerified({ password: 'the admins secret phrase 1' });
        remember(admin.browser);
        secrets.add(admin.person.password);
        secrets.add(linkIn((await stack.mailTo(admin.person.email)).text, '/auth/verify-email').searchParams.get('token')!);

        const wrong = stack.browser();
        remember(wrong);
        await wrong.post('/api/auth/login', { email: admin.person.email, password: 'a wrong guess of it 2' });
        secrets.add('a wrong guess of it 2');
        await admin.browser.post('/api/auth/login', { email: admin.person.email, password: admin.person.password });

        const invitee = uniqueEmail('invitee');
        const invited = await admin.browser.post('/api/auth/invite', { email: invitee, role: 'manager' });
        expect(invited.status, JSON.stringify(invited.body)).toBe(200);
        const invitation = linkIn((await stack.mailTo(invitee)).text, '/auth/accept-invite').searchParams.get('token')!;
        secrets.add(invitation);
        const joiner = stack.browser();
        remember(joiner);
        await joiner.get(`/api/auth/accept-invite?token=${invitation}`);
        await joiner.post('/api/auth/signup', { firstName: 'Jo', lastName: 'Smith', email: invitee, password: 'joiners own secret 3' });
        secrets.add('joiners own secret 3');
        const verification = linkIn((await stack.mailTo(invitee, 1)).text, '/auth/verify-email').searchParams.get('token')!;
        secrets.add(verification);
        await joiner.post('/api/auth/verify-email', { token: verification });

        const idToken = await google.idToken({ sub: randomUUID(), email: uniqueEmail('g'), email_verified: true, given_name: 'G', family_name: 'Oogle' });
        secrets.add(idToken);
        const googler = stack.browser();
        remember(googler);
        await googler.post('/api/auth/google-signup', { idToken });

        await admin.browser.put('/api/settings/profile/update', { firstName: 'Renamed' });
        await admin.browser.post('/api/auth/logout');

        for (const browser of browsers) {
          for (const value of browser.cookieValues()) secrets.add(value);
          if (browser.csrfToken) secrets.add(browser.csrfToken);
        }
        const logs = stack.logs();
        expect(logs.split('\n').length).toBeGreaterThan(20);
        expect(secrets.size).toBeGreaterThan(10);
        for (const secret of secrets) {
          expect(logs.includes(secret), `a secret (${secret.slice(0, 6)}…) is in the logs`).toBe(false);
          expect(logs.includes(encodeURIComponent(secret)), `a secret (${secret.slice(0, 6)}…) is in the logs, URL-encoded`).toBe(false);
        }
        // The requests themselves were logged, by path only.
        expect(logs).toContain('"path":"/api/auth/accept-invite"');
      });
    } finally {
      await google.close();
    }
  }, 90_000);
});

describe('behind HTTPS', () => {
  it('marks the cookies Secure with the __Host- prefix', async () => {
    await withStack({ app: { secureCookies: true } }, async (stack) => {
      const response = await fetch(`${stack.url}/api/csrf-token`);
      const cookie = response.headers.getSetCookie()[0] ?? '';
      expect(cookie).toMatch(/^__Host-parlance_csrf=/);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
    });
  }, 60_000);
});
