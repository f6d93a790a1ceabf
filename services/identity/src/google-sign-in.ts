/**
 * Sign-in with Google: the ID token is verified here (see auth/google-id-token.ts) and nothing
 * the client sends besides it is trusted. The Google account (issuer + subject) is linked to the
 * user with its address, or a new verified account is made. An account nobody had verified loses
 * its pending sign-ups: Google proved who owns the address, and whoever signed up did not.
 */
import type { Database } from '@parlance/platform/db/database';
import type { SignInWithGoogleRequest, SignInWithGoogleResponse } from '@parlance/proto/parlance/identity/v1/auth';
import { GOOGLE_ISSUER, verifyGoogleIdToken } from './auth/google-id-token.js';
import { findUserByEmail, findUserByExternalIdentity, insertUserIfAbsent, linkExternalIdentity, lockUser, updateUser } from './db/accounts.repository.js';
import { retryOnConflict } from '@parlance/platform/db/conflict-retry';
import { deletePendingVerifications } from './db/verifications.repository.js';
import { emailLocalPart, externalName } from './domain/accounts.js';
import { placeInCompany, startSession } from './membership.js';

export async function signInWithGoogle(
  db: Database<Record<string, unknown>>,
  google: { clientId: string; jwksUrl: string },
  request: SignInWithGoogleRequest,
  now: Date,
): Promise<SignInWithGoogleResponse> {
  const proven = await verifyGoogleIdToken(request.idToken, { jwksUrl: google.jwksUrl, audience: google.clientId });
  return retryOnConflict(() =>
    db.transaction(async (tx) => {
      const linked = await findUserByExternalIdentity(tx, GOOGLE_ISSUER, proven.googleId);
      const known = linked ?? (await findUserByEmail(tx, proven.email));
      let user = known ? (await lockUser(tx, known.id))! : undefined;
      let newcomer = false;
      if (!user) {
        const made = await insertUserIfAbsent(tx, {
          email: proven.email,
          firstName: externalName(proven.firstName) || emailLocalPart(proven.email),
          lastName: externalName(proven.lastName),
          passwordHash: null,
          emailVerifiedAt: now,
        });
        user = made.user;
        newcomer = made.created;
      }
      if (!user.emailVerifiedAt) {
        user = await updateUser(tx, user.id, { emailVerifiedAt: now, passwordHash: null });
        await deletePendingVerifications(tx, user.id);
        newcomer = true;
      }
      if (!linked) await linkExternalIdentity(tx, { issuer: GOOGLE_ISSUER, subject: proven.googleId, userId: user.id });
      if (!user.companyId) user = await placeInCompany(tx, user, now, { newcomer });
      return { session: await startSession(tx, user.id, now, request.previousSessionToken), created: newcomer && !known };
    }),
  );
}
