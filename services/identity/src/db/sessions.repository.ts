/** Sessions, keyed by the SHA-256 of the cookie's token (the token itself is never stored). */
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import type { SessionPolicy } from '../domain/sessions.js';
import { sessions } from './schema.js';

export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(tx: Executor, session: { tokenHash: string; userId: string; createdAt: Date }): Promise<void> {
  await tx.insert(sessions).values({ ...session, lastSeenAt: session.createdAt });
}

export async function findSession(db: Executor, tokenHash: string): Promise<SessionRow | undefined> {
  const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, tokenHash)).limit(1);
  return row;
}

export async function touchSession(db: Executor, tokenHash: string, lastSeenAt: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt }).where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
}

export async function revokeSession(db: Executor, tokenHash: string, at: Date): Promise<void> {
  await db.update(sessions).set({ revokedAt: at }).where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
}

/** Ends every session of a user (removed from their company). */
export async function revokeUserSessions(tx: Executor, userId: string, at: Date): Promise<void> {
  await tx.update(sessions).set({ revokedAt: at }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

/**
 * Deletes sessions that can never be used again: past their absolute end, revoked, or idle past
 * the idle timeout, all measured at `now`. Returns how many went.
 */
export async function purgeEndedSessions(db: Executor, now: Date, policy: SessionPolicy): Promise<number> {
  const before = (ms: number) => new Date(now.getTime() - ms);
  const deleted = await db
    .delete(sessions)
    .where(or(lt(sessions.createdAt, before(policy.absoluteLifetimeMs)), lt(sessions.revokedAt, now), lt(sessions.lastSeenAt, before(policy.idleTimeoutMs))))
    .returning({ tokenHash: sessions.tokenHash });
  return deleted.length;
}
