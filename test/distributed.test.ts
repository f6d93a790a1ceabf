/**
 * `make up`: every service as its own process (scripts/up.sh) against the real PostgreSQL and
 * Kafka, and the speech server (Whisper) as a process of its own. The gateway reaches each service
 * over gRPC; a probe crosses process boundaries (gateway → service → outbox → Kafka → consumer)
 * keeping the caller's trace id; and a call uploaded to the gateway travels ingest → transcription
 * (→ the speech server, for a recording) → scoring and back to the gateway's summary, its job
 * completing only once scored.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCapturedMail } from '@parlance/platform/mail/capture-mailer';
import { testDatabaseUrl } from '@parlance/platform/testing/infra';
import { wordErrorRate } from '@parlance/transcription/domain/word-error-rate';
import { createAudioWorkspace, type AudioWorkspace } from '../services/transcription/test/support/audio-files.js';
import type { SynthesizedCall } from '../services/transcription/test/support/synthesized-call.js';
import { ApiClient, linkIn } from './support/api-client.js';
import { DIAGNOSTICS_TOKEN, operatorHeaders } from './support/diagnostics.js';
import { freePort } from './support/free-port.js';
import { repoRoot } from './support/host-process.js';
import { SHARED_MEDIA_DIR } from './support/identity-stack.js';
import { waitFor } from './support/wait-for.js';
import {
  expectScoredByTheTeam,
  expectStereoCallJudged,
  expectTextCallJudged,
  saveScoringTeam,
  signUpCompany,
  synthesizeStereoCall,
  uploadAudioCall,
  uploadTextCall,
  type CallSummary,
  type ScoringTeam,
} from './scoring/scoring-fixtures.js';
import { finishedJob } from './uploads/upload-fixtures.js';

const run = promisify(execFile);
let env: NodeJS.ProcessEnv;
let gateway: string;
/** The speech server's base URL (its OpenAI-compatible API is under /v1). */
let speech: string;
let runDir: string;
/** What `make up` runs, each process by the name of its log and pid files. */
const PROCESSES = ['identity', 'ingest', 'transcription', 'scoring', 'analytics', 'integration', 'gateway', 'speech'];
/** The model the speech server serves, as transcription names it on every transcript (openai:<model>). */
const WHISPER_ENGINE = 'openai:whisper-tiny.en';
/**
 * The word error rate allowed on the synthesized call (38 words), over the summary's segments.
 * Whisper hears espeak-ng's voices whole but for the account number, said as four words and
 * written as digits ("4815"): 4 errors, 0.105, on both recordings; this leaves room for one more.
 */
const MAX_WORD_ERROR_RATE = 0.15;

async function consecutiveFreePorts(count: number): Promise<number> {
  // up.sh numbers ports from a base; pick a base whose whole range is free right now.
  for (let attempt = 0; attempt < 20; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    const free = await Promise.all(
      Array.from({ length: count }, (_, offset) =>
        import('node:net').then(
          ({ createServer }) =>
            new Promise<boolean>((resolve) => {
              const server = createServer().once('error', () => resolve(false));
              server.listen(base + offset, '127.0.0.1', () => server.close(() => resolve(true)));
            }),
        ),
      ),
    );
    if (free.every(Boolean)) return base;
  }
  throw new Error('no free port range');
}

beforeAll(async () => {
  runDir = await mkdtemp(path.join(tmpdir(), 'parlance-up-'));
  const [gatewayPort, speechPort] = [await freePort(), await freePort()];
  env = {
    ...process.env,
    UP_RUN_DIR: runDir,
    UP_GRPC_BASE_PORT: String(await consecutiveFreePorts(6)),
    // The six services', the gateway's and the speech process's.
    UP_ADMIN_BASE_PORT: String(await consecutiveFreePorts(8)),
    UP_SPEECH_PORT: String(speechPort),
    GATEWAY_PORT: String(gatewayPort),
    DIAGNOSTICS_TOKEN,
    // The in-process test stacks on the same PostgreSQL and Kafka are replicas of this
    // installation and may take its uploads: they share the media volume, as replicas do.
    INGEST_MEDIA_DIR: SHARED_MEDIA_DIR,
  };
  gateway = `http://127.0.0.1:${gatewayPort}`;
  speech = `http://127.0.0.1:${speechPort}`;
  // The speech server's Python environment is installed already (make test installs it first);
  // on a machine without it, start installs it and takes a few minutes more.
  await run('scripts/up.sh', ['start'], { cwd: repoRoot, env, timeout: 120_000 });
}, 150_000);

afterAll(async () => {
  await run('scripts/up.sh', ['stop'], { cwd: repoRoot, env, timeout: 60_000 }).catch(() => undefined);
  await rm(runDir, { recursive: true, force: true });
}, 90_000);

describe('distributed mode (make up)', () => {
  it('serves /api/health with every service in its own process', async () => {
    const response = await fetch(`${gateway}/api/health`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; mode: string; modules: Array<{ state: string }> };
    expect(body).toMatchObject({ status: 'ok', mode: 'distributed' });
    expect(body.modules).toHaveLength(6);
    const { stdout } = await run('scripts/up.sh', ['status'], { cwd: repoRoot, env });
    expect(stdout.trim().split('\n').sort()).toEqual(PROCESSES.map((name) => `${name}: running`).sort());
  });

  it('runs Whisper in a process of its own at UP_SPEECH_PORT, serving by the time start returns', async () => {
    const health = await fetch(`${speech}/health`);
    expect(health.status).toBe(200);
    const models = (await (await fetch(`${speech}/v1/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((model) => model.id)).toEqual(['whisper-tiny.en']);
  });

  it('serves the web app', async () => {
    const page = await fetch(`${gateway}/status`);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('keeps the caller’s trace id across processes, through Kafka, to the consumer', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const response = await fetch(`${gateway}/api/diagnostics/probes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...operatorHeaders, traceparent: `00-${traceId}-b7ad6b7169203331-01` },
      body: JSON.stringify({ service: 'transcription' }),
    });
    expect(response.status).toBe(201);
    const { probeId } = (await response.json()) as { probeId: string };
    const report = await waitFor('the probe to be consumed', async () => {
      const body = (await (await fetch(`${gateway}/api/diagnostics/probes/transcription/${probeId}`, { headers: operatorHeaders })).json()) as {
        state: string;
        sentTraceId: string;
        receivedTraceId: string | null;
      };
      return body.state === 'received' ? body : undefined;
    });
    expect(report.sentTraceId).toBe(traceId);
    expect(report.receivedTraceId).toBe(traceId);
  });

  it('signs a person up, verifies them from the e-mail identity kept, and knows them at the gateway', async () => {
    const browser = new ApiClient(gateway);
    const email = `dist-${Date.now()}@example.com`;
    const signup = await browser.post('/api/auth/signup', { firstName: 'Dora', lastName: 'Dist', email, password: 'across the processes 9' });
    expect(signup.status).toBe(200);
    // make up keeps e-mails in <run dir>/mail (MAIL_TRANSPORT=capture) instead of sending them.
    const mail = await waitFor('the verification e-mail', async () => (await listCapturedMail(path.join(runDir, 'mail'))).find((m) => m.to === email));
    const link = linkIn(mail.text, '/auth/verify-email');
    expect(link.origin).toBe(gateway);
    const verified = await browser.post<{ user: { email: string; role: string } }>('/api/auth/verify-email', { token: link.searchParams.get('token') });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ email, role: 'admin' });
    const session = await browser.get<{ company: { departments: string[] } }>('/api/auth/session');
    expect(session.status).toBe(200);
    expect(session.body.company.departments).toEqual(['sales', 'hr', 'support']);
  });

  describe('a text call and two recordings of two voices, stereo and mono, uploaded to the gateway', () => {
    let audio: AudioWorkspace;
    let database: pg.Pool;
    let company: { browser: ApiClient; companyId: string };
    let scoring: ScoringTeam;
    let stereo: { call: SynthesizedCall; oggPath: string };
    let monoPath: string;
    const jobs: { text?: string; stereo?: string; mono?: string } = {};

    beforeAll(async () => {
      audio = await createAudioWorkspace('parlance-up-audio-');
      database = new pg.Pool({ connectionString: testDatabaseUrl(), max: 1 });
      // make up captures e-mails in <run dir>/mail.
      [company, stereo] = await Promise.all([signUpCompany(gateway, runDir), synthesizeStereoCall(audio)]);
      // The same conversation with both voices on one channel, as a phone or a meeting app
      // records it: the speakers are told apart by voice.
      monoPath = audio.path('refund-call-mono.mp3');
      await audio.ffmpeg('-i', stereo.call.monoPath, '-c:a', 'libmp3lame', '-b:a', '64k', monoPath);
      scoring = await saveScoringTeam(company.browser);
      const [text, stereoUpload, monoUpload] = await Promise.all([
        uploadTextCall(company.browser, scoring),
        uploadAudioCall(company.browser, scoring, stereo.oggPath),
        uploadAudioCall(company.browser, scoring, monoPath),
      ]);
      for (const upload of [text, stereoUpload, monoUpload]) expect(upload.status, JSON.stringify(upload.body)).toBe(200);
      jobs.text = text.body.jobId;
      jobs.stereo = stereoUpload.body.jobId;
      jobs.mono = monoUpload.body.jobId;
    }, 90_000);

    afterAll(async () => {
      await database?.end();
      await audio?.remove();
    });

    /** Waits for the job, then reads the summary of the call it names (checked against ingest's table). */
    async function scoredSummary(jobId: string, timeoutMs: number) {
      const job = await finishedJob(company.browser, `/api/queue/job/${jobId}`, timeoutMs);
      const { rows } = await database.query<{ activity_id: string }>('select activity_id from ingest.jobs where id = $1 and company_id = $2', [jobId, company.companyId]);
      expect(rows.map((row) => row.activity_id)).toEqual([job.activityId]);
      const response = await company.browser.get<CallSummary>(`/api/calls/summary/${job.activityId}`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return { job, summary: response.body };
    }

    /** The speech engine transcription stored the call's transcript with, read from its table. */
    async function transcriptEngine(activityId: string): Promise<string | undefined> {
      const { rows } = await database.query<{ engine: string }>('select engine from transcription.transcripts where activity_id = $1 and company_id = $2', [
        activityId,
        company.companyId,
      ]);
      return rows[0]?.engine;
    }

    /** How far what the summary shows is from what the voices said, as a word error rate. */
    const wordErrorsOf = (summary: CallSummary) =>
      wordErrorRate(stereo.call.turns.map((turn) => turn.text).join(' '), summary.segments.map((segment) => segment.text).join(' ')).wer;

    it('completes the text call’s job once scored, with every criterion judged on evidence from its segment and the score of the passed weights', async () => {
      const { job, summary } = await scoredSummary(jobs.text!, 90_000);
      expect(job).toMatchObject({ status: 'completed', isCompleted: true, isFailed: false, failedReason: '' });
      expect(summary.transcript.split('\n')[0]).toBe('[0:02] Daniel: Thank you for calling Northwind, my name is Daniel. This call is recorded for quality purposes. How can I help?');
      expectTextCallJudged(summary, scoring.team);
    }, 120_000);

    it('transcribes the stereo recording with Whisper, the default, and completes its job once scored, with word timings and talk shares by time', async () => {
      const { job, summary } = await scoredSummary(jobs.stereo!, 240_000);
      expect(job, job.failedReason).toMatchObject({ status: 'completed', isCompleted: true, isFailed: false, failedReason: '' });
      expect(await transcriptEngine(job.activityId)).toBe(WHISPER_ENGINE);
      expect(wordErrorsOf(summary), summary.transcript).toBeLessThanOrEqual(MAX_WORD_ERROR_RATE);
      expectStereoCallJudged(summary, scoring.team, stereo.call);
    }, 300_000);

    it('transcribes the mono recording with Whisper, tells its two voices apart, and scores it on what the representative said', async () => {
      const { job, summary } = await scoredSummary(jobs.mono!, 240_000);
      expect(job, job.failedReason).toMatchObject({ status: 'completed', isCompleted: true, isFailed: false, failedReason: '' });
      expect(await transcriptEngine(job.activityId)).toBe(WHISPER_ENGINE);
      expect(wordErrorsOf(summary), summary.transcript).toBeLessThanOrEqual(MAX_WORD_ERROR_RATE);
      // Two speakers, the representative (who opens the call and says his name) first.
      expect([...new Set(summary.segments.map((segment) => segment.role))], summary.transcript).toEqual(['representative', 'contact']);
      const evaluation = expectScoredByTheTeam(summary, scoring.team);
      const verdict = (name: string) => evaluation.verdicts.find((each) => each.criterionName === name)!;
      expect(verdict('Refund').passed, `${verdict('Refund').reason}\nheard:\n${summary.transcript}`).toBe(true);
      expect(verdict('Refund').evidence.some((evidence) => /\brefund\b/i.test(evidence.quote))).toBe(true);
      expect(verdict('Recording notice').passed, summary.transcript).toBe(true);
      expect(verdict('Premium plan').passed).toBe(false);
    }, 300_000);
  });

  it('stops every process on SIGTERM, the speech process its Whisper server too', async () => {
    await run('scripts/up.sh', ['stop'], { cwd: repoRoot, env, timeout: 60_000 });
    await expect(run('scripts/up.sh', ['status'], { cwd: repoRoot, env })).rejects.toMatchObject({ code: 3 });
    for (const name of PROCESSES) {
      const log = await readFile(path.join(runDir, `${name}.log`), 'utf8');
      expect(log, `${name} stopped its module`).toContain(`"module":"${name}","msg":"module stopped"`);
      expect(log).toContain('"reason":"SIGTERM"');
    }
    await expect(fetch(`${speech}/health`)).rejects.toThrow();
  }, 60_000);
});
