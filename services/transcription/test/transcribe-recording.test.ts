/**
 * The recording pipeline (transcribeRecording) on a two-voice call spoken by espeak-ng: who the
 * representative is in a stereo call, told by what is said or fixed by the recorder's channel,
 * and a "stereo" file carrying one signal twice read as mono.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { WorkRequest } from '../src/db/schema.js';
import { transcribeRecording, TRANSCRIPTION_WARNINGS } from '../src/pipeline/transcribe-activity.js';
import { createPocketSphinxEngine } from '../src/speech/pocketsphinx-engine.js';
import { createLimiter } from '../src/speech/transcribe-audio.js';
import { createAudioWorkspace, type AudioWorkspace } from './support/audio-files.js';
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

beforeAll(async () => {
  audio = await createAudioWorkspace('parlance-recording-');
  call = await synthesizeCall(audio.dir, { script: 'support', turns: 4, seed: 2 });
}, 60_000);

afterAll(async () => {
  await audio?.remove();
});

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
