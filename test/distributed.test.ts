/**
 * `make up`: every service as its own process (scripts/up.sh) against the real PostgreSQL and
 * Kafka. The gateway reaches each over gRPC; a probe crosses process boundaries (gateway →
 * service → outbox → Kafka → consumer) keeping the caller's trace id; and a call uploaded to the
 * gateway travels ingest → transcription → scoring and back to the gateway's summary, its job
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
import { createAudioWorkspace, type AudioWorkspace } from '../services/transcription/test/support/audio-files.js';
import type { SynthesizedCall } from '../services/transcription/test/support/synthesized-call.js';
import { ApiClient, linkIn } from './support/api-client.js';
import { DIAGNOSTICS_TOKEN, operatorHeaders } from './support/diagnostics.js';
import { freePort } from './support/free-port.js';
import { repoRoot } from './support/host-process.js';
import { SHARED_MEDIA_DIR } from './support/identity-stack.js';
import { waitFor } from './support/wait-for.js';
import {
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
let runDir: string;

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
  const gatewayPort = await freePort();
  env = {
    ...process.env,
    UP_RUN_DIR: runDir,
    UP_GRPC_BASE_PORT: String(await consecutiveFreePorts(6)),
    UP_ADMIN_BASE_PORT: String(await consecutiveFreePorts(7)),
    GATEWAY_PORT: String(gatewayPort),
    DIAGNOSTICS_TOKEN,
    // The in-process test stacks on the same PostgreSQL and Kafka are replicas of this
    // installation and may take its uploads: they share the media volume, as replicas do.
    INGEST_MEDIA_DIR: SHARED_MEDIA_DIR,
  };
  gateway = `http://127.0.0.1:${gatewayPort}`;
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
    expect(stdout.trim().split('\n')).toHaveLength(7);
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

  describe('a text call and a stereo recording uploaded to the gateway', () => {
    let audio: AudioWorkspace;
    let database: pg.Pool;
    let company: { browser: ApiClient; companyId: string };
    let scoring: ScoringTeam;
    let stereo: { call: SynthesizedCall; oggPath: string };
    const jobs: { text?: string; audio?: string } = {};

    beforeAll(async () => {
      audio = await createAudioWorkspace('parlance-up-audio-');
      database = new pg.Pool({ connectionString: testDatabaseUrl(), max: 1 });
      // make up captures e-mails in <run dir>/mail.
      [company, stereo] = await Promise.all([signUpCompany(gateway, runDir), synthesizeStereoCall(audio)]);
      scoring = await saveScoringTeam(company.browser);
      const [text, recording] = await Promise.all([uploadTextCall(company.browser, scoring), uploadAudioCall(company.browser, scoring, stereo.oggPath)]);
      expect(text.status, JSON.stringify(text.body)).toBe(200);
      expect(recording.status, JSON.stringify(recording.body)).toBe(200);
      jobs.text = text.body.jobId;
      jobs.audio = recording.body.jobId;
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

    it('completes the text call’s job once scored, with every criterion judged on evidence from its segment and the score of the passed weights', async () => {
      const { job, summary } = await scoredSummary(jobs.text!, 90_000);
      expect(job).toMatchObject({ status: 'completed', isCompleted: true, isFailed: false, failedReason: '' });
      expect(summary.transcript.split('\n')[0]).toBe('[0:02] Daniel: Thank you for calling Northwind, my name is Daniel. This call is recorded for quality purposes. How can I help?');
      expectTextCallJudged(summary, scoring.team);
    }, 120_000);

    it('completes the stereo recording’s job once transcribed by PocketSphinx and scored, with word timings and talk shares by time', async () => {
      const { job, summary } = await scoredSummary(jobs.audio!, 240_000);
      expect(job, job.failedReason).toMatchObject({ status: 'completed', isCompleted: true, isFailed: false, failedReason: '' });
      expectStereoCallJudged(summary, scoring.team, stereo.call);
    }, 300_000);
  });

  it('stops every process on SIGTERM', async () => {
    await run('scripts/up.sh', ['stop'], { cwd: repoRoot, env, timeout: 60_000 });
    await expect(run('scripts/up.sh', ['status'], { cwd: repoRoot, env })).rejects.toMatchObject({ code: 3 });
    for (const service of ['identity', 'ingest', 'transcription', 'scoring', 'analytics', 'integration', 'gateway']) {
      const log = await readFile(path.join(runDir, `${service}.log`), 'utf8');
      expect(log, `${service} stopped its module`).toContain(`"module":"${service}","msg":"module stopped"`);
      expect(log).toContain('"reason":"SIGTERM"');
    }
  }, 60_000);
});
