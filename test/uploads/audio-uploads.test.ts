/**
 * Recorded calls end to end (issue 6, points 5–7): two-voice calls spoken by espeak-ng are uploaded
 * through the gateway as a browser would (multipart, file first), in formats people have, and
 * transcribed by PocketSphinx on PostgreSQL and Kafka. A stereo call gets exact speakers (one per
 * channel, merged by time); a mono call is split into speaker turns by voice, and how well is
 * measured here against the truth the synthesis gives.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpeakerRole, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { wordErrorRate } from '@parlance/transcription/domain/word-error-rate';
import { createAudioWorkspace, type AudioWorkspace } from '../../services/transcription/test/support/audio-files.js';
import { synthesizeCall, type SynthesizedCall } from '../../services/transcription/test/support/synthesized-call.js';
import { startIdentityStack, type IdentityStack } from '../support/identity-stack.js';
import { activityOfJob, finishedJob, storedTranscript, uploadingCompany, type UploadingCompany } from './upload-fixtures.js';

let stack: IdentityStack;
let company: UploadingCompany;
let audio: AudioWorkspace;
let call: SynthesizedCall;

beforeAll(async () => {
  audio = await createAudioWorkspace('parlance-audio-uploads-');
  [stack, call] = await Promise.all([startIdentityStack({ withIngest: true }), synthesizeCall(audio.dir, { script: 'support', turns: 8, seed: 6 })]);
  company = await uploadingCompany(stack, { first_name: 'Jordan' });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await audio?.remove();
});

/** Converts with Debian's ffmpeg, as a phone system or browser would have encoded the call. */
async function encoded(source: string, name: string, codecArgs: string[]): Promise<string> {
  const target = audio.path(name);
  await audio.ffmpeg('-i', source, ...codecArgs, target);
  return target;
}

async function transcribed(filePath: string, fileName: string): Promise<Transcript> {
  const form = new FormData();
  form.append('file', new Blob([await readFile(filePath)]), fileName);
  form.append('audioDate', '2026-11-21T15:00:00.000Z');
  form.append('teamId', company.teamId);
  form.append('representative', company.representative.email);
  form.append('repName', 'Jordan');
  const upload = await company.browser.postForm<{ jobId: string }>('/api/calls/transcribe/audio', form);
  expect(upload.status, JSON.stringify(upload.body)).toBe(200);
  const job = await finishedJob(company.browser, `/api/queue/job/${upload.body.jobId}`, 180_000);
  expect(job, job.failedReason).toMatchObject({ isCompleted: true });
  return (await storedTranscript(stack, company.companyId, await activityOfJob(stack, company.companyId, upload.body.jobId)))!;
}

const spokenText = (turns: SynthesizedCall['turns']) => turns.map((turn) => turn.text).join(' ');
const transcriptText = (transcript: Transcript) => transcript.segments.map((segment) => segment.text).join(' ');

/** The true speaker (0 representative, 1 contact) at a moment, or undefined in a pause. */
const trueSpeakerAt = (ms: number) => call.turns.find((turn) => ms >= turn.startMs - 150 && ms <= turn.endMs + 150)?.speaker;

describe('a stereo call, each party on its own channel', () => {
  let transcript: Transcript;

  beforeAll(async () => {
    transcript = await transcribed(await encoded(call.stereoPath, 'support-call.ogg', ['-c:a', 'libopus', '-b:a', '48k']), 'support-call.ogg');
  }, 200_000);

  it('has two speakers, the representative first, each labelled with a role', () => {
    expect(transcript.engine).toBe('pocketsphinx');
    expect(transcript.sourceFormat).toBe('ogg');
    expect(transcript.speakers).toEqual([
      { label: 'Speaker 1', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE },
      { label: 'Speaker 2', role: SpeakerRole.SPEAKER_ROLE_CONTACT },
    ]);
    expect(transcript.durationMs).toBeGreaterThan(call.durationMs - 100);
  });

  it('attributes every word to the party whose channel it was on', () => {
    const words = transcript.segments.flatMap((segment) => segment.words.map((word) => ({ ...word, speaker: segment.speaker === 'Speaker 1' ? 0 : 1 })));
    expect(words.length).toBeGreaterThan(40);
    const judged = words.map((word) => ({ word, truth: trueSpeakerAt((word.startMs + word.endMs) / 2) })).filter(({ truth }) => truth !== undefined);
    const right = judged.filter(({ word, truth }) => word.speaker === truth).length;
    expect(right / judged.length).toBe(1);
  });

  it('keeps word timings in order inside the recording, and the segments follow the turns', () => {
    for (const segment of transcript.segments) {
      expect(segment.startMs).toBeLessThanOrEqual(segment.endMs!);
      for (const word of segment.words) {
        expect(word.startMs).toBeGreaterThanOrEqual(segment.startMs!);
        expect(word.endMs).toBeLessThanOrEqual(segment.endMs!);
      }
    }
    const starts = transcript.segments.map((segment) => segment.startMs!);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(transcript.segments.at(-1)!.endMs).toBeLessThanOrEqual(transcript.durationMs);
    // Two turns of one party with a short pause between them read as one segment.
    const changes = (speakers: number[]) => speakers.filter((speaker, index) => speaker !== speakers[index - 1]);
    expect(changes(transcript.segments.map((segment) => (segment.speaker === 'Speaker 1' ? 0 : 1)))).toEqual(changes(call.turns.map((turn) => turn.speaker)));
  });

  // espeak-ng's voice is far from the speech PocketSphinx's model learned (its LibriVox figure is
  // about 37%, see services/transcription/test/speech); this bounds the pipeline, not the engine.
  it('recognizes what was said', () => {
    const { wer } = wordErrorRate(spokenText(call.turns), transcriptText(transcript));
    // eslint-disable-next-line no-console -- the figure the issue asks to report
    console.log(`stereo synthesized call (${(call.durationMs / 1000).toFixed(1)} s, ${call.turns.length} turns): PocketSphinx WER ${(wer * 100).toFixed(1)}%`);
    expect(wer).toBeLessThanOrEqual(0.8);
  });
});

describe('a mono call, both parties on one channel', () => {
  it('splits it into the two speakers by voice, the representative first', async () => {
    const transcript = await transcribed(await encoded(call.monoPath, 'support-call.mp3', ['-c:a', 'libmp3lame', '-b:a', '64k']), 'support-call.mp3');
    expect(transcript.sourceFormat).toBe('mp3');
    expect(transcript.speakers.map((speaker) => speaker.role)).toEqual([SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE, SpeakerRole.SPEAKER_ROLE_CONTACT]);

    const words = transcript.segments.flatMap((segment) => segment.words.map((word) => ({ ...word, speaker: segment.speaker === 'Speaker 1' ? 0 : 1 })));
    const judged = words.map((word) => ({ word, truth: trueSpeakerAt((word.startMs + word.endMs) / 2) })).filter(({ truth }) => truth !== undefined);
    const accuracy = judged.filter(({ word, truth }) => word.speaker === truth).length / judged.length;
    // eslint-disable-next-line no-console -- the figure the issue asks to report
    console.log(`mono synthesized call: ${(accuracy * 100).toFixed(1)}% of ${judged.length} recognized words attributed to the right speaker`);
    expect(accuracy).toBeGreaterThanOrEqual(0.85);
  }, 200_000);
});
