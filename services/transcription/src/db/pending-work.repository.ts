/** The queue of activities to transcribe (see `pendingWork`). */
import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { pendingWork, type WorkRequest } from './schema.js';

export type PendingWork = typeof pendingWork.$inferSelect;

export async function enqueueWork(tx: Executor, work: { activityId: string; companyId: string; jobId: string; request: WorkRequest }): Promise<void> {
  await tx.insert(pendingWork).values(work).onConflictDoNothing();
}

/**
 * Claims the oldest activity nobody holds (never claimed, or its lease ran out) for `leaseMs`.
 * SKIP LOCKED lets replicas claim side by side without waiting on each other.
 */
export async function claimWork(tx: Executor, leaseMs: number): Promise<PendingWork | undefined> {
  const [next] = await tx
    .select({ activityId: pendingWork.activityId })
    .from(pendingWork)
    .where(or(isNull(pendingWork.leaseExpiresAt), lt(pendingWork.leaseExpiresAt, sql`now()`)))
    .orderBy(asc(pendingWork.createdAt))
    .limit(1)
    .for('update', { skipLocked: true });
  if (!next) return undefined;
  const [claimed] = await tx
    .update(pendingWork)
    .set({ attempts: sql`${pendingWork.attempts} + 1`, leaseExpiresAt: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where(eq(pendingWork.activityId, next.activityId))
    .returning();
  return claimed;
}

/** Keeps a claim alive while the work runs; false when the row is gone (the activity was deleted). */
export async function renewLease(db: Executor, activityId: string, leaseMs: number): Promise<boolean> {
  const renewed = await db
    .update(pendingWork)
    .set({ leaseExpiresAt: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where(eq(pendingWork.activityId, activityId))
    .returning({ activityId: pendingWork.activityId });
  return renewed.length > 0;
}

/** Removes the work; false when it was already gone. Call in the transaction that records the outcome. */
export async function finishWork(tx: Executor, companyId: string, activityId: string): Promise<boolean> {
  const removed = await tx
    .delete(pendingWork)
    .where(and(eq(pendingWork.companyId, companyId), eq(pendingWork.activityId, activityId)))
    .returning({ activityId: pendingWork.activityId });
  return removed.length > 0;
}
