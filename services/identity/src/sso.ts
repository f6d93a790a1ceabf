/**
 * Single sign-on: maps the claims of a bearer token the gateway verified to a user and company.
 * The organisation claim names one company, created at the organisation's first sign-in and
 * remembered by (issuer, organisation); the person is found by (issuer, subject), else by verified
 * e-mail, else created; the provider's roles apply (see `ssoRole`). A person whose account
 * belongs to another company is refused, not moved.
 *
 * Every API request of an SSO client comes through here, so the usual case (a linked member
 * whose company and role already match the token) is answered by two reads, without a
 * transaction or a lock.
 */
import { randomUUID } from 'node:crypto';
import { permissionDenied } from '@parlance/platform/errors';
import type { Database, Executor } from '@parlance/platform/db/database';
import type { SignInWithSsoRequest, SignInWithSsoResponse } from '@parlance/proto/parlance/identity/v1/auth';
import {
  findCompanyBySso,
  findMembership,
  findUserByEmail,
  findUserByExternalIdentity,
  insertUser,
  linkExternalIdentity,
  lockMembers,
  lockUser,
  updateUser,
} from './db/accounts.repository.js';
import { insertSubscription } from './db/billing.repository.js';
import { companies } from './db/schema.js';
import { emailLocalPart, normaliseEmail } from './domain/accounts.js';
import { newCompanyDepartments } from './domain/companies.js';
import { grantedRole, ssoRole, type Role } from './domain/members.js';
import { newCompanySubscription } from './domain/plans.js';
import { publishCompanyChanged } from './events/publishers.js';
import { companyMessage, userMessage } from './grpc/messages.js';

export const SSO_MESSAGES = {
  noEmail: 'Your single sign-on account has no verified e-mail address, so it cannot be matched to a Parlance account.',
  noCompany: (who: string) =>
    `No Parlance account for ${who} belongs to a company, and your sign-on token names no organisation. Ask an admin to invite you.`,
  otherCompany: (email: string) =>
    `Your Parlance account ${email} belongs to another company than your organisation's. Ask an admin of that company to remove you, then sign in again.`,
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
  return db.transaction((tx) => mapInTransaction(tx, request, granted, now));
}

async function mapInTransaction(tx: Executor, request: SignInWithSsoRequest, granted: Role | undefined, now: Date): Promise<SignInWithSsoResponse> {
  const email = normaliseEmail(request.email);
  let user = await findUserByExternalIdentity(tx, request.issuer, request.subject);
  if (!user) {
    if (!email || !request.emailVerified) throw permissionDenied(SSO_MESSAGES.noEmail);
    user = await findUserByEmail(tx, email);
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
    const firstName = request.firstName.trim() || emailLocalPart(email);
    user = await insertUser(tx, { email, firstName, lastName: request.lastName.trim(), passwordHash: null, emailVerifiedAt: now });
  } else if (!user.emailVerifiedAt) {
    // The provider vouches for the address; a password nobody proved goes.
    user = await updateUser(tx, user.id, { emailVerifiedAt: now, passwordHash: null });
  }
  await linkExternalIdentity(tx, { issuer: request.issuer, subject: request.subject, userId: user.id });

  const members = await lockMembers(tx, companyId);
  const current = user.companyId === companyId ? (user.role as Role) : undefined;
  const role = ssoRole({
    granted,
    current,
    onlyMember: members.every((member) => member.id === user!.id),
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
  const [created] = await tx
    .insert(companies)
    .values({ id: randomUUID(), name: organization, departments: newCompanyDepartments(), ssoIssuer: issuer, ssoOrganization: organization })
    .onConflictDoNothing({ target: [companies.ssoIssuer, companies.ssoOrganization] })
    .returning({ id: companies.id });
  if (created) {
    await insertSubscription(tx, created.id, newCompanySubscription(now));
    return created.id;
  }
  return (await findCompanyBySso(tx, issuer, organization))!.id;
}
