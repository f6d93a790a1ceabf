/**
 * Workers that work through a leased queue (leased-work.ts): each claims the oldest free work,
 * renews its lease every third of it while the work runs, and looks again at once when woken or
 * every `pollMs` when idle. The work is abandoned — its signal aborts — when the workers stop (it
 * is handed back for the next worker), when its row is removed (its subject was deleted), or when
 * another worker took it over; what the service does with it (and recording the outcome, in the
 * transaction that finishes the work) is up to `process`. Work claimed more than `maxAttempts`
 * times keeps killing its worker and is handed to `giveUp` instead.
 */
import type { SQL } from 'drizzle-orm';
import type { Database, Executor } from '../db/database.js';
import type { Logger } from '../logger.js';
import { claimLeasedWork, deferLeasedWork, renewLeasedWork, type LeasedWork, type LeasedWorkQueue, type LeasedWorkTable } from './leased-work.js';

export interface LeasedWorkerSettings {
  /** Pieces of work done at once by this process. */
  workers: number;
  leaseMs: number;
  /** How often idle workers look for work another process queued. */
  pollMs: number;
  /** Claims after which the work is given up instead of tried again. */
  maxAttempts: number;
}

/** Why work was abandoned: the reason of the signal `process` gets. */
export class WorkAbandoned extends Error {
  constructor(
    readonly why: 'stopping' | 'removed' | 'taken',
    message: string,
  ) {
    super(message);
    this.name = 'WorkAbandoned';
  }
}

export interface LeasedWorkersOptions<TTable extends LeasedWorkTable> {
  /** For log lines: "transcription", "scoring". */
  name: string;
  db: Database<Record<string, unknown>>;
  queue: LeasedWorkQueue<TTable>;
  logger: Logger;
  settings: LeasedWorkerSettings;
  /** The work these workers take (a condition on the table's rows); all of it when absent. */
  claimable?: SQL;
  /** Said in the log when work is abandoned because its row was removed. */
  removedMessage?: string;
  /** Runs in the claim's transaction for work within its attempts, e.g. to announce that it started. */
  onClaimed?(tx: Executor, work: LeasedWork<TTable>): Promise<void>;
  /**
   * Does the work and records its outcome. When `signal` aborts (its reason is a WorkAbandoned)
   * it should record nothing and reject soon, e.g. with the signal's reason.
   */
  process(work: LeasedWork<TTable>, signal: AbortSignal): Promise<void>;
  /** Records the failure of work that was interrupted `interruptions` times. */
  giveUp(work: LeasedWork<TTable>, interruptions: number): Promise<void>;
}

export interface LeasedWorkers {
  /** Look for work now (after some was queued). */
  wake(): void;
  /** Abandons the work in hand, handing it back to be claimed again at once, and stops. */
  stop(): Promise<void>;
}

export function startLeasedWorkers<TTable extends LeasedWorkTable>(options: LeasedWorkersOptions<TTable>): LeasedWorkers {
  const { db, queue, logger, settings, name } = options;
  const stopping = new AbortController();
  const waiters = new Set<() => void>();

  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, settings.pollMs);
      function done() {
        clearTimeout(timer);
        waiters.delete(done);
        stopping.signal.removeEventListener('abort', done);
        resolve();
      }
      waiters.add(done);
      stopping.signal.addEventListener('abort', done, { once: true });
    });

  const claim = () =>
    db.transaction(async (tx) => {
      const work = await claimLeasedWork(tx, queue, settings.leaseMs, options.claimable);
      if (work && options.onClaimed && (work as { attempts: number }).attempts <= settings.maxAttempts) await options.onClaimed(tx, work);
      return work;
    });

  const loop = async () => {
    while (!stopping.signal.aborted) {
      let work: LeasedWork<TTable> | undefined;
      try {
        work = await claim();
      } catch (error) {
        if (stopping.signal.aborted) return;
        logger.warn({ err: error }, `could not claim ${name} work; will try again`);
      }
      if (!work) {
        await idle();
        continue;
      }
      await run(work);
    }
  };

  async function run(work: LeasedWork<TTable>): Promise<void> {
    const claim = queue.claimOf(work);
    const log = logger.child({ workKey: claim.key, attempt: claim.attempts });
    if (claim.attempts > settings.maxAttempts) {
      await options.giveUp(work, claim.attempts - 1).catch((error: unknown) => log.error({ err: error }, `could not give up ${name} work; it will be claimed again`));
      return;
    }
    const cancel = new AbortController();
    const onStop = () => cancel.abort(new WorkAbandoned('stopping', 'The process is stopping.'));
    // Claimed as the workers were told to stop: hand it back rather than start it.
    if (stopping.signal.aborted) onStop();
    else stopping.signal.addEventListener('abort', onStop, { once: true });
    const renewal = setInterval(() => {
      renewLeasedWork(db, queue, claim, settings.leaseMs)
        .then((lease) => {
          if (lease === 'removed') cancel.abort(new WorkAbandoned('removed', options.removedMessage ?? 'The work was removed from the queue.'));
          if (lease === 'taken') cancel.abort(new WorkAbandoned('taken', 'Another worker took the work over after this lease ran out.'));
        })
        .catch((error: unknown) => log.warn({ err: error }, `could not renew the ${name} lease`));
    }, settings.leaseMs / 3);
    try {
      cancel.signal.throwIfAborted();
      await options.process(work, cancel.signal);
    } catch (error) {
      if (cancel.signal.aborted) {
        // Removed: nothing to record. Taken over: the other worker does it. Stopping: handed back
        // at once and uncounted, so a restart or a deploy neither delays the work by a lease nor
        // counts against its attempts (a process that dies hands nothing back: its lease runs out).
        const reason = cancel.signal.reason as WorkAbandoned;
        log.info({ reason: reason.message }, `${name} work abandoned`);
        if (reason.why === 'stopping') {
          await deferLeasedWork(db, queue, claim, 0).catch((handBackError: unknown) =>
            log.warn({ err: handBackError }, `could not hand ${name} work back; it is claimed again when its lease runs out`),
          );
        }
      } else {
        // The service records its own failures, so an error that gets here left the outcome
        // unrecorded: the lease runs out and the work is claimed again.
        log.error({ err: error }, `could not record the outcome of ${name} work; it will be claimed again`);
      }
    } finally {
      clearInterval(renewal);
      stopping.signal.removeEventListener('abort', onStop);
    }
  }

  const loops = Array.from({ length: settings.workers }, () => loop());
  return {
    wake() {
      for (const waiter of [...waiters]) waiter();
    },
    async stop() {
      stopping.abort();
      await Promise.allSettled(loops);
    },
  };
}
