/**
 * The transcription worker on a real database (PGlite, the transcription schema and its
 * migrations): it completes queued work with the transcript and its event in one transaction,
 * fails work with a reason a person can read, takes up work whose lease ran out (its worker died),
 * gives up on work that keeps killing its worker, drops work whose activity was deleted while
 * it ran, transcribes texts while recordings hold every recording worker, and hands recordings
 * back to wait while the speech server cannot be reached. Media comes from a function here; in the
 * service it is ingest's ReadMedia.
 */
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@parlance/platform/db/database';
import { migrate } from '@parlance/platform/db/migrate';
import { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';
import { TranscriptionFailed, TranscriptReady } from '@parlance/proto/parlance/transcription/v1/events';
import { createLogger } from '@parlance/platform/logger';
import { enqueueWork } from '../src/db/pending-work.repository.js';
import { outbox, pendingWork, transcripts, type WorkRequest } from '../src/db/schema.js';
import { startTranscriptionWorker, WORKER_REASONS, type MediaSource, type TranscriptionWorker } from '../src/pipeline/transcription-worker.js';
import { createPocketSphinxEngine } from '../src/speech/pocketsphinx-engine.js';
import { fixedSpeech, type SpeechProvider } from '../src/speech/recording-speech.js';
import { SpeechServerUnavailable } from '../src/speech/speech-error.js';
import { createLimiter } from '../src/speech/transcribe-audio.js';
import { createAudioWorkspace, type AudioWorkspace } from './support/audio-files.js';

const COMPANY = randomUUID();
const logLines: string[] = [];
const logger = createLogger({ service: 'worker-test', level: 'info', destination: { write: (line: string) => void logLines.push(line) } });

let database: DatabaseHandle<Record<string, unknown>>;
let worker: TranscriptionWorker | undefined;
let audio: AudioWorkspace;
let spoken: Buffer;

beforeAll(async () => {
  database = await openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'transcription' });
  await migrate(database, { migrationsFolder: fileURLToPath(new URL('../src/db/migrations', import.meta.url)) });
  audio = await createAudioWorkspace('parlance-worker-');
  spoken = await readFile(await audio.speak('hello.wav', 'Hello, thank you for calling. How can I help you today?'));
}, 60_000);

afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

afterAll(async () => {
  await database.close();
  await audio?.remove();
});

const request = (overrides: Partial<WorkRequest> = {}): WorkRequest => ({
  kind: 'call',
  teamId: 'team-1',
  representativeEmail: 'grace@example.com',
  representativeName: 'Grace',
  fileName: 'call.txt',
  mediaKind: 'text',
  mediaFormat: 'text',
  ...overrides,
});

async function queue(overrides: Partial<WorkRequest> = {}): Promise<string> {
  const activityId = randomUUID();
  await enqueueWork(database.db, { activityId, companyId: COMPANY, jobId: randomUUID(), request: request(overrides) });
  return activityId;
}

const textMedia =
  (text: string): MediaSource =>
    async function* () {
      yield Buffer.from(text);
    };

function start(media: MediaSource, settings: { leaseMs?: number; maxAttempts?: number; speech?: SpeechProvider; speechWaitMs?: number } = {}) {
  worker = startTranscriptionWorker({
    db: database.db,
    media,
    transcribe: { speech: settings.speech ?? fixedSpeech(createPocketSphinxEngine()), limiter: createLimiter(1) },
    logger,
    settings: { workers: 1, pollMs: 20, leaseMs: settings.leaseMs ?? 60_000, maxAttempts: settings.maxAttempts ?? 3 },
    speechWaitMs: settings.speechWaitMs ?? 60_000,
    speechRetryMs: 50,
  });
  return worker;
}

/** A speech server that cannot be reached for the first `outages` recordings asked of it, then PocketSphinx. */
function speechBackAfter(outages: number, reason = 'the speech server is starting'): SpeechProvider & { asked: () => number } {
  let asked = 0;
  const engine = fixedSpeech(createPocketSphinxEngine());
  return {
    name: 'stand-in',
    asked: () => asked,
    async forRecording(signal) {
      asked += 1;
      if (asked <= outages) throw new SpeechServerUnavailable(reason);
      return engine.forRecording(signal);
    },
  };
}

/** The events the worker wrote for an activity, in order: their types and payloads. */
async function eventsFor(activityId: string) {
  const rows = await database.db.select().from(outbox).orderBy(outbox.id);
  return rows
    .map((row) => EventEnvelope.decode(row.payload))
    .map((envelope) => ({ type: envelope.type, payload: envelope.payload }))
    .filter(({ type, payload }) => {
      if (type === 'transcription.transcript-ready.v1') return TranscriptReady.decode(payload).activityId === activityId;
      if (type === 'transcription.transcription-failed.v1') return TranscriptionFailed.decode(payload).activityId === activityId;
      return Buffer.from(payload).includes(Buffer.from(activityId));
    });
}

async function settled(activityId: string): Promise<void> {
  await expect.poll(async () => (await database.db.select().from(pendingWork).where(eq(pendingWork.activityId, activityId))).length, { timeout: 10_000 }).toBe(0);
}

describe('the transcription worker', () => {
  it('stores the transcript, removes the work and announces it started, then ready', async () => {
    const activityId = await queue();
    start(textMedia('Grace: Thank you for calling.\nSam: Hello, my order is late.'));
    await settled(activityId);
    const [stored] = await database.db.select().from(transcripts).where(eq(transcripts.activityId, activityId));
    expect(stored).toMatchObject({ companyId: COMPANY, sourceFormat: 'speaker-lines', engine: 'text' });
    const events = await eventsFor(activityId);
    expect(events.map((event) => event.type)).toEqual(['transcription.transcription-started.v1', 'transcription.transcript-ready.v1']);
    expect(TranscriptReady.decode(events[1]!.payload).transcript?.segments.map((segment) => segment.speaker)).toEqual(['Grace', 'Sam']);
  });

  it('fails work it cannot transcribe with the reason, and stores no transcript', async () => {
    const activityId = await queue({ fileName: 'empty.txt' });
    start(textMedia(''));
    await settled(activityId);
    expect(await database.db.select().from(transcripts).where(eq(transcripts.activityId, activityId))).toEqual([]);
    const failed = (await eventsFor(activityId)).find((event) => event.type === 'transcription.transcription-failed.v1');
    expect(TranscriptionFailed.decode(failed!.payload).reason).toBe('the file is empty');
  });

  it('fails with a general reason on an unexpected error, logging the error itself', async () => {
    const activityId = await queue();
    start(async function* () {
      yield Buffer.from('');
      throw new Error('socket hang up at 10.0.0.7');
    });
    await settled(activityId);
    const failed = (await eventsFor(activityId)).find((event) => event.type === 'transcription.transcription-failed.v1');
    expect(TranscriptionFailed.decode(failed!.payload).reason).toBe(WORKER_REASONS.unexpected);
    expect(logLines.some((line) => line.includes('socket hang up'))).toBe(true);
  });

  it('takes up work whose lease ran out, as when its worker died', async () => {
    const activityId = await queue();
    // Claimed once by a worker that is gone: its lease ended a second ago.
    await database.db.update(pendingWork).set({ attempts: 1, leaseExpiresAt: sql`now() - interval '1 second'` }).where(eq(pendingWork.activityId, activityId));
    start(textMedia('Grace: Hello again.'));
    await settled(activityId);
    expect(await database.db.select().from(transcripts).where(eq(transcripts.activityId, activityId))).toHaveLength(1);
  });

  it('leaves alone work another worker holds', async () => {
    const activityId = await queue();
    await database.db.update(pendingWork).set({ attempts: 1, leaseExpiresAt: sql`now() + interval '1 hour'` }).where(eq(pendingWork.activityId, activityId));
    start(textMedia('Grace: Hello.'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await database.db.select().from(pendingWork).where(eq(pendingWork.activityId, activityId))).toHaveLength(1);
    await database.db.delete(pendingWork).where(eq(pendingWork.activityId, activityId));
  });

  it('transcribes a text queued behind recordings that hold every recording worker', async () => {
    // One worker a lane; two recordings queued first, whose media never arrives while the worker runs.
    const recordings = [await queue({ mediaKind: 'audio', mediaFormat: 'mp3', fileName: 'call.mp3' }), await queue({ mediaKind: 'audio', mediaFormat: 'mp3', fileName: 'call.mp3' })];
    const text = await queue();
    start(async function* (_company, activityId, signal) {
      if (recordings.includes(activityId)) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      yield Buffer.from('Grace: Thank you for waiting.');
    });
    await settled(text);
    expect(await database.db.select().from(transcripts).where(eq(transcripts.activityId, text))).toHaveLength(1);
    // The first recording is in hand, the second still waits for the recording worker.
    expect((await eventsFor(recordings[0]!)).map((event) => event.type)).toEqual(['transcription.transcription-started.v1']);
    expect(await eventsFor(recordings[1]!)).toEqual([]);
    await worker!.stop();
    await database.db.delete(pendingWork).where(inArray(pendingWork.activityId, recordings));
  });

  it('gives up on work that keeps interrupting its worker, with a reason', async () => {
    const activityId = await queue();
    await database.db.update(pendingWork).set({ attempts: 3, leaseExpiresAt: sql`now() - interval '1 second'` }).where(eq(pendingWork.activityId, activityId));
    start(textMedia('Grace: Hello.'));
    await settled(activityId);
    const failed = (await eventsFor(activityId)).find((event) => event.type === 'transcription.transcription-failed.v1');
    expect(TranscriptionFailed.decode(failed!.payload).reason).toBe(WORKER_REASONS.interrupted(3));
  });

  it('drops work whose activity is deleted while it runs: no transcript, no outcome announced', async () => {
    const activityId = await queue();
    let release: () => void = () => {};
    const blocked = new Promise<void>((resolve) => (release = resolve));
    start(
      async function* (_company, _activity, signal) {
        await Promise.race([blocked, new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))]);
        yield Buffer.from('Grace: too late.');
      },
      { leaseMs: 300 },
    );
    await expect.poll(async () => (await eventsFor(activityId)).length, { timeout: 5_000 }).toBe(1);
    // What the activity-deleted consumer does.
    await database.db.delete(pendingWork).where(eq(pendingWork.activityId, activityId));
    await expect.poll(() => logLines.some((line) => line.includes('The activity was deleted.')), { timeout: 5_000 }).toBe(true);
    release();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await database.db.select().from(transcripts).where(eq(transcripts.activityId, activityId))).toEqual([]);
    expect((await eventsFor(activityId)).map((event) => event.type)).toEqual(['transcription.transcription-started.v1']);
  });

  it('hands a recording back while the speech server cannot be reached, uncounted and announced once, and transcribes it when it is back', async () => {
    const activityId = await queue({ mediaKind: 'audio', mediaFormat: 'wav', fileName: 'call.wav' });
    const speech = speechBackAfter(4);
    const linesBefore = logLines.length;
    start(async function* () {
      yield spoken;
    }, { speech, maxAttempts: 2 });
    // Between tries the work is back in the queue, its attempts not counted.
    await expect.poll(() => speech.asked(), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    const [waiting] = await database.db.select().from(pendingWork).where(eq(pendingWork.activityId, activityId));
    expect(waiting?.attempts ?? 0).toBeLessThanOrEqual(1);
    await settled(activityId);
    expect(speech.asked()).toBe(5);
    const [stored] = await database.db.select().from(transcripts).where(eq(transcripts.activityId, activityId));
    expect(stored).toMatchObject({ engine: 'pocketsphinx' });
    expect((await eventsFor(activityId)).map((event) => event.type)).toEqual(['transcription.transcription-started.v1', 'transcription.transcript-ready.v1']);
    // Said once when the wait began and once when it ended, not once a try.
    const said = logLines.slice(linesBefore).map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(said.filter((msg) => msg === 'recordings wait for the speech server')).toHaveLength(1);
    expect(said.filter((msg) => msg === 'the speech server answers again; waiting recordings continue')).toHaveLength(1);
  });

  it('fails a recording that waited too long for the speech server, saying why', async () => {
    const activityId = await queue({ mediaKind: 'audio', mediaFormat: 'wav', fileName: 'call.wav' });
    start(async function* () {
      yield spoken;
    }, { speech: speechBackAfter(Number.POSITIVE_INFINITY, 'the speech server is being installed'), speechWaitMs: 1_000 });
    await settled(activityId);
    const failed = (await eventsFor(activityId)).find((event) => event.type === 'transcription.transcription-failed.v1');
    expect(TranscriptionFailed.decode(failed!.payload).reason).toBe('the recording waited 1 s for the speech server in vain (the speech server is being installed)');
  });
});
