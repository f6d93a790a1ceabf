/**
 * How well the speech server tells speakers apart (POST /v1/audio/diarization: Silero VAD, GE2E
 * speaker embeddings, agglomerative clustering), against the transcription service's built-in
 * TypeScript method (findSpeakerTurns: energy, pitch and cepstra, at most two speakers), on the same
 * mono mixes of real recordings (support/diarization-mixes.ts). Both are scored by the diarization
 * error rate (support/diarization-error-rate.ts):
 *
 *   DER = (missed speech + false alarm + speaker confusion) / reference speech,
 *
 * on 10 ms frames, with the optimal one-to-one mapping of reference to hypothesis speakers and a
 * 0.25 s forgiveness collar around every reference turn's start and end.
 *
 * The server's thresholds were chosen on the calibration mixes; the held-out mixes (other pairs of
 * voices) are what the bound below is about. Measured on 2 CPUs (see services/speech/README.md):
 * calibration 0.2%, held-out 7.3% (all of it speech Silero missed in one faint narrow-band voice;
 * no confusion), one voice alone one speaker, three voices three speakers.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWhisperServer, type WhisperServer } from '../../../test/support/whisper-server.js';
import { encodeWav16k } from '@parlance/transcription/domain/pcm';
import { findSpeakerTurns } from '@parlance/transcription/domain/speaker-turns';
import { diarizationErrorRate, overallDiarizationErrorRate, type DiarizationError, type SpeakerSegment } from './support/diarization-error-rate.js';
import { loadDiarizationRecordings, type DiarizationRecordings } from './support/diarization-mixes.js';
import { postForm, type DiarizationBody } from './support/speech-requests.js';
import type { VoiceMix } from './support/voice-mixes.js';

// Held-out DER measured 7.3%; the bound leaves room for a different CPU's rounding, not for a regression.
const MAX_HELD_OUT_DER = 0.12;
const MAX_CALIBRATION_DER = 0.05;
// The server's own CPU time, not the wall clock, which other work on a shared machine stretches:
// measured 10.7 s (so about 6 s on two idle CPUs).
const MAX_TEN_MINUTES_CPU_SECONDS = 40;

let server: WhisperServer;
let recordings: DiarizationRecordings;

beforeAll(async () => {
  [server, recordings] = await Promise.all([startWhisperServer(), loadDiarizationRecordings()]);
});

afterAll(async () => {
  await server?.stop();
});

async function serverSegments(pcm: Int16Array, fields: Record<string, string> = {}): Promise<DiarizationBody> {
  const answer = await postForm(`${server.url}/audio/diarization`, fields, { bytes: encodeWav16k(pcm), name: 'recording.wav' });
  if (answer.status !== 200) throw new Error(`the speech server answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as DiarizationBody;
}

const asSegments = (body: DiarizationBody): SpeakerSegment[] => body.segments.map((segment) => ({ startMs: segment.start * 1000, endMs: segment.end * 1000, speaker: segment.speaker }));

interface Scored {
  mix: VoiceMix;
  server: DiarizationError;
  builtIn: DiarizationError;
}

async function score(mix: VoiceMix): Promise<Scored> {
  const body = await serverSegments(mix.pcm);
  const turns = findSpeakerTurns(mix.pcm).map((turn) => ({ startMs: turn.startMs, endMs: turn.endMs, speaker: String(turn.speaker) }));
  return { mix, server: diarizationErrorRate(mix.reference, asSegments(body), mix.durationMs), builtIn: diarizationErrorRate(mix.reference, turns, mix.durationMs) };
}

/** The CPU seconds a process has used, user and system (Linux: /proc/PID/stat, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const describeError = (error: DiarizationError) =>
  `${percent(error.der).padStart(6)} (missed ${(error.missedMs / 1000).toFixed(1)} s, false alarm ${(error.falseAlarmMs / 1000).toFixed(1)} s, confusion ${(error.confusionMs / 1000).toFixed(1)} s; ${error.hypothesisSpeakers} speakers)`;

function report(title: string, scored: Scored[]): { server: DiarizationError; builtIn: DiarizationError } {
  const overall = { server: overallDiarizationErrorRate(scored.map((item) => item.server)), builtIn: overallDiarizationErrorRate(scored.map((item) => item.builtIn)) };
  const lines = scored.map(
    ({ mix, server: byServer, builtIn }) =>
      `  ${mix.name.padEnd(28)} ${(mix.durationMs / 1000).toFixed(1).padStart(5)} s  server ${describeError(byServer)}  built-in ${describeError(builtIn)}`,
  );
  // eslint-disable-next-line no-console -- the figures the issue asks to see
  console.log(`${title}\n${lines.join('\n')}\n  overall: server ${percent(overall.server.der)}, built-in ${percent(overall.builtIn.der)}`);
  return overall;
}

describe('speaker diarization on mixes of real recordings', () => {
  it(`keeps the diarization error rate of held-out two-voice mixes at most ${MAX_HELD_OUT_DER * 100}%`, { timeout: 300_000 }, async () => {
    const calibration: Scored[] = [];
    for (const mix of recordings.calibration) calibration.push(await score(mix));
    const heldOut: Scored[] = [];
    for (const mix of recordings.heldOut) heldOut.push(await score(mix));
    const calibrated = report('DER on the calibration mixes (where the thresholds were chosen)', calibration);
    const measured = report('DER on the held-out mixes (other pairs of voices)', heldOut);

    expect(calibrated.server.der).toBeLessThanOrEqual(MAX_CALIBRATION_DER);
    expect(measured.server.der).toBeLessThanOrEqual(MAX_HELD_OUT_DER);
    for (const { mix, server: byServer } of heldOut) expect({ mix: mix.name, speakers: byServer.hypothesisSpeakers }).toEqual({ mix: mix.name, speakers: 2 });
  });

  it('finds one speaker in one voice alone and three in a three-voice mix', { timeout: 300_000 }, async () => {
    const lines: string[] = [];
    for (const mix of recordings.single) {
      const body = await serverSegments(mix.pcm);
      lines.push(`  ${mix.name}: ${body.speakers.length} speaker(s), DER ${percent(diarizationErrorRate(mix.reference, asSegments(body), mix.durationMs).der)}`);
      expect({ mix: mix.name, speakers: body.speakers.length }).toEqual({ mix: mix.name, speakers: 1 });
    }
    const three = await score(recordings.three);
    lines.push(`  ${recordings.three.name}: server ${describeError(three.server)}; built-in ${describeError(three.builtIn)}`);
    // eslint-disable-next-line no-console -- the figures the issue asks to see
    console.log(`Speaker counts\n${lines.join('\n')}`);
    expect(three.server.hypothesisSpeakers).toBe(3);
    expect(three.server.der).toBeLessThanOrEqual(MAX_HELD_OUT_DER);
  });

  it(`diarizes ten minutes of conversation with under ${MAX_TEN_MINUTES_CPU_SECONDS} s of CPU`, { timeout: 300_000 }, async () => {
    const mixes = [...recordings.calibration, ...recordings.heldOut];
    const tenMinutes = new Int16Array(16_000 * 600);
    for (let offset = 0, index = 0; offset < tenMinutes.length; index += 1) {
      const pcm = mixes[index % mixes.length]!.pcm.subarray(0, tenMinutes.length - offset);
      tenMinutes.set(pcm, offset);
      offset += pcm.length;
    }
    const started = performance.now();
    const cpuBefore = cpuSeconds(server.pid);
    const body = await serverSegments(tenMinutes);
    const cpu = cpuSeconds(server.pid) - cpuBefore;
    const seconds = (performance.now() - started) / 1000;
    // eslint-disable-next-line no-console -- the figure the issue asks to see
    console.log(`Diarization of 600 s of mono audio (${body.segments.length} segments, ${body.speakers.length} speakers): ${seconds.toFixed(1)} s, server CPU ${cpu.toFixed(1)} s`);
    expect(body.speakers.length).toBeGreaterThanOrEqual(2);
    expect(cpu).toBeLessThan(MAX_TEN_MINUTES_CPU_SECONDS);
  });
});
