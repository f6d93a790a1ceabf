/**
 * Real voices for measuring speaker diarization: recordings Debian ships in `codec2-examples`
 * (/usr/share/codec2: radio amateurs and test sentences, mostly 8 kHz telephone-band audio) and
 * `pocketsphinx-testdata` (a LibriVox reader, 16 kHz), each decoded by FFmpeg to 16 kHz mono PCM
 * and brought to one speech level, so that loudness alone never tells two voices apart.
 * scripts/ensure-speech.sh --tests installs both packages.
 *
 * Two files of codec2-examples that look like speakers are not: david4.wav and vk2tpm_004.wav are
 * modem signals (digital voice on the air, not decoded), which is what makes them good noise.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export const CODEC2 = '/usr/share/codec2';
export const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';
export const SAMPLE_RATE = 16_000;
/** The speech level every voice is brought to, in dB below full scale. */
const SPEECH_LEVEL_DBFS = -24;

export interface VoiceSource {
  /** The file, and for headerless files their format. */
  file: string;
  raw8k?: boolean;
  /** A stretch of the file, in seconds (default: all of it). */
  fromS?: number;
  toS?: number;
}

export interface RecordedVoice {
  name: string;
  /** 16 kHz mono, the voice's sources one after another. */
  pcm: Int16Array;
}

/**
 * The voices, each one person. hts.raw holds two readers whose 3 s sentences alternate in pairs; they
 * were told apart by pitch (one voice is clearly higher), which matches how the files
 * hts1.raw and hts2.raw split them.
 */
export const VOICE_SOURCES: Record<string, VoiceSource[]> = {
  /** A radio amateur in New Brunswick describing his station, 112 s. */
  ve9qrp: [{ file: `${CODEC2}/wav/ve9qrp.wav` }],
  /** A reader of Sense and Sensibility, the five LibriVox sentences joined, 25 s, wide-band. */
  librivox: ['0870', '0880', '0890', '0920', '0930'].map((id) => ({ file: `${LIBRIVOX}/sense_and_sensibility_01_austen_64kb-${id}.wav` })),
  /** A radio amateur counting and spelling his call sign, 13.5 s. */
  vk5qi: [{ file: `${CODEC2}/wav/vk5qi.wav` }],
  /** speech_orig_16k.wav holds two readers of Harvard sentences, wide-band: a man reads the first and third (4.9 s)… */
  harvardMan: [
    { file: `${CODEC2}/raw/speech_orig_16k.wav`, fromS: 0, toS: 2.6 },
    { file: `${CODEC2}/raw/speech_orig_16k.wav`, fromS: 5.6, toS: 7.9 },
  ],
  /** …and a woman the second and fourth (5.9 s). */
  harvardWoman: [
    { file: `${CODEC2}/raw/speech_orig_16k.wav`, fromS: 2.6, toS: 5.6 },
    { file: `${CODEC2}/raw/speech_orig_16k.wav`, fromS: 7.9, toS: 10.8 },
  ],
  /** Another radio amateur's test call, the last 10 s of all.wav. */
  vk5dgr: [{ file: `${CODEC2}/wav/all.wav`, fromS: 47.1, toS: 57.1 }],
  /** The first reader of hts.raw: sentences 1, 2, 5 and 6, 12 s. */
  htsA: [
    { file: `${CODEC2}/raw/hts.raw`, raw8k: true, fromS: 0, toS: 6 },
    { file: `${CODEC2}/raw/hts.raw`, raw8k: true, fromS: 12, toS: 18 },
  ],
  /** The second reader of hts.raw: sentences 3, 4, 7 and 8, 12 s. */
  htsB: [
    { file: `${CODEC2}/raw/hts.raw`, raw8k: true, fromS: 6, toS: 12 },
    { file: `${CODEC2}/raw/hts.raw`, raw8k: true, fromS: 18, toS: 24 },
  ],
  /** A radio amateur calling CQ, 9 s. */
  cqRef: [{ file: `${CODEC2}/raw/cq_ref.raw`, raw8k: true }],
};

/** A file (or a stretch of it) decoded to 16 kHz mono PCM. */
export async function decodeTo16k(source: VoiceSource): Promise<Int16Array> {
  const input = source.raw8k ? ['-f', 's16le', '-ar', '8000', '-ac', '1', '-i', source.file] : ['-i', source.file];
  const range = [...(source.fromS !== undefined ? ['-ss', String(source.fromS)] : []), ...(source.toS !== undefined ? ['-to', String(source.toS)] : [])];
  const { stdout } = await execFileAsync(
    'ffmpeg',
    ['-nostdin', '-hide_banner', '-v', 'error', ...input, ...range, '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 's16le', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 },
  );
  return new Int16Array(stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + (stdout.length & ~1)));
}

export async function loadVoice(name: string): Promise<RecordedVoice> {
  const sources = VOICE_SOURCES[name];
  if (!sources) throw new Error(`no voice named ${name}`);
  const parts = await Promise.all(sources.map(decodeTo16k));
  return { name, pcm: toSpeechLevel(concat(parts)) };
}

export function concat(parts: Int16Array[]): Int16Array {
  const joined = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

const FRAME = SAMPLE_RATE / 50; // 20 ms

/** Each 20 ms frame's energy in dB below full scale. */
export function frameLevels(pcm: Int16Array): Float64Array {
  const levels = new Float64Array(Math.floor(pcm.length / FRAME));
  for (let frame = 0; frame < levels.length; frame += 1) {
    let sum = 0;
    for (let index = frame * FRAME; index < (frame + 1) * FRAME; index += 1) sum += pcm[index]! * pcm[index]!;
    levels[frame] = 10 * Math.log10(sum / FRAME / 32768 ** 2 + 1e-12);
  }
  return levels;
}

function percentile(values: Float64Array, fraction: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? -120;
}

/**
 * Where a clean recording of one voice speaks, as 20 ms frame flags: above its noise floor (10th
 * percentile) by half the way to its speech level (95th percentile), pauses shorter than
 * 0.5 s bridged (people do not stop speaking between words). This is how the reference turns of
 * the mixes are drawn, independent of either method measured.
 */
export function speechFrames(pcm: Int16Array): Uint8Array {
  const levels = frameLevels(pcm);
  const floor = percentile(levels, 0.1);
  const threshold = floor + Math.max(6, (percentile(levels, 0.95) - floor) / 2);
  const speech = new Uint8Array(levels.length);
  for (const [frame, level] of levels.entries()) speech[frame] = level > threshold ? 1 : 0;
  const bridge = 25; // 0.5 s
  let lastSpeech = -1;
  for (let frame = 0; frame < speech.length; frame += 1) {
    if (!speech[frame]) continue;
    if (lastSpeech >= 0 && frame - lastSpeech > 1 && frame - lastSpeech <= bridge) speech.fill(1, lastSpeech + 1, frame);
    lastSpeech = frame;
  }
  return speech;
}

/** The recording scaled so that its speech frames have the common speech level. */
function toSpeechLevel(pcm: Int16Array): Int16Array {
  const speech = speechFrames(pcm);
  let sum = 0;
  let count = 0;
  for (let frame = 0; frame < speech.length; frame += 1) {
    if (!speech[frame]) continue;
    for (let index = frame * FRAME; index < (frame + 1) * FRAME; index += 1) sum += pcm[index]! * pcm[index]!;
    count += FRAME;
  }
  const level = 10 * Math.log10(sum / Math.max(1, count) / 32768 ** 2 + 1e-12);
  const gain = 10 ** ((SPEECH_LEVEL_DBFS - level) / 20);
  return Int16Array.from(pcm, (sample) => Math.max(-32768, Math.min(32767, Math.round(sample * gain))));
}

/** The LibriVox sentences as separate recordings, with what is said, from the transcription file. */
export async function librivoxSentences(): Promise<{ id: string; reference: string; file: string }[]> {
  const text = await readFile(join(LIBRIVOX, 'transcription'), 'utf8');
  return text
    .split('\n')
    .map((line) => /^(.*)\((\S+)\)\s*$/.exec(line.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ id: match[2]!, reference: match[1]!.replace(/<\/?s>/g, ' ').replace(/\s+/g, ' ').trim(), file: join(LIBRIVOX, `${match[2]!}.wav`) }));
}
