/**
 * Following an invitation link (GET /auth/accept-invite?token=). The link was mailed to the
 * invited address, so it proves that address, and that is enough to let an account with no
 * company join, or to let someone without an account sign up into the company. Moving an account
 * out of another company is different: a forwarded mail or a link scanner must not do it, so it
 * needs the request to be signed in as that account.
 */
import type { Database } from '@parlance/platform/db/database';
import type { AcceptInvitationRequest, AcceptInvitationResponse } from '@parlance/proto/parlance/identity/v1/auth';
import { findUserByEmail, lockMembers, lockUser, updateUser } from './db/accounts.repository.js';
import { findInvitationByToken, markInvitation } from './db/invitations.repository.js';
import { retryOnConflict } from '@parlance/platform/db/conflict-retry';
import { findSession } from './db/sessions.repository.js';
import { invalidArgument } from '@parlance/platform/errors';
import { assertInvitationUsable, assertMayLeaveCompany, MEMBER_MESSAGES } from './domain/members.js';
import { sessionState } from './domain/sessions.js';
import { hashToken, isWellFormedToken } from './domain/tokens.js';
import { publishCompanyChanged } from './events/publishers.js';
import { companyOrThrow } from './membership.js';

export const ACCEPTANCE_MESSAGES = {
  alreadyMember: (company: string) => `You are already a member of ${company}. Sign in to continue.`,
  accepted: (company: string) => `Invitation accepted successfully! You are now a member of ${company}. Sign in to continue.`,
  signUpToJoin: (email: string, company: string) => `Invitation accepted. Sign up with ${email} to join ${company}.`,
  signInToMove: (email: string, company: string) =>
    `${email} already belongs to another company. Sign in as ${email}, then open this invitation link again to join ${company}.`,
} as const;

export async function acceptInvitation(db: Database<Record<string, unknown>>, request: AcceptInvitationRequest, now: Date): Promise<AcceptInvitationResponse> {
  if (!isWellFormedToken(request.token)) throw invalidArgument(MEMBER_MESSAGES.invitationInvalid);
  const signedInAs = await sessionUserId(db, request.sessionToken, now);
  // Locks the account, then its old company's members, while a member change there locks those
  // members first: a rare deadlock, which PostgreSQL breaks by aborting one side, retried here.
  return retryOnConflict(() => db.transaction(async (tx) => {
    const invitation = await findInvitationByToken(tx, hashToken(request.token), true);
    assertInvitationUsable(invitation ?? null, now);
    const { id, companyId, email, role } = invitation!;
    const company = await companyOrThrow(tx, companyId);
    const answer = { email, companyName: company.name, role, requiresSignUp: false, requiresSignIn: false };
    const found = await findUserByEmail(tx, email);
    const user = found ? await lockUser(tx, found.id) : undefined;

    if (!user?.emailVerifiedAt) {
      await markInvitation(tx, id, { openedAt: now });
      return { ...answer, message: ACCEPTANCE_MESSAGES.signUpToJoin(email, company.name), requiresSignUp: true };
    }
    if (user.companyId === companyId) {
      await markInvitation(tx, id, { acceptedAt: now });
      return { ...answer, message: ACCEPTANCE_MESSAGES.alreadyMember(company.name) };
    }
    const leaving = user.companyId;
    if (leaving) {
      if (signedInAs !== user.id) return { ...answer, message: ACCEPTANCE_MESSAGES.signInToMove(email, company.name), requiresSignIn: true };
      const members = await lockMembers(tx, leaving);
      assertMayLeaveCompany({
        userId: user.id,
        companyName: (await companyOrThrow(tx, leaving)).name,
        joiningName: company.name,
        members: members.map((m) => ({ userId: m.id, email: m.email, role: m.role })),
      });
    }
    await updateUser(tx, user.id, { companyId, role });
    await markInvitation(tx, id, { acceptedAt: now });
    await publishCompanyChanged(tx, companyId);
    if (leaving) await publishCompanyChanged(tx, leaving);
    return { ...answer, message: ACCEPTANCE_MESSAGES.accepted(company.name) };
  }));
}

/** The user of an active session, if the request carried one. */
async function sessionUserId(db: Database<Record<string, unknown>>, sessionToken: string, now: Date): Promise<string | undefined> {
  if (!isWellFormedToken(sessionToken)) return undefined;
  const session = await findSession(db, hashToken(sessionToken));
  return session && sessionState(session, now) === 'active' ? session.userId : undefined;
}
