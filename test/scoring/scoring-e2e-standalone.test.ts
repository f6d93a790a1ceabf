/**
 * The standalone product as a person runs it (`make run`: one real host process on PGlite and the
 * in-memory bus, its own DATA_DIR) scores what is uploaded to it: a new company's admin signs up,
 * saves a team with weighted criteria, a success prompt and a call script, uploads a text call and
 * a stereo OGG/Opus recording through the gateway, and reads back both summaries once their jobs
 * complete — every criterion judged, evidence quoted from the segment it names, the score of the
 * passed weights, and statistics (from word timings, talk shares by time, for the recording).
 * test/scoring/scoring-standalone.test.ts covers the same code path in-process; this one covers
 * the product's own process, its configuration and its default speech engine (Whisper on the
 * speech server the host installs and supervises).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAudioWorkspace, type AudioWorkspace } from '../../services/transcription/test/support/audio-files.js';
import type { SynthesizedCall } from '../../services/transcription/test/support/synthesized-call.js';
import type { ApiClient } from '../support/api-client.js';
import { standaloneEnv, startHostProcess, waitUntilReady, type HostProcess } from '../support/host-process.js';
import { finishedJob, type JobStatus } from '../uploads/upload-fixtures.js';
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
} from './scoring-fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let dataDir: string;
let host: HostProcess;
let audio: AudioWorkspace;
let browser: ApiClient;
let scoring: ScoringTeam;
let stereo: { call: SynthesizedCall; oggPath: string };
const jobs: { text?: string; audio?: string } = {};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'parlance-scoring-e2e-'));
  audio = await createAudioWorkspace('parlance-scoring-e2e-audio-');
  const env = {
    ...(await standaloneEnv(dataDir)),
  };
  host = startHostProcess([], env);
  [, stereo] = await Promise.all([waitUntilReady(Number(env.ADMIN_PORT), host, 90_000), synthesizeStereoCall(audio)]);
  // The standalone product captures its e-mails in <DATA_DIR>/mail.
  ({ browser } = await signUpCompany(`http://127.0.0.1:${env.GATEWAY_PORT}`, dataDir));
  scoring = await saveScoringTeam(browser);

  // Both uploads go in at once, as two people's would: the recording takes longest to transcribe.
  const [text, recording] = await Promise.all([uploadTextCall(browser, scoring), uploadAudioCall(browser, scoring, stereo.oggPath)]);
  expect(text.status, JSON.stringify(text.body)).toBe(200);
  expect(recording.status, JSON.stringify(recording.body)).toBe(200);
  jobs.text = text.body.jobId;
  jobs.audio = recording.body.jobId;
}, 180_000);

afterAll(async () => {
  if (host && host.child.exitCode === null) {
    host.child.kill('SIGTERM');
    await host.exited;
  }
  await audio?.remove();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

/** Waits for the job, then reads the summary of the call it made. */
async function scoredSummary(jobId: string, timeoutMs: number): Promise<{ job: JobStatus; summary: CallSummary }> {
  const job = await finishedJob(browser, `/api/queue/job/${jobId}`, timeoutMs);
  // The job names the call it processed.
  const response = await browser.get<CallSummary>(`/api/calls/summary/${job.activityId}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { job, summary: response.body };
}

describe('scoring in the standalone product, a real host process', () => {
  it('completes a text call’s job once scored, with the verdicts, evidence, score and statistics the offline evaluator gives it', async () => {
    const { job, summary } = await scoredSummary(jobs.text!, 90_000);
    expect(job).toEqual({ status: 'completed', isCompleted: true, isFailed: false, failedReason: '', activityId: expect.stringMatching(UUID) });
    expect(summary.transcript.split('\n')[0]).toBe('[0:02] Daniel: Thank you for calling Northwind, my name is Daniel. This call is recorded for quality purposes. How can I help?');
    expectTextCallJudged(summary, scoring.team);
  }, 120_000);

  it('completes a stereo recording’s job once transcribed by PocketSphinx and scored, the refund heard and passed on the representative’s words', async () => {
    const { job, summary } = await scoredSummary(jobs.audio!, 240_000);
    expect(job, job.failedReason).toEqual({ status: 'completed', isCompleted: true, isFailed: false, failedReason: '', activityId: expect.stringMatching(UUID) });
    expectStereoCallJudged(summary, scoring.team, stereo.call);
  }, 300_000);
});
