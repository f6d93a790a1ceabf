/**
 * POST /api/auth/google-signup against identity with Google sign-in configured. Google's key set
 * is served by a local HTTP server (test/support/fake-google.ts) with keys made here, because these
 * machines cannot reach Google; the tokens are signed the way Google signs them.
 */
import { randomInt } from 'node:crypto';
import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn } from '../support/api-client.js';
import { startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';
import { closeIdentitySql, identitySql } from '../support/identity-db.js';
import { startIdentityStack, uniqueEmail, type IdentityStack } from '../support/identity-stack.js';

let google: FakeGoogle;
let stack: IdentityStack;

beforeAll(async () => {
  google = await startFakeGoogle();
  stack = await startIdentityStack({ env: { GOOGLE_CLIENT_ID: google.clientId, GOOGLE_JWKS_URL: google.jwksUrl } });
}, 90_000);

afterAll(async () => {
  await stack?.stop();
  await google?.close();
  await closeIdentitySql();
});

// Google subjects are numeric strings; a fresh one per person, since the database outlives a run.
const person = (email = uniqueEmail('gina')) => ({
  sub: String(randomInt(1e9, 2 ** 47)) + String(randomInt(1e6, 1e7)),
  email,
  email_verified: true,
  given_name: 'Gina',
  family_name: 'Google',
});

describe('Google sign-in', () => {
  it('creates a verified account and a company on first sign-in, and signs the same person in afterwards', async () => {
    const claims = person();
    const browser = stack.browser();
    const first = await browser.post<{ user: Record<string, string>; company: { id: string }; created: boolean }>('/api/auth/google-signup', {
      idToken: await google.idToken(claims),
    });
    expect(first.status).toBe(200);
    expect(first.body.created).toBe(true);
    expect(first.body.user).toMatchObject({ email: claims.email, firstName: 'Gina', lastName: 'Google', role: 'admin' });
    expect(browser.cookie('parlance_session')).toBeDefined();
    expect((await browser.get('/api/auth/session')).status).toBe(200);

    const again = await stack.browser().post<{ company: { id: string }; created: boolean }>('/api/auth/google-signup', { idToken: await google.idToken(claims) });
    expect(again.body.created).toBe(false);
    expect(again.body.company.id).toBe(first.body.company.id);
    const [user] = await identitySql<{ password_hash: string | null; email_verified_at: Date | null }>(
      'select password_hash, email_verified_at from identity.users where email = $1',
      [claims.email],
    );
    expect(user).toMatchObject({ password_hash: null });
    expect(user?.email_verified_at).not.toBeNull();
  });

  it('never trusts a Google id or e-mail the client sends: only the verified token counts', async () => {
    const victim = await stack.signUpVerified();
    const attacker = person();
    const response = await stack.browser().post<{ user: { email: string }; company: { id: string } }>('/api/auth/google-signup', {
      idToken: await google.idToken(attacker),
      email: victim.person.email,
      googleId: 'the-victims-google-id',
      firstName: 'Victim',
    });
    expect(response.status).toBe(200);
    expect(response.body.user.email).toBe(attacker.email);
    expect(response.body.company.id).not.toBe(victim.companyId);
  });

  it('links Google to an existing account with the same address', async () => {
    const existing = await stack.signUpVerified();
    const response = await stack.browser().post<{ company: { id: string }; created: boolean }>('/api/auth/google-signup', {
      idToken: await google.idToken(person(existing.person.email)),
    });
    expect(response.body).toMatchObject({ created: false, company: { id: existing.companyId } });
    // The password still works too.
    expect((await stack.browser().post('/api/auth/login', { email: existing.person.email, password: existing.person.password })).status).toBe(200);
  });

  it('takes over an unverified sign-up for the address and drops the password nobody proved', async () => {
    const email = uniqueEmail('squatted');
    await stack.browser().post('/api/auth/signup', { firstName: 'Squat', lastName: 'Ter', email, password: 'squatters password 9' });
    const response = await stack.browser().post('/api/auth/google-signup', { idToken: await google.idToken(person(email)) });
    expect(response.status).toBe(200);
    expect((await stack.browser().post('/api/auth/login', { email, password: 'squatters password 9' })).status).toBe(401);
  });

  it('does not hand a removed member a company of their own', async () => {
    const admin = await stack.signUpVerified();
    const email = uniqueEmail('removed');
    await admin.browser.post('/api/auth/invite', { email, role: 'manager' });
    const token = linkIn((await stack.mailTo(email)).text, '/auth/accept-invite').searchParams.get('token');
    const member = stack.browser();
    await member.get(`/api/auth/accept-invite?token=${token}`);
    const claims = person(email);
    expect((await member.post('/api/auth/google-signup', { idToken: await google.idToken(claims) })).status).toBe(200);
    expect((await admin.browser.delete(`/api/settings/members/${email}`)).status).toBe(200);

    const again = await stack.browser().post('/api/auth/google-signup', { idToken: await google.idToken(claims) });
    expect(again.status).toBe(403);
    expect(again.body).toMatchObject({ error: 'Your account is not a member of any company. Ask an admin of your company to invite you again.' });
  });

  it('makes one account when the first sign-ins of a person arrive together', async () => {
    const claims = person();
    const responses = await Promise.all(
      Array.from({ length: 5 }, async () => stack.browser().post<{ user: { id: string }; company: { id: string } }>('/api/auth/google-signup', { idToken: await google.idToken(claims) })),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(responses.map((r) => r.body.user.id)).size).toBe(1);
    expect(new Set(responses.map((r) => r.body.company.id)).size).toBe(1);
  });

  it('refuses tokens that are not Google’s for this application, with a reason', async () => {
    const claims = person();
    const now = Math.floor(Date.now() / 1000);
    const impostor = await generateKeyPair('RS256');
    const cases: Array<[string, string]> = [
      [await google.idToken(claims, { audience: 'another-app.apps.googleusercontent.com' }), 'Google sign-in token was issued for a different application.'],
      [await google.idToken(claims, { issuer: 'https://evil.example.com' }), 'Google sign-in token was not issued by Google.'],
      [await google.idToken(claims, { issuedAt: now - 7200, expiresAt: now - 120 }), 'Google sign-in token has expired. Please sign in with Google again.'],
      [await google.idToken(claims, { key: impostor.privateKey }), 'Google sign-in token signature is invalid.'],
      [await google.idToken({ ...claims, email_verified: false }), 'Your Google account email address is not verified. Verify it with Google, or sign up with email and password.'],
      ['not.a.jwt', 'Google sign-in token is malformed.'],
    ];
    for (const [idToken, error] of cases) {
      const response = await stack.browser().post('/api/auth/google-signup', { idToken });
      expect(response.status, error).toBe(401);
      expect(response.body).toMatchObject({ error });
    }
    const missing = await stack.browser().post('/api/auth/google-signup', { email: claims.email, googleId: claims.sub });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'Google sign-in token is missing.' });
    expect(await identitySql('select 1 from identity.users where email = $1', [claims.email])).toHaveLength(0);
  });

  it('says plainly when Google sign-in is not set up', async () => {
    const plain = await startIdentityStack();
    try {
      const response = await plain.browser().post('/api/auth/google-signup', { idToken: await google.idToken(person()) });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ error: 'Google sign-in is not set up on this server. Sign in with your e-mail and password instead.' });
    } finally {
      await plain.stop();
    }
  }, 60_000);
});
