/**
 * The rules that map single-sign-on claims to Parlance users and companies, called the way the
 * gateway calls them once it has verified a token (AuthService.SignInWithSso over gRPC), so that
 * cases a real provider seldom produces can be tried: tokens without an organisation, addresses
 * that already have password accounts, first sign-ins that arrive together. The whole path with
 * real tokens is test/identity/sso-keycloak.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeIdentitySql, identitySql } from '../support/identity-db.js';
import { startIdentityStack, uniqueEmail, type IdentityStack } from '../support/identity-stack.js';

let stack: IdentityStack;
const issuer = `https://sso.example.test/realms/${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  stack = await startIdentityStack();
}, 90_000);

afterAll(async () => {
  await stack?.stop();
  await closeIdentitySql();
});

const claims = (overrides: Partial<{ subject: string; email: string; organization: string; roles: string[] }> = {}) => ({
  issuer,
  subject: overrides.subject ?? randomUUID(),
  email: overrides.email ?? uniqueEmail('sso'),
  emailVerified: true,
  firstName: 'Sam',
  lastName: 'Sso',
  organization: overrides.organization ?? '',
  roles: overrides.roles ?? [],
});
const signIn = (request: ReturnType<typeof claims>) => stack.services.identity.auth.signInWithSso(request);

describe('single sign-on rules', () => {
  it('never takes over a password account, in a company that does not sign in through this provider', async () => {
    const owner = await stack.signUpVerified();
    for (const organization of ['', 'some-org']) {
      await expect(signIn(claims({ email: owner.person.email, organization }))).rejects.toMatchObject({
        kind: 'permission-denied',
        message: `Your Parlance account ${owner.person.email} signs in with a password, not through single sign-on. Sign in with your password instead.`,
      });
    }
    expect(await identitySql('select 1 from identity.external_identities e join identity.users u on u.id = e.user_id where u.email = $1', [owner.person.email])).toHaveLength(0);
  });

  it('needs an organisation, or an account already in one of its companies', async () => {
    const email = uniqueEmail('lost');
    await expect(signIn(claims({ email }))).rejects.toMatchObject({
      kind: 'permission-denied',
      message: `No Parlance account for ${email} belongs to a company, and your sign-on token names no organisation. Ask an admin to invite you.`,
    });
    // Once in the organisation's company, a token without the claim still finds them there.
    const organization = `org-${randomUUID().slice(0, 6)}`;
    const subject = randomUUID();
    const first = await signIn(claims({ subject, email, organization }));
    const later = await signIn(claims({ subject, email }));
    expect(later.company?.id).toBe(first.company?.id);
  });

  it('makes the first member admin, applies the provider’s roles after that, and never demotes the last admin', async () => {
    const organization = `org-${randomUUID().slice(0, 6)}`;
    const first = claims({ organization, roles: ['manager'] });
    expect((await signIn(first)).user?.role).toBe('admin');
    const second = claims({ organization, roles: ['manager'] });
    expect((await signIn(second)).user?.role).toBe('manager');
    expect((await signIn({ ...second, roles: ['admin'] })).user?.role).toBe('admin');
    // Two admins now: the first may be demoted by the provider; then the second is the last admin.
    expect((await signIn(first)).user?.role).toBe('manager');
    expect((await signIn({ ...second, roles: ['manager'] })).user?.role).toBe('admin');
  });

  it('refuses a person whose account is in another organisation’s company', async () => {
    const person = claims({ organization: `org-${randomUUID().slice(0, 6)}` });
    await signIn(person);
    await expect(signIn({ ...person, subject: randomUUID(), organization: `org-${randomUUID().slice(0, 6)}` })).rejects.toMatchObject({ kind: 'permission-denied' });
  });

  it('makes one company and one account when first sign-ins arrive together', async () => {
    const organization = `org-${randomUUID().slice(0, 6)}`;
    const person = claims({ organization });
    const results = await Promise.all(Array.from({ length: 6 }, () => signIn(person)));
    expect(new Set(results.map((r) => r.user?.id)).size).toBe(1);
    expect(new Set(results.map((r) => r.company?.id)).size).toBe(1);
    const others = await Promise.all(Array.from({ length: 4 }, () => signIn(claims({ organization }))));
    expect(new Set([...results, ...others].map((r) => r.company?.id)).size).toBe(1);
  });

  it('leaves member management of such a company to the provider', async () => {
    const organization = `org-${randomUUID().slice(0, 6)}`;
    const admin = await signIn(claims({ organization, roles: ['admin'] }));
    const member = await signIn(claims({ organization, roles: ['manager'] }));
    const as = { companyId: admin.company!.id, userId: admin.user!.id };
    const managed = `The members of ${organization} are managed in your single sign-on provider: invite, remove and change roles there.`;
    await expect(stack.services.identity.accounts.removeMember({ email: member.user!.email }, as)).rejects.toMatchObject({ kind: 'failed-precondition', message: managed });
    await expect(stack.services.identity.accounts.changeMemberRole({ email: member.user!.email, role: 'admin' }, as)).rejects.toMatchObject({ message: managed });
    await expect(stack.services.identity.accounts.inviteMember({ email: uniqueEmail('x'), role: 'manager' }, as)).rejects.toMatchObject({ message: managed });
  });
});
