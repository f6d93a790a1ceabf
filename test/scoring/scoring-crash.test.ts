/**
 * An evaluation interrupted by a crash is taken up again: the standalone product as a real process
 * evaluates with a chat model that never answers, is killed outright (SIGKILL) while the request
 * is in flight, and a new process on the same data (offline evaluator this time) takes the work
 * up once its lease has run out, so the job completes. Until then the job stays active: a
 * transcript alone no longer completes it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { standaloneEnv, startDemoProduct } from '../support/host-process.js';
import { waitFor } from '../support/wait-for.js';
import { finishedJob, type JobStatus } from '../uploads/upload-fixtures.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  await Promise.all(cleanups.map((cleanup) => cleanup()));
});

it('takes up an evaluation whose process was killed mid-evaluation, once its lease runs out', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'parlance-scoring-crash-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // A model server that takes the request and never answers in time.
  const silentModel: FakeOpenAI = await startFakeOpenAI({ delayMs: 600_000 });
  cleanups.push(() => silentModel.close());
  const env = {
    ...(await standaloneEnv(dataDir)),
    IDENTITY_DEMO_ACCOUNT: 'true',
    SCORING_LEASE_SECONDS: '3',
  };

  const first = await startDemoProduct({ ...env, SCORING_LLM_URL: silentModel.baseUrl, SCORING_LLM_MODEL: 'slow-model' });
  expect(first.signInStatus).toBe(200);
  const teams = (await first.demo.get<Array<{ id: string; members: string[] }>>('/api/teams/fetch/?department=sales')).body;
  const team = teams.find((candidate) => candidate.members.length > 0)!;
  const upload = await first.demo.post<{ jobId: string }>('/api/calls/transcribe/text', {
    fileName: 'interrupted.txt',
    content: 'Maya: Thank you for calling Parlance, this is Maya. How can I help?\nJordan: I would like a demo for my team next week.\nMaya: Of course, does Tuesday at 10 work?',
    teamId: team.id,
    representative: team.members[0],
    repName: 'Maya',
  });
  expect(upload.status).toBe(200);
  await waitFor('the evaluation to reach the model', async () => (silentModel.requests().length > 0 ? true : undefined), 60_000);
  const during = await first.demo.get<JobStatus>(`/api/queue/job/${upload.body.jobId}`);
  expect(during.body).toMatchObject({ status: 'active', isCompleted: false, isFailed: false });
  first.host.child.kill('SIGKILL');
  await first.host.exited;

  const second = await startDemoProduct(env);
  expect(second.signInStatus).toBe(200);
  try {
    const job = await finishedJob(second.demo, `/api/queue/job/${upload.body.jobId}`, 60_000);
    expect(job).toMatchObject({ status: 'completed', isCompleted: true });
    const summary = (await second.demo.get<{ evaluation: { engine: string } | null }>(`/api/calls/summary/${job.activityId}`)).body;
    expect(summary.evaluation?.engine).toBe('offline-evidence+minilm');
  } finally {
    second.host.child.kill('SIGTERM');
    await second.host.exited;
  }
}, 240_000);
