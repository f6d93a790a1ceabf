/**
 * The outbox relay: publishes a service's outbox rows to the bus, in id order, and marks them.
 *
 * Loop: take up to `batchSize` unpublished rows in id order, `bus.publish` them (each with an
 * `event-id` header), and record `published_at`; repeat while batches come back full; then sleep until
 * a NOTIFY from `enqueue` (delivered at commit) or `pollIntervalMs` passes, whichever is first.
 * The poll is the safety net: a notification can be lost while the listener reconnects.
 *
 * Delivery is at least once. A crash after the bus accepted a batch and before `published_at`
 * committed publishes that batch again on restart; consumers deduplicate by event id (inbox.ts).
 *
 * Postgres: one transaction per batch claims the rows (`FOR UPDATE SKIP LOCKED`) and sets their
 * `published_at` in a single `UPDATE ... RETURNING`, publishes them, and commits only after the
 * bus accepted them (a failed publish rolls the mark back). Several relays could share one outbox
 * without publishing a row twice. Per-key
 * order is only guaranteed with ONE relay per outbox, which is how services are deployed: with
 * two, relay B may publish rows 501-1000 before relay A has finished 1-500. Also note that ids
 * are taken at insert and transactions commit in their own order, so two concurrent transactions
 * writing events for one key are published in commit order; causally ordered writes (the second
 * transaction started after the first committed, or waited on its row locks) keep their order.
 *
 * PGlite: one connection shared by every service of the process, and a transaction holds it
 * exclusively. Holding one across `bus.publish` would deadlock whenever publishing waits on a
 * handler that itself uses the database (the in-memory bus), so on PGlite the batch is read,
 * published, then marked, without a transaction around the publish. One process owns a PGlite
 * data dir and runs one relay per outbox, so there is nobody to skip-lock against. PGlite runs no
 * autovacuum either, so the relay vacuums its outbox itself every `PGLITE_VACUUM_EVERY` rows:
 * otherwise every published row leaves a dead entry in the unpublished-rows index that each later
 * batch read visits: 0.3 ms per read became 11 ms after the 2,200 activities of the demo data.
 *
 * Published rows older than `retentionMs` are purged every `purgeIntervalMs`.
 */
import { asc, inArray, isNull, lt } from 'drizzle-orm';
import type { EventBus } from '../bus/event-bus.js';
import { PGLITE_VACUUM_EVERY, vacuumStatement, type DatabaseHandle, type Executor } from '../db/database.js';
import type { Logger } from '../logger.js';
import { busMessageFor, outboxChannel } from './enqueue.js';
import type { OutboxTable } from './tables.js';

export interface OutboxRelayOptions {
  /** The service's database handle (the relay needs its driver and, on Postgres, LISTEN). */
  database: DatabaseHandle<Record<string, unknown>>;
  outbox: OutboxTable;
  bus: Pick<EventBus, 'publish'>;
  /** Rows per batch (per publish call and per transaction). Default 500. */
  batchSize?: number;
  /** Longest sleep between checks when no notification arrives. Default 1000 ms. */
  pollIntervalMs?: number;
  /** How long published rows are kept. Default 7 days. */
  retentionMs?: number;
  /** How often the purge runs. Default 1 hour (and once shortly after start). */
  purgeIntervalMs?: number;
  /** Longest wait after repeated failures (bus or database down). Default 30 s. */
  maxBackoffMs?: number;
  logger?: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
}

export interface OutboxRelay {
  /** Finishes the batch in flight, then stops listening and polling. */
  stop(): Promise<void>;
  /** Checks for rows now instead of at the next notification or poll. */
  wake(): void;
  /** Rows this relay has published and marked since it started. */
  readonly published: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const PURGE_CHUNK = 5_000;

export async function startOutboxRelay(options: OutboxRelayOptions): Promise<OutboxRelay> {
  const { database, outbox, bus, logger } = options;
  const batchSize = options.batchSize ?? 500;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const retentionMs = options.retentionMs ?? 7 * DAY_MS;
  const purgeIntervalMs = options.purgeIntervalMs ?? 60 * 60 * 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const db: Executor = database.db;
  const channel = outboxChannel(outbox);
  const vacuumOutbox = vacuumStatement(outbox);

  let stopping = false;
  let wakeRequested = false;
  let wakeUp: (() => void) | undefined;
  let published = 0;
  let publishedSinceVacuum = 0;
  let failures = 0;
  // First purge soon after start, not on the hot path of the first batches.
  let nextPurgeAt = Date.now() + Math.min(purgeIntervalMs, 60_000);

  const wake = () => {
    wakeRequested = true;
    wakeUp?.();
  };

  /** Sleeps `ms`; a notification cuts it short unless `wakeable` is false (failure backoff). */
  const sleep = (ms: number, wakeable = true) =>
    new Promise<void>((resolve) => {
      if (stopping || (wakeable && wakeRequested)) return resolve();
      const timer = setTimeout(done, ms);
      const onStop = () => stopping && done();
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = wakeable ? done : onStop;
    });

  const selectBatch = (q: Executor) =>
    q.select({ id: outbox.id }).from(outbox).where(isNull(outbox.publishedAt)).orderBy(asc(outbox.id)).limit(batchSize);

  const markPublished = (q: Executor, ids: number[]) =>
    q.update(outbox).set({ publishedAt: new Date() }).where(inArray(outbox.id, ids));

  async function relayBatch(): Promise<number> {
    if (database.driver === 'postgres') {
      return db.transaction(async (tx) => {
        // Claim and mark in one statement (one row write instead of a lock and then an update);
        // the mark only commits if the publish below succeeds.
        const claimed = selectBatch(tx).for('update', { skipLocked: true });
        const rows = await tx
          .update(outbox)
          .set({ publishedAt: new Date() })
          .where(inArray(outbox.id, claimed))
          .returning();
        if (rows.length === 0) return 0;
        rows.sort((a, b) => a.id - b.id);
        await bus.publish(rows.map(busMessageFor));
        return rows.length;
      });
    }
    const rows = await db.select().from(outbox).where(isNull(outbox.publishedAt)).orderBy(asc(outbox.id)).limit(batchSize);
    if (rows.length === 0) return 0;
    await bus.publish(rows.map(busMessageFor));
    await markPublished(db, rows.map((r) => r.id));
    publishedSinceVacuum += rows.length;
    if (publishedSinceVacuum >= PGLITE_VACUUM_EVERY) {
      publishedSinceVacuum = 0;
      await db.execute(vacuumOutbox);
    }
    return rows.length;
  }

  async function purge(): Promise<void> {
    const cutoff = new Date(Date.now() - retentionMs);
    let total = 0;
    for (;;) {
      const old = db.select({ id: outbox.id }).from(outbox).where(lt(outbox.publishedAt, cutoff)).limit(PURGE_CHUNK);
      const deleted = await db.delete(outbox).where(inArray(outbox.id, old)).returning({ id: outbox.id });
      total += deleted.length;
      if (deleted.length < PURGE_CHUNK || stopping) break;
    }
    if (total > 0) logger?.info({ channel, purged: total }, 'outbox: purged published rows past retention');
  }

  let unlisten: (() => Promise<void>) | undefined;
  try {
    unlisten = await database.listen(channel, wake);
  } catch (error) {
    logger?.warn({ err: error, channel }, 'outbox: LISTEN failed, relying on polling');
  }

  async function run(): Promise<void> {
    while (!stopping) {
      wakeRequested = false;
      let count: number;
      try {
        count = await relayBatch();
        published += count;
        failures = 0;
      } catch (error) {
        failures += 1;
        const backoff = Math.min(maxBackoffMs, pollIntervalMs * 2 ** Math.min(failures - 1, 10));
        logger?.error({ err: error, channel, failures, retryInMs: backoff }, 'outbox: relaying a batch failed');
        await sleep(backoff, false);
        continue;
      }
      if (count === batchSize) continue;
      if (Date.now() >= nextPurgeAt) {
        nextPurgeAt = Date.now() + purgeIntervalMs;
        await purge().catch((error: unknown) => logger?.warn({ err: error, channel }, 'outbox: purge failed'));
        continue;
      }
      await sleep(pollIntervalMs);
    }
  }

  const loop = run();

  return {
    async stop() {
      stopping = true;
      wakeUp?.();
      await loop;
      await unlisten?.().catch(() => {});
    },
    wake,
    get published() {
      return published;
    },
  };
}
