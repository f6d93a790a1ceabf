/**
 * An acknowledged upload is never lost (issue 6, point 3): the standalone product as a real
 * process takes uploads, is killed outright (SIGKILL) the moment the last one is answered, and
 * after a restart on the same data every acknowledged job exists and completes. The transcription
 * lease is short here so work claimed by the killed process is picked up again within the test.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { synthesizeCall } from '../../services/transcription/test/support/synthesized-call.js';
import { standaloneEnv, startDemoProduct } from '../support/host-process.js';
import { finishedJob } from './upload-fixtures.js';

const dataDirs: string[] = [];
afterAll(async () => {
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

it('keeps every acknowledged upload when killed right after answering, and completes them after a restart', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'parlance-uploads-'));
  dataDirs.push(dataDir);
  const env = {
    ...(await standaloneEnv(dataDir)),
    IDENTITY_DEMO_ACCOUNT: 'true',
    TRANSCRIPTION_LEASE_SECONDS: '5',
  };
  const [first, call] = await Promise.all([startDemoProduct(env), synthesizeCall(path.join(dataDir, 'synthesized'), { script: 'billing', turns: 6, seed: 3 })]);
  expect(first.signInStatus).toBe(200);
  const teams = (await first.demo.get<Array<{ id: string; name: string; members: string[] }>>('/api/teams/fetch/?department=sales')).body;
  const team = teams.find((candidate) => candidate.members.length > 0)!;

  // A recording first: its transcription is surely still running when the process dies.
  const recording = new FormData();
  recording.append('file', new Blob([await readFile(call.stereoPath)]), 'billing-call.wav');
  recording.append('teamId', team.id);
  recording.append('representative', team.members[0]!);
  recording.append('repName', 'Maya');
  const audioUpload = await first.demo.postForm<{ jobId: string }>('/api/calls/transcribe/audio', recording);
  expect(audioUpload.status).toBe(200);

  const textUploads = await Promise.all(
    Array.from({ length: 24 }, async (_, index) => {
      const response = await first.demo.post<{ jobId: string }>('/api/calls/transcribe/text', {
        fileName: `call-${index}.txt`,
        content: `Maya: Thank you for calling, this is Maya.\nCaller ${index}: Hello, I have a question about invoice ${index}.`,
        teamId: team.id,
        representative: team.members[0],
        repName: 'Maya',
      });
      expect(response.status).toBe(200);
      return response.body.jobId;
    }),
  );
  const uploads = [audioUpload.body.jobId, ...textUploads];
  first.host.child.kill('SIGKILL');
  await first.host.exited;

  const second = await startDemoProduct(env);
  expect(second.signInStatus).toBe(200);
  try {
    for (const jobId of uploads) {
      expect(await finishedJob(second.demo, `/api/queue/job/${jobId}`, 120_000)).toMatchObject({ status: 'completed' });
    }
  } finally {
    second.host.child.kill('SIGTERM');
    await second.host.exited;
  }
}, 300_000);
