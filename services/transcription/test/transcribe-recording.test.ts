/**
 * The recording pipeline (transcribeRecording) on a two-voice call spoken by espeak-ng: who the
 * representative is in a stereo call, told by what is said or fixed by the recorder's channel,
 * and a "stereo" file carrying one signal twice read as mono (with PocketSphinx, named); and with
 * Whisper on the real speech server (supervised here as the speech module does): a mono call split
 * by the server's diarization, the built-in method when a server has none, and speech without
 * pauses cut into overlapping pieces without losing or doubling a word.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@parlance/platform/logger';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import { loadSpeechConfig } from '@parlance/speech/config';
import { SPEECH_SERVER_MODEL } from '@parlance/speech/speech-server';
import { startSpeechSupervisor, type SpeechSupervisor } from '@parlance/speech/supervisor';
import type { WorkRequest } from '../src/db/schema.js';
import { planChunks } from '../src/domain/silence-chunks.js';
import { wordErrorRate } from '../src/domain/word-error-rate.js';
import { transcribeRecording, TRANSCRIPTION_WARNINGS } from '../src/pipeline/transcribe-activity.js';
import { decodeAudio } from '../src/speech/decode-audio.js';
import { createServerDiarizer, type Diarizer } from '../src/speech/diarization-client.js';
import { createOpenAiSpeechEngine } from '../src/speech/openai-engine.js';
import { createPocketSphinxEngine } from '../src/speech/pocketsphinx-engine.js';
import type { SpeechEngine } from '../src/speech/speech-engine.js';
import { createLimiter, transcribeChannel } from '../src/speech/transcribe-audio.js';
import { createAudioWorkspace, type AudioWorkspace } from './support/audio-files.js';
import { startFakeSpeechServer } from './support/fake-speech-server.js';
import { synthesizeCall, type SynthesizedCall } from './support/synthesized-call.js';

const engine = createPocketSphinxEngine();
const limiter = createLimiter(2);
// The synthesized representative does not say the name below, so only the greeting tells.
const request: WorkRequest = {
  kind: 'call',
  teamId: 'team',
  representativeEmail: 'pat.rep@example.com',
  representativeName: 'Pat',
  fileName: 'call.wav',
  mediaKind: 'audio',
  mediaFormat: 'wav',
};

let audio: AudioWorkspace;
let call: SynthesizedCall;
let speechServer: SpeechSupervisor;
let whisper: SpeechEngine;
let serverDiarizer: Diarizer;

beforeAll(async () => {
  audio = await createAudioWorkspace('parlance-recording-');
  speechServer = startSpeechSupervisor({ config: loadSpeechConfig({}), logger: createLogger({ service: 'speech-test', level: 'warn', pretty: false }), start: 'eager' });
  call = await synthesizeCall(audio.dir, { script: 'support', turns: 4, seed: 2 });
  const { url } = await speechServer.whenServing({ timeoutMs: 120_000 });
  if (!url) throw new Error(`the speech server does not serve: ${JSON.stringify(speechServer.status())}`);
  whisper = createOpenAiSpeechEngine({ baseUrl: url, model: SPEECH_SERVER_MODEL, timeoutMs: 120_000 });
  serverDiarizer = createServerDiarizer({ baseUrl: url, timeoutMs: 120_000 });
}, 180_000);

afterAll(async () => {
  await speechServer?.stop();
  await audio?.remove();
});

/** Each recognised word with its speaker (0 for Speaker 1), and the share of them given to the speaker who said them. */
function speakerAccuracy(transcript: Awaited<ReturnType<typeof transcribeRecording>>): { words: number; accuracy: number } {
  const trueSpeakerAt = (ms: number) => call.turns.find((turn) => ms >= turn.startMs - 150 && ms <= turn.endMs + 150)?.speaker;
  const words = transcript.segments.flatMap((segment) => segment.words.map((word) => ({ ...word, speaker: segment.speaker === 'Speaker 1' ? 0 : 1 })));
  const judged = words.map((word) => ({ word, truth: trueSpeakerAt((word.startMs + word.endMs) / 2) })).filter(({ truth }) => truth !== undefined);
  return { words: judged.length, accuracy: judged.filter(({ word, truth }) => word.speaker === truth).length / judged.length };
}

const roles = (speakers: Array<{ label: string; role: SpeakerRole }>) => Object.fromEntries(speakers.map((speaker) => [speaker.label, speaker.role]));

describe('transcribeRecording', () => {
  it('tells the representative of a stereo call by the greeting when the channel is not fixed', async () => {
    const transcript = await transcribeRecording({ engine, limiter }, request, call.stereoPath);
    expect(roles(transcript.speakers)).toEqual({ 'Speaker 1': SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE, 'Speaker 2': SpeakerRole.SPEAKER_ROLE_CONTACT });
    expect(transcript.warnings).toEqual([]);
  }, 60_000);

  it('takes the representative from the configured channel, whatever is said', async () => {
    // The representative speaks first on the left; saying "right" makes the other party the representative.
    const transcript = await transcribeRecording({ engine, limiter, representativeChannel: 1 }, request, call.stereoPath);
    expect(roles(transcript.speakers)).toEqual({ 'Speaker 1': SpeakerRole.SPEAKER_ROLE_CONTACT, 'Speaker 2': SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE });
  }, 60_000);

  it('reads a stereo file with one signal on both channels as mono, split by voice, with a warning', async () => {
    const dualMono = audio.path('dual-mono.wav');
    await audio.ffmpeg('-i', call.monoPath, '-ac', '2', dualMono);
    const transcript = await transcribeRecording({ engine, limiter, representativeChannel: 1 }, request, dualMono);
    expect(transcript.speakers.map((speaker) => speaker.role)).toEqual([SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE, SpeakerRole.SPEAKER_ROLE_CONTACT]);
    expect(transcript.warnings).toEqual([TRANSCRIPTION_WARNINGS.speakersByVoice]);
  }, 60_000);
});

describe('transcribeRecording with Whisper on the speech server', () => {
  it('splits a mono call by the server’s diarization, keeping the word timings', async () => {
    let diarized = 0;
    const counting: Diarizer = {
      diarize: (pcm, options) => {
        diarized += 1;
        return serverDiarizer.diarize(pcm, options);
      },
    };
    const transcript = await transcribeRecording({ engine: whisper, diarizer: counting, limiter }, request, call.monoPath);
    expect(diarized).toBe(1);
    expect(transcript.engine).toBe(`openai:${SPEECH_SERVER_MODEL}`);
    expect(transcript.speakers.map((speaker) => speaker.role)).toEqual([SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE, SpeakerRole.SPEAKER_ROLE_CONTACT]);
    expect(transcript.warnings).toEqual([TRANSCRIPTION_WARNINGS.speakersByVoice]);
    const { words, accuracy } = speakerAccuracy(transcript);
    // eslint-disable-next-line no-console -- the figure the issue asks to report
    console.log(`mono call (${(call.durationMs / 1000).toFixed(1)} s) split by the server's diarization: ${(accuracy * 100).toFixed(1)}% of ${words} words to the right speaker`);
    expect(accuracy).toBeGreaterThanOrEqual(0.9);
    for (const segment of transcript.segments) {
      expect(segment.words.length).toBeGreaterThan(0);
      for (const word of segment.words) expect(word.endMs).toBeGreaterThanOrEqual(word.startMs);
    }
  }, 120_000);

  it('splits a mono call by voice itself when the server has no diarization (404)', async () => {
    const plainServer = await startFakeSpeechServer();
    try {
      const transcript = await transcribeRecording({ engine: whisper, diarizer: createServerDiarizer({ baseUrl: plainServer.baseUrl, timeoutMs: 5_000 }), limiter }, request, call.monoPath);
      expect(transcript.speakers).toHaveLength(2);
      expect(speakerAccuracy(transcript).accuracy).toBeGreaterThanOrEqual(0.85);
    } finally {
      await plainServer.close();
    }
  }, 120_000);

  it('neither loses nor doubles a word where speech without a pause had to be cut', async () => {
    // One sentence of 12 s with no pause long enough to cut in: the 4–5 s pieces asked for here are
    // cut inside the speech, and each carries a second of its neighbours.
    const text =
      'we checked the account and the payment went through on monday but the second charge came from the old card that was still on file so the bank shows two payments and we will send the refund for the second one today';
    const pcm = (await decodeAudio(await audio.speak('talk.wav', text))).channels[0]!;
    const chunking = { targetMs: 4_000, maxMs: 5_000 };
    const pieces = planChunks(pcm, chunking);
    expect(pieces.filter((piece) => piece.contextStartSample < piece.startSample).length).toBeGreaterThanOrEqual(1);
    const words = (await transcribeChannel(whisper, pcm, { limiter, chunking })).map((word) => word.text);
    const cut = wordErrorRate(text, words.join(' '));
    const whole = wordErrorRate(text, (await whisper.transcribe(pcm)).map((word) => word.text).join(' '));
    // eslint-disable-next-line no-console -- the figure the issue asks to report
    console.log(`${(pcm.length / 16_000).toFixed(1)} s of talk without a pause: WER ${(whole.wer * 100).toFixed(1)}% heard whole, ${(cut.wer * 100).toFixed(1)}% cut into ${pieces.length} overlapping pieces`);
    expect(cut.wer).toBeLessThanOrEqual(whole.wer + 0.05);
    const normalized = words.map((word) => word.toLowerCase().replace(/[^a-z']/g, ''));
    expect(normalized.filter((word, index) => word === normalized[index - 1])).toEqual([]);
  }, 120_000);
});
