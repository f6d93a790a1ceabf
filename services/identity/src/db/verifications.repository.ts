/** E-mail verification links, keyed by the SHA-256 of the token in the link. */
import { and, desc, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { emailVerifications } from './schema.js';

export type VerificationRow = typeof emailVerifications.$inferSelect;

/** Stores a link together with the names and password hash of the sign-up that asked for it. */
export async function addVerification(
  tx: Executor,
  verification: { tokenHash: string; userId: string; firstName: string; lastName: string; passwordHash: string; expiresAt: Date },
): Promise<void> {
  await tx.insert(emailVerifications).values(verification);
}

/** Marks the link used and returns it, or undefined when it is unknown, used or expired. Single use even under concurrency. */
export async function consumeVerification(tx: Executor, tokenHash: string, now: Date): Promise<VerificationRow | undefined> {
  const [row] = await tx
    .update(emailVerifications)
    .set({ usedAt: now })
    .where(and(eq(emailVerifications.tokenHash, tokenHash), isNull(emailVerifications.usedAt)))
    .returning();
  if (!row || row.expiresAt.getTime() <= now.getTime()) return undefined;
  return row;
}

/** Once the address is proven, every other pending link for it stops working. */
export async function deletePendingVerifications(tx: Executor, userId: string): Promise<void> {
  await tx.delete(emailVerifications).where(and(eq(emailVerifications.userId, userId), isNull(emailVerifications.usedAt)));
}

/**
 * Password hashes of the user's pending sign-ups, newest first, at most `limit`: sign-in checks
 * them only to tell someone who knows one of those passwords to verify their address first.
 */
export async function pendingPasswordHashes(db: Executor, userId: string, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ passwordHash: emailVerifications.passwordHash })
    .from(emailVerifications)
    .where(and(eq(emailVerifications.userId, userId), isNull(emailVerifications.usedAt), gt(emailVerifications.expiresAt, now)))
    .orderBy(desc(emailVerifications.createdAt))
    .limit(limit);
  return rows.map((row) => row.passwordHash);
}

export async function purgeVerifications(db: Executor, before: Date): Promise<void> {
  await db.delete(emailVerifications).where(lt(emailVerifications.expiresAt, before));
}
