/**
 * Recorded calls end to end (issue 6, points 5–7; issue 33): two-voice calls spoken by espeak-ng
 * are uploaded through the gateway as a browser would (multipart, file first), in formats people
 * have, and transcribed on PostgreSQL and Kafka by the default engine: Whisper on the speech server
 * the transcription module runs itself (no speech settings at all). A stereo call gets exact
 * speakers (one per channel, merged by time); a mono call is split by the speech server's
 * diarization, and how well is measured here against the truth the synthesis gives. Recordings
 * that hold no conversation (silence, music, noise, a clip too short, a codec nobody decodes) end
 * their job failed with a reason a manager can read; one with little speech gets a warning.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpeakerRole, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { wordErrorRate } from '@parlance/transcription/domain/word-error-rate';
import { createAudioWorkspace, type AudioWorkspace } from '../../services/transcription/test/support/audio-files.js';
import { synthesizeCall, type SynthesizedCall } from '../../services/transcription/test/support/synthesized-call.js';
import { startIdentityStack, type IdentityStack } from '../support/identity-stack.js';
import { activityOfJob, finishedJob, storedTranscript, uploadingCompany, type JobStatus, type UploadingCompany } from './upload-fixtures.js';

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

/** Uploads the file as the web app does and waits for its job to end. */
async function processed(filePath: string, fileName: string): Promise<{ jobId: string; job: JobStatus }> {
  const form = new FormData();
  form.append('file', new Blob([await readFile(filePath)]), fileName);
  form.append('audioDate', '2026-11-21T15:00:00.000Z');
  form.append('teamId', company.teamId);
  form.append('representative', company.representative.email);
  form.append('repName', 'Jordan');
  const upload = await company.browser.postForm<{ jobId: string }>('/api/calls/transcribe/audio', form);
  expect(upload.status, JSON.stringify(upload.body)).toBe(200);
  return { jobId: upload.body.jobId, job: await finishedJob(company.browser, `/api/queue/job/${upload.body.jobId}`, 240_000) };
}

async function transcribed(filePath: string, fileName: string): Promise<Transcript> {
  const { jobId, job } = await processed(filePath, fileName);
  expect(job, job.failedReason).toMatchObject({ isCompleted: true });
  return (await storedTranscript(stack, company.companyId, await activityOfJob(stack, company.companyId, jobId)))!;
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
    expect(transcript.engine).toBe('local:whisper-tiny.en');
    expect(transcript.warnings).toEqual([]);
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

  // espeak-ng's voice is far from the speech Whisper learned (its LibriVox figure is 5.6%, see
  // services/transcription/test/speech); measured here 12–15% (PocketSphinx made 60–70%).
  it('recognizes what was said', () => {
    const { wer } = wordErrorRate(spokenText(call.turns), transcriptText(transcript));
    // eslint-disable-next-line no-console -- the figure the issue asks to report
    console.log(`stereo synthesized call (${(call.durationMs / 1000).toFixed(1)} s, ${call.turns.length} turns): Whisper WER ${(wer * 100).toFixed(1)}%`);
    expect(wer).toBeLessThanOrEqual(0.25);
  });
});

describe('a mono call, both parties on one channel', () => {
  it('splits it into the two speakers by the speech server’s diarization, the representative first', async () => {
    const transcript = await transcribed(await encoded(call.monoPath, 'support-call.mp3', ['-c:a', 'libmp3lame', '-b:a', '64k']), 'support-call.mp3');
    expect(transcript.sourceFormat).toBe('mp3');
    expect(transcript.engine).toBe('local:whisper-tiny.en');
    expect(transcript.speakers.map((speaker) => speaker.role)).toEqual([SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE, SpeakerRole.SPEAKER_ROLE_CONTACT]);

    const words = transcript.segments.flatMap((segment) => segment.words.map((word) => ({ ...word, speaker: segment.speaker === 'Speaker 1' ? 0 : 1 })));
    const judged = words.map((word) => ({ word, truth: trueSpeakerAt((word.startMs + word.endMs) / 2) })).filter(({ truth }) => truth !== undefined);
    const accuracy = judged.filter(({ word, truth }) => word.speaker === truth).length / judged.length;
    // eslint-disable-next-line no-console -- the figure the issue asks to report
    console.log(`mono synthesized call: ${(accuracy * 100).toFixed(1)}% of ${judged.length} recognized words attributed to the right speaker`);
    expect(accuracy).toBeGreaterThanOrEqual(0.9);
  }, 300_000);
});

describe('recordings that hold no conversation', () => {
  it('end their jobs failed, saying why: silence, music, noise, a clip too short, a codec nobody decodes', async () => {
    await audio.ffmpeg('-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '10', audio.path('silence.wav'));
    // Three tones, one stepping through a scale, one with a tremolo: music without words.
    const music = "aevalsrc='0.25*sin(2*PI*(262+131*mod(floor(t*2),4))*t)+0.2*sin(2*PI*330*t)*(0.5+0.5*sin(2*PI*3*t))+0.15*sin(2*PI*392*t)':s=44100:d=20";
    await audio.ffmpeg('-f', 'lavfi', '-i', music, '-c:a', 'libvorbis', audio.path('hold-music.ogg'));
    await audio.ffmpeg('-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=0.3:seed=7:d=12', '-c:a', 'libmp3lame', audio.path('noise.mp3'));
    await audio.speak('hi.wav', 'Hi.');
    await audio.ffmpeg('-i', audio.path('hi.wav'), '-t', '0.6', audio.path('hi-cut.wav'));
    // A WAV whose header names a codec no decoder knows (format tag 0x1234).
    const wav = Buffer.from(await readFile(await audio.speak('sentence.wav', 'Hello, this is Jordan. Please call me back.')));
    wav.writeUInt16LE(0x1234, 20);
    await writeFile(audio.path('odd-codec.wav'), wav);

    const outcomes = await Promise.all(
      ['silence.wav', 'hold-music.ogg', 'noise.mp3', 'hi-cut.wav', 'odd-codec.wav'].map(async (name) => [name, (await processed(audio.path(name), name)).job] as const),
    );
    expect(Object.fromEntries(outcomes.map(([name, job]) => [name, { isFailed: job.isFailed, failedReason: job.failedReason }]))).toEqual({
      'silence.wav': { isFailed: true, failedReason: 'Processing failed for silence.wav: the recording is silent' },
      'hold-music.ogg': { isFailed: true, failedReason: 'Processing failed for hold-music.ogg: no speech was found in the recording (only silence, music or noise)' },
      'noise.mp3': { isFailed: true, failedReason: 'Processing failed for noise.mp3: no speech was found in the recording (only silence, music or noise)' },
      'hi-cut.wav': { isFailed: true, failedReason: 'Processing failed for hi-cut.wav: the recording is too short to hold a conversation (0.6 s of audio)' },
      'odd-codec.wav': { isFailed: true, failedReason: expect.stringMatching(/^Processing failed for odd-codec\.wav: the audio could not be decoded \(ffmpeg: .+\)$/) },
    });
  }, 300_000);

  it('transcribes a recording with little speech, warning that there may be little to evaluate', async () => {
    await audio.speak('message.wav', 'Hello, this is Jordan from support. Please call me back about your order.');
    // The message, then half a minute of line hiss.
    const hiss = 'anoisesrc=color=pink:amplitude=0.02:seed=5:d=45';
    await audio.ffmpeg(
      ...['-i', audio.path('message.wav'), '-f', 'lavfi', '-i', hiss],
      ...['-filter_complex', '[0:a]aresample=16000[s];[1:a]aresample=16000[n];[s][n]amix=inputs=2:duration=longest:normalize=0', '-ac', '1', audio.path('voicemail.wav')],
    );
    const transcript = await transcribed(audio.path('voicemail.wav'), 'voicemail.wav');
    expect(transcriptText(transcript).toLowerCase()).toContain('this is jordan from support');
    expect(transcript.warnings).toEqual([expect.stringMatching(/^Speech was found in only \d+\.\d s of this 45 s recording; the rest is silence, music or noise, so there may be little to evaluate\.$/)]);
  }, 300_000);
});
