/**
 * Steps several identity calls share: starting a session, putting a verified person into a
 * company (the one that invited them, or a new one of their own), and finding the caller.
 * Each takes the open transaction it must run in.
 */
import { permissionDenied } from '@parlance/platform/errors';
import type { Executor } from '@parlance/platform/db/database';
import { requestContext, requireCompanyId } from '@parlance/platform/grpc/request-context';
import type { NewSession } from '@parlance/proto/parlance/identity/v1/identity';
import { findCompany, findMembership, insertCompany, updateUser, type Membership, type UserRow } from './db/accounts.repository.js';
import { insertSubscription } from './db/billing.repository.js';
import { findOpenedInvitation, markInvitation } from './db/invitations.repository.js';
import { insertSession, revokeSession } from './db/sessions.repository.js';
import { NO_COMPANY_MESSAGE } from './domain/accounts.js';
import { defaultCompanyName, newCompanyDepartments } from './domain/companies.js';
import { newCompanySubscription } from './domain/plans.js';
import { SESSION_ABSOLUTE_LIFETIME_MS, hashToken, isWellFormedToken, newToken } from './domain/tokens.js';
import { publishCompanyChanged } from './events/publishers.js';
import { companyMessage, userMessage } from './grpc/messages.js';

/**
 * Creates a company with the default departments, on the trial plan, and returns its id; or
 * undefined when `sso` names an organisation that already has its company.
 */
export async function createCompany(
  tx: Executor,
  company: { name: string; sso?: { issuer: string; organization: string } },
  now: Date,
): Promise<string | undefined> {
  const sso = company.sso ? { ssoIssuer: company.sso.issuer, ssoOrganization: company.sso.organization } : {};
  const row = await insertCompany(tx, { name: company.name, departments: newCompanyDepartments(), ...sso });
  if (row) await insertSubscription(tx, row.id, newCompanySubscription(now));
  return row?.id;
}

/**
 * A verified person with no company joins the one whose invitation they opened, with the invited
 * role. Otherwise a person who has just joined Parlance (just created or verified) gets a company
 * of their own and is its admin; anyone else (a member removed from their company) gets none and
 * is told so.
 */
export async function placeInCompany(tx: Executor, user: UserRow, now: Date, options: { newcomer: boolean }): Promise<UserRow> {
  const invitation = await findOpenedInvitation(tx, user.email, now);
  if (invitation) {
    const joined = await updateUser(tx, user.id, { companyId: invitation.companyId, role: invitation.role });
    await markInvitation(tx, invitation.id, { acceptedAt: now });
    await publishCompanyChanged(tx, invitation.companyId);
    return joined;
  }
  if (!options.newcomer) throw permissionDenied(NO_COMPANY_MESSAGE, { reason: 'no-company' });
  const companyId = (await createCompany(tx, { name: defaultCompanyName(user.firstName, user.lastName) }, now))!;
  const admin = await updateUser(tx, user.id, { companyId, role: 'admin' });
  await publishCompanyChanged(tx, companyId);
  return admin;
}

/**
 * A new session for a user who is in a company. A session the browser brought along is revoked
 * first, so every sign-in rotates the session token.
 */
export async function startSession(tx: Executor, userId: string, now: Date, previousToken?: string): Promise<NewSession> {
  if (previousToken && isWellFormedToken(previousToken)) await revokeSession(tx, hashToken(previousToken), now);
  const membership = await findMembership(tx, userId);
  if (!membership) throw new Error(`user ${userId} has no company when a session starts`);
  const { token, hash } = newToken();
  await insertSession(tx, { tokenHash: hash, userId, createdAt: now });
  return { token, expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_LIFETIME_MS), user: userMessage(membership.user), company: companyMessage(membership.company) };
}

export const NO_LONGER_MEMBER_MESSAGE = 'You are no longer a member of this company. Please sign in again.';

/**
 * The calling user in the calling company (both from the call's metadata, set by the gateway from
 * the session). A user who has meanwhile left that company is refused.
 */
export async function callerMembership(db: Executor): Promise<Membership> {
  const companyId = requireCompanyId();
  const { userId } = requestContext();
  const membership = userId ? await findMembership(db, userId) : undefined;
  if (!membership || membership.company.id !== companyId) {
    throw permissionDenied(NO_LONGER_MEMBER_MESSAGE);
  }
  return membership;
}

export async function companyOrThrow(db: Executor, companyId: string) {
  const company = await findCompany(db, companyId);
  if (!company) throw new Error(`company ${companyId} does not exist`);
  return company;
}
