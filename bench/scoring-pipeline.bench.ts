/**
 * What scoring takes under a burst: from each activity's `transcription.transcript-ready.v1` to
 * its `scoring.activity-scored.v1`, with the scoring service as its own process (as `make up`
 * runs it) so its memory and CPU can be watched.
 *
 * The stack, on the local PostgreSQL and Kafka: identity and the gateway as the tests run them
 * (test/support/identity-stack.ts), ingest and transcription in this process, and scoring alone
 * in a child process (`node --import tsx services/scoring/src/main.ts`, distributed mode,
 * SCORING_WORKERS at its default unless set in the environment). A company saves a team of 10
 * criteria (bench/support/scoring-team.ts) with one representative and uploads a few calls to
 * warm up. Then two bursts, one after the other:
 *
 * - uploads: BENCH_UPLOADS text uploads of a 1,500-word call (bench/support/call-dialogue.ts)
 *   to POST /api/calls/transcribe/text with BENCH_CONCURRENCY in flight, as fast as they are
 *   accepted; transcripts then reach scoring as fast as transcription makes them;
 * - published: BENCH_PUBLISHED transcript-ready events of the same calls put on the bus at once
 *   (as transcription's outbox relay would, for activities no upload made; ingest finds no job
 *   for them and changes nothing), so scoring alone sets the pace.
 *
 * Measured for each:
 * - latency: this bench subscribes to the topics with a consumer group of its own and notes when
 *   each event of the company arrives, by activity id; the time from transcript ready to scored
 *   is reported (p50, p95, max), and next to it the same from the events' own `occurredAt` (set
 *   when each service wrote the event: transcript stored → evaluation stored, without the outbox
 *   relay and Kafka after it), and how long each event took from occurredAt to here;
 * - throughput: from the first upload (or event) to the last activity scored, activities scored
 *   per second; and the scoring process's CPU time per activity (/proc/<pid>/stat);
 * - memory: the scoring process's VmRSS every 100 ms from /proc/<pid>/status: at rest before the
 *   bursts, its peak during each, and the kernel's high-water mark (VmHWM, start-up included).
 *
 * Other stacks on the same PostgreSQL and Kafka (tests running meanwhile) are replicas of one
 * installation: their scoring may take some of these activities. `scored_by_this_process` says
 * how many the measured process scored.
 *
 *   node --import tsx bench/scoring-pipeline.bench.ts   # BENCH_UPLOADS=1000 BENCH_PUBLISHED=500 BENCH_CONCURRENCY=50
 *
 * Prints JSON lines: {"bench":"scoring.pipeline","burst":"uploads"|"published",…} and
 * {"bench":"scoring.worker-memory",…}.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ingestModule } from '@parlance/ingest/module';
import { createBus } from '@parlance/platform/bus/create-bus';
import { outboxMessageFor, readEnvelope } from '@parlance/platform/events/event-envelope';
import { loadHostConfig } from '@parlance/platform/host/host-config';
import { ModuleHost } from '@parlance/platform/host/module-host';
import { plumbingModules } from '@parlance/platform/host/plumbing-modules';
import { createLogger } from '@parlance/platform/logger';
import { busMessageFor } from '@parlance/platform/outbox/enqueue';
import { startTelemetry } from '@parlance/platform/telemetry';
import { testDatabaseUrl, testKafkaBrokers, uniqueName } from '@parlance/platform/testing/infra';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { ActivityScored, ScoringFailed } from '@parlance/proto/parlance/scoring/v1/events';
import { TranscriptionFailed, TranscriptReady } from '@parlance/proto/parlance/transcription/v1/events';
import { loadScoringConfig } from '@parlance/scoring/config';
import { ACTIVITY_SCORED, SCORING_FAILED } from '@parlance/scoring/pipeline/scoring-worker';
import { transcriptionModule } from '@parlance/transcription/module';
import { freePort } from '../test/support/free-port.js';
import { SHARED_MEDIA_DIR, startIdentityStack } from '../test/support/identity-stack.js';
import { memberPayload } from '../test/teams/team-fixtures.js';
import { callDialogue, transcriptOf, transcriptText } from './support/call-dialogue.js';
import { machine, median, percentile } from './support/measure.js';
import { cpuMsOf, memoryOf, sampleMemory } from './support/process-memory.js';
import { benchTeamPayload, CRITERIA_COUNT } from './support/scoring-team.js';
import { startServiceProcess } from './support/service-process.js';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 1_000);
/** Transcript-ready events put on the bus at once, for scoring alone. */
const PUBLISHED = Number(process.env.BENCH_PUBLISHED ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const WARM_UP_UPLOADS = 10;
const WORDS = 1_500;
/** Different calls (seeds) the uploads cycle through. */
const CALLS = 20;
/**
 * Give up when no event of the burst has arrived for this long: longer than a scoring lease (60 s),
 * after which work a stopped replica (another stack on the same infrastructure) had claimed is
 * taken up again.
 */
const STALL_MS = 120_000;

const TRANSCRIPT_READY = 'transcription.transcript-ready.v1';
const TRANSCRIPTION_FAILED = 'transcription.transcription-failed.v1';
const REPRESENTATIVE = 'Daniel';
const ms = (value: number) => Math.round(value);
const mb = (kb: number) => Math.round(kb / 1024);

interface Seen {
  /** Arrival here (performance.now()), and the event's occurredAt and arrival in wall-clock ms. */
  readyAt?: number;
  readyOccurredAt?: number;
  readyArrivedAt?: number;
  scoredAt?: number;
  scoredOccurredAt?: number;
  scoredArrivedAt?: number;
  score?: number;
  verdicts?: number;
  failed?: string;
}

const telemetry = startTelemetry({ serviceName: 'bench' });
const cleanup: Array<() => Promise<unknown>> = [];
try {
  const infra = { PARLANCE_MODE: 'distributed', DATABASE_URL: testDatabaseUrl(), KAFKA_BROKERS: testKafkaBrokers().join(',') };
  const pipelinePort = await freePort();
  const scoringPort = await freePort();
  const elsewhere = {
    INGEST_GRPC_ADDR: `127.0.0.1:${pipelinePort}`,
    TRANSCRIPTION_GRPC_ADDR: `127.0.0.1:${pipelinePort}`,
    SCORING_GRPC_ADDR: `127.0.0.1:${scoringPort}`,
  };

  // Identity and the gateway, as the tests run them; ingest, transcription and scoring are elsewhere.
  const stack = await startIdentityStack({ logLevel: 'warn', env: elsewhere });
  cleanup.unshift(() => stack.stop());
  const identityAddress = stack.services.get('identity').address;
  // Analytics and integration take no part; their addresses only have to be set.
  const addresses = { ...elsewhere, IDENTITY_GRPC_ADDR: identityAddress, ANALYTICS_GRPC_ADDR: identityAddress, INTEGRATION_GRPC_ADDR: identityAddress };

  // Ingest and transcription in this process, on a host of their own.
  const dataDir = await mkdtemp(path.join(tmpdir(), 'parlance-bench-scoring-'));
  cleanup.unshift(() => rm(dataDir, { recursive: true, force: true }));
  // Uploads go where the test stacks on PostgreSQL and Kafka keep theirs: a transcription worker of any of them may take ours.
  const pipelineEnv = { ...infra, ...addresses, GRPC_PORT: String(pipelinePort), DATA_DIR: dataDir, INGEST_MEDIA_DIR: SHARED_MEDIA_DIR };
  const pipelineConfig = loadHostConfig(pipelineEnv);
  const pipeline = new ModuleHost(createLogger({ service: 'bench-pipeline', level: 'error', pretty: false, destination: process.stderr }));
  const pipelineModules = [ingestModule(pipelineConfig, pipelineEnv), transcriptionModule(pipelineConfig, pipelineEnv)];
  for (const module of [...plumbingModules(pipelineConfig), ...pipelineModules]) pipeline.register(module);
  cleanup.unshift(() => pipeline.stop());
  await pipeline.start(pipelineModules.map((module) => module.name));

  // Scoring as its own process, as `make up` starts it.
  // At info (its default) it logs each activity it scores, which tells its work from other replicas'.
  const scoringEnv = { ...infra, ...addresses, GRPC_PORT: String(scoringPort), ADMIN_PORT: '0', LOG_LEVEL: 'info' };
  const workers = loadScoringConfig({ ...process.env, ...scoringEnv }).worker.workers;
  const scoredHere = new Set<string>();
  const spawnedAt = performance.now();
  const scoring = await startServiceProcess({
    service: 'scoring',
    env: scoringEnv,
    onLog: (entry) => {
      if (entry.msg === 'scored' && typeof entry.activityId === 'string') scoredHere.add(entry.activityId);
    },
  });
  cleanup.unshift(() => scoring.stop());
  const startedMs = performance.now() - spawnedAt;
  const memory = sampleMemory(scoring.pid, 100);
  cleanup.unshift(() => memory.stop());

  // A company with the team and its representative.
  const { browser, companyId } = await stack.signUpVerified();
  const member = memberPayload({ first_name: REPRESENTATIVE });
  const saved = await browser.put('/api/teams/save', { team: benchTeamPayload([member]), isNew: true, members: [member] });
  if (saved.status !== 200) throw new Error(`saving the team answered ${saved.status}: ${JSON.stringify(saved.body)}`);
  const teamId = (saved.body as { team: { id: string } }).team.id;

  // This bench's own view of the events, by activity, for this company only.
  const seen = new Map<string, Seen>();
  const entry = (activityId: string) => seen.get(activityId) ?? seen.set(activityId, {}).get(activityId)!;
  let lastEventAt = performance.now();
  let changed: () => void = () => undefined;
  const bus = createBus({ adapter: 'kafka', brokers: testKafkaBrokers(), clientId: 'scoring-bench' });
  cleanup.unshift(() => bus.close());
  await bus.subscribe({
    group: uniqueName('bench_scoring'),
    topics: [TRANSCRIPT_READY, TRANSCRIPTION_FAILED, ACTIVITY_SCORED, SCORING_FAILED],
    fromBeginning: false,
    handler: async (message) => {
      const arrivedAt = performance.now();
      const arrivedWallAt = Date.now();
      const envelope = readEnvelope(message);
      if (envelope.companyId !== companyId) return;
      // occurredAt is wall-clock time (ms); arrival is this process's monotonic clock.
      const occurredAt = envelope.occurredAt?.getTime() ?? NaN;
      if (envelope.type === TRANSCRIPT_READY) {
        const ready = TranscriptReady.decode(envelope.payload);
        Object.assign(entry(ready.activityId), { readyAt: arrivedAt, readyOccurredAt: occurredAt, readyArrivedAt: arrivedWallAt });
      } else if (envelope.type === ACTIVITY_SCORED) {
        const scored = ActivityScored.decode(envelope.payload);
        Object.assign(entry(scored.activityId), {
          scoredAt: arrivedAt,
          scoredOccurredAt: occurredAt,
          scoredArrivedAt: arrivedWallAt,
          score: scored.evaluation?.score,
          verdicts: scored.evaluation?.verdicts.length,
        });
      } else if (envelope.type === SCORING_FAILED) {
        const failed = ScoringFailed.decode(envelope.payload);
        entry(failed.activityId).failed = `scoring: ${failed.reason}`;
      } else if (envelope.type === TRANSCRIPTION_FAILED) {
        const failed = TranscriptionFailed.decode(envelope.payload);
        entry(failed.activityId).failed = `transcription: ${failed.reason}`;
      }
      lastEventAt = arrivedAt;
      changed();
    },
  });
  const finished = () => [...seen.values()].filter((activity) => activity.scoredAt !== undefined || activity.failed !== undefined).length;
  /** Resolves once `count` activities of the company have been scored or have failed. */
  const untilFinished = async (count: number) => {
    while (finished() < count) {
      if (performance.now() - lastEventAt > STALL_MS) throw new Error(`no event for ${STALL_MS / 1_000} s with ${finished()} of ${count} activities finished`);
      await new Promise<void>((resolve) => {
        changed = resolve;
        setTimeout(resolve, 1_000);
      });
    }
  };

  const calls = Array.from({ length: CALLS }, (_, i) => callDialogue({ words: WORDS, seed: i + 1, representative: REPRESENTATIVE }));
  const bodies = calls.map((dialogue, i) => ({
    fileName: `call-${i + 1}.txt`,
    content: transcriptText(dialogue),
    teamId,
    representative: member.email,
    repName: REPRESENTATIVE,
  }));
  let sent = 0;
  const upload = async () => {
    const body = bodies[sent++ % bodies.length]!;
    const response = await browser.post<{ jobId: string }>('/api/calls/transcribe/text', body);
    if (response.status !== 200) throw new Error(`upload answered ${response.status}: ${JSON.stringify(response.body)}`);
  };
  /** `count` uploads with CONCURRENCY in flight, each sent as soon as one is accepted. */
  const uploadMany = async (count: number) => {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next++;
        await upload();
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, worker));
  };

  /** Transcript-ready events as transcription would announce them, for activities no upload made. */
  const transcripts = calls.map((dialogue) => transcriptOf(dialogue));
  const publishReady = async (count: number) => {
    const messages = Array.from({ length: count }, (_, i) => {
      const activityId = randomUUID();
      const payload = TranscriptReady.encode({
        activityId,
        jobId: randomUUID(),
        kind: ActivityKind.ACTIVITY_KIND_CALL,
        teamId,
        representativeEmail: member.email,
        representativeName: REPRESENTATIVE,
        transcript: { ...transcripts[i % transcripts.length]!, activityId },
      }).finish();
      return busMessageFor(outboxMessageFor({ type: TRANSCRIPT_READY, companyId, producer: 'transcription', payload }));
    });
    // In batches, as an outbox relay sends them.
    for (let i = 0; i < messages.length; i += 100) await bus.publish(messages.slice(i, i + 100));
  };

  /** Sends `count` activities' way with `send`, and measures them until each is scored or failed. */
  const measureBurst = async (count: number, send: (count: number) => Promise<void>) => {
    const before = new Set(seen.keys());
    const cpuBefore = await cpuMsOf(scoring.pid);
    const started = performance.now();
    lastEventAt = started;
    await send(count);
    const sentMs = performance.now() - started;
    await untilFinished(before.size + count);
    const cpuAfter = await cpuMsOf(scoring.pid);
    const burst = [...seen.entries()].filter(([activityId]) => !before.has(activityId)).map(([activityId, activity]) => ({ activityId, ...activity }));
    const scored = burst.filter((activity) => activity.scoredAt !== undefined && activity.readyAt !== undefined);
    const failures = burst.filter((activity) => activity.failed !== undefined);
    if (scored.length === 0) throw new Error(`nothing of the burst was scored; failures: ${failures.slice(0, 3).map((failure) => failure.failed).join('; ')}`);
    const wrong = scored.filter((activity) => activity.verdicts !== CRITERIA_COUNT);
    if (wrong.length > 0) throw new Error(`${wrong.length} evaluations do not have ${CRITERIA_COUNT} verdicts`);
    const byArrival = scored.map((activity) => activity.scoredAt! - activity.readyAt!);
    const byOccurredAt = scored.map((activity) => activity.scoredOccurredAt! - activity.readyOccurredAt!);
    const firstReadyAt = Math.min(...scored.map((activity) => activity.readyAt!));
    const lastReadyAt = Math.max(...scored.map((activity) => activity.readyAt!));
    const lastScoredAt = Math.max(...scored.map((activity) => activity.scoredAt!));
    const totalMs = lastScoredAt - started;
    const scoredHereInBurst = scored.filter((activity) => scoredHere.has(activity.activityId)).length;
    const readings = memory.between(started, lastScoredAt);
    return {
      line: {
        scored: scored.length,
        failed: failures.length,
        scored_by_this_process: scoredHereInBurst,
        ready_to_scored_p50_ms: ms(median(byArrival)),
        ready_to_scored_p95_ms: ms(percentile(byArrival, 0.95)),
        ready_to_scored_max_ms: ms(Math.max(...byArrival)),
        occurred_at_p50_ms: ms(median(byOccurredAt)),
        occurred_at_p95_ms: ms(percentile(byOccurredAt, 0.95)),
        occurred_at_max_ms: ms(Math.max(...byOccurredAt)),
        // From an event's occurredAt to its arrival here: outbox relay and Kafka.
        ready_relay_p50_ms: ms(median(scored.map((activity) => activity.readyArrivedAt! - activity.readyOccurredAt!))),
        scored_relay_p50_ms: ms(median(scored.map((activity) => activity.scoredArrivedAt! - activity.scoredOccurredAt!))),
        sent_s: +(sentMs / 1_000).toFixed(1),
        total_s: +(totalMs / 1_000).toFixed(1),
        scored_per_s: +((scored.length * 1_000) / totalMs).toFixed(1),
        // How fast transcripts reached scoring, and how long scoring took from the first one.
        transcripts_per_s: +((scored.length * 1_000) / Math.max(1, lastReadyAt - firstReadyAt)).toFixed(1),
        scoring_window_s: +((lastScoredAt - firstReadyAt) / 1_000).toFixed(1),
        scoring_cpu_ms_per_activity: cpuBefore !== undefined && cpuAfter !== undefined && scoredHereInBurst > 0 ? +((cpuAfter - cpuBefore) / scoredHereInBurst).toFixed(1) : null,
        median_score: median(scored.map((activity) => activity.score ?? 0)),
      },
      peakRssKb: Math.max(0, ...readings.map((reading) => reading.rssKb)),
      samples: readings.length,
    };
  };
  const rest = async () => {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    return median(memory.between(performance.now() - 2_000).map((reading) => reading.rssKb));
  };

  // Warm-up: the team reaches scoring, every part has handled a few; then the process rests.
  lastEventAt = performance.now();
  await uploadMany(WARM_UP_UPLOADS);
  await untilFinished(WARM_UP_UPLOADS);
  const restKb = await rest();

  const uploads = await measureBurst(UPLOADS, uploadMany);
  console.log(JSON.stringify({ bench: 'scoring.pipeline', burst: 'uploads', activities: UPLOADS, concurrency: CONCURRENCY, words: WORDS, criteria: CRITERIA_COUNT, scoring_workers: workers, ...uploads.line, ...machine() }));
  const restAfterUploadsKb = await rest();

  const published = await measureBurst(PUBLISHED, publishReady);
  console.log(JSON.stringify({ bench: 'scoring.pipeline', burst: 'published', activities: PUBLISHED, words: WORDS, criteria: CRITERIA_COUNT, scoring_workers: workers, ...published.line, ...machine() }));
  const after = await memoryOf(scoring.pid);

  console.log(
    JSON.stringify({
      bench: 'scoring.worker-memory',
      process: 'scoring',
      scoring_workers: workers,
      started_s: +(startedMs / 1_000).toFixed(1),
      rss_at_rest_mb: mb(restKb),
      peak_rss_uploads_mb: mb(uploads.peakRssKb),
      rss_at_rest_after_uploads_mb: mb(restAfterUploadsKb),
      peak_rss_published_mb: mb(published.peakRssKb),
      vm_hwm_mb: after ? mb(after.hwmKb) : null,
      sample_ms: 100,
      samples: uploads.samples + published.samples,
      ...machine(),
    }),
  );
} finally {
  for (const step of cleanup) await step().catch((error: unknown) => console.error('cleanup failed:', error));
  await telemetry.shutdown();
}
