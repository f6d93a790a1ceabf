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
import type { IdentityConfig } from '../config.js';
import { findMembership, findUserByEmail, insertUserIfAbsent, lockUser, updateUser } from '../db/accounts.repository.js';
import { findSession, revokeSession, touchSession } from '../db/sessions.repository.js';
import { addVerification, consumeVerification, deletePendingVerifications, pendingPasswordHashes } from '../db/verifications.repository.js';
import { checkSignIn, NO_COMPANY_MESSAGE, parseLogin, parseSignup } from '../domain/accounts.js';
import { hashPassword, needsRehash, verifyPassword } from '../domain/passwords.js';
import { SESSION_MESSAGES, sessionExpiresAt, sessionState, touch } from '../domain/sessions.js';
import { hashToken, isWellFormedToken, newToken, tokenExpiresAt } from '../domain/tokens.js';
import { signInWithGoogle } from '../google-sign-in.js';
import { acceptInvitation } from '../invitation-acceptance.js';
import { deliver } from '../mail/deliver.js';
import { alreadyRegisteredMail, verificationLink, verificationMail } from '../mail/messages.js';
import { placeInCompany, startSession } from '../membership.js';
import { signInWithSso } from '../sso.js';
import { companyMessage, userMessage } from './messages.js';

export const AUTH_MESSAGES = {
  verificationInvalid: 'This verification link is invalid, has expired or has already been used. Sign up again to get a new one.',
  googleNotConfigured: 'Google sign-in is not set up on this server. Sign in with your e-mail and password instead.',
} as const;

/** How many pending sign-ups of one address sign-in looks at to say "verify first". */
const PENDING_PASSWORDS_CHECKED = 3;

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

  /** Whether the password is one of those the user's pending sign-ups chose. */
  async function matchesPendingSignUp(userId: string, password: string): Promise<boolean> {
    for (const hash of await pendingPasswordHashes(db, userId, now(), PENDING_PASSWORDS_CHECKED)) {
      if (await verifyPassword(hash, password)) return true;
    }
    return false;
  }

  return {
    async signUp(request) {
      const input = parseSignup(request);
      const passwordHash = await hashPassword(input.password);
      const { token, hash } = newToken();
      const at = now();
      // The account is made once, with no password; every sign-up for it gets its own link holding
      // its own names and password, which apply only if that link is followed.
      const pending = await db.transaction(async (tx) => {
        const { user } = await insertUserIfAbsent(tx, { email: input.email, firstName: input.firstName, lastName: input.lastName, passwordHash: null, emailVerifiedAt: null });
        if (user.emailVerifiedAt) return undefined;
        await addVerification(tx, {
          tokenHash: hash,
          userId: user.id,
          firstName: input.firstName,
          lastName: input.lastName,
          passwordHash,
          expiresAt: tokenExpiresAt('email-verification', at),
        });
        return user;
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
        const before = (await lockUser(tx, verification.userId))!;
        let user = await updateUser(tx, before.id, {
          firstName: verification.firstName,
          lastName: verification.lastName,
          passwordHash: verification.passwordHash,
          emailVerifiedAt: before.emailVerifiedAt ?? at,
        });
        await deletePendingVerifications(tx, user.id);
        if (!user.companyId) user = await placeInCompany(tx, user, at, { newcomer: true });
        return startSession(tx, user.id, at, request.previousSessionToken);
      });
      return { session };
    },

    async signIn(request) {
      const { email, password } = parseLogin(request);
      const user = await findUserByEmail(db, email);
      let passwordMatches = false;
      if (user?.passwordHash) passwordMatches = await verifyPassword(user.passwordHash, password);
      else if (user && !user.emailVerifiedAt) passwordMatches = await matchesPendingSignUp(user.id, password);
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
      return signInWithGoogle(db, config.google, request, now());
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
      return acceptInvitation(db, request, now());
    },
  };
}
