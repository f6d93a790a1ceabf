/**
 * Whisper by default in the standalone product (issue 33): the host as a person runs it (`make
 * run`: one real process, PGlite, the in-memory bus, its own DATA_DIR) with no speech settings at
 * all installs (here: finds) and starts its own speech server with the first recording, and
 * transcribes a two-voice mono call with Whisper, split by the server's diarization; the summary
 * read back through the API judges what was said. Then the speech server is killed (SIGKILL to the
 * Python child) while a longer call is being transcribed: the host restarts it, the recording
 * waits and is tried again, and its job completes with one transcript, nothing lost.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@parlance/platform/grpc/grpc-client';
import { TranscriptionServiceClient, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { wordErrorRate } from '@parlance/transcription/domain/word-error-rate';
import { createAudioWorkspace, type AudioWorkspace } from '../../services/transcription/test/support/audio-files.js';
import { synthesizeCall, type SynthesizedCall } from '../../services/transcription/test/support/synthesized-call.js';
import type { ApiClient } from '../support/api-client.js';
import { standaloneEnv, startHostProcess, waitUntilReady, type HostProcess } from '../support/host-process.js';
import { waitFor } from '../support/wait-for.js';
import { finishedJob, type JobStatus } from '../uploads/upload-fixtures.js';
import { expectScoredByTheTeam, saveScoringTeam, signUpCompany, STEREO_CALL_LINES, uploadAudioCall, type CallSummary, type ScoringTeam } from '../scoring/scoring-fixtures.js';

let dataDir: string;
let host: HostProcess;
let env: Awaited<ReturnType<typeof standaloneEnv>>;
let audio: AudioWorkspace;
let browser: ApiClient;
let companyId: string;
let scoring: ScoringTeam;
let refundCall: SynthesizedCall;
let hostStartedAt: number;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'parlance-whisper-standalone-'));
  audio = await createAudioWorkspace('parlance-whisper-standalone-audio-');
  env = await standaloneEnv(dataDir);
  hostStartedAt = performance.now();
  // No speech settings: the default engine.
  host = startHostProcess([], env);
  [, refundCall] = await Promise.all([waitUntilReady(Number(env.ADMIN_PORT), host, 90_000), synthesizeCall(path.join(audio.dir, 'refund'), { lines: STEREO_CALL_LINES, seed: 1 })]);
  ({ browser, companyId } = await signUpCompany(`http://127.0.0.1:${env.GATEWAY_PORT}`, dataDir));
  scoring = await saveScoringTeam(browser);
}, 180_000);

afterAll(async () => {
  if (host && host.child.exitCode === null) {
    host.child.kill('SIGTERM');
    await host.exited;
  }
  await audio?.remove();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

/** The host's log lines (pino JSON) with this message. */
const logged = (message: string) =>
  host
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown> & { msg: string })
    .filter((line) => line.msg === message);

async function transcriptOf(activityId: string): Promise<Transcript> {
  const client = createClient(TranscriptionServiceClient, `127.0.0.1:${env.GRPC_PORT}`);
  try {
    return (await client.getTranscript({ activityId }, { companyId })).transcript!;
  } finally {
    client.close();
  }
}

async function uploadMp3(call: SynthesizedCall, name: string): Promise<string> {
  const mp3 = audio.path(name);
  await audio.ffmpeg('-i', call.monoPath, '-c:a', 'libmp3lame', '-b:a', '64k', mp3);
  const upload = await uploadAudioCall(browser, scoring, mp3);
  expect(upload.status, JSON.stringify(upload.body)).toBe(200);
  return upload.body.jobId;
}

/** The python process of the speech server, a child of the host. */
function speechServerPid(): number | undefined {
  const children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(host.child.pid)]).toString();
  const line = children.split('\n').find((entry) => entry.includes('server.py'));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

describe('the standalone product without speech settings', () => {
  it('transcribes a two-voice mono call with Whisper, split by the server’s diarization, and scores what was said', async () => {
    const uploadedAt = performance.now();
    const jobId = await uploadMp3(refundCall, 'refund-call.mp3');
    const job = await finishedJob(browser, `/api/queue/job/${jobId}`, 240_000);
    expect(job, job.failedReason).toMatchObject({ isCompleted: true });
    // eslint-disable-next-line no-console -- the figures the issue asks to report
    console.log(
      `first recording (${(refundCall.durationMs / 1000).toFixed(1)} s, mono MP3) transcribed and scored ${((performance.now() - uploadedAt) / 1000).toFixed(1)} s after upload, ${((performance.now() - hostStartedAt) / 1000).toFixed(1)} s after the host was started`,
    );

    // Started with the first recording, not with the host.
    const [serving] = logged('the speech server is serving');
    const pid = speechServerPid()!;
    const residentKiB = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    // eslint-disable-next-line no-console -- the figures the issue asks to report
    console.log(`speech server started on demand in ${((serving!.tookMs as number) / 1000).toFixed(1)} s; its Python process holds ${Math.round(residentKiB / 1024)} MiB`);

    const transcript = await transcriptOf(job.activityId);
    expect(transcript.engine).toBe('local:whisper-tiny.en');
    expect(transcript.speakers.map((speaker) => speaker.label)).toEqual(['Speaker 1', 'Speaker 2']);
    const heard = transcript.segments.map((segment) => segment.text).join(' ');
    const { wer } = wordErrorRate(STEREO_CALL_LINES.map((line) => line.text).join(' '), heard);
    // eslint-disable-next-line no-console -- the figure the issue asks to report
    console.log(`refund call: Whisper WER ${(wer * 100).toFixed(1)}% — "${heard}"`);
    expect(wer).toBeLessThanOrEqual(0.2);
    // Every word a timing, and the speakers take turns as the script does.
    expect(transcript.segments.every((segment) => segment.words.length > 0 && segment.words.every((word) => word.endMs >= word.startMs))).toBe(true);
    expect(transcript.segments.map((segment) => segment.speaker)).toEqual(STEREO_CALL_LINES.map((line) => `Speaker ${line.speaker + 1}`));

    const summary = await browser.get<CallSummary>(`/api/calls/summary/${job.activityId}`);
    expect(summary.status).toBe(200);
    const evaluation = expectScoredByTheTeam(summary.body, scoring.team);
    // Whisper hears the whole script: the representative greets with their name, gives the
    // recording notice, asks for the account number and offers the refund; no premium plan.
    expect(evaluation.verdicts.map((verdict) => [verdict.criterionName, verdict.passed])).toEqual([
      ['Greeting', true],
      ['Recording notice', true],
      ['Account number', true],
      ['Refund', true],
      ['Premium plan', false],
    ]);
    expect(summary.body.segments.map((segment) => segment.role)).toEqual(STEREO_CALL_LINES.map((line) => (line.speaker === 0 ? 'representative' : 'contact')));
  }, 300_000);

  it('completes a recording whose speech server was killed while transcribing it: restarted, retried, nothing lost or doubled', async () => {
    const long = await synthesizeCall(path.join(audio.dir, 'long'), { script: 'billing', turns: 12, seed: 4 });
    const firstPid = speechServerPid();
    expect(firstPid, 'the speech server runs after the first recording').toBeDefined();
    const jobId = await uploadMp3(long, 'billing-call.mp3');
    await waitFor(
      'the recording to be in hand',
      async () => {
        const job = await browser.get<JobStatus>(`/api/queue/job/${jobId}`);
        return job.body.status === 'active' ? true : undefined;
      },
      60_000,
    );
    // Decoded and sent in about a second; a minute of call takes Whisper far longer than that.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const killedAt = performance.now();
    process.kill(firstPid!, 'SIGKILL');

    const job = await finishedJob(browser, `/api/queue/job/${jobId}`, 300_000);
    expect(job, job.failedReason).toMatchObject({ isCompleted: true });
    const secondPid = speechServerPid();
    expect(secondPid).toBeDefined();
    expect(secondPid).not.toBe(firstPid);

    // The host said the server died and was restarted, and that recordings waited, once.
    expect(logged('the speech server stopped unexpectedly; restarting it')).toEqual([expect.objectContaining({ how: 'killed by SIGKILL', pid: firstPid })]);
    const waits = logged('recordings wait for the speech server');
    const resumed = logged('the speech server answers again; waiting recordings continue');
    expect(waits).toHaveLength(1);
    expect(resumed).toEqual([expect.objectContaining({ outageMs: expect.any(Number), handedBack: expect.any(Number) })]);
    // eslint-disable-next-line no-console -- the figures the issue asks to report
    console.log(
      `speech server killed during a ${(long.durationMs / 1000).toFixed(1)} s call: recordings waited ${((resumed[0]!.outageMs as number) / 1000).toFixed(1)} s for it (handed back ${resumed[0]!.handedBack} times), the job completed ${((performance.now() - killedAt) / 1000).toFixed(1)} s after the kill`,
    );

    // One transcript, all of the call in it once.
    const transcript = await transcriptOf(job.activityId);
    expect(transcript.engine).toBe('local:whisper-tiny.en');
    const { wer, insertions } = wordErrorRate(long.turns.map((turn) => turn.text).join(' '), transcript.segments.map((segment) => segment.text).join(' '));
    // eslint-disable-next-line no-console -- the figure the issue asks to report
    console.log(`the killed-and-retried call: Whisper WER ${(wer * 100).toFixed(1)}%`);
    expect(wer).toBeLessThanOrEqual(0.25);
    expect(insertions).toBeLessThanOrEqual(5);
    const ready = host.output().split('\n').filter((line) => line.includes('"msg":"transcribed"') && line.includes(job.activityId));
    expect(ready).toHaveLength(1);
  }, 420_000);
});
