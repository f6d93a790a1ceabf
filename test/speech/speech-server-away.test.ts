/**
 * Recordings when the speech server is not there (issue 33), through the gateway as a browser
 * uploads, on PGlite and the in-memory bus (so no other test's workers take these recordings):
 * - a speech server that is down when the recording comes (connection refused) makes it wait,
 *   said once in the log, and the job completes once the server is started;
 * - where Python cannot be set up (SPEECH_PYTHON names no interpreter), the local engine hears
 *   recordings with PocketSphinx, warns once in the log, and each transcript says so.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@parlance/platform/logger';
import type { Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { loadSpeechConfig } from '@parlance/speech/config';
import { SPEECH_SERVER_MODEL } from '@parlance/speech/speech-server';
import { startSpeechSupervisor, type SpeechSupervisor } from '@parlance/speech/supervisor';
import { TRANSCRIPTION_WARNINGS } from '@parlance/transcription/pipeline/transcribe-activity';
import { createAudioWorkspace, type AudioWorkspace } from '../../services/transcription/test/support/audio-files.js';
import { synthesizeCall, type SynthesizedCall } from '../../services/transcription/test/support/synthesized-call.js';
import { freePort } from '../support/free-port.js';
import { startIdentityStack, type IdentityStack } from '../support/identity-stack.js';
import { waitFor } from '../support/wait-for.js';
import { activityOfJob, finishedJob, storedTranscript, uploadingCompany, type JobStatus, type UploadingCompany } from '../uploads/upload-fixtures.js';

let audio: AudioWorkspace;
let call: SynthesizedCall;

beforeAll(async () => {
  audio = await createAudioWorkspace('parlance-speech-away-');
  call = await synthesizeCall(audio.dir, { script: 'delivery', turns: 4, seed: 3 });
}, 60_000);

afterAll(async () => {
  await audio?.remove();
});

async function upload(company: UploadingCompany, fileName: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([await readFile(call.stereoPath)]), fileName);
  form.append('audioDate', '2026-11-21T15:00:00.000Z');
  form.append('teamId', company.teamId);
  form.append('representative', company.representative.email);
  form.append('repName', 'Jordan');
  const response = await company.browser.postForm<{ jobId: string }>('/api/calls/transcribe/audio', form);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.jobId;
}

async function completedTranscript(stack: IdentityStack, company: UploadingCompany, jobId: string, timeoutMs: number): Promise<Transcript> {
  const job = await finishedJob(company.browser, `/api/queue/job/${jobId}`, timeoutMs);
  expect(job, job.failedReason).toMatchObject({ isCompleted: true });
  return (await storedTranscript(stack, company.companyId, await activityOfJob(stack, company.companyId, jobId)))!;
}

const logLines = (stack: IdentityStack, message: string) =>
  stack
    .logs()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown> & { msg: string })
    .filter((line) => line.msg === message);

describe('a speech server that is down when the recording comes', () => {
  let stack: IdentityStack;
  let company: UploadingCompany;
  let speechPort: number;
  let server: SpeechSupervisor | undefined;

  beforeAll(async () => {
    speechPort = await freePort();
    // `make up`'s settings: the speech process at a fixed port, which is not running yet.
    stack = await startIdentityStack({
      infrastructure: 'pglite-memory',
      withIngest: true,
      env: { TRANSCRIPTION_SPEECH_URL: `http://127.0.0.1:${speechPort}/v1`, TRANSCRIPTION_SPEECH_MODEL: SPEECH_SERVER_MODEL },
    });
    company = await uploadingCompany(stack, { first_name: 'Jordan' });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await stack?.stop();
  });

  it('makes the recording wait, said once, and completes it once the server is up', async () => {
    const jobId = await upload(company, 'delivery-call.wav');
    await waitFor('the recording to wait for the speech server', async () => (logLines(stack, 'recordings wait for the speech server').length > 0 ? true : undefined), 60_000);
    // It keeps waiting, handed back and tried again every few seconds, never failed.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const waiting = await company.browser.get<JobStatus>(`/api/queue/job/${jobId}`);
    expect(waiting.body).toMatchObject({ status: 'active', isFailed: false, isCompleted: false });
    expect(logLines(stack, 'recordings wait for the speech server')).toEqual([expect.objectContaining({ reason: 'the speech server could not be reached (ECONNREFUSED)' })]);

    const upAt = performance.now();
    server = startSpeechSupervisor({
      config: loadSpeechConfig({ SPEECH_PORT: String(speechPort) }),
      logger: createLogger({ service: 'speech-test', level: 'warn', pretty: false }),
      start: 'eager',
    });
    const transcript = await completedTranscript(stack, company, jobId, 240_000);
    expect(transcript.engine).toBe(`openai:${SPEECH_SERVER_MODEL}`);
    expect(transcript.speakers).toHaveLength(2);
    expect(logLines(stack, 'recordings wait for the speech server')).toHaveLength(1);
    const [resumed] = logLines(stack, 'the speech server answers again; waiting recordings continue');
    expect(resumed).toMatchObject({ outageMs: expect.any(Number), handedBack: expect.any(Number) });
    // eslint-disable-next-line no-console -- the figures the issue asks to report
    console.log(`a recording waited ${((resumed!.outageMs as number) / 1000).toFixed(1)} s for a speech server that was down (handed back ${resumed!.handedBack} times); completed ${((performance.now() - upAt) / 1000).toFixed(1)} s after the server was started`);
  }, 360_000);
});

describe('the local engine where Python cannot be set up', () => {
  let stack: IdentityStack;
  let company: UploadingCompany;
  let venvDir: string;

  beforeAll(async () => {
    venvDir = await mkdtemp(path.join(tmpdir(), 'parlance-no-python-'));
    // No speech engine named (the local one), and no Python to build its environment with.
    stack = await startIdentityStack({ infrastructure: 'pglite-memory', withIngest: true, env: { SPEECH_PYTHON: '/nonexistent/python3', SPEECH_VENV_DIR: venvDir } });
    company = await uploadingCompany(stack, { first_name: 'Jordan' });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await rm(venvDir, { recursive: true, force: true });
    await rm(`${venvDir}.lock`, { force: true });
  });

  it('transcribes recordings with PocketSphinx, warning once in the log and on every transcript', async () => {
    const [first, second] = await Promise.all([upload(company, 'delivery-call.wav'), upload(company, 'delivery-call-again.wav')]);
    for (const jobId of [first!, second!]) {
      const transcript = await completedTranscript(stack, company, jobId, 240_000);
      expect(transcript.engine).toBe('pocketsphinx');
      expect(transcript.warnings).toEqual([TRANSCRIPTION_WARNINGS.basicEngine]);
      expect(transcript.speakers).toHaveLength(2);
    }
    expect(TRANSCRIPTION_WARNINGS.basicEngine).toBe(
      'This recording was transcribed by the basic offline speech engine, because the Whisper speech server could not be set up on this server: some words may be wrong.',
    );
    expect(logLines(stack, 'the speech server cannot run on this machine')).toEqual([
      expect.objectContaining({ level: 40, reason: 'Python cannot be set up on this machine (No Python (/nonexistent/python3) on this machine: the speech server cannot be installed)' }),
    ]);
    expect(logLines(stack, 'the Whisper speech server cannot run here, so recordings are transcribed by PocketSphinx, the basic offline engine; their transcripts say so')).toHaveLength(1);
  }, 360_000);
});
