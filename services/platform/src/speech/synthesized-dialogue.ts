/**
 * Two-party calls spoken by espeak-ng, with the truth about who speaks when: the demo data's
 * recorded calls and the speech tests' calls both come from here.
 *
 * Each line of a dialogue is synthesised on its own (`espeak-ng -v <voice> -s <speed> -p <pitch>
 * --stdout`, 22050 Hz mono), trimmed to where the voice starts and stops, and laid on a timeline
 * with a short pause after it. Two recordings come out: a stereo WAV with the representative on the
 * left channel and the contact on the right (each channel silent while the other talks, as a
 * call-centre recorder writes them) and a mono mix of both, plus the ground-truth turns. A faint
 * seeded hiss sits under the voices, as on a real line, so nothing is digitally silent.
 *
 * Everything is deterministic: the same lines and options give the same samples, pauses and turns.
 */
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { seededRandom } from '../testing/seeded-random.js';

const run = promisify(execFile);

/** espeak-ng writes this rate, and the recordings keep it. */
export const SYNTHESIS_SAMPLE_RATE = 22_050;

/** 0 is the representative (left channel), 1 the contact (right channel). */
export type CallSpeaker = 0 | 1;

export interface CallLine {
  speaker: CallSpeaker;
  text: string;
}

export interface SynthVoice {
  /** An espeak-ng voice, optionally with a variant: `en-us`, `en-us+f3`, `en-gb+m3`. */
  voice: string;
  /** espeak-ng pitch, 0–99 (50 is the voice's default). */
  pitch: number;
  /** Words per minute. */
  speed: number;
  /** A pause between words, in units of 10 ms (espeak-ng's -g); none when unset. */
  wordGap?: number;
  /** Linear gain applied to the voice, 1 = as espeak-ng writes it. */
  gain?: number;
}

export interface CallTurn {
  speaker: CallSpeaker;
  startMs: number;
  endMs: number;
  text: string;
}

export const DEFAULT_VOICES: { representative: SynthVoice; contact: SynthVoice } = {
  representative: { voice: 'en-us', pitch: 35, speed: 160 },
  contact: { voice: 'en-us+f3', pitch: 65, speed: 170, gain: 0.8 },
};

/** One spoken line: its samples at SYNTHESIS_SAMPLE_RATE, from -1 to 1. */
export interface Clip {
  line: CallLine;
  samples: Float32Array;
}

export interface MixOptions {
  /** Silence between turns, drawn (seeded) from this range. Default 250–700 ms. */
  pauseMs?: { min: number; max: number };
  /** The silence after each line, in order, where given: the pauses of a dialogue that has its own timing. */
  pausesMs?: readonly number[];
  /** Silence before the first and after the last turn. Default 500 ms. */
  edgeMs?: number;
  /** Level of the background hiss in dBFS, or null for none. Default -60. */
  noiseDbfs?: number | null;
  /** Seed for the pauses and the hiss. */
  seed?: number;
}

export interface MixedCall {
  /** WAV files: the representative left and the contact right; both on one channel. */
  stereoWav: Buffer;
  monoWav: Buffer;
  turns: CallTurn[];
  durationMs: number;
}

export type VoiceOf = (speaker: CallSpeaker) => SynthVoice;

/** Speaks a dialogue and mixes it into a call. */
export async function synthesizeDialogue(lines: CallLine[], options: MixOptions & { voices?: { representative?: SynthVoice; contact?: SynthVoice } } = {}): Promise<MixedCall> {
  const voices = { ...DEFAULT_VOICES, ...options.voices };
  return mixDialogue(await speakLines(lines, (speaker) => (speaker === 0 ? voices.representative : voices.contact)), options);
}

/** Lays spoken lines on a timeline, each speaker on their own channel, with pauses and a hiss. */
export function mixDialogue(clips: readonly Clip[], options: MixOptions = {}): MixedCall {
  const pause = options.pauseMs ?? { min: 250, max: 700 };
  const edge = msToSamples(options.edgeMs ?? 500);
  const random = seededRandom(options.seed ?? 1);
  const pauses = clips.map((_, index) => msToSamples(options.pausesMs?.[index] ?? pause.min + random() * (pause.max - pause.min)));
  const length = edge * 2 + clips.reduce((sum, clip, index) => sum + clip.samples.length + (index < clips.length - 1 ? (pauses[index] ?? 0) : 0), 0);
  const channels = [new Float32Array(length), new Float32Array(length)] as const;
  const turns: CallTurn[] = [];
  let at = edge;
  clips.forEach((clip, index) => {
    channels[clip.line.speaker].set(clip.samples, at);
    turns.push({ speaker: clip.line.speaker, startMs: samplesToMs(at), endMs: samplesToMs(at + clip.samples.length), text: clip.line.text });
    at += clip.samples.length + (pauses[index] ?? 0);
  });

  const mono = new Float32Array(length);
  for (let i = 0; i < length; i += 1) mono[i] = (channels[0][i] ?? 0) + (channels[1][i] ?? 0);
  const noise = options.noiseDbfs === null ? 0 : 10 ** ((options.noiseDbfs ?? -60) / 20);
  if (noise > 0) for (const signal of [channels[0], channels[1], mono]) addHiss(signal, noise, random);
  return { stereoWav: encodeWav([channels[0], channels[1]]), monoWav: encodeWav([mono]), turns, durationMs: samplesToMs(length) };
}

export async function speakLines(lines: CallLine[], voiceOf: VoiceOf): Promise<Clip[]> {
  const clips: Clip[] = new Array<Clip>(lines.length);
  const workers = Math.max(1, Math.min(availableParallelism(), 8));
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < lines.length) {
        const index = next;
        next += 1;
        const line = lines[index] as CallLine;
        clips[index] = { line, samples: await speak(line.text, voiceOf(line.speaker)) };
      }
    }),
  );
  return clips;
}

async function speak(text: string, voice: SynthVoice): Promise<Float32Array> {
  const gap = voice.wordGap ? ['-g', String(voice.wordGap)] : [];
  const { stdout } = await run('espeak-ng', ['-v', voice.voice, '-s', String(voice.speed), '-p', String(voice.pitch), ...gap, '--stdout', text], {
    encoding: 'buffer',
    maxBuffer: 1 << 28,
  });
  const samples = decodeEspeakWav(stdout);
  const gain = (voice.gain ?? 1) / 32768;
  return Float32Array.from(trimSilence(samples), (sample) => sample * gain);
}

/** espeak-ng streams its WAV, so the sizes in the header are placeholders: read to the end. */
function decodeEspeakWav(wav: Buffer): Int16Array {
  const data = wav.indexOf('data', 12, 'latin1');
  if (data < 0) throw new Error('espeak-ng wrote no WAV data');
  const start = data + 8;
  const count = Math.floor((wav.length - start) / 2);
  const samples = new Int16Array(count);
  for (let i = 0; i < count; i += 1) samples[i] = wav.readInt16LE(start + i * 2);
  return samples;
}

/** From the first to the last sample above about -50 dBFS, keeping 10 ms either side. */
function trimSilence(samples: Int16Array): Int16Array {
  const threshold = 100;
  let first = samples.findIndex((sample) => Math.abs(sample) > threshold);
  if (first < 0) return samples.subarray(0, 0);
  let last = samples.length - 1;
  while (last > first && Math.abs(samples[last] ?? 0) <= threshold) last -= 1;
  const margin = Math.round(SYNTHESIS_SAMPLE_RATE / 100);
  first = Math.max(0, first - margin);
  last = Math.min(samples.length - 1, last + margin);
  return samples.subarray(first, last + 1);
}

export function msToSamples(ms: number): number {
  return Math.round((ms * SYNTHESIS_SAMPLE_RATE) / 1000);
}

function samplesToMs(samples: number): number {
  return Math.round((samples * 1000) / SYNTHESIS_SAMPLE_RATE);
}

/** Roughly Gaussian hiss (sum of four uniforms) at the given RMS level. */
function addHiss(signal: Float32Array, rms: number, random: () => number): void {
  const scale = rms * Math.sqrt(3);
  for (let i = 0; i < signal.length; i += 1) signal[i] = (signal[i] ?? 0) + scale * (random() + random() + random() + random() - 2);
}

function encodeWav(channels: Float32Array[]): Buffer {
  const frames = channels[0]?.length ?? 0;
  const blockAlign = channels.length * 2;
  const wav = Buffer.alloc(44 + frames * blockAlign);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + frames * blockAlign, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(channels.length, 22);
  wav.writeUInt32LE(SYNTHESIS_SAMPLE_RATE, 24);
  wav.writeUInt32LE(SYNTHESIS_SAMPLE_RATE * blockAlign, 28);
  wav.writeUInt16LE(blockAlign, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(frames * blockAlign, 40);
  for (let frame = 0; frame < frames; frame += 1) {
    channels.forEach((channel, index) => {
      const value = Math.max(-1, Math.min(1, channel[frame] ?? 0));
      wav.writeInt16LE(Math.round(value * 32767), 44 + frame * blockAlign + index * 2);
    });
  }
  return wav;
}

