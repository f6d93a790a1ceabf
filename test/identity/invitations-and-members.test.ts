/**
 * Invitations, members and roles through the gateway against identity on PostgreSQL and Kafka:
 * an admin invites by e-mail, the link is followed from the message a real SMTP server received,
 * and the person joins with the invited role, whether or not they already had an account.
 */
import { hashToken } from '@parlance/identity/domain/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, type ApiClient } from '../support/api-client.js';
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

interface Member {
  first_name: string;
  last_name: string;
  email: string;
  role: string;
}

/** Invites `email` and returns the token of the link the invitee received. */
async function invite(admin: ApiClient, email: string, role = 'manager'): Promise<string> {
  const seen = stack.mailCount(email);
  const response = await admin.post('/api/auth/invite', { email, role });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const mail = await stack.mailTo(email, seen);
  return linkIn(mail.text, '/auth/accept-invite').searchParams.get('token')!;
}

const emails = async (browser: ApiClient) => (await browser.get<Member[]>('/api/settings/members')).body.map((m) => `${m.email}:${m.role}`).sort();

describe('invitations', () => {
  it('e-mails a single-use link valid 7 days, stored hashed, and says so in the spec’s words', async () => {
    const admin = await stack.signUpVerified({ firstName: 'Ines', lastName: 'Inviter' });
    const email = uniqueEmail('invitee');
    const response = await admin.browser.post<{ message: string; invitation: { expiresAt: string } }>('/api/auth/invite', { email: email.toUpperCase(), role: 'manager' });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe(`Invitation sent to ${email}`);
    const days = (new Date(response.body.invitation.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    const mail = await stack.mailTo(email);
    expect(mail.subject).toBe(`Ines Inviter invited you to Ines Inviter's company on Parlance`);
    expect(mail.text).toContain('as a Manager');
    const token = linkIn(mail.text, '/auth/accept-invite').searchParams.get('token')!;
    const stored = await identitySql<{ token_hash: string; role: string }>('select token_hash, role from identity.invitations where email = $1', [email]);
    expect(stored).toEqual([{ token_hash: hashToken(token), role: 'manager' }]);
  });

  it('leads an invitee without an account through sign-up, and they join on verification with the invited role', async () => {
    const admin = await stack.signUpVerified();
    const email = uniqueEmail('newcomer');
    const token = await invite(admin.browser, email, 'admin');

    const newcomer = stack.browser();
    const accepted = await newcomer.get<Record<string, unknown>>(`/api/auth/accept-invite?token=${token}`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ success: true, requiresSignUp: true, email, role: 'admin' });
    expect(accepted.body.message).toMatch(new RegExp(`^Invitation accepted\\. Sign up with ${email.replace('.', '\\.')} to join `));

    await newcomer.post('/api/auth/signup', { firstName: 'New', lastName: 'Comer', email, password: 'joining by invitation 3' });
    const link = linkIn((await stack.mailTo(email, 1)).text, '/auth/verify-email');
    const verified = await newcomer.post<{ company: { id: string }; user: { role: string } }>('/api/auth/verify-email', { token: link.searchParams.get('token') });
    expect(verified.status).toBe(200);
    expect(verified.body.company.id).toBe(admin.companyId);
    expect(verified.body.user.role).toBe('admin');
    expect(await emails(admin.browser)).toEqual([`${admin.person.email}:admin`, `${email}:admin`].sort());
    // Used up.
    expect((await stack.browser().get(`/api/auth/accept-invite?token=${token}`)).body).toMatchObject({ error: 'Invalid or expired invitation.' });
  });

  it('moves an account out of another company only when the link is opened signed in as that account', async () => {
    const admin = await stack.signUpVerified();
    const elsewhere = await stack.signUpVerified({ firstName: 'Elsa' });
    const token = await invite(admin.browser, elsewhere.person.email, 'manager');

    // A forwarded mail or a link scanner: not signed in, or signed in as someone else. Nothing moves.
    const stranger = await stack.signUpVerified({ firstName: 'Stranger' });
    for (const browser of [stack.browser(), stranger.browser]) {
      const refused = await browser.get<{ requiresSignIn: boolean; message: string }>(`/api/auth/accept-invite?token=${token}`);
      expect(refused.status).toBe(200);
      expect(refused.body.requiresSignIn).toBe(true);
      expect(refused.body.message).toMatch(new RegExp(`^${elsewhere.person.email.replaceAll('.', '\\.')} already belongs to another company\\. Sign in as `));
    }
    expect((await elsewhere.browser.get<{ company: { id: string } }>('/api/auth/session')).body.company.id).toBe(elsewhere.companyId);

    const accepted = await elsewhere.browser.get<{ message: string; requiresSignUp: boolean; requiresSignIn: boolean }>(`/api/auth/accept-invite?token=${token}`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ requiresSignUp: false, requiresSignIn: false });
    expect(accepted.body.message).toMatch(/^Invitation accepted successfully! You are now a member of /);
    const session = await elsewhere.browser.get<{ company: { id: string }; user: { role: string } }>('/api/auth/session');
    expect(session.body.company.id).toBe(admin.companyId);
    expect(session.body.user.role).toBe('manager');
  });

  it('lets an account that belongs to no company join straight from the link', async () => {
    const admin = await stack.signUpVerified();
    const former = await stack.signUpVerified({ firstName: 'Former' });
    const colleague = await joinByInvitation(former.browser, uniqueEmail('keeper'), 'admin');
    expect((await colleague.delete(`/api/settings/members/${former.person.email}`)).status).toBe(200);
    const token = await invite(admin.browser, former.person.email, 'admin');
    const accepted = await stack.browser().get<{ requiresSignIn: boolean }>(`/api/auth/accept-invite?token=${token}`);
    expect(accepted.body.requiresSignIn).toBe(false);
    const login = await stack.browser().post<{ company: { id: string }; user: { role: string } }>('/api/auth/login', {
      email: former.person.email,
      password: former.person.password,
    });
    expect(login.body.company.id).toBe(admin.companyId);
    expect(login.body.user.role).toBe('admin');
  });

  it('will not take the only admin away from a company that has other members', async () => {
    const inviter = await stack.signUpVerified();
    const owner = await stack.signUpVerified({ firstName: 'Owner' });
    const colleague = uniqueEmail('colleague');
    await joinByInvitation(owner.browser, colleague);
    const token = await invite(inviter.browser, owner.person.email);
    const refused = await owner.browser.get(`/api/auth/accept-invite?token=${token}`);
    expect(refused.status).toBe(409);
    expect((refused.body as { error: string }).error).toMatch(/^You are the only admin of .*, which has other members\. Make one of them an admin before joining /);
    expect((await owner.browser.get<{ company: { id: string } }>('/api/auth/session')).body.company.id).toBe(owner.companyId);
  });

  it('refuses an expired, replaced, unknown or missing token with the spec’s messages', async () => {
    const admin = await stack.signUpVerified();
    const email = uniqueEmail('late');
    const first = await invite(admin.browser, email);
    const second = await invite(admin.browser, email);
    const browser = stack.browser();
    expect((await browser.get(`/api/auth/accept-invite?token=${first}`)).body).toMatchObject({ error: 'Invalid or expired invitation.' });
    await identitySql(`update identity.invitations set expires_at = now() - interval '1 second' where token_hash = $1`, [hashToken(second)]);
    const expired = await browser.get(`/api/auth/accept-invite?token=${second}`);
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ error: 'Invalid or expired invitation.' });
    expect((await browser.get(`/api/auth/accept-invite?token=${'x'.repeat(43)}`)).body).toMatchObject({ error: 'Invalid or expired invitation.' });
    const none = await browser.get('/api/auth/accept-invite');
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ error: 'No invitation token found. Please check your invite link.' });
  });

  it('is for admins, needs a valid e-mail and role, and refuses someone already in the company', async () => {
    const admin = await stack.signUpVerified();
    const managerEmail = uniqueEmail('manager');
    const manager = await joinByInvitation(admin.browser, managerEmail);
    const forbidden = await manager.post('/api/auth/invite', { email: uniqueEmail('x'), role: 'manager' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ error: 'Members management is only available for Admin users' });

    const bad: Array<[Record<string, unknown>, number, string]> = [
      [{ email: 'no-at-sign', role: 'manager' }, 400, 'Please enter a valid email address'],
      [{ email: uniqueEmail('r'), role: 'owner' }, 400, "Role must be either 'admin' or 'manager'."],
      [{ email: uniqueEmail('r') }, 400, 'Role is required.'],
      [{ email: managerEmail, role: 'admin' }, 409, `${managerEmail} is already a member of your company.`],
    ];
    for (const [body, status, error] of bad) {
      const response = await admin.browser.post('/api/auth/invite', body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body).toMatchObject({ error });
    }
    expect((await stack.browser().post('/api/auth/invite', { email: uniqueEmail('anon'), role: 'manager' })).status).toBe(401);
  });
});

/** Invites `email` into the admin's company and has them sign up through the link; returns their browser. */
async function joinByInvitation(admin: ApiClient, email: string, role = 'manager'): Promise<ApiClient> {
  const token = await invite(admin, email, role);
  const browser = stack.browser();
  await browser.get(`/api/auth/accept-invite?token=${token}`);
  const seen = stack.mailCount(email);
  const signup = await browser.post('/api/auth/signup', { firstName: 'Joined', lastName: 'Member', email, password: 'part of the team 4' });
  expect(signup.status, JSON.stringify(signup.body)).toBe(200);
  const link = linkIn((await stack.mailTo(email, seen)).text, '/auth/verify-email');
  const verified = await browser.post('/api/auth/verify-email', { token: link.searchParams.get('token') });
  expect(verified.status).toBe(200);
  return browser;
}

describe('members and roles', () => {
  it('lists the company’s members with first_name, last_name, email and role', async () => {
    const admin = await stack.signUpVerified({ firstName: 'Alma', lastName: 'Admin' });
    const email = uniqueEmail('mia');
    await joinByInvitation(admin.browser, email);
    const members = await admin.browser.get<Member[]>('/api/settings/members');
    expect(members.status).toBe(200);
    expect(members.body).toEqual(
      expect.arrayContaining([
        { first_name: 'Alma', last_name: 'Admin', email: admin.person.email, role: 'admin' },
        { first_name: 'Joined', last_name: 'Member', email, role: 'manager' },
      ]),
    );
    expect(members.body).toHaveLength(2);
  });

  it('lets an admin change a role and remove a member, whose sessions end at once', async () => {
    const admin = await stack.signUpVerified();
    const email = uniqueEmail('promoted');
    const member = await joinByInvitation(admin.browser, email);
    const promoted = await admin.browser.put(`/api/settings/members/${encodeURIComponent(email)}`, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ success: true, message: 'Member role updated successfully', member: { email, role: 'admin' } });
    expect((await member.get<{ user: { role: string } }>('/api/auth/session')).body.user.role).toBe('admin');

    const removed = await admin.browser.delete(`/api/settings/members/${encodeURIComponent(email)}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ success: true, message: 'Member removed successfully' });
    expect((await member.get('/api/auth/session')).status).toBe(401);
    expect(await emails(admin.browser)).toEqual([`${admin.person.email}:admin`]);
  });

  it('refuses managers with the spec’s message', async () => {
    const admin = await stack.signUpVerified();
    const manager = await joinByInvitation(admin.browser, uniqueEmail('mgr'));
    for (const response of [
      await manager.put(`/api/settings/members/${admin.person.email}`, { role: 'manager' }),
      await manager.delete(`/api/settings/members/${admin.person.email}`),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ error: 'Members management is only available for Admin users', message: 'Members management is only available for Admin users' });
    }
    // Managers still see who is in the company.
    expect((await manager.get('/api/settings/members')).status).toBe(200);
  });

  it('never leaves a company without an admin: the last one can be neither demoted nor removed', async () => {
    const admin = await stack.signUpVerified();
    const demote = await admin.browser.put(`/api/settings/members/${admin.person.email}`, { role: 'manager' });
    expect(demote.status).toBe(409);
    expect(demote.body).toMatchObject({ error: 'The last admin cannot be changed to manager. Make another member an admin first.' });
    const removeSelf = await admin.browser.delete(`/api/settings/members/${admin.person.email}`);
    expect(removeSelf.status).toBe(409);
    expect(removeSelf.body).toMatchObject({ error: 'You are the only admin, so you cannot remove yourself. Make another member an admin first.' });

    // With a second admin, the first may step down, and may leave (their cookie is cleared).
    const second = uniqueEmail('second-admin');
    await joinByInvitation(admin.browser, second, 'admin');
    expect((await admin.browser.put(`/api/settings/members/${admin.person.email}`, { role: 'manager' })).status).toBe(200);
    expect((await admin.browser.put(`/api/settings/members/${second}`, { role: 'manager' })).status).toBe(403);
  });

  it('lets an admin leave when another admin remains, ending their own session', async () => {
    const admin = await stack.signUpVerified();
    await joinByInvitation(admin.browser, uniqueEmail('heir'), 'admin');
    const left = await admin.browser.delete(`/api/settings/members/${admin.person.email}`);
    expect(left.status).toBe(200);
    expect(admin.browser.cookie('parlance_session')).toBeUndefined();
    expect((await admin.browser.get('/api/auth/session')).status).toBe(401);
  });

  it('answers a role change with clear errors: no such member, no role, unknown role', async () => {
    const admin = await stack.signUpVerified();
    const missing = uniqueEmail('ghost');
    const cases: Array<[string, Record<string, unknown>, number, string]> = [
      [missing, { role: 'manager' }, 404, `No member with the email ${missing} was found in your company.`],
      [admin.person.email, {}, 400, 'Role is required.'],
      [admin.person.email, { role: 'superuser' }, 400, "Role must be either 'admin' or 'manager'."],
    ];
    for (const [email, body, status, error] of cases) {
      const response = await admin.browser.put(`/api/settings/members/${encodeURIComponent(email)}`, body);
      expect(response.status).toBe(status);
      expect(response.body).toMatchObject({ error });
    }
    expect((await admin.browser.delete(`/api/settings/members/${encodeURIComponent(missing)}`)).status).toBe(404);
  });
});
