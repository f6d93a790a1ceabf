/**
 * The sync's state, kept on the connection: its cursor, when it is next due, and the claim a
 * replica holds while it runs one. A claim is a token with a time limit: a replica that dies
 * mid-sync lets it run out, and the next claim resumes from the cursor. Every write a sync makes
 * names its token, so a replica whose claim ran out and was taken over changes nothing after.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import type { IntegrationId } from '../domain/integrations.js';
import { connections, imports } from './schema.js';

/** A sync claimed by this replica, with what it needs to run. */
export interface ClaimedSync {
  companyId: string;
  integrationId: IntegrationId;
  token: string;
  /** Who the sync acts as: the user who connected the integration. */
  actingUserId: string | null;
  credentials: string;
  settings: Record<string, unknown>;
  syncCursor: string | null;
}

export interface SyncSummary {
  imported: number;
  alreadyImported: number;
  skipped: number;
  refused: number;
}

const claimed = {
  companyId: connections.companyId,
  integrationId: connections.integrationId,
  token: connections.syncClaimToken,
  actingUserId: connections.connectedByUserId,
  credentials: connections.credentials,
  settings: connections.settings,
  syncCursor: connections.syncCursor,
};

/**
 * Claims one connection whose automatic sync is due, if any: connected, with `settingFlag` on in
 * its settings, due, and claimed by nobody (or by a replica whose claim ran out). Rows another
 * replica is claiming at this moment are passed over (SKIP LOCKED), so two replicas never claim
 * the same one.
 */
export async function claimDueSync(db: Executor, integrationId: IntegrationId, settingFlag: string, claimMs: number): Promise<ClaimedSync | undefined> {
  const due = db
    .select({ companyId: connections.companyId, integrationId: connections.integrationId })
    .from(connections)
    .where(
      and(
        eq(connections.integrationId, integrationId),
        eq(connections.status, 'connected'),
        sql`(${connections.settings} ->> ${settingFlag}) = 'true'`,
        sql`coalesce(${connections.syncDueAt}, '-infinity') <= now()`,
        sql`coalesce(${connections.syncClaimedUntil}, '-infinity') < now()`,
      ),
    )
    .orderBy(sql`${connections.syncDueAt} nulls first`)
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(connections)
    .set({ syncClaimToken: randomUUID(), syncClaimedUntil: sql`now() + make_interval(secs => ${claimMs / 1000})` })
    .where(sql`(${connections.companyId}, ${connections.integrationId}) = (${due})`)
    .returning(claimed);
  return row && asClaimed(row);
}

/** Claims the company's connection for a sync asked for now, unless one is running; undefined when not connected or already syncing. */
export async function claimSyncNow(db: Executor, companyId: string, integrationId: IntegrationId, claimMs: number): Promise<ClaimedSync | undefined> {
  const [row] = await db
    .update(connections)
    .set({ syncClaimToken: randomUUID(), syncClaimedUntil: sql`now() + make_interval(secs => ${claimMs / 1000})` })
    .where(
      and(
        eq(connections.companyId, companyId),
        eq(connections.integrationId, integrationId),
        eq(connections.status, 'connected'),
        sql`coalesce(${connections.syncClaimedUntil}, '-infinity') < now()`,
      ),
    )
    .returning(claimed);
  return row && asClaimed(row);
}

/** Extends the claim; false when it is no longer this sync's (taken over, or the connection is gone). */
export async function renewSyncClaim(db: Executor, sync: ClaimedSync, claimMs: number): Promise<boolean> {
  const rows = await db
    .update(connections)
    .set({ syncClaimedUntil: sql`now() + make_interval(secs => ${claimMs / 1000})` })
    .where(claimedBy(sync))
    .returning({ companyId: connections.companyId });
  return rows.length > 0;
}

export async function saveSyncCursor(db: Executor, sync: ClaimedSync, cursor: string): Promise<void> {
  await db.update(connections).set({ syncCursor: cursor }).where(claimedBy(sync));
}

/**
 * Ends the sync and releases the claim: on success the last sync date is stamped and the last
 * error cleared; on failure the error is recorded with its time, the cursor staying where the
 * sync stopped. Either way the next automatic sync is due `nextInMs` from now.
 */
export async function finishSync(db: Executor, sync: ClaimedSync, outcome: { summary: SyncSummary; error?: string; nextInMs: number }): Promise<void> {
  await db
    .update(connections)
    .set({
      syncClaimToken: null,
      syncClaimedUntil: null,
      syncDueAt: sql`now() + make_interval(secs => ${outcome.nextInMs / 1000})`,
      lastSyncSummary: outcome.summary,
      ...(outcome.error === undefined ? { lastSyncAt: sql`now()`, lastError: null, lastErrorAt: null } : { lastError: outcome.error, lastErrorAt: sql`now()` }),
    })
    .where(claimedBy(sync));
}

/** Lets go of a sync stopped with its replica: due again at once, so whichever replica runs next resumes it from the cursor. */
export async function releaseSync(db: Executor, sync: ClaimedSync): Promise<void> {
  await db.update(connections).set({ syncClaimToken: null, syncClaimedUntil: null, syncDueAt: sql`now()` }).where(claimedBy(sync));
}

function asClaimed(row: { companyId: string; integrationId: string; token: string | null; actingUserId: string | null; credentials: string; settings: Record<string, unknown>; syncCursor: string | null }): ClaimedSync {
  return { ...row, integrationId: row.integrationId as IntegrationId, token: row.token! };
}

function claimedBy(sync: ClaimedSync) {
  return and(eq(connections.companyId, sync.companyId), eq(connections.integrationId, sync.integrationId), eq(connections.syncClaimToken, sync.token));
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
