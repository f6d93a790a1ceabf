/**
 * Sign-up, e-mail verification, sign-in, sessions and CSRF, through the gateway's HTTP API against
 * the identity service on PostgreSQL and Kafka. E-mails go to a real SMTP server started here, and
 * every link is followed from the message that server received.
 */
import { hashToken } from '@parlance/identity/domain/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn } from '../support/api-client.js';
import { closeIdentitySql, identitySql } from '../support/identity-db.js';
import { startIdentityStack, uniqueEmail, type IdentityStack } from '../support/identity-stack.js';

let stack: IdentityStack;

beforeAll(async () => {
  stack = await startIdentityStack();
}, 90_000);

afterAll(async () => {
  await stack?.stop();
  await closeIdentitySql();
});

const password = 'correct horse battery 7';

describe('sign-up and e-mail verification', () => {
  it('creates an unverified account, e-mails a single-use link, and signs the person in when it is followed', async () => {
    const email = uniqueEmail('grace');
    const browser = stack.browser();
    const signup = await browser.post('/api/auth/signup', { firstName: 'Grace', lastName: 'Hopper', email: email.toUpperCase(), password });
    expect(signup.status).toBe(200);
    expect(signup.body).toMatchObject({ success: true, emailSent: true, email });

    // Not signed in yet, and cannot sign in before verifying.
    expect((await browser.get('/api/auth/session')).status).toBe(401);
    const early = await browser.post('/api/auth/login', { email, password });
    expect(early.status).toBe(403);
    expect(early.body).toMatchObject({ error: 'Please verify your email address before signing in. Check your inbox for the verification link.' });

    const mail = await stack.mailTo(email);
    expect(mail.subject).toBe('Confirm your e-mail address for Parlance');
    expect(mail.from.address).toBe('no-reply@parlance.test');
    const link = linkIn(mail.text, '/auth/verify-email');
    expect(link.origin).toBe(stack.url);
    const token = link.searchParams.get('token')!;
    expect(mail.html).toContain(link.href.replaceAll('&', '&amp;'));

    // Stored only as a hash, expiring 24 hours after it was issued.
    const [stored] = await identitySql<{ token_hash: string; expires_at: Date; created_at: Date }>(
      'select v.token_hash, v.expires_at, v.created_at from identity.email_verifications v join identity.users u on u.id = v.user_id where u.email = $1',
      [email],
    );
    expect(stored?.token_hash).toBe(hashToken(token));
    expect(stored!.expires_at.getTime() - stored!.created_at.getTime()).toBeGreaterThan(24 * 3600_000 - 5_000);
    expect(stored!.expires_at.getTime() - stored!.created_at.getTime()).toBeLessThanOrEqual(24 * 3600_000 + 5_000);
    expect(JSON.stringify(await identitySql('select * from identity.email_verifications'))).not.toContain(token);

    const verified = await browser.post<{ user: Record<string, unknown>; company: { id: string; departments: string[] }; csrfToken: string }>(
      '/api/auth/verify-email',
      { token },
    );
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', email, role: 'admin' });
    expect(verified.body.company.departments).toEqual(['sales', 'hr', 'support']);
    expect(verified.body.csrfToken).toEqual(expect.any(String));

    const session = await browser.get<{ user: { email: string }; company: { id: string } }>('/api/auth/session');
    expect(session.status).toBe(200);
    expect(session.body.user.email).toBe(email);
    expect(session.body.company.id).toBe(verified.body.company.id);

    // The link works once.
    const again = await stack.browser().post('/api/auth/verify-email', { token });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'This verification link is invalid, has expired or has already been used. Sign up again to get a new one.' });

    // The password is an argon2id hash.
    const [user] = await identitySql<{ password_hash: string; email_verified_at: Date | null }>(
      'select password_hash, email_verified_at from identity.users where email = $1',
      [email],
    );
    expect(user?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(user?.email_verified_at).not.toBeNull();
  });

  it('gives the new company the trial plan and makes the person its admin', async () => {
    const { browser } = await stack.signUpVerified({ firstName: 'Katherine', lastName: 'Johnson' });
    const members = await browser.get<Array<Record<string, string>>>('/api/settings/members');
    expect(members.body).toEqual([{ first_name: 'Katherine', last_name: 'Johnson', email: expect.any(String), role: 'admin' }]);
    const subscription = await browser.get<{ plan: { name: string } }>('/api/billing/subscription');
    expect(subscription.body.plan.name).toBe('Free Trial');
  });

  it('refuses a verification link past its 24 hours', async () => {
    const email = uniqueEmail('late');
    const browser = stack.browser();
    await browser.post('/api/auth/signup', { firstName: 'Late', lastName: 'Comer', email, password });
    const token = linkIn((await stack.mailTo(email)).text, '/auth/verify-email').searchParams.get('token')!;
    await identitySql(`update identity.email_verifications set expires_at = now() - interval '1 second' where token_hash = $1`, [hashToken(token)]);
    const response = await browser.post('/api/auth/verify-email', { token });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'This verification link is invalid, has expired or has already been used. Sign up again to get a new one.' });
  });

  it('says "Invalid verification link" when no token is sent, and names a malformed one invalid', async () => {
    const browser = stack.browser();
    expect((await browser.post('/api/auth/verify-email', {})).body).toMatchObject({ error: 'Invalid verification link' });
    expect((await browser.post('/api/auth/verify-email', { token: 'not-a-token' })).status).toBe(400);
  });

  it('keeps each sign-up’s names and password on its own link, so a second sign-up for the address changes nothing the first set', async () => {
    const email = uniqueEmail('twice');
    const owner = stack.browser();
    await owner.post('/api/auth/signup', { firstName: 'Rightful', lastName: 'Owner', email, password });
    const ownLink = linkIn((await stack.mailTo(email, 0)).text, '/auth/verify-email').searchParams.get('token');
    // Someone else signs up with the same address and a password of their choosing.
    await stack.browser().post('/api/auth/signup', { firstName: 'Some', lastName: 'Other', email, password: 'intruders choice 2' });
    const otherLink = linkIn((await stack.mailTo(email, 1)).text, '/auth/verify-email').searchParams.get('token');
    expect(otherLink).not.toBe(ownLink);
    // Before verifying, whoever knows either password is told to verify first.
    expect((await stack.browser().post('/api/auth/login', { email, password })).status).toBe(403);

    // The owner follows their own link: their names and password, and the other link dies.
    const verified = await owner.post<{ user: { firstName: string; lastName: string } }>('/api/auth/verify-email', { token: ownLink });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ firstName: 'Rightful', lastName: 'Owner' });
    expect((await stack.browser().post('/api/auth/verify-email', { token: otherLink })).status).toBe(400);
    expect((await stack.browser().post('/api/auth/login', { email, password: 'intruders choice 2' })).status).toBe(401);
    expect((await stack.browser().post('/api/auth/login', { email, password })).status).toBe(200);
  });

  it('keeps an earlier link working when the same person signs up again', async () => {
    const email = uniqueEmail('again');
    const browser = stack.browser();
    await browser.post('/api/auth/signup', { firstName: 'Again', lastName: 'Person', email, password });
    const first = linkIn((await stack.mailTo(email, 0)).text, '/auth/verify-email').searchParams.get('token');
    await browser.post('/api/auth/signup', { firstName: 'Again', lastName: 'Person', email, password: 'another passphrase 3' });
    await stack.mailTo(email, 1);
    const verified = await browser.post('/api/auth/verify-email', { token: first });
    expect(verified.status).toBe(200);
    expect((await stack.browser().post('/api/auth/login', { email, password })).status).toBe(200);
  });

  it('answers a sign-up for a verified address like any other, e-mails the owner instead, and changes nothing', async () => {
    const { person } = await stack.signUpVerified();
    const seen = stack.mailCount(person.email);
    const attempt = await stack.browser().post('/api/auth/signup', { firstName: 'Mallory', lastName: 'Intruder', email: person.email, password: 'attacker chosen secret 1' });
    expect(attempt.status).toBe(200);
    expect(attempt.body).toMatchObject({ success: true, emailSent: true, email: person.email });
    const notice = await stack.mailTo(person.email, seen);
    expect(notice.subject).toBe('You already have a Parlance account');
    expect(notice.text).not.toContain('/auth/verify-email');
    expect((await stack.browser().post('/api/auth/login', { email: person.email, password: 'attacker chosen secret 1' })).status).toBe(401);
    expect((await stack.browser().post('/api/auth/login', { email: person.email, password: person.password })).status).toBe(200);
  });

  it('checks every field of a sign-up with a message a person can act on', async () => {
    const browser = stack.browser();
    const base = { firstName: 'Val', lastName: 'Idate', email: uniqueEmail('val'), password };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, firstName: '' }, 'First name is required.'],
      [{ ...base, lastName: '  ' }, 'Last name is required.'],
      [{ ...base, firstName: 'x'.repeat(101) }, 'First name must be at most 100 characters.'],
      [{ ...base, email: 'not-an-email' }, 'Please enter a valid email address'],
      [{ ...base, password: 'short1' }, 'Password must be at least 10 characters long.'],
      [{ ...base, password: 'abcdefghijk' }, 'A password shorter than 16 characters must mix at least two kinds of characters: lower-case letters, upper-case letters, digits or symbols.'],
      [{ ...base, password: 'Password123' }, 'This password is too common. Please choose a less predictable one.'],
      [{ ...base, password: `${base.email.split('@')[0]}!2024` }, 'Password must not contain your email address.'],
    ];
    for (const [body, error] of cases) {
      const response = await browser.post('/api/auth/signup', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toEqual({ error, message: error });
    }
    expect(stack.mailCount(base.email)).toBe(0);
  });
});

describe('sign-in', () => {
  it('needs both fields, and answers a wrong password and an unknown address alike', async () => {
    const { person } = await stack.signUpVerified();
    const browser = stack.browser();
    expect((await browser.post('/api/auth/login', { email: person.email })).body).toMatchObject({ error: 'Email and password are required.' });
    const wrong = await browser.post('/api/auth/login', { email: person.email, password: 'not the password 1' });
    const unknown = await browser.post('/api/auth/login', { email: uniqueEmail('nobody'), password: 'not the password 1' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toMatchObject({ error: 'Invalid email or password.' });
  });

  it('sets an HttpOnly, SameSite=Lax session cookie whose token is stored only as a hash', async () => {
    const { person } = await stack.signUpVerified();
    const browser = stack.browser();
    const login = await browser.post<{ user: { email: string } }>('/api/auth/login', { email: ` ${person.email.toUpperCase()} `, password: person.password });
    expect(login.status).toBe(200);
    expect(login.body.user.email).toBe(person.email);
    const cookie = login.headers.getSetCookie().find((line) => line.startsWith('parlance_session='))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/; Secure/); // plain HTTP here; behind HTTPS see the secure-cookie test
    const token = browser.cookie('parlance_session')!;
    const rows = await identitySql<{ token_hash: string }>('select token_hash from identity.sessions where token_hash = $1', [hashToken(token)]);
    expect(rows).toHaveLength(1);
    expect(await identitySql('select 1 from identity.sessions where token_hash = $1', [token])).toHaveLength(0);
  });

  it('rotates the session at sign-in: the session the browser had before stops working', async () => {
    const { browser, person } = await stack.signUpVerified();
    const before = browser.cookie('parlance_session')!;
    const login = await browser.post('/api/auth/login', { email: person.email, password: person.password });
    expect(login.status).toBe(200);
    const after = browser.cookie('parlance_session')!;
    expect(after).not.toBe(before);
    const stale = stack.browser();
    stale.setCookie('parlance_session', before);
    expect((await stale.get('/api/auth/session')).status).toBe(401);
    expect((await browser.get('/api/auth/session')).status).toBe(200);
  });

  it('revokes the session at logout and clears the cookie', async () => {
    const { browser } = await stack.signUpVerified();
    const token = browser.cookie('parlance_session')!;
    const logout = await browser.post('/api/auth/logout');
    expect(logout.status).toBe(200);
    expect(browser.cookie('parlance_session')).toBeUndefined();
    const replay = stack.browser();
    replay.setCookie('parlance_session', token);
    const response = await replay.get('/api/auth/session');
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: 'Please sign in to continue.' });
    const [row] = await identitySql<{ revoked_at: Date | null }>('select revoked_at from identity.sessions where token_hash = $1', [hashToken(token)]);
    expect(row?.revoked_at).not.toBeNull();
  });

  it('ends a session idle for 3 days, and any session 14 days after sign-in however busy', async () => {
    const idle = await stack.signUpVerified();
    await identitySql(`update identity.sessions set last_seen_at = now() - interval '3 days 1 minute' where token_hash = $1`, [
      hashToken(idle.browser.cookie('parlance_session')!),
    ]);
    const idleAnswer = await idle.browser.get('/api/auth/session');
    expect(idleAnswer.status).toBe(401);
    expect(idleAnswer.body).toMatchObject({ error: 'Your session has expired. Please sign in again.' });

    const old = await stack.signUpVerified();
    await identitySql(`update identity.sessions set created_at = now() - interval '14 days', last_seen_at = now() where token_hash = $1`, [
      hashToken(old.browser.cookie('parlance_session')!),
    ]);
    expect((await old.browser.get('/api/auth/session')).status).toBe(401);
  });

  it('keeps an active session alive, writing last-seen at most every 5 minutes', async () => {
    const { browser } = await stack.signUpVerified();
    const hash = hashToken(browser.cookie('parlance_session')!);
    await identitySql(`update identity.sessions set last_seen_at = now() - interval '2 days' where token_hash = $1`, [hash]);
    expect((await browser.get('/api/auth/session')).status).toBe(200);
    const [touched] = await identitySql<{ age: number }>(`select extract(epoch from now() - last_seen_at) as age from identity.sessions where token_hash = $1`, [hash]);
    expect(Number(touched?.age)).toBeLessThan(60);
    await identitySql(`update identity.sessions set last_seen_at = now() - interval '2 minutes' where token_hash = $1`, [hash]);
    await browser.get('/api/auth/session');
    const [untouched] = await identitySql<{ age: number }>(`select extract(epoch from now() - last_seen_at) as age from identity.sessions where token_hash = $1`, [hash]);
    expect(Number(untouched?.age)).toBeGreaterThan(100);
  });

  it('answers 401 without a session, and for a made-up cookie', async () => {
    const browser = stack.browser();
    expect((await browser.get('/api/auth/session')).status).toBe(401);
    browser.setCookie('parlance_session', 'A'.repeat(43));
    expect((await browser.get('/api/auth/session')).body).toMatchObject({ error: 'Please sign in to continue.' });
  });

  it('refuses a signed-in person who was removed from their company with a clear message', async () => {
    const admin = await stack.signUpVerified();
    const second = await stack.signUpVerified({ firstName: 'Second' });
    // Put the second person into the admin's company, then remove them.
    await identitySql(`update identity.users set company_id = $1, role = 'manager' where email = $2`, [admin.companyId, second.person.email]);
    expect((await admin.browser.delete(`/api/settings/members/${second.person.email}`)).status).toBe(200);
    expect((await second.browser.get('/api/auth/session')).status).toBe(401);
    const login = await stack.browser().post('/api/auth/login', { email: second.person.email, password: second.person.password });
    expect(login.status).toBe(403);
    expect(login.body).toMatchObject({ error: 'Your account is not a member of any company. Ask an admin of your company to invite you again.' });
  });
});

describe('CSRF', () => {
  it('refuses a change request without X-CSRF-Token, or with a token from another browser, with 403 "CSRF validation failed"', async () => {
    const { browser } = await stack.signUpVerified();
    const missing = await browser.put('/api/settings/profile/update', { firstName: 'Changed' }, { withoutCsrf: true });
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual({ error: 'CSRF validation failed', message: 'CSRF validation failed' });

    const other = stack.browser();
    const foreign = await other.fetchCsrfToken();
    const forged = await browser.put('/api/settings/profile/update', { firstName: 'Changed' }, { withoutCsrf: true, headers: { 'x-csrf-token': foreign } });
    expect(forged.status).toBe(403);

    const tampered = await browser.put('/api/settings/profile/update', { firstName: 'Changed' }, { withoutCsrf: true, headers: { 'x-csrf-token': `${browser.csrfToken}x` } });
    expect(tampered.status).toBe(403);
    expect((await browser.put('/api/settings/profile/update', { firstName: 'Changed' })).status).toBe(200);
  });

  it('protects sign-in itself, and replaces the token at sign-in so one from before no longer works', async () => {
    const { person } = await stack.signUpVerified();
    const browser = stack.browser();
    expect((await browser.post('/api/auth/login', { email: person.email, password: person.password }, { withoutCsrf: true })).status).toBe(403);
    const before = await browser.fetchCsrfToken();
    const login = await browser.post<{ csrfToken: string }>('/api/auth/login', { email: person.email, password: person.password });
    expect(login.body.csrfToken).not.toBe(before);
    const stale = await browser.put('/api/settings/profile/update', { lastName: 'Renamed' }, { withoutCsrf: true, headers: { 'x-csrf-token': before } });
    expect(stale.status).toBe(403);
    expect(stale.body).toMatchObject({ error: 'CSRF validation failed' });
    // As the web app does: fetch a new token and retry once.
    await browser.fetchCsrfToken();
    expect((await browser.put('/api/settings/profile/update', { lastName: 'Renamed' })).status).toBe(200);
  });

  it('checks every change request whatever the spelling of its path', async () => {
    const { browser, person } = await stack.signUpVerified();
    // The router decodes %61 to a; the check must not depend on the path at all.
    for (const path of ['/%61pi/auth/logout', '/api/%61uth/logout', '//api/auth/logout']) {
      const response = await browser.post(path, undefined, { withoutCsrf: true });
      expect(response.status, path).toBe(403);
    }
    const encoded = await browser.delete(`/%61pi/settings/members/${person.email}`, { withoutCsrf: true });
    expect(encoded.status).toBe(403);
    expect((await browser.get('/api/auth/session')).status).toBe(200);
  });

  it('hands out different tokens on each call, every one valid for the browser', async () => {
    const browser = stack.browser();
    const first = await browser.fetchCsrfToken();
    const second = await browser.fetchCsrfToken();
    expect(first).not.toBe(second);
    const response = await browser.post('/api/auth/login', { email: 'x@example.com', password: 'whatever it is 1' }, { withoutCsrf: true, headers: { 'x-csrf-token': first } });
    expect(response.status).toBe(401);
  });
});

describe('profile', () => {
  it('updates first and last name, says when nothing changed, and keeps the e-mail read-only', async () => {
    const { browser, person } = await stack.signUpVerified({ firstName: 'Old', lastName: 'Name' });
    const updated = await browser.put<{ user: Record<string, string> }>('/api/settings/profile/update', { firstName: '  New ', lastName: 'Surname', email: 'other@example.com' });
    expect(updated.status).toBe(200);
    expect(updated.body.user).toMatchObject({ firstName: 'New', lastName: 'Surname', email: person.email });
    const unchanged = await browser.put('/api/settings/profile/update', { firstName: 'New', lastName: 'Surname' });
    expect(unchanged.status).toBe(400);
    expect(unchanged.body).toMatchObject({ error: 'No changes made to the profile.' });
    expect((await browser.put('/api/settings/profile/update', { firstName: '' })).body).toMatchObject({ error: 'First name is required.' });
    expect((await browser.get<{ user: { firstName: string } }>('/api/auth/session')).body.user.firstName).toBe('New');
  });
});
