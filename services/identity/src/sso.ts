/**
 * Single sign-on: maps the claims of a bearer token the gateway verified to a user and company.
 *
 * - The organisation claim names one company, created at the organisation's first sign-in and
 *   remembered by (issuer, organisation). Its members are managed at the provider: it is the
 *   authority for who belongs and with which role (see `ssoRole`), and Parlance's own member
 *   management refuses to act on such a company.
 * - The person is found by (issuer, subject). A first sign-in may take over the Parlance account
 *   with the same verified address only when that account belongs to no company or to a company
 *   of this issuer: a token never reaches into a company that signs in with passwords.
 * - A person whose account belongs to another company is refused, not moved.
 *
 * Every API request of an SSO client comes through here, so the usual case (a linked member
 * whose company and role already match the token) is answered by two reads, without a
 * transaction or a lock.
 */
import { permissionDenied } from '@parlance/platform/errors';
import type { Database, Executor } from '@parlance/platform/db/database';
import type { SignInWithSsoRequest, SignInWithSsoResponse } from '@parlance/proto/parlance/identity/v1/auth';
import {
  findCompany,
  findCompanyBySso,
  findMembership,
  findUserByEmail,
  findUserByExternalIdentity,
  insertUserIfAbsent,
  linkExternalIdentity,
  lockMembers,
  lockUser,
  updateUser,
  type UserRow,
} from './db/accounts.repository.js';
import { retryOnConflict } from '@parlance/platform/db/conflict-retry';
import { deletePendingVerifications } from './db/verifications.repository.js';
import { emailLocalPart, externalName, normaliseEmail } from './domain/accounts.js';
import { grantedRole, ssoRole, type Role } from './domain/members.js';
import { publishCompanyChanged } from './events/publishers.js';
import { companyMessage, userMessage } from './grpc/messages.js';
import { createCompany } from './membership.js';

export const SSO_MESSAGES = {
  noEmail: 'Your single sign-on account has no verified e-mail address, so it cannot be matched to a Parlance account.',
  noCompany: (who: string) =>
    `No Parlance account for ${who} belongs to a company, and your sign-on token names no organisation. Ask an admin to invite you.`,
  otherCompany: (email: string) =>
    `Your Parlance account ${email} belongs to another company than your organisation's. Ask an admin of that company to remove you, then sign in again.`,
  notSsoAccount: (email: string) =>
    `Your Parlance account ${email} signs in with a password, not through single sign-on. Sign in with your password instead.`,
} as const;

export async function signInWithSso(db: Database<Record<string, unknown>>, request: SignInWithSsoRequest, now: Date): Promise<SignInWithSsoResponse> {
  const granted = grantedRole(request.roles);
  const linked = await findUserByExternalIdentity(db, request.issuer, request.subject);
  const membership = linked ? await findMembership(db, linked.id) : undefined;
  if (membership) {
    const { company, user } = membership;
    const orgMatches = !request.organization || (company.ssoIssuer === request.issuer && company.ssoOrganization === request.organization);
    if (orgMatches && (granted === undefined || granted === user.role)) return { user: userMessage(user), company: companyMessage(company) };
  }
  return retryOnConflict(() => db.transaction((tx) => mapInTransaction(tx, request, granted, now)));
}

async function mapInTransaction(tx: Executor, request: SignInWithSsoRequest, granted: Role | undefined, now: Date): Promise<SignInWithSsoResponse> {
  const email = normaliseEmail(request.email);
  let user: UserRow | undefined = await findUserByExternalIdentity(tx, request.issuer, request.subject);
  const linked = user !== undefined;
  if (!user) {
    if (!email || !request.emailVerified) throw permissionDenied(SSO_MESSAGES.noEmail);
    user = await findUserByEmail(tx, email);
    if (user?.companyId) {
      const company = await findCompany(tx, user.companyId);
      if (company?.ssoIssuer !== request.issuer) throw permissionDenied(SSO_MESSAGES.notSsoAccount(user.email));
    }
  }
  if (user) user = (await lockUser(tx, user.id))!;

  let companyId = user?.companyId ?? undefined;
  if (request.organization) {
    const orgCompanyId = await organizationCompany(tx, request.issuer, request.organization, now);
    if (companyId && companyId !== orgCompanyId) throw permissionDenied(SSO_MESSAGES.otherCompany(user!.email));
    companyId = orgCompanyId;
  }
  if (!companyId) throw permissionDenied(SSO_MESSAGES.noCompany(email || user?.email || request.subject));

  if (!user) {
    ({ user } = await insertUserIfAbsent(tx, {
      email,
      firstName: externalName(request.firstName) || emailLocalPart(email),
      lastName: externalName(request.lastName),
      passwordHash: null,
      emailVerifiedAt: now,
    }));
  }
  if (!user.emailVerifiedAt) {
    // The provider vouches for the address; the sign-ups nobody proved go.
    user = await updateUser(tx, user.id, { emailVerifiedAt: now, passwordHash: null });
    await deletePendingVerifications(tx, user.id);
  }
  if (!linked) await linkExternalIdentity(tx, { issuer: request.issuer, subject: request.subject, userId: user.id });

  const userId = user.id;
  const members = await lockMembers(tx, companyId);
  const current = user.companyId === companyId ? (user.role as Role) : undefined;
  const role = ssoRole({
    granted,
    current,
    onlyMember: members.every((member) => member.id === userId),
    admins: members.filter((member) => member.role === 'admin').length,
  });
  if (current !== role) {
    user = await updateUser(tx, user.id, { companyId, role });
    await publishCompanyChanged(tx, companyId);
  }
  const membership = (await findMembership(tx, user.id))!;
  return { user: userMessage(membership.user), company: companyMessage(membership.company) };
}

/** The company of (issuer, organisation), created on first sight; safe when two first sign-ins race. */
async function organizationCompany(tx: Executor, issuer: string, organization: string, now: Date): Promise<string> {
  const created = await createCompany(tx, { name: organization, sso: { issuer, organization } }, now);
  return created ?? (await findCompanyBySso(tx, issuer, organization))!.id;
}
