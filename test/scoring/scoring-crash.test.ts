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
import { ApiClient } from '../support/api-client.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { freePort } from '../support/free-port.js';
import { startHostProcess, waitUntilReady, type HostProcess } from '../support/host-process.js';
import { waitFor } from '../support/wait-for.js';
import { finishedJob, type JobStatus } from '../uploads/upload-fixtures.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  await Promise.all(cleanups.map((cleanup) => cleanup()));
});

async function startProduct(env: Record<string, string>): Promise<{ host: HostProcess; demo: ApiClient }> {
  const host = startHostProcess([], env);
  await waitUntilReady(Number(env.ADMIN_PORT), host);
  const demo = new ApiClient(`http://127.0.0.1:${env.GATEWAY_PORT}`);
  const signedIn = await demo.post('/api/auth/login', { email: 'demo@parlance.local', password: 'Listen-and-learn-26' });
  expect(signedIn.status).toBe(200);
  return { host, demo };
}

it('takes up an evaluation whose process was killed mid-evaluation, once its lease runs out', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'parlance-scoring-crash-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // A model server that takes the request and never answers in time.
  const silentModel: FakeOpenAI = await startFakeOpenAI({ delayMs: 600_000 });
  cleanups.push(() => silentModel.close());
  const env = {
    DATA_DIR: dataDir,
    GRPC_PORT: String(await freePort()),
    ADMIN_PORT: String(await freePort()),
    GATEWAY_PORT: String(await freePort()),
    IDENTITY_DEMO_ACCOUNT: 'true',
    SCORING_LEASE_SECONDS: '3',
  };

  const first = await startProduct({ ...env, SCORING_LLM_URL: silentModel.baseUrl, SCORING_LLM_MODEL: 'slow-model' });
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

  const second = await startProduct(env);
  try {
    const job = await finishedJob(second.demo, `/api/queue/job/${upload.body.jobId}`, 60_000);
    expect(job).toMatchObject({ status: 'completed', isCompleted: true });
    const summary = (await second.demo.get<{ evaluation: { engine: string } | null }>(`/api/calls/summary/${activityOf(second, upload.body.jobId)}`)).body;
    expect(summary.evaluation?.engine).toBe('offline-evidence');
  } finally {
    second.host.child.kill('SIGTERM');
    await second.host.exited;
  }
}, 240_000);

/** The call the job belongs to, from the product's own log: scoring's line for it names both. */
function activityOf(product: { host: HostProcess }, jobId: string): string {
  const line = product.host
    .output()
    .split('\n')
    .find((candidate) => candidate.includes(jobId) && candidate.includes('"activityId"'));
  const activityId = line && /"activityId":"([0-9a-f-]{36})"/.exec(line)?.[1];
  if (!activityId) throw new Error(`no log line names the activity of job ${jobId}`);
  return activityId;
}
