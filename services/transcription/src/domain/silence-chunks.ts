/**
 * Where to cut long audio so its pieces can be transcribed in parallel without cutting a word in
 * two. Speech engines are also more accurate on pieces of a few tens of seconds than on an hour.
 *
 * Method: the audio's loudness is measured as the energy (mean square) of 20 ms frames. A piece
 * shorter than `maxMs` is left whole. Otherwise the next cut is looked for between half the target
 * length and `maxMs` after the previous one, and goes in the middle of the quietest stretch of
 * `minSilenceMs` there (the gap between two words or sentences). Stretches within a small margin of
 * the quietest count as equally quiet, and of those the one nearest the target length wins, so
 * pieces come out close to `targetMs` when the audio allows it and never longer than `maxMs`.
 * Cuts fall on frame boundaries; the pieces cover the whole input, in order, without gaps or
 * overlaps.
 *
 * Speech without any pause (40 s of one voice talking on, or two voices over each other) still
 * has to be cut, and a cut there may fall inside a word, which an engine then hears as half a
 * word on each side, or not at all. So where a cut is not in a pause (its stretch is not at least
 * 12 dB quieter than the audio around it), each piece carries `OVERLAP_MS` of its neighbour as
 * context: the engine hears the cut word whole in both pieces, and the caller keeps each word from
 * the piece whose own span holds its middle (transcribe-audio.ts), so it is neither lost nor heard
 * twice.
 *
 * A piece whose every frame is below SILENT_FRAME_RMS (-60 dBFS, far below any speech, even quiet
 * speech over a telephone line) is marked `silent`: callers skip it instead of asking an engine to
 * transcribe nothing. It stays in the list so that the list still covers the whole input.
 */
import { msToSamples, type Pcm16k } from './pcm.js';

export interface ChunkOptions {
  /** The length pieces should have when a quiet place allows it. Default 20 s. */
  targetMs?: number;
  /** No piece is longer than this. Default 30 s. */
  maxMs?: number;
  /** How long a quiet stretch a cut is centred in. Default 300 ms. */
  minSilenceMs?: number;
}

export interface AudioChunk {
  startSample: number;
  /** Exclusive. */
  endSample: number;
  /** Where the audio to transcribe starts: before startSample when the cut before it is not in a pause. */
  contextStartSample: number;
  /** Where it ends (exclusive): after endSample when the cut after it is not in a pause. */
  contextEndSample: number;
  /** Nothing audible in the piece (see SILENT_FRAME_RMS). */
  silent: boolean;
}

export const DEFAULT_CHUNK_OPTIONS: Readonly<Required<ChunkOptions>> = { targetMs: 20_000, maxMs: 30_000, minSilenceMs: 300 };

/** 20 ms of audio, the unit loudness is measured in. */
export const FRAME_SAMPLES = msToSamples(20);

/** -60 dBFS: the RMS of a 20 ms frame under which it holds nothing audible. */
export const SILENT_FRAME_RMS = 32_768 * 10 ** (-60 / 20);

/** How much of each neighbour a piece carries where it was cut outside a pause. */
export const OVERLAP_MS = 1_000;

// A stretch whose energy is within this factor of the quietest one is as good a place to cut.
const QUIET_ENOUGH_FACTOR = 1.5;
// A stretch at least this much quieter than the audio it was chosen from (12 dB) is a pause.
const PAUSE_CONTRAST = 10 ** (12 / 10);
// Energy below which a stretch is silent whatever the factor says (digital silence is 0, and
// 1.5 × 0 would admit nothing else).
const SILENT_ENERGY = SILENT_FRAME_RMS ** 2;

export function planChunks(pcm: Pcm16k, options: ChunkOptions = {}): AudioChunk[] {
  const { targetMs, maxMs, minSilenceMs } = { ...DEFAULT_CHUNK_OPTIONS, ...options };
  if (!(maxMs >= 40) || !(targetMs > 0) || targetMs > maxMs || !(minSilenceMs > 0) || minSilenceMs > targetMs / 2) {
    throw new RangeError(`invalid chunk options: targetMs ${targetMs}, maxMs ${maxMs}, minSilenceMs ${minSilenceMs}`);
  }
  if (pcm.length === 0) return [];

  const energy = frameEnergies(pcm);
  const frameCount = energy.length;
  const maxFrames = Math.max(2, Math.floor(msToSamples(maxMs) / FRAME_SAMPLES));
  const targetFrames = Math.max(1, Math.min(maxFrames, Math.round(msToSamples(targetMs) / FRAME_SAMPLES)));
  const windowFrames = Math.max(1, Math.round(msToSamples(minSilenceMs) / FRAME_SAMPLES));
  const sums = prefixSums(energy);
  const meanEnergy = (from: number, to: number) => {
    const start = Math.max(0, from);
    const end = Math.min(frameCount, to);
    return end > start ? (sums[end]! - sums[start]!) / (end - start) : 0;
  };

  const cuts: Array<{ frame: number; inPause: boolean }> = [];
  let start = 0;
  while (pcm.length - start * FRAME_SAMPLES > maxFrames * FRAME_SAMPLES) {
    const earliest = start + Math.max(1, Math.floor(targetFrames / 2));
    const latest = start + maxFrames;
    const target = start + targetFrames;
    const quietness = (cut: number) => meanEnergy(cut - Math.floor(windowFrames / 2), cut + Math.ceil(windowFrames / 2));

    let quietest = Infinity;
    for (let cut = earliest; cut <= latest; cut += 1) quietest = Math.min(quietest, quietness(cut));
    const threshold = Math.max(quietest * QUIET_ENOUGH_FACTOR, SILENT_ENERGY);
    let best = -1;
    for (let cut = earliest; cut <= latest; cut += 1) {
      if (quietness(cut) <= threshold && (best < 0 || Math.abs(cut - target) < Math.abs(best - target))) best = cut;
    }
    // The middle of the quiet stretch the chosen place is in, as far from the words as possible.
    let from = best;
    let to = best;
    while (from > earliest && quietness(from - 1) <= threshold) from -= 1;
    while (to < latest && quietness(to + 1) <= threshold) to += 1;
    const cut = Math.floor((from + to) / 2);
    const inPause = quietness(cut) <= Math.max(SILENT_ENERGY, meanEnergy(earliest, latest) / PAUSE_CONTRAST);
    cuts.push({ frame: cut, inPause });
    start = cut;
  }

  const bounds = [{ sample: 0, inPause: true }, ...cuts.map((cut) => ({ sample: cut.frame * FRAME_SAMPLES, inPause: cut.inPause })), { sample: pcm.length, inPause: true }];
  const overlap = msToSamples(OVERLAP_MS);
  const chunks: AudioChunk[] = [];
  for (let index = 0; index + 1 < bounds.length; index += 1) {
    const before = bounds[index]!;
    const after = bounds[index + 1]!;
    chunks.push({
      startSample: before.sample,
      endSample: after.sample,
      contextStartSample: before.inPause ? before.sample : Math.max(0, before.sample - overlap),
      contextEndSample: after.inPause ? after.sample : Math.min(pcm.length, after.sample + overlap),
      silent: isSilent(energy, before.sample, after.sample),
    });
  }
  return chunks;
}

/** Mean square of each 20 ms frame; the last frame may be shorter. */
function frameEnergies(pcm: Pcm16k): Float64Array {
  const energy = new Float64Array(Math.ceil(pcm.length / FRAME_SAMPLES));
  for (let frame = 0; frame < energy.length; frame += 1) {
    const from = frame * FRAME_SAMPLES;
    const to = Math.min(pcm.length, from + FRAME_SAMPLES);
    let sum = 0;
    for (let index = from; index < to; index += 1) sum += pcm[index]! * pcm[index]!;
    energy[frame] = sum / (to - from);
  }
  return energy;
}

/** How long the audio is audible at all: its 20 ms frames at or above SILENT_FRAME_RMS. */
export function audibleMs(pcm: Pcm16k): number {
  const energy = frameEnergies(pcm);
  let audible = 0;
  for (let frame = 0; frame < energy.length; frame += 1) {
    if (energy[frame]! >= SILENT_ENERGY) audible += Math.min(FRAME_SAMPLES, pcm.length - frame * FRAME_SAMPLES);
  }
  return Math.round(audible / (FRAME_SAMPLES / 20));
}

function prefixSums(values: Float64Array): Float64Array {
  const sums = new Float64Array(values.length + 1);
  for (let index = 0; index < values.length; index += 1) sums[index + 1] = sums[index]! + values[index]!;
  return sums;
}

function isSilent(energy: Float64Array, startSample: number, endSample: number): boolean {
  const last = Math.ceil(endSample / FRAME_SAMPLES);
  for (let frame = Math.floor(startSample / FRAME_SAMPLES); frame < last; frame += 1) {
    if (energy[frame]! >= SILENT_ENERGY) return false;
  }
  return true;
}
