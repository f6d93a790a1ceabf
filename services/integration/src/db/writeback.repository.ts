/**
 * Write-back's state: the writes waiting in `writeback_work` (the platform's leased work queue),
 * and on the connection when a score was last written and the last write given up.
 */
import { and, count, eq, sql } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { deferLeasedWork, enqueueLeasedWork, type LeasedWork } from '@parlance/platform/work/leased-work';
import type { WriteRequest } from '../domain/writeback.js';
import { connections, imports, writebackQueue, writebackWork } from './schema.js';

export type WritebackWork = LeasedWork<typeof writebackWork>;

/** The integration and vendor record an activity was imported from; undefined for an upload. */
export async function findImportOfActivity(
  db: Executor,
  companyId: string,
  activityId: string,
): Promise<Pick<typeof imports.$inferSelect, 'integrationId' | 'externalId' | 'leadId' | 'vendorRefs'> | undefined> {
  const [found] = await db
    .select({ integrationId: imports.integrationId, externalId: imports.externalId, leadId: imports.leadId, vendorRefs: imports.vendorRefs })
    .from(imports)
    .where(and(eq(imports.companyId, companyId), eq(imports.activityId, activityId)))
    .limit(1);
  return found;
}

/** Queues the writes of one verdict; a write already queued for it stays as it is. The number queued. */
export async function queueWrites(
  tx: Executor,
  target: { companyId: string; connectionId: string; activityId: string; scoredAt: Date },
  writes: readonly WriteRequest[],
): Promise<number> {
  let queued = 0;
  for (const request of writes) {
    const writeKey = `${target.activityId}/${request.kind}/${target.scoredAt.toISOString()}`;
    if (await enqueueLeasedWork(tx, writebackQueue, { writeKey, companyId: target.companyId, connectionId: target.connectionId, activityId: target.activityId, request })) queued += 1;
  }
  return queued;
}

/**
 * Hands a failed write back to be tried `delayMs` from now, counting the failure (`countFailure`,
 * unless the write only waits, e.g. for the connection to be made again). False when the claim
 * is no longer held.
 */
export async function retryWriteLater(db: Executor, work: WritebackWork, delayMs: number, error: string, countFailure = true): Promise<boolean> {
  return db.transaction(async (tx) => {
    const claim = writebackQueue.claimOf(work);
    const updated = await tx
      .update(writebackWork)
      .set({ lastError: error, ...(countFailure ? { failures: sql`${writebackWork.failures} + 1` } : {}) })
      .where(and(eq(writebackWork.companyId, claim.companyId), eq(writebackWork.writeKey, claim.key), eq(writebackWork.attempts, claim.attempts)))
      .returning({ writeKey: writebackWork.writeKey });
    return updated.length > 0 && (await deferLeasedWork(tx, writebackQueue, claim, delayMs));
  });
}

/**
 * Makes the connection's writes that wait (for it to be connected again, or to be tried again
 * after a failure) claimable now. A write in hand is left alone: its lease ends within `leaseMs`,
 * while a waiting write's ends later.
 */
export async function bringWritesForward(db: Executor, connectionId: string, leaseMs: number): Promise<number> {
  const brought = await db
    .update(writebackWork)
    .set({ leaseExpiresAt: null })
    .where(and(eq(writebackWork.connectionId, connectionId), sql`${writebackWork.leaseExpiresAt} > now() + make_interval(secs => ${leaseMs / 1000})`))
    .returning({ writeKey: writebackWork.writeKey });
  return brought.length;
}

/** A write succeeded: the connection's last write-back time moves on, and its last failure is cleared. */
export async function recordWriteDone(tx: Executor, connectionId: string): Promise<void> {
  await tx.update(connections).set({ lastWritebackAt: sql`now()`, writebackError: null, writebackErrorAt: null }).where(eq(connections.id, connectionId));
}

/** A write given up, or waiting for the connection: its reason stays on the connection, for the integrations screen. */
export async function recordWriteFailure(tx: Executor, connectionId: string, message: string): Promise<void> {
  await tx.update(connections).set({ writebackError: message, writebackErrorAt: sql`now()` }).where(eq(connections.id, connectionId));
}

/** The writes waiting (or being made) per connection of the company. */
export async function pendingWrites(db: Executor, companyId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ connectionId: writebackWork.connectionId, pending: count() })
    .from(writebackWork)
    .where(eq(writebackWork.companyId, companyId))
    .groupBy(writebackWork.connectionId);
  return new Map(rows.map((row) => [row.connectionId, row.pending]));
}
