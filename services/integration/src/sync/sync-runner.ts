/**
 * Runs the syncs: the automatic ones on a schedule kept in the database (so it survives
 * restarts), and the ones a manager asks for with "Sync now". Every replica ticks; a sync runs on
 * the one replica that claims it (sync.repository.ts), and a replica runs one sync at a time, so
 * a long catch-up never piles up work. A failed sync records its reason with the time, for the
 * integrations screen, and the next one resumes from the cursor; a refused credential marks the
 * connection expired, which stops its syncing until it is connected again.
 */
import type { Database } from '@parlance/platform/db/database';
import { runWithRequestContext } from '@parlance/platform/grpc/request-context';
import { GrpcCallError } from '@parlance/platform/grpc/status-mapping';
import type { Logger } from '@parlance/platform/logger';
import { markExpired } from '../db/connections.repository.js';
import { claimDueSync, claimSyncNow, finishSync, releaseSync, renewSyncClaim, type ClaimedSync } from '../db/sync.repository.js';
import { INTEGRATION_MESSAGES, type IntegrationId } from '../domain/integrations.js';
import { VendorHttpError } from '../vendors/vendor-http.js';
import { emptyCounts, type SyncCounts } from './close-sync.js';

/** How long a claim lasts unless renewed; a window's work is far shorter. */
export const SYNC_CLAIM_MS = 10 * 60_000;

export interface SyncRunnerOptions {
  db: Database<Record<string, unknown>>;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Between the end of one automatic sync and the next. */
  intervalMs: number;
  /** How often a replica looks for a due sync. */
  tickMs: number;
  /** Runs the claimed Close sync; calls `renew` after each window and stops when it answers false. */
  syncClose: (claim: ClaimedSync, counts: SyncCounts, renew: () => Promise<boolean>, signal: AbortSignal) => Promise<void>;
}

export interface SyncRunner {
  /** Starts the automatic syncs. */
  start(): void;
  /** Starts the company's sync now, in the background; false when one is already running (or it is not connected). */
  syncNow(companyId: string, integrationId: IntegrationId): Promise<boolean>;
  /** Resolves when no sync is running (tests wait for a "Sync now" with it). */
  idle(): Promise<void>;
  /** Stops ticking, stops the running sync after the call in hand, and releases its claim. */
  stop(): Promise<void>;
}

export function syncRunner(options: SyncRunnerOptions): SyncRunner {
  const { db, logger } = options;
  const stopping = new AbortController();
  const running = new Set<Promise<void>>();
  let ticker: NodeJS.Timeout | undefined;
  let ticking = false;

  async function run(claim: ClaimedSync): Promise<void> {
    const counts = emptyCounts();
    const renew = () => renewSyncClaim(db, claim, SYNC_CLAIM_MS);
    const started = performance.now();
    try {
      await options.syncClose(claim, counts, renew, stopping.signal);
      await finishSync(db, claim, { summary: summaryOf(counts), nextInMs: options.intervalMs });
      logger.info({ companyId: claim.companyId, integrationId: claim.integrationId, ...summaryOf(counts), ms: Math.round(performance.now() - started) }, 'sync finished');
    } catch (error) {
      if (stopping.signal.aborted) {
        await releaseSync(db, claim);
        return;
      }
      const failure = syncFailure(error);
      if (failure.expired) await markExpired(db, claim.companyId, claim.integrationId);
      await finishSync(db, claim, { summary: summaryOf(counts), error: failure.message, nextInMs: options.intervalMs });
      logger.warn({ err: error, companyId: claim.companyId, integrationId: claim.integrationId, ...summaryOf(counts) }, 'sync stopped; the next one resumes from its cursor');
    }
  }

  function track(claim: ClaimedSync): Promise<void> {
    // Scheduled or asked for, a sync runs as the person who connected the integration, in a
    // context of its own: not the asking request's, whose deadline is seconds away.
    const context = { companyId: claim.companyId, ...(claim.actingUserId ? { userId: claim.actingUserId } : {}) };
    const done = runWithRequestContext(context, () => run(claim))
      .catch((error: unknown) => logger.error({ err: error, companyId: claim.companyId, integrationId: claim.integrationId }, 'could not record the end of a sync; its claim runs out and it is taken up again'))
      .finally(() => running.delete(done));
    running.add(done);
    return done;
  }

  async function tick(): Promise<void> {
    if (ticking || running.size > 0 || stopping.signal.aborted) return;
    ticking = true;
    try {
      const claim = await claimDueSync(db, 'close-crm', 'autoSync', SYNC_CLAIM_MS);
      if (claim) await track(claim);
    } catch (error) {
      logger.warn({ err: error }, 'could not look for due syncs; trying again at the next tick');
    } finally {
      ticking = false;
    }
  }

  return {
    start() {
      ticker = setInterval(() => void tick(), options.tickMs);
      ticker.unref();
      void tick();
    },

    async syncNow(companyId, integrationId) {
      const claim = await claimSyncNow(db, companyId, integrationId, SYNC_CLAIM_MS);
      if (!claim) return false;
      void track(claim);
      return true;
    },

    async idle() {
      while (running.size > 0) await Promise.all(running);
    },

    async stop() {
      clearInterval(ticker);
      stopping.abort();
      await Promise.all(running);
    },
  };
}

function summaryOf(counts: SyncCounts) {
  const skipped = Object.values(counts.skipped).reduce((sum, count) => sum + count, 0);
  return { imported: counts.imported, alreadyImported: counts.alreadyImported, skipped, refused: counts.refused };
}

/** Why a sync stopped, in words for the integrations screen; `expired` when the vendor refused the credentials. */
export function syncFailure(error: unknown): { message: string; expired: boolean } {
  if (error instanceof VendorHttpError) {
    if (error.kind === 'unauthorized' || error.kind === 'invalid_grant') return { message: INTEGRATION_MESSAGES.closeKeyRevoked, expired: true };
    return { message: INTEGRATION_MESSAGES.syncStopped(error.message), expired: false };
  }
  // Identity answers members only: the person who connected it has left the company.
  if (error instanceof GrpcCallError && error.kind === 'permission-denied') return { message: INTEGRATION_MESSAGES.connectorLeft, expired: true };
  if (error instanceof GrpcCallError) return { message: INTEGRATION_MESSAGES.syncStopped(`Parlance could not take the calls in (${error.message})`), expired: false };
  return { message: INTEGRATION_MESSAGES.syncStopped('an unexpected error'), expired: false };
}
