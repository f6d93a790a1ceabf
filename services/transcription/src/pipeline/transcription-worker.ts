/**
 * Works through the pending activities: claims one (announcing that it started), reads its media
 * from ingest, transcribes it, and in one transaction stores the transcript, removes the work and
 * announces `transcription.transcript-ready.v1` — or announces the failure with a reason a person
 * can read. A claim is a lease renewed while the work runs, so the work of a process that died is
 * picked up again by another (or by this one after a restart); a deleted activity's work is dropped.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Database } from '@parlance/platform/db/database';
import { outboxMessageFor } from '@parlance/platform/events/event-envelope';
import { GrpcCallError } from '@parlance/platform/grpc/status-mapping';
import type { Logger } from '@parlance/platform/logger';
import { enqueue } from '@parlance/platform/outbox/enqueue';
import { TranscriptionFailed, TranscriptionStarted, TranscriptReady } from '@parlance/proto/parlance/transcription/v1/events';
import { activityKindOf } from '../activity-kinds.js';
import { claimWork, finishWork, renewLease, type PendingWork } from '../db/pending-work.repository.js';
import { outbox } from '../db/schema.js';
import { saveTranscript } from '../db/transcripts.repository.js';
import { SpeechError } from '../speech/speech-error.js';
import { transcribeRecording, transcribeText, type TranscribeDependencies, type TranscriptDraft } from './transcribe-activity.js';

export const TRANSCRIPTION_STARTED = 'transcription.transcription-started.v1';
export const TRANSCRIPT_READY = 'transcription.transcript-ready.v1';
export const TRANSCRIPTION_FAILED = 'transcription.transcription-failed.v1';

/** Where an activity's media comes from: ingest's ReadMedia. */
export type MediaSource = (companyId: string, activityId: string, signal: AbortSignal) => AsyncIterable<Uint8Array>;

export interface WorkerSettings {
  /** Activities transcribed at once by this process. */
  workers: number;
  leaseMs: number;
  /** How often idle workers look for work another process queued. */
  pollMs: number;
  /** Claims after which the work fails instead of being tried again (it keeps killing its worker). */
  maxAttempts: number;
}

export const DEFAULT_WORKER_SETTINGS: WorkerSettings = { workers: 2, leaseMs: 120_000, pollMs: 1_000, maxAttempts: 3 };

export const WORKER_REASONS = {
  interrupted: (attempts: number) => `transcription was interrupted ${attempts} times; the file may be too demanding to process`,
  unexpected: 'an unexpected error occurred while transcribing',
} as const;

export interface TranscriptionWorker {
  /** Look for work now (after an activity was queued). */
  wake(): void;
  stop(): Promise<void>;
}

export function startTranscriptionWorker(deps: {
  db: Database<Record<string, unknown>>;
  media: MediaSource;
  transcribe: TranscribeDependencies;
  logger: Logger;
  settings?: Partial<WorkerSettings>;
}): TranscriptionWorker {
  const settings = { ...DEFAULT_WORKER_SETTINGS, ...deps.settings };
  const { db, logger } = deps;
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
  const wakeUp = () => {
    for (const waiter of [...waiters]) waiter();
  };

  const claim = () =>
    db.transaction(async (tx) => {
      const work = await claimWork(tx, settings.leaseMs);
      if (!work) return undefined;
      if (work.attempts <= settings.maxAttempts) {
        const payload = TranscriptionStarted.encode({ activityId: work.activityId, jobId: work.jobId }).finish();
        await enqueue(tx, outbox, [outboxMessageFor({ type: TRANSCRIPTION_STARTED, companyId: work.companyId, producer: 'transcription', payload })]);
      }
      return work;
    });

  const loop = async () => {
    while (!stopping.signal.aborted) {
      let work: PendingWork | undefined;
      try {
        work = await claim();
      } catch (error) {
        if (stopping.signal.aborted) return;
        logger.warn({ err: error }, 'could not claim transcription work; will try again');
      }
      if (!work) {
        await idle();
        continue;
      }
      await process(work).catch((error: unknown) => logger.error({ err: error, activityId: work.activityId }, 'could not record the outcome of a transcription; the work will be claimed again'));
    }
  };

  async function process(work: PendingWork): Promise<void> {
    const log = logger.child({ activityId: work.activityId, jobId: work.jobId });
    if (work.attempts > settings.maxAttempts) {
      await fail(work, WORKER_REASONS.interrupted(work.attempts - 1), log);
      return;
    }
    const cancel = new AbortController();
    const onStop = () => cancel.abort(new Error('The process is stopping.'));
    stopping.signal.addEventListener('abort', onStop, { once: true });
    const renewal = setInterval(() => {
      renewLease(db, work.activityId, settings.leaseMs)
        .then((held) => {
          if (!held) cancel.abort(new Error('The activity was deleted.'));
        })
        .catch((error: unknown) => log.warn({ err: error }, 'could not renew the transcription lease'));
    }, settings.leaseMs / 3);
    const started = performance.now();
    try {
      const draft = await transcribe(work, cancel.signal);
      await complete(work, draft);
      log.info({ engine: draft.engine, durationMs: draft.durationMs, tookMs: Math.round(performance.now() - started) }, 'transcribed');
    } catch (error) {
      if (cancel.signal.aborted) {
        // Deleted: nothing to announce. Stopping: the lease runs out and the work is claimed again.
        log.info({ reason: (cancel.signal.reason as Error).message }, 'transcription abandoned');
      } else if (error instanceof SpeechError) {
        await fail(work, error.message, log);
      } else if (error instanceof GrpcCallError && error.kind === 'unavailable') {
        // Ingest is briefly unreachable or too slow (a deadline passed): the lease runs out and
        // the work is tried again.
        log.warn({ err: error }, 'could not read the media; will try again');
      } else if (error instanceof GrpcCallError && error.kind === 'not-found') {
        log.info('the activity is gone; dropping its work');
        await db.transaction((tx) => finishWork(tx, work.companyId, work.activityId));
      } else {
        log.error({ err: error }, 'transcription failed unexpectedly');
        await fail(work, WORKER_REASONS.unexpected, log);
      }
    } finally {
      clearInterval(renewal);
      stopping.signal.removeEventListener('abort', onStop);
    }
  }

  async function transcribe(work: PendingWork, signal: AbortSignal): Promise<TranscriptDraft> {
    const source = deps.media(work.companyId, work.activityId, signal);
    if (work.request.mediaKind === 'text') {
      const chunks: Buffer[] = [];
      for await (const chunk of source) chunks.push(Buffer.from(chunk));
      signal.throwIfAborted();
      return transcribeText(work.request, Buffer.concat(chunks));
    }
    const directory = await mkdtemp(join(tmpdir(), 'parlance-media-'));
    try {
      const path = join(directory, 'recording');
      await pipeline(Readable.from(source), createWriteStream(path), { signal });
      return await transcribeRecording(deps.transcribe, work.request, path, { signal });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  async function complete(work: PendingWork, draft: TranscriptDraft): Promise<void> {
    await db.transaction(async (tx) => {
      // Gone means the activity was deleted meanwhile: store nothing.
      if (!(await finishWork(tx, work.companyId, work.activityId))) return;
      await saveTranscript(tx, { activityId: work.activityId, companyId: work.companyId, jobId: work.jobId, kind: work.request.kind, ...draft });
      const kind = activityKindOf(work.request.kind);
      const payload = TranscriptReady.encode({
        activityId: work.activityId,
        jobId: work.jobId,
        kind,
        teamId: work.request.teamId,
        representativeEmail: work.request.representativeEmail,
        transcript: { activityId: work.activityId, kind, ...draft },
      }).finish();
      await enqueue(tx, outbox, [outboxMessageFor({ type: TRANSCRIPT_READY, companyId: work.companyId, producer: 'transcription', payload })]);
    });
  }

  async function fail(work: PendingWork, reason: string, log: Logger): Promise<void> {
    log.info({ reason }, 'transcription failed');
    await db.transaction(async (tx) => {
      if (!(await finishWork(tx, work.companyId, work.activityId))) return;
      const payload = TranscriptionFailed.encode({ activityId: work.activityId, jobId: work.jobId, reason }).finish();
      await enqueue(tx, outbox, [outboxMessageFor({ type: TRANSCRIPTION_FAILED, companyId: work.companyId, producer: 'transcription', payload })]);
    });
  }

  const loops = Array.from({ length: settings.workers }, () => loop());
  return {
    wake: wakeUp,
    async stop() {
      stopping.abort();
      await Promise.allSettled(loops);
    },
  };
}
