/**
 * parlance.identity.v1.AuthService: sign-up, verification, the three ways of signing in,
 * sessions and invitation links. Hashing a password and sending an e-mail happen outside any
 * transaction, so a slow SMTP server or argon2 never holds a database connection.
 */
import { failedPrecondition, invalidArgument, permissionDenied, unauthenticated } from '@parlance/platform/errors';
import type { Database } from '@parlance/platform/db/database';
import type { Logger } from '@parlance/platform/logger';
import type { Mailer, MailMessage } from '@parlance/platform/mail/mailer';
import type { ServiceImplementation } from '@parlance/platform/grpc/grpc-server';
import type { AuthServiceService } from '@parlance/proto/parlance/identity/v1/auth';
import { verifyGoogleIdToken } from '../auth/google-id-token.js';
import type { IdentityConfig } from '../config.js';
import {
  findMembership,
  findUserByEmail,
  findUserByExternalIdentity,
  insertUser,
  linkExternalIdentity,
  lockMembers,
  lockUser,
  updateUser,
  upsertUnverifiedUser,
} from '../db/accounts.repository.js';
import { findInvitationByToken, markInvitation } from '../db/invitations.repository.js';
import { findSession, revokeSession, touchSession } from '../db/sessions.repository.js';
import { consumeVerification, replaceVerification } from '../db/verifications.repository.js';
import { checkSignIn, emailLocalPart, NO_COMPANY_MESSAGE, parseLogin, parseSignup } from '../domain/accounts.js';
import { assertInvitationUsable, assertMayLeaveCompany, MEMBER_MESSAGES } from '../domain/members.js';
import { hashPassword, needsRehash, verifyPassword } from '../domain/passwords.js';
import { SESSION_MESSAGES, sessionExpiresAt, sessionState, touch } from '../domain/sessions.js';
import { hashToken, isWellFormedToken, newToken, tokenExpiresAt } from '../domain/tokens.js';
import { publishCompanyChanged } from '../events/publishers.js';
import { deliver } from '../mail/deliver.js';
import { alreadyRegisteredMail, verificationLink, verificationMail } from '../mail/messages.js';
import { companyOrThrow, placeInCompany, startSession } from '../membership.js';
import { signInWithSso } from '../sso.js';
import { companyMessage, userMessage } from './messages.js';

/** Where Google's accounts live, as the issuer of their ID tokens (the key of their links). */
const GOOGLE_ISSUER = 'https://accounts.google.com';

export const AUTH_MESSAGES = {
  verificationInvalid: 'This verification link is invalid, has expired or has already been used. Sign up again to get a new one.',
  googleNotConfigured: 'Google sign-in is not set up on this server. Sign in with your e-mail and password instead.',
  alreadyMember: (company: string) => `You are already a member of ${company}. Sign in to continue.`,
  accepted: (company: string) => `Invitation accepted successfully! You are now a member of ${company}. Sign in to continue.`,
  signUpToJoin: (email: string, company: string) => `Invitation accepted. Sign up with ${email} to join ${company}.`,
} as const;

export interface AuthDependencies {
  db: Database<Record<string, unknown>>;
  mailer: Mailer;
  config: Pick<IdentityConfig, 'publicUrl' | 'google'>;
  logger: Logger;
  now?: () => Date;
}

export function authService(deps: AuthDependencies): ServiceImplementation<typeof AuthServiceService> {
  const { db, config, logger } = deps;
  const now = deps.now ?? (() => new Date());

  // A hash to verify against when the e-mail is unknown, so that a wrong address and a wrong
  // password take the same time and sign-in does not reveal who has an account.
  let decoy: Promise<string> | undefined;
  const decoyHash = () => (decoy ??= hashPassword('decoy password that matches nothing'));

  const send = (message: MailMessage, purpose: string) => deliver(deps.mailer, logger, message, purpose);

  return {
    async signUp(request) {
      const input = parseSignup(request);
      const passwordHash = await hashPassword(input.password);
      const { token, hash } = newToken();
      const at = now();
      const pending = await db.transaction(async (tx) => {
        const row = await upsertUnverifiedUser(tx, { email: input.email, firstName: input.firstName, lastName: input.lastName, passwordHash }, at);
        if (!row) return undefined;
        await replaceVerification(tx, { tokenHash: hash, userId: row.id, expiresAt: tokenExpiresAt('email-verification', at) });
        return row;
      });
      if (pending) {
        await send(verificationMail({ to: input.email, firstName: input.firstName, link: verificationLink(config.publicUrl, token) }), 'verification');
      } else {
        const existing = await findUserByEmail(db, input.email);
        await send(
          alreadyRegisteredMail({ to: input.email, firstName: existing?.firstName ?? input.firstName, loginLink: `${config.publicUrl}/login` }),
          'already-registered',
        );
      }
      return { email: input.email };
    },

    async verifyEmail(request) {
      if (!isWellFormedToken(request.token)) throw invalidArgument(AUTH_MESSAGES.verificationInvalid);
      const at = now();
      const session = await db.transaction(async (tx) => {
        const verification = await consumeVerification(tx, hashToken(request.token), at);
        if (!verification) throw invalidArgument(AUTH_MESSAGES.verificationInvalid);
        let user = (await lockUser(tx, verification.userId))!;
        if (!user.emailVerifiedAt) user = await updateUser(tx, user.id, { emailVerifiedAt: at });
        if (!user.companyId) user = await placeInCompany(tx, user, at);
        return startSession(tx, user.id, at);
      });
      return { session };
    },

    async signIn(request) {
      const { email, password } = parseLogin(request);
      const user = await findUserByEmail(db, email);
      let passwordMatches = false;
      if (user?.passwordHash) passwordMatches = await verifyPassword(user.passwordHash, password);
      else await verifyPassword(await decoyHash(), password); // the same cost as a real check
      checkSignIn(user ? { emailVerified: user.emailVerifiedAt !== null } : null, passwordMatches);
      const account = user!;
      if (!account.companyId) throw permissionDenied(NO_COMPANY_MESSAGE, { reason: 'no-company' });
      const rehash = needsRehash(account.passwordHash!) ? await hashPassword(password) : undefined;
      const at = now();
      const session = await db.transaction(async (tx) => {
        if (rehash) await updateUser(tx, account.id, { passwordHash: rehash });
        return startSession(tx, account.id, at, request.previousSessionToken);
      });
      return { session };
    },

    async signInWithGoogle(request) {
      if (!config.google) throw failedPrecondition(AUTH_MESSAGES.googleNotConfigured, { reason: 'google-not-configured' });
      const google = await verifyGoogleIdToken(request.idToken, { jwksUrl: config.google.jwksUrl, audience: config.google.clientId });
      const at = now();
      return db.transaction(async (tx) => {
        let created = false;
        let user = await findUserByExternalIdentity(tx, GOOGLE_ISSUER, google.googleId);
        if (user) {
          user = (await lockUser(tx, user.id))!;
        } else {
          const byEmail = await findUserByEmail(tx, google.email);
          user = byEmail ? (await lockUser(tx, byEmail.id))! : undefined;
          if (!user) {
            user = await insertUser(tx, {
              email: google.email,
              firstName: google.firstName || emailLocalPart(google.email),
              lastName: google.lastName,
              passwordHash: null,
              emailVerifiedAt: at,
            });
            created = true;
          } else if (!user.emailVerifiedAt) {
            // Google proves who owns the address. A password set by whoever signed up unverified
            // was never proven to be theirs, so it goes (no account pre-hijacking).
            user = await updateUser(tx, user.id, { emailVerifiedAt: at, passwordHash: null });
          }
          await linkExternalIdentity(tx, { issuer: GOOGLE_ISSUER, subject: google.googleId, userId: user.id });
        }
        if (!user.companyId) user = await placeInCompany(tx, user, at);
        return { session: await startSession(tx, user.id, at, request.previousSessionToken), created };
      });
    },

    async signInWithSso(request) {
      if (!request.issuer || !request.subject) throw invalidArgument('issuer and subject are required');
      return signInWithSso(db, request, now());
    },

    async signOut(request) {
      if (isWellFormedToken(request.sessionToken)) await revokeSession(db, hashToken(request.sessionToken), now());
      return {};
    },

    async getSession(request) {
      if (!isWellFormedToken(request.sessionToken)) throw unauthenticated(SESSION_MESSAGES.missing);
      const hash = hashToken(request.sessionToken);
      const session = await findSession(db, hash);
      if (!session) throw unauthenticated(SESSION_MESSAGES.missing);
      const at = now();
      const state = sessionState(session, at);
      // A signed-out session is simply absent; only one that ran out of time says so.
      if (state === 'revoked') throw unauthenticated(SESSION_MESSAGES.missing);
      if (state !== 'active') throw unauthenticated(SESSION_MESSAGES.expired);
      const membership = await findMembership(db, session.userId);
      if (!membership) throw unauthenticated(SESSION_MESSAGES.missing);
      const seen = touch(session, at);
      if (seen) await touchSession(db, hash, seen);
      return {
        user: userMessage(membership.user),
        company: companyMessage(membership.company),
        expiresAt: sessionExpiresAt({ ...session, lastSeenAt: seen ?? session.lastSeenAt }),
      };
    },

    async acceptInvitation(request) {
      if (!isWellFormedToken(request.token)) throw invalidArgument(MEMBER_MESSAGES.invitationInvalid);
      const at = now();
      return db.transaction(async (tx) => {
        const invitation = await findInvitationByToken(tx, hashToken(request.token), true);
        assertInvitationUsable(invitation ?? null, at);
        const { id, companyId, email, role } = invitation!;
        const company = await companyOrThrow(tx, companyId);
        const answer = { email, companyName: company.name, role };
        const found = await findUserByEmail(tx, email);
        const user = found ? await lockUser(tx, found.id) : undefined;

        if (!user?.emailVerifiedAt) {
          await markInvitation(tx, id, { openedAt: at });
          return { ...answer, message: AUTH_MESSAGES.signUpToJoin(email, company.name), requiresSignUp: true };
        }
        if (user.companyId === companyId) {
          await markInvitation(tx, id, { acceptedAt: at });
          return { ...answer, message: AUTH_MESSAGES.alreadyMember(company.name), requiresSignUp: false };
        }
        const leaving = user.companyId;
        if (leaving) {
          const members = await lockMembers(tx, leaving);
          const old = await companyOrThrow(tx, leaving);
          assertMayLeaveCompany({
            userId: user.id,
            companyName: old.name,
            joiningName: company.name,
            members: members.map((m) => ({ userId: m.id, email: m.email, role: m.role })),
          });
        }
        await updateUser(tx, user.id, { companyId, role });
        await markInvitation(tx, id, { acceptedAt: at });
        await publishCompanyChanged(tx, companyId);
        if (leaving) await publishCompanyChanged(tx, leaving);
        return { ...answer, message: AUTH_MESSAGES.accepted(company.name), requiresSignUp: false };
      });
    },
  };
}
