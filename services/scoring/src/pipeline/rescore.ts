/**
 * Scores again, in the background, the activities an engine since superseded evaluated, so that
 * lists, dashboards and recommendations show what the current engine says of them. The stored
 * transcript comes from transcription (GetTranscript); each activity goes through the same queue
 * and worker as a new one (pipeline/scoring-worker.ts), marked `rescore`: its evaluation replaces
 * the stored one, `scoring.activity-scored.v1` says `rescored` (analytics takes the newer one,
 * a CRM gets no second note) and nothing is charged.
 *
 * A few at a time: the next batch is queued once the last is done, so a call uploaded meanwhile
 * waits behind one batch at most. Progress goes to the log. An activity whose transcript is gone
 * (deleted meanwhile) is passed over; while transcription cannot be reached it waits and tries
 * again. A process that stops part-way starts over at its next start with what is still left.
 */
import type { Database } from '@parlance/platform/db/database';
import type { Logger } from '@parlance/platform/logger';
import type { Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { countEvaluationsByEngines, findEvaluationsByEngines } from '../db/evaluations.repository.js';
import { countPendingRescores, enqueueEvaluation } from '../db/pending-evaluations.repository.js';

export interface RescoreSettings {
  /** Activities queued at once. */
  batchSize: number;
  /** How often to look whether the batch is done. */
  pollMs: number;
  /** How long to wait before asking transcription again after it failed. */
  retryMs: number;
  /** How long after the start to begin: the process's other services (transcription, standalone) start after scoring. */
  startDelayMs: number;
}

const DEFAULT_RESCORE_SETTINGS: RescoreSettings = { batchSize: 20, pollMs: 500, retryMs: 5_000, startDelayMs: 3_000 };

export interface Rescore {
  /** Resolves when every superseded evaluation was queued and scored again, or on stop. */
  readonly done: Promise<{ rescored: number; passedOver: number }>;
  stop(): Promise<void>;
}

export function startRescore(deps: {
  db: Database<Record<string, unknown>>;
  /** Engine names whose evaluations are scored again. */
  superseded: readonly string[];
  /** The activity's stored transcript; undefined when transcription has none (deleted). */
  transcriptOf: (companyId: string, activityId: string, signal: AbortSignal) => Promise<Transcript | undefined>;
  /** Tells the workers there is work. */
  wake: () => void;
  logger: Logger;
  settings?: Partial<RescoreSettings>;
}): Rescore {
  const settings = { ...DEFAULT_RESCORE_SETTINGS, ...deps.settings };
  const { db, superseded, logger } = deps;
  const stopping = new AbortController();
  const { signal } = stopping;

  async function run(): Promise<{ rescored: number; passedOver: number }> {
    await pause(settings.startDelayMs);
    const total = await countEvaluationsByEngines(db, superseded);
    let rescored = 0;
    let passedOver = 0;
    if (total === 0) return { rescored, passedOver };
    logger.info({ total, engines: superseded }, `scoring ${total} activities again: their evaluations are by an engine since superseded`);
    let after: string | undefined;
    for (;;) {
      signal.throwIfAborted();
      const batch = await findEvaluationsByEngines(db, superseded, after, settings.batchSize);
      if (batch.length === 0) break;
      for (const outdated of batch) {
        const transcript = await fetchTranscript(outdated.companyId, outdated.activityId);
        if (!transcript) {
          passedOver += 1;
          continue;
        }
        // The team as scoring holds it now (team: null): a re-score judges by today's criteria.
        await enqueueEvaluation(db, { ...outdated, representativeName: '', transcript, team: null, rescore: true });
        rescored += 1;
      }
      after = batch.at(-1)!.activityId;
      deps.wake();
      while ((await countPendingRescores(db)) > 0) await pause(settings.pollMs);
      logger.info({ done: rescored + passedOver, total }, `scored again ${rescored + passedOver} of ${total}`);
    }
    logger.info({ rescored, passedOver }, `scored ${rescored} activities again${passedOver > 0 ? `; ${passedOver} had no transcript any more` : ''}`);
    return { rescored, passedOver };
  }

  async function fetchTranscript(companyId: string, activityId: string): Promise<Transcript | undefined> {
    for (;;) {
      try {
        return await deps.transcriptOf(companyId, activityId, signal);
      } catch (error) {
        signal.throwIfAborted();
        logger.warn({ activityId, reason: error instanceof Error ? error.message : String(error) }, 'transcription did not answer; the re-score waits and asks again');
        await pause(settings.retryMs);
      }
    }
  }

  const pause = (ms: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
    });

  const done = run().catch((error: unknown) => {
    if (!signal.aborted) logger.error({ err: error }, 'the re-score stopped; it starts over at the next start');
    return { rescored: 0, passedOver: 0 };
  });
  return {
    done,
    async stop() {
      stopping.abort();
      await done;
    },
  };
}
