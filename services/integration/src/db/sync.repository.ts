/**
 * The sync's state: its cursor and what the last one did, on the connection; the next sync to
 * run, as the connection's row of `sync_work` (the platform's leased work queue, so that one
 * replica runs it, renews its lease while it runs, and another runs it again if that replica
 * dies); and what each sync imported.
 */
import { and, eq, gt, inArray, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { syncsOnSchedule, type IntegrationId } from '../domain/integrations.js';
import { connections, imports, syncWork, type SyncSummary } from './schema.js';
import type { ConnectionRow } from './connections.repository.js';

type SyncedConnection = Pick<ConnectionRow, 'id' | 'companyId' | 'integrationId'>;

const leaseHeld = sql`${syncWork.leaseExpiresAt} > now()`;

/**
 * Makes the connection's sync due now (Sync now, autoSync turned on, connected again): queued, or
 * brought forward when it waits for its time. False while a sync of it runs.
 */
export async function syncDueNow(db: Executor, connection: SyncedConnection): Promise<boolean> {
  const queued = await db
    .insert(syncWork)
    .values({ connectionId: connection.id, companyId: connection.companyId, integrationId: connection.integrationId, dueAt: sql`now()` })
    .onConflictDoUpdate({ target: syncWork.connectionId, set: { dueAt: sql`now()` }, setWhere: sql`not coalesce(${leaseHeld}, false)` })
    .returning({ connectionId: syncWork.connectionId });
  return queued.length > 0;
}

/** autoSync turned off: the automatic sync waiting for its time is dropped; one asked for or running goes on. */
export async function dropScheduledSync(db: Executor, connectionId: string): Promise<void> {
  await db.delete(syncWork).where(and(eq(syncWork.connectionId, connectionId), gt(syncWork.dueAt, sql`now()`), or(sql`${syncWork.leaseExpiresAt} is null`, lte(syncWork.leaseExpiresAt, sql`now()`))));
}

/** The ids of the company's connections with a sync running now. */
export async function runningSyncs(db: Executor, companyId: string): Promise<Set<string>> {
  const rows = await db
    .select({ connectionId: syncWork.connectionId })
    .from(syncWork)
    .where(and(eq(syncWork.companyId, companyId), leaseHeld));
  return new Set(rows.map((row) => row.connectionId));
}

export async function saveSyncCursor(db: Executor, connection: SyncedConnection, cursor: string): Promise<void> {
  await db.update(connections).set({ syncCursor: cursor }).where(eq(connections.id, connection.id));
}

/**
 * Records the end of a sync, in the transaction that finishes its work: on success the last sync
 * date is stamped and the last error cleared; on failure the error is recorded with its time (the
 * cursor stays where the sync stopped), and the connection is marked expired when the vendor
 * refused its credentials. While it stays connected with autoSync on, the next sync is queued
 * `nextInMs` from now.
 */
export async function recordSyncEnd(
  tx: Executor,
  connection: SyncedConnection,
  outcome: { summary: SyncSummary | undefined; error?: string; expired?: boolean; nextInMs: number },
): Promise<void> {
  const [ended] = await tx
    .update(connections)
    .set({
      ...(outcome.summary ? { lastSyncSummary: outcome.summary } : {}),
      ...(outcome.error === undefined ? { lastSyncAt: sql`now()`, lastError: null, lastErrorAt: null } : { lastError: outcome.error, lastErrorAt: sql`now()` }),
      ...(outcome.expired ? { status: 'expired' } : {}),
    })
    .where(eq(connections.id, connection.id))
    .returning({ status: connections.status, settings: connections.settings });
  if (ended?.status !== 'connected' || !syncsOnSchedule(connection.integrationId, ended.settings)) return;
  await tx.insert(syncWork).values({
    connectionId: connection.id,
    companyId: connection.companyId,
    integrationId: connection.integrationId,
    dueAt: sql`now() + make_interval(secs => ${outcome.nextInMs / 1000})`,
  });
}

/** Of `externalIds`, those the company already imported from the integration. */
export async function importedExternalIds(db: Executor, companyId: string, integrationId: IntegrationId, externalIds: readonly string[]): Promise<Set<string>> {
  if (externalIds.length === 0) return new Set();
  const rows = await db
    .select({ externalId: imports.externalId })
    .from(imports)
    .where(and(eq(imports.companyId, companyId), eq(imports.integrationId, integrationId), inArray(imports.externalId, [...externalIds])));
  return new Set(rows.map((row) => row.externalId));
}

export async function recordImport(db: Executor, imported: Omit<typeof imports.$inferInsert, 'importedAt'>): Promise<void> {
  await db.insert(imports).values(imported).onConflictDoNothing();
}
