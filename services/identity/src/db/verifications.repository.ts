/** E-mail verification links, keyed by the SHA-256 of the token in the link. */
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { emailVerifications } from './schema.js';

export type VerificationRow = typeof emailVerifications.$inferSelect;

/** Stores a new link for the user and retires every earlier one: only the latest e-mail works. */
export async function replaceVerification(tx: Executor, verification: { tokenHash: string; userId: string; expiresAt: Date }): Promise<void> {
  await tx.delete(emailVerifications).where(eq(emailVerifications.userId, verification.userId));
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

export async function purgeVerifications(db: Executor, before: Date): Promise<void> {
  await db.delete(emailVerifications).where(lt(emailVerifications.expiresAt, before));
}
