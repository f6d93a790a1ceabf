/**
 * Sends the demo company's calls and meetings through the real pipeline, once: each one is
 * uploaded to ingest exactly as an upload or an integration would be (text, or a synthesized
 * recording), so transcription, scoring and analytics handle it like any other. Nothing is written
 * into another service's tables.
 *
 * Runs in the background after the product has started, so the app is usable at once; the log
 * shows what has been sent and processed. The count sent (in sequence order) is kept in
 * `demo.seed_runs`, so a restart resumes where it stopped and a finished company is never seeded
 * again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { chunksOf, uploadActivity } from '@parlance/platform/activity/upload-activity';
import type { Database } from '@parlance/platform/db/database';
import { createClient, equalJitterBackoffMs } from '@parlance/platform/grpc/grpc-client';
import { GrpcCallError } from '@parlance/platform/grpc/status-mapping';
import type { Logger } from '@parlance/platform/logger';
import { ActivityKind, IngestServiceClient, MediaKind, type UploadHeader } from '@parlance/proto/parlance/ingest/v1/ingest';
import { finishSeedRun, recordSent, startSeedRun, type SeedRun } from '../db/seed-runs.repository.js';
import { demoActivity, demoActivityCount, type DemoActivity, type DemoPlan } from '../domain/demo-conversations.js';
import { readDemoCompany, type DemoCompany } from './demo-company.js';
import { recordedCall } from './recorded-call.js';

export interface SeedSettings {
  calls: number;
  meetings: number;
  recordedCalls: number;
  seed: number;
}

export interface SeedDependencies {
  db: Database<Record<string, unknown>>;
  identityAddress: string;
  ingestAddress: string;
  logger: Logger;
  signal: AbortSignal;
  now?: () => Date;
}

export interface SeedOutcome {
  /** 'already' when an earlier start finished it. */
  state: 'seeded' | 'already' | 'no-teams';
  sent: number;
  skipped: number;
  failed: number;
  seconds: number;
}

/** Uploads in flight at once: enough to keep the pipeline busy, few enough to leave the web app responsive. */
const CONCURRENT_UPLOADS = 4;
const PROGRESS_EVERY_MS = 5_000;
const JOB_POLL_MS = 1_000;
/** Jobs asked after at once. */
const JOB_WINDOW = 16;
const RECORD_EVERY = 25;

export async function seedDemoData(deps: SeedDependencies, settings: SeedSettings): Promise<SeedOutcome> {
  const now = deps.now ?? (() => new Date());
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 1000);
  const company = await retryWhileUnavailable(() => readDemoCompany(deps.identityAddress), deps.signal);
  const run = await startSeedRun(deps.db, company.companyId, { calls: settings.calls, meetings: settings.meetings, recordedCalls: settings.recordedCalls, seed: settings.seed, now: now().toISOString() }, now());
  const plan: DemoPlan = { ...run.plan, now: new Date(run.plan.now) };
  const total = demoActivityCount(plan);
  if (run.finishedAt) {
    deps.logger.info({ calls: plan.calls, meetings: plan.meetings }, 'demo data already seeded; not sending it again');
    return { state: 'already', sent: run.sent, skipped: run.skipped, failed: 0, seconds: 0 };
  }
  if (demoActivity(plan, company.teams, 0) === undefined) {
    deps.logger.warn('the demo company has no team the demo data knows how to speak for; no demo data sent');
    return { state: 'no-teams', sent: 0, skipped: 0, failed: 0, seconds: 0 };
  }

  deps.logger.info({ from: run.sent, total, calls: plan.calls, meetings: plan.meetings, recordedCalls: plan.recordedCalls }, `sending the demo data through the pipeline: ${total - run.sent} of ${total} activities to go`);
  const sender = new DemoSender(deps, company, plan, run);
  const progress = setInterval(() => sender.logProgress(total), PROGRESS_EVERY_MS);
  progress.unref();
  // Both settle before this returns: a stop must not leave uploads running after the database closes.
  const settled = await Promise.allSettled([sender.sendAll(total), sender.followJobs()]);
  clearInterval(progress);
  sender.close();
  for (const result of settled) if (result.status === 'rejected') throw result.reason;
  await finishSeedRun(deps.db, company.companyId, now());
  const outcome: SeedOutcome = { state: 'seeded', sent: sender.sentCount, skipped: sender.skipped, failed: sender.failed, seconds: seconds() };
  deps.logger.info(outcome, `demo data ready: ${plan.calls} calls and ${plan.meetings} meetings went through the pipeline in ${outcome.seconds} s`);
  return outcome;
}

/** Uploads activities in sequence order (a few at a time) and follows their jobs to the end. */
class DemoSender {
  private next: number;
  private readonly done = new Set<number>();
  /** Jobs of this run not yet seen finished, oldest first. */
  private readonly pending = new Set<string>();
  private sendingFinished = false;
  private speechMissing = false;
  private recorded: number;
  readonly ingest: ReturnType<typeof createIngestClient>;
  sentCount: number;
  skipped: number;
  processedCount = 0;
  failed = 0;

  constructor(
    private readonly deps: SeedDependencies,
    private readonly company: DemoCompany,
    private readonly plan: DemoPlan,
    run: SeedRun,
  ) {
    this.next = run.sent;
    this.sentCount = run.sent;
    this.recorded = run.sent;
    this.skipped = run.skipped;
    this.ingest = createIngestClient(deps.ingestAddress);
  }

  logProgress(total: number): void {
    const progress = { sent: this.sentCount, processed: this.processedCount, failed: this.failed, skipped: this.skipped };
    this.deps.logger.info(progress, `demo data: ${this.sentCount}/${total} sent, ${this.processedCount} processed`);
  }

  /** On a stop, the uploads in flight finish and the count is recorded, so the next start resumes exactly there. */
  async sendAll(total: number): Promise<void> {
    const workers = await Promise.allSettled(
      Array.from({ length: CONCURRENT_UPLOADS }, async () => {
        while (this.next < total && !this.deps.signal.aborted) {
          const sequence = this.next;
          this.next += 1;
          await this.send(sequence);
          this.markDone(sequence);
          if (this.sentCount - this.recorded >= RECORD_EVERY) await this.record();
        }
      }),
    );
    this.sendingFinished = true;
    await this.record();
    // Also when sending took less than one interval.
    this.logProgress(total);
    const failure = workers.find((worker) => worker.status === 'rejected');
    if (failure) throw failure.reason;
    this.deps.signal.throwIfAborted();
  }

  /**
   * Asks after the oldest unfinished jobs (a window of them, since a recording takes longer than
   * the text behind it) once a second, until every job of this run has completed or failed. A
   * window that finished whole is followed at once by the next: the backlog after sending drains
   * without waiting. Each ask costs the pipeline it watches (a call and a read on ingest), so it
   * asks no more often than that.
   */
  async followJobs(): Promise<void> {
    while (!this.sendingFinished || this.pending.size > 0) {
      const window = [...this.pending].slice(0, JOB_WINDOW);
      // getJob is idempotent: the client retries it while ingest is unavailable.
      const answers = await Promise.all(window.map((jobId) => this.ingest.getJob({ jobId }, this.caller())));
      let finished = 0;
      for (const { job } of answers) {
        if (!job || !(job.isCompleted || job.isFailed)) continue;
        this.pending.delete(job.id);
        this.processedCount += 1;
        finished += 1;
        if (job.isFailed) {
          this.failed += 1;
          this.deps.logger.warn({ jobId: job.id, fileName: job.fileName }, job.failedReason || `Processing failed for ${job.fileName}`);
        }
      }
      if (window.length === 0 || finished < window.length) await sleep(JOB_POLL_MS, undefined, { signal: this.deps.signal });
    }
  }

  /** Once sending and following have both settled: they share the client. */
  close(): void {
    this.ingest.close();
  }

  private caller() {
    return { companyId: this.company.companyId, userId: this.company.userId };
  }

  private async send(sequence: number): Promise<void> {
    const activity = demoActivity(this.plan, this.company.teams, sequence);
    if (!activity) return;
    const { header, content } = await this.uploadOf(activity);
    try {
      const reply = await retryWhileUnavailable(() => uploadActivity(this.ingest.raw, header, chunksOf(content), { ...this.caller(), deadlineMs: 120_000 }), this.deps.signal);
      this.pending.add(reply.jobId);
    } catch (error) {
      // A team changed since the plan was read (a member removed, say): that one activity is left out.
      if (!(error instanceof GrpcCallError) || error.kind !== 'invalid-argument') throw error;
      this.skipped += 1;
      this.deps.logger.warn({ fileName: header.fileName, reason: error.message }, 'a demo activity was refused; left out');
    }
  }

  private async uploadOf(activity: DemoActivity): Promise<{ header: UploadHeader; content: Buffer }> {
    const header: UploadHeader = {
      kind: activity.kind === 'meeting' ? ActivityKind.ACTIVITY_KIND_MEETING : ActivityKind.ACTIVITY_KIND_CALL,
      mediaKind: MediaKind.MEDIA_KIND_TEXT,
      fileName: activity.fileName,
      teamId: activity.teamId,
      representativeEmail: activity.representative.email,
      representativeName: activity.representative.firstName,
      occurredAt: activity.occurredAt,
      title: activity.title,
      notes: activity.notes,
      contact: activity.contact,
      link: activity.link,
      source: '',
      externalId: '',
    };
    if (activity.recorded && !this.speechMissing) {
      try {
        return { header: { ...header, mediaKind: MediaKind.MEDIA_KIND_AUDIO }, content: await recordedCall(activity) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        this.speechMissing = true;
        this.deps.logger.warn('espeak-ng is not installed, so the demo calls are all text (scripts/ensure-speech.sh installs it)');
      }
    }
    return { header: { ...header, fileName: header.fileName.replace(/\.wav$/, '.txt') }, content: Buffer.from(activity.transcript, 'utf8') };
  }

  /** Counts a sequence as sent once every earlier one is. */
  private markDone(sequence: number): void {
    this.done.add(sequence);
    while (this.done.delete(this.sentCount)) this.sentCount += 1;
  }

  private async record(): Promise<void> {
    this.recorded = this.sentCount;
    await recordSent(this.deps.db, this.company.companyId, this.sentCount, this.skipped);
  }
}

function createIngestClient(address: string) {
  return createClient(IngestServiceClient, address, { idempotent: ['getJob'] });
}

/**
 * The services start together; until identity and ingest answer, wait and try again. For the
 * calls the client does not retry itself (it retries only idempotent unary calls): signing in,
 * and an upload, which ingest stores only once it has the whole file.
 */
async function retryWhileUnavailable<T>(call: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof GrpcCallError) || error.kind !== 'unavailable' || attempt > 20) throw error;
      await sleep(equalJitterBackoffMs(attempt, 200, 5_000), undefined, { signal });
    }
  }
}
