/**
 * A job's status as the pipeline's events move it (PGlite, ingest's schema and migrations): it is
 * active from transcription's start until the activity is scored, completes only on
 * `scoring.activity-scored.v1`, fails with 'Processing failed for {file}: {reason}' when
 * transcription or scoring fails, and never moves back.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@parlance/platform/db/database';
import { migrate } from '@parlance/platform/db/migrate';
import type { DeliveredMessage } from '@parlance/platform/bus/event-bus';
import type { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';
import { ActivityScored, ScoringFailed } from '@parlance/proto/parlance/scoring/v1/events';
import { TranscriptionFailed, TranscriptionStarted, TranscriptReady } from '@parlance/proto/parlance/transcription/v1/events';
import { activities, jobs } from '../src/db/schema.js';
import { jobProgressConsumer } from '../src/events/job-progress.consumer.js';

const COMPANY = randomUUID();
let database: DatabaseHandle<Record<string, unknown>>;

beforeAll(async () => {
  database = await openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'ingest' });
  await migrate(database, { migrationsFolder: fileURLToPath(new URL('../src/db/migrations', import.meta.url)) });
}, 60_000);

afterAll(async () => {
  await database.close();
});

async function uploadedJob(fileName = 'call.txt'): Promise<{ jobId: string; activityId: string }> {
  const activityId = randomUUID();
  const jobId = randomUUID();
  await database.db.insert(activities).values({
    id: activityId,
    companyId: COMPANY,
    kind: 'call',
    teamId: 'team-1',
    representativeEmail: 'grace@example.com',
    representativeName: 'Grace',
    fileName,
    title: '',
    notes: '',
    occurredAt: new Date(),
    source: 'upload',
    mediaKind: 'text',
    mediaFormat: 'text',
    mediaKey: `${COMPANY}/${activityId}`,
    mediaBytes: 10,
    mediaSha256: '',
  });
  await database.db.insert(jobs).values({ id: jobId, companyId: COMPANY, activityId, kind: 'call', fileName, status: 'waiting' });
  return { jobId, activityId };
}

const events = {
  started: (jobId: string, activityId: string) => ['transcription.transcription-started.v1', TranscriptionStarted.encode({ jobId, activityId }).finish()] as const,
  transcribed: (jobId: string, activityId: string) => ['transcription.transcript-ready.v1', TranscriptReady.encode({ jobId, activityId, kind: 1, teamId: 'team-1', representativeEmail: '', representativeName: '', transcript: undefined }).finish()] as const,
  transcriptionFailed: (jobId: string, activityId: string, reason: string) => ['transcription.transcription-failed.v1', TranscriptionFailed.encode({ jobId, activityId, reason }).finish()] as const,
  scored: (jobId: string, activityId: string) => ['scoring.activity-scored.v1', ActivityScored.encode({ jobId, activityId, evaluation: undefined, rescored: false }).finish()] as const,
  scoringFailed: (jobId: string, activityId: string, reason: string) => ['scoring.scoring-failed.v1', ScoringFailed.encode({ jobId, activityId, reason }).finish()] as const,
};

async function apply([type, payload]: readonly [string, Uint8Array]): Promise<void> {
  const event: EventEnvelope = { id: randomUUID(), type, companyId: COMPANY, producer: 'test', occurredAt: new Date(), payload: Buffer.from(payload) };
  await database.db.transaction((tx) => jobProgressConsumer.handle(event, tx, {} as DeliveredMessage));
}

async function statusOf(jobId: string) {
  const [job] = await database.db.select({ status: jobs.status, failedReason: jobs.failedReason }).from(jobs).where(eq(jobs.id, jobId));
  return job;
}

describe('job progress', () => {
  it('stays active once transcribed, and completes only when the activity is scored', async () => {
    const { jobId, activityId } = await uploadedJob();
    await apply(events.started(jobId, activityId));
    expect(await statusOf(jobId)).toEqual({ status: 'active', failedReason: '' });
    await apply(events.transcribed(jobId, activityId));
    expect(await statusOf(jobId)).toEqual({ status: 'active', failedReason: '' });
    await apply(events.scored(jobId, activityId));
    expect(await statusOf(jobId)).toEqual({ status: 'completed', failedReason: '' });
  });

  it("fails when scoring fails, with 'Processing failed for {file}: {reason}'", async () => {
    const { jobId, activityId } = await uploadedJob('silence.txt');
    await apply(events.started(jobId, activityId));
    await apply(events.transcribed(jobId, activityId));
    await apply(events.scoringFailed(jobId, activityId, 'the transcript has no words to evaluate'));
    expect(await statusOf(jobId)).toEqual({ status: 'failed', failedReason: 'Processing failed for silence.txt: the transcript has no words to evaluate' });
  });

  it('fails when transcription fails, as before', async () => {
    const { jobId, activityId } = await uploadedJob('empty.wav');
    await apply(events.transcriptionFailed(jobId, activityId, 'the file is empty'));
    expect(await statusOf(jobId)).toEqual({ status: 'failed', failedReason: 'Processing failed for empty.wav: the file is empty' });
  });

  it('only moves forward: late or repeated events change an ended job no more', async () => {
    const completed = await uploadedJob();
    await apply(events.scored(completed.jobId, completed.activityId));
    await apply(events.transcribed(completed.jobId, completed.activityId));
    await apply(events.started(completed.jobId, completed.activityId));
    await apply(events.scoringFailed(completed.jobId, completed.activityId, 'too late'));
    expect(await statusOf(completed.jobId)).toEqual({ status: 'completed', failedReason: '' });

    const failed = await uploadedJob('broken.txt');
    await apply(events.scoringFailed(failed.jobId, failed.activityId, 'the transcript has no words to evaluate'));
    await apply(events.scored(failed.jobId, failed.activityId));
    await apply(events.transcribed(failed.jobId, failed.activityId));
    expect(await statusOf(failed.jobId)).toEqual({ status: 'failed', failedReason: 'Processing failed for broken.txt: the transcript has no words to evaluate' });
  });

  it('ignores events of a job it does not have, or of another company', async () => {
    await apply(events.scored(randomUUID(), randomUUID()));
    await apply(events.scoringFailed('not-a-job', randomUUID(), 'whatever'));
    const { jobId, activityId } = await uploadedJob();
    const [type, payload] = events.scored(jobId, activityId);
    const foreign: EventEnvelope = { id: randomUUID(), type, companyId: randomUUID(), producer: 'test', occurredAt: new Date(), payload: Buffer.from(payload) };
    await database.db.transaction((tx) => jobProgressConsumer.handle(foreign, tx, {} as DeliveredMessage));
    expect(await statusOf(jobId)).toEqual({ status: 'waiting', failedReason: '' });
  });
});
