/**
 * Runs the syncs queued in `sync_work` (db/sync.repository.ts): automatic ones on the schedule
 * autoSync keeps there, so it survives restarts, and the ones a manager asks for with "Sync
 * now". They run on the platform's leased workers (platform/work/leased-workers.ts): one replica
 * takes each, keeps its lease while it runs, hands it back when stopping, and another takes it up
 * if that replica dies; disconnecting removes the work and stops a sync in hand. A failed sync
 * records its reason with the time, for the integrations screen, and the next one resumes from
 * the cursor; a refused credential marks the connection expired, which stops its syncing until it
 * is connected again.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '@parlance/platform/db/database';
import { runWithRequestContext } from '@parlance/platform/grpc/request-context';
import { GrpcCallError } from '@parlance/platform/grpc/status-mapping';
import type { Logger } from '@parlance/platform/logger';
import { recordLeasedOutcome, type LeasedWork } from '@parlance/platform/work/leased-work';
import { startLeasedWorkers } from '@parlance/platform/work/leased-workers';
import { findConnection, type ConnectionRow } from '../db/connections.repository.js';
import { syncQueue, syncWork, type SyncSummary } from '../db/schema.js';
import { recordSyncEnd, syncDueNow } from '../db/sync.repository.js';
import { credentialsRefused, INTEGRATION_MESSAGES, type IntegrationId } from '../domain/integrations.js';
import { refusesCredentials, VendorHttpError } from '../vendors/vendor-http.js';
import { emptyCounts, type SyncCounts } from './import-call.js';

/** A sync's lease, renewed every third of it while the sync runs: a dead replica's sync is taken up again within a minute. */
export const SYNC_LEASE_MS = 60_000;
/** A sync that kept its replica from finishing this many times is given up, and says so. */
const SYNC_MAX_ATTEMPTS = 3;

export interface SyncRunnerOptions {
  db: Database<Record<string, unknown>>;
  logger: Logger;
  /** Syncs run at once by this process; 0 runs none (a replica that only answers). */
  workers: number;
  /** Between the end of one automatic sync and the next. */
  intervalMs: number;
  /** How often an idle replica looks for a due sync. */
  pollMs: number;
  /** Runs a sync of the connection (Close's or HubSpot's); stops soon after `signal` aborts. */
  sync: (connection: ConnectionRow, counts: SyncCounts, signal: AbortSignal) => Promise<void>;
}

export interface SyncRunner {
  /** Queues the connection's sync to run now; false when one is already running. */
  syncNow(connection: Pick<ConnectionRow, 'id' | 'companyId' | 'integrationId'>): Promise<boolean>;
  /** Hands the sync in hand back (it resumes from its cursor elsewhere or at the next start) and stops. */
  stop(): Promise<void>;
}

type SyncWork = LeasedWork<typeof syncWork>;

export function syncRunner(options: SyncRunnerOptions): SyncRunner {
  const { db, logger } = options;
  const connectionOf = (work: SyncWork) => ({ id: work.connectionId, companyId: work.companyId, integrationId: work.integrationId });

  async function run(work: SyncWork, signal: AbortSignal): Promise<void> {
    const connection = await findConnection(db, work.companyId, work.integrationId as IntegrationId);
    if (connection?.status !== 'connected') {
      await recordLeasedOutcome(db, syncQueue, work);
      return;
    }
    const counts = emptyCounts();
    const started = performance.now();
    // A sync acts as the person who connected the integration: identity answers a company's members only.
    const context = { companyId: connection.companyId, ...(connection.connectedByUserId ? { userId: connection.connectedByUserId } : {}) };
    let failure: { message: string; expired: boolean } | undefined;
    try {
      await runWithRequestContext(context, () => options.sync(connection, counts, signal));
    } catch (error) {
      if (signal.aborted) throw error;
      failure = syncFailure(error, connection.integrationId);
      logger.warn({ err: error, companyId: connection.companyId, integrationId: connection.integrationId, ...summaryOf(counts) }, 'sync stopped; the next one resumes from its cursor');
    }
    await recordLeasedOutcome(db, syncQueue, work, (tx) =>
      recordSyncEnd(tx, connection, { summary: summaryOf(counts), error: failure?.message, expired: failure?.expired, nextInMs: options.intervalMs }),
    );
    if (!failure) logger.info({ companyId: connection.companyId, integrationId: connection.integrationId, ...summaryOf(counts), ms: Math.round(performance.now() - started) }, 'sync finished');
  }

  const workers =
    options.workers > 0
      ? startLeasedWorkers({
          name: 'sync',
          db,
          queue: syncQueue,
          logger,
          settings: { workers: options.workers, leaseMs: SYNC_LEASE_MS, pollMs: options.pollMs, maxAttempts: SYNC_MAX_ATTEMPTS },
          claimable: sql`${syncWork.dueAt} <= now()`,
          removedMessage: 'The integration was disconnected.',
          process: run,
          giveUp: (work, interruptions) =>
            recordLeasedOutcome(db, syncQueue, work, (tx) =>
              recordSyncEnd(tx, connectionOf(work), { summary: undefined, error: INTEGRATION_MESSAGES.syncStopped(`it was interrupted ${interruptions} times`), nextInMs: options.intervalMs }),
            ).then(() => undefined),
        })
      : undefined;

  return {
    async syncNow(connection) {
      const queued = await syncDueNow(db, connection);
      if (queued) workers?.wake();
      return queued;
    },
    stop: async () => workers?.stop(),
  };
}

function summaryOf(counts: SyncCounts): SyncSummary {
  const skipped = Object.values(counts.skipped).reduce((sum, count) => sum + count, 0);
  return { imported: counts.imported, alreadyImported: counts.alreadyImported, skipped, refused: counts.refused };
}

/** Why a sync stopped, in words for the integrations screen; `expired` when the credentials are no longer good. */
export function syncFailure(error: unknown, integrationId: string): { message: string; expired: boolean } {
  if (refusesCredentials(error)) return { message: credentialsRefused(integrationId), expired: true };
  if (error instanceof VendorHttpError) return { message: INTEGRATION_MESSAGES.syncStopped(error.message), expired: false };
  // Identity answers members only: the person who connected it has left the company.
  if (error instanceof GrpcCallError && error.kind === 'permission-denied') return { message: INTEGRATION_MESSAGES.connectorLeft, expired: true };
  if (error instanceof GrpcCallError) return { message: INTEGRATION_MESSAGES.syncStopped(`Parlance could not take the calls in (${error.message})`), expired: false };
  return { message: INTEGRATION_MESSAGES.syncStopped('an unexpected error'), expired: false };
}
