/**
 * Works through the pending activities: claims one (announcing that it started), reads its media
 * from ingest, transcribes it, and in one transaction stores the transcript, removes the work and
 * announces `transcription.transcript-ready.v1` — or announces the failure with a reason a person
 * can read. A claim is a lease renewed while the work runs, so the work of a process that died is
 * picked up again by another (or by this one after a restart); a deleted activity's work is dropped.
 * Texts and recordings are claimed by workers of their own.
 *
 * A recording that cannot reach the speech server (installing, starting, restarting, down) is
 * handed back to the queue without counting an attempt and tried again a few seconds later, until
 * it has waited too long (speech-wait.ts); it is announced as started only once meanwhile.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { Database } from '@parlance/platform/db/database';
import { outboxMessageFor } from '@parlance/platform/events/event-envelope';
import { GrpcCallError } from '@parlance/platform/grpc/status-mapping';
import type { Logger } from '@parlance/platform/logger';
import { enqueue } from '@parlance/platform/outbox/enqueue';
import { deferLeasedWork, recordLeasedOutcome } from '@parlance/platform/work/leased-work';
import { startLeasedWorkers, type LeasedWorkerSettings, type LeasedWorkers } from '@parlance/platform/work/leased-workers';
import { TranscriptionFailed, TranscriptionStarted, TranscriptReady } from '@parlance/proto/parlance/transcription/v1/events';
import { activityKindOf } from '@parlance/platform/activity/activity-kind';
import type { PendingWork } from '../db/pending-work.repository.js';
import { outbox, pendingWork, pendingWorkQueue } from '../db/schema.js';
import { saveTranscript } from '../db/transcripts.repository.js';
import type { SpeechEngine } from '../speech/speech-engine.js';
import { SpeechError, SpeechServerUnavailable } from '../speech/speech-error.js';
import { createSpeechWait } from './speech-wait.js';
import { transcribeRecording, transcribeText, type TranscribeDependencies, type TranscriptDraft } from './transcribe-activity.js';

export const TRANSCRIPTION_STARTED = 'transcription.transcription-started.v1';
export const TRANSCRIPT_READY = 'transcription.transcript-ready.v1';
export const TRANSCRIPTION_FAILED = 'transcription.transcription-failed.v1';

/** Where an activity's media comes from: ingest's ReadMedia. */
export type MediaSource = (companyId: string, activityId: string, signal: AbortSignal) => AsyncIterable<Uint8Array>;

/** Activities of each lane (texts, recordings) transcribed at once, the lease, how often idle workers look, and the attempts allowed. */
export type WorkerSettings = LeasedWorkerSettings;

export const DEFAULT_WORKER_SETTINGS: WorkerSettings = { workers: 2, leaseMs: 120_000, pollMs: 1_000, maxAttempts: 3 };

/** How long a recording waits for an unreachable speech server by default. */
export const DEFAULT_SPEECH_WAIT_MS = 30 * 60_000;

export const WORKER_REASONS = {
  interrupted: (attempts: number) => `transcription was interrupted ${attempts} times; the file may be too demanding to process`,
  unexpected: 'an unexpected error occurred while transcribing',
} as const;

export type TranscriptionWorker = LeasedWorkers;

export function startTranscriptionWorker(deps: {
  db: Database<Record<string, unknown>>;
  media: MediaSource;
  transcribe: TranscribeDependencies;
  logger: Logger;
  settings?: Partial<WorkerSettings>;
  /** How long a recording waits for an unreachable speech server before it fails. */
  speechWaitMs?: number;
  /** The first pause before a waiting recording is tried again (2 s; tests shorten it). */
  speechRetryMs?: number;
}): TranscriptionWorker {
  const settings = { ...DEFAULT_WORKER_SETTINGS, ...deps.settings };
  const { db, logger } = deps;
  const speechWait = createSpeechWait(logger, { maxWaitMs: deps.speechWaitMs ?? DEFAULT_SPEECH_WAIT_MS, ...(deps.speechRetryMs ? { minRetryMs: deps.speechRetryMs } : {}) });
  const transcribeDeps = whenAnswered(deps.transcribe, () => speechWait.answered());

  async function process(work: PendingWork, signal: AbortSignal): Promise<void> {
    const log = logger.child({ activityId: work.activityId, jobId: work.jobId });
    const started = performance.now();
    try {
      const draft = await transcribe(work, signal);
      await complete(work, draft);
      speechWait.finished(work.activityId);
      log.info({ engine: draft.engine, durationMs: draft.durationMs, tookMs: Math.round(performance.now() - started) }, 'transcribed');
    } catch (error) {
      // Deleted, taken over or stopping: the workers log it, and record nothing.
      if (signal.aborted) {
        speechWait.finished(work.activityId);
        throw error;
      }
      if (error instanceof SpeechServerUnavailable) {
        await waitForSpeech(work, error, log);
      } else if (error instanceof SpeechError) {
        await fail(work, error.message, log);
      } else if (error instanceof GrpcCallError && error.kind === 'unavailable') {
        // Ingest is briefly unreachable or too slow (a deadline passed): the lease runs out and
        // the work is tried again.
        log.warn({ err: error }, 'could not read the media; will try again');
      } else if (error instanceof GrpcCallError && error.kind === 'not-found') {
        log.info('the activity is gone; dropping its work');
        speechWait.finished(work.activityId);
        // Nothing to record; the claim still guards the row against a worker that took it over.
        await recordLeasedOutcome(db, pendingWorkQueue, work);
      } else {
        log.error({ err: error }, 'transcription failed unexpectedly');
        await fail(work, WORKER_REASONS.unexpected, log);
      }
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
      return await transcribeRecording(transcribeDeps, work.request, path, { signal });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  async function complete(work: PendingWork, draft: TranscriptDraft): Promise<void> {
    // Gone means the activity was deleted meanwhile (or another worker holds it): store nothing.
    await recordLeasedOutcome(db, pendingWorkQueue, work, async (tx) => {
      await saveTranscript(tx, { activityId: work.activityId, companyId: work.companyId, jobId: work.jobId, kind: work.request.kind, ...draft });
      const kind = activityKindOf(work.request.kind);
      const payload = TranscriptReady.encode({
        activityId: work.activityId,
        jobId: work.jobId,
        kind,
        teamId: work.request.teamId,
        representativeEmail: work.request.representativeEmail,
        representativeName: work.request.representativeName,
        transcript: { activityId: work.activityId, kind, ...draft },
      }).finish();
      await enqueue(tx, outbox, [outboxMessageFor({ type: TRANSCRIPT_READY, companyId: work.companyId, producer: 'transcription', payload })]);
    });
  }

  /** Hands the recording back to be tried again later, or fails it when it has waited long enough. */
  async function waitForSpeech(work: PendingWork, error: SpeechServerUnavailable, log: Logger): Promise<void> {
    const decision = speechWait.couldNotReach(work.activityId, error.message);
    if ('failWith' in decision) {
      await fail(work, decision.failWith, log);
      return;
    }
    log.debug({ reason: error.message, retryInMs: decision.retryInMs, waitedMs: decision.waitedMs }, 'waiting for the speech server');
    // Not held any more (deleted or taken over meanwhile): whoever holds it goes on.
    const handedBack = await deferLeasedWork(db, pendingWorkQueue, pendingWorkQueue.claimOf(work), decision.retryInMs);
    if (!handedBack) speechWait.finished(work.activityId);
  }

  async function fail(work: PendingWork, reason: string, log: Logger): Promise<void> {
    speechWait.finished(work.activityId);
    log.info({ reason }, 'transcription failed');
    await recordLeasedOutcome(db, pendingWorkQueue, work, async (tx) => {
      const payload = TranscriptionFailed.encode({ activityId: work.activityId, jobId: work.jobId, reason }).finish();
      await enqueue(tx, outbox, [outboxMessageFor({ type: TRANSCRIPTION_FAILED, companyId: work.companyId, producer: 'transcription', payload })]);
    });
  }

  // Two lanes, each with `settings.workers` workers: texts take milliseconds and recordings
  // minutes, so a text uploaded behind many recordings is not left waiting for a worker they hold.
  const isText = sql`${pendingWork.request}->>'mediaKind' = 'text'`;
  const lanes = [isText, sql`not (${isText})`].map((claimable) =>
    startLeasedWorkers({
      name: 'transcription',
      db,
      queue: pendingWorkQueue,
      claimable,
      logger,
      settings,
      removedMessage: 'The activity was deleted.',
      async onClaimed(tx, work) {
        // A recording waiting for the speech server was announced when first claimed.
        if (speechWait.isWaiting(work.activityId)) return;
        const payload = TranscriptionStarted.encode({ activityId: work.activityId, jobId: work.jobId }).finish();
        await enqueue(tx, outbox, [outboxMessageFor({ type: TRANSCRIPTION_STARTED, companyId: work.companyId, producer: 'transcription', payload })]);
      },
      process,
      giveUp: (work, interruptions) => fail(work, WORKER_REASONS.interrupted(interruptions), logger.child({ activityId: work.activityId, jobId: work.jobId })),
    }),
  );
  return {
    wake: () => lanes.forEach((lane) => lane.wake()),
    stop: async () => {
      await Promise.all(lanes.map((lane) => lane.stop()));
    },
  };
}

/** The dependencies with their engine reporting each answer it gets (the end of an outage). */
function whenAnswered(deps: TranscribeDependencies, answered: () => void): TranscribeDependencies {
  const observed = (engine: SpeechEngine): SpeechEngine => ({
    name: engine.name,
    async transcribe(pcm, options) {
      const words = await engine.transcribe(pcm, options);
      answered();
      return words;
    },
  });
  if ('speech' in deps) {
    const { speech } = deps;
    const forRecording = async (signal?: AbortSignal) => {
      const chosen = await speech.forRecording(signal);
      return { ...chosen, engine: observed(chosen.engine) };
    };
    return { ...deps, speech: { name: speech.name, forRecording } };
  }
  return { ...deps, engine: observed(deps.engine) };
}
