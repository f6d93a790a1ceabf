import { describe, expect, it } from 'vitest';
import { msToSamples } from './pcm.js';
import { audibleMs, OVERLAP_MS, planChunks, type AudioChunk } from './silence-chunks.js';

/** Audio built from [durationMs, amplitude] parts: amplitude 0 is digital silence, else noise. */
function audio(...parts: Array<[number, number]>): Int16Array {
  const pcm = new Int16Array(parts.reduce((sum, [ms]) => sum + msToSamples(ms), 0));
  let seed = 12345;
  let offset = 0;
  for (const [ms, amplitude] of parts) {
    for (let index = 0; index < msToSamples(ms); index += 1) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      pcm[offset + index] = Math.round((seed / 2147483648 - 0.5) * 2 * amplitude);
    }
    offset += msToSamples(ms);
  }
  return pcm;
}

const SPEECH = 8000;
const HUM = 60; // background noise in a gap: quiet, but not digital silence
const seconds = (chunk: AudioChunk) => [chunk.startSample / 16_000, chunk.endSample / 16_000];

function expectContiguous(chunks: AudioChunk[], length: number, maxMs = 30_000) {
  expect(chunks[0]!.startSample).toBe(0);
  expect(chunks.at(-1)!.endSample).toBe(length);
  for (let index = 1; index < chunks.length; index += 1) expect(chunks[index]!.startSample).toBe(chunks[index - 1]!.endSample);
  for (const chunk of chunks) {
    expect(chunk.endSample).toBeGreaterThan(chunk.startSample);
    expect(chunk.endSample - chunk.startSample).toBeLessThanOrEqual(msToSamples(maxMs));
  }
}

describe('planChunks', () => {
  it('plans nothing for no audio', () => {
    expect(planChunks(new Int16Array(0))).toEqual([]);
  });

  it('leaves audio up to the maximum length whole', () => {
    const pcm = audio([10_000, SPEECH], [500, 0], [19_500, SPEECH]);
    expect(planChunks(pcm)).toEqual([{ startSample: 0, endSample: pcm.length, contextStartSample: 0, contextEndSample: pcm.length, silent: false }]);
    expect(planChunks(new Int16Array(5))).toEqual([{ startSample: 0, endSample: 5, contextStartSample: 0, contextEndSample: 5, silent: true }]);
  });

  it('cuts inside the pauses between sentences, close to the target length', () => {
    // Pauses at 9 s, 19 s, 26 s, 38 s and 55 s; the audio is 70 s long.
    const pcm = audio(
      [9_000, SPEECH],
      [400, HUM],
      [9_600, SPEECH],
      [400, HUM],
      [6_600, SPEECH],
      [400, HUM],
      [11_600, SPEECH],
      [400, HUM],
      [16_600, SPEECH],
      [400, HUM],
      [14_600, SPEECH],
    );
    const chunks = planChunks(pcm);
    expectContiguous(chunks, pcm.length);
    const cuts = chunks.slice(1).map((chunk) => chunk.startSample / 16_000);
    // The middle of the pause nearest 20 s (19–19.4 s), then of the one nearest 20 s after that cut (38–38.4 s;
    // the one at 26 s is further), then of the one at 55 s (the only one before 68.2 s).
    expect(cuts).toEqual([19.18, 38.18, 55.18]);
    expect(chunks.every((chunk) => !chunk.silent)).toBe(true);
    // Cut in pauses, the pieces need no context from their neighbours.
    for (const chunk of chunks) expect([chunk.contextStartSample, chunk.contextEndSample]).toEqual([chunk.startSample, chunk.endSample]);
  });

  it('prefers the quietest place over the one nearest the target', () => {
    // A short breath (120 ms, quieter than speech but not silent) at 20 s, and a real pause at 13 s.
    const pcm = audio([13_000, SPEECH], [600, 0], [6_400, SPEECH], [120, 1500], [20_000, SPEECH]);
    const [first] = planChunks(pcm);
    expect(first!.endSample / 16_000).toBeCloseTo(13.3, 1);
  });

  it('treats pauses that are about as quiet as each other alike and takes the one nearest the target', () => {
    const pcm = audio([11_000, SPEECH], [500, HUM], [9_000, SPEECH], [500, HUM * 1.1], [14_000, SPEECH]);
    const [first] = planChunks(pcm);
    expect(first!.endSample / 16_000).toBeCloseTo(20.76, 1);
  });

  it('still cuts speech without any pause at the maximum length or before, each piece overlapping its neighbours by a second', () => {
    const pcm = audio([95_000, SPEECH]);
    const chunks = planChunks(pcm);
    expectContiguous(chunks, pcm.length);
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    const overlap = msToSamples(OVERLAP_MS);
    expect(chunks[0]!.contextStartSample).toBe(0);
    expect(chunks.at(-1)!.contextEndSample).toBe(pcm.length);
    for (let index = 1; index < chunks.length; index += 1) {
      expect(chunks[index]!.contextStartSample).toBe(chunks[index]!.startSample - overlap);
      expect(chunks[index - 1]!.contextEndSample).toBe(chunks[index - 1]!.endSample + overlap);
    }
  });

  it('overlaps only at the cuts that are not in a pause', () => {
    // 40 s of talk without a pause, a pause, then 25 s more: one forced cut, then one in the pause.
    const pcm = audio([40_000, SPEECH], [400, HUM], [25_000, SPEECH]);
    const chunks = planChunks(pcm);
    expectContiguous(chunks, pcm.length);
    expect(chunks).toHaveLength(3);
    const [first, second, third] = chunks as [AudioChunk, AudioChunk, AudioChunk];
    expect(first.contextEndSample - first.endSample).toBe(msToSamples(OVERLAP_MS));
    expect(second.startSample - second.contextStartSample).toBe(msToSamples(OVERLAP_MS));
    expect(second.endSample / 16_000).toBeCloseTo(40.2, 1);
    expect(second.contextEndSample).toBe(second.endSample);
    expect(third.contextStartSample).toBe(third.startSample);
  });

  it('marks pieces holding nothing audible as silent', () => {
    const pcm = audio([15_000, SPEECH], [500, 0], [30_000, 0], [500, 0], [15_000, SPEECH]);
    const chunks = planChunks(pcm);
    expectContiguous(chunks, pcm.length);
    expect(chunks.map((chunk) => chunk.silent)).toContain(true);
    for (const chunk of chunks.filter((candidate) => candidate.silent)) {
      const [from, to] = seconds(chunk);
      expect(from).toBeGreaterThanOrEqual(15);
      expect(to).toBeLessThanOrEqual(46);
    }
    expect(chunks[0]!.silent).toBe(false);
    expect(chunks.at(-1)!.silent).toBe(false);
  });

  it('keeps a quiet but audible recording (-50 dBFS) as speech', () => {
    const pcm = audio([40_000, 180]);
    expect(planChunks(pcm).every((chunk) => !chunk.silent)).toBe(true);
  });

  it('follows the given lengths', () => {
    const parts: Array<[number, number]> = [];
    for (let second = 0; second < 20; second += 1) parts.push([800, SPEECH], [200, 0]);
    const pcm = audio(...parts);
    const chunks = planChunks(pcm, { targetMs: 3_000, maxMs: 4_000, minSilenceMs: 100 });
    expectContiguous(chunks, pcm.length, 4_000);
    // Every cut in a pause: 0.8–1.0 s into some second.
    for (const chunk of chunks.slice(1)) {
      const fraction = (chunk.startSample / 16_000) % 1;
      expect(fraction).toBeGreaterThanOrEqual(0.8);
      expect(fraction).toBeLessThanOrEqual(1);
    }
  });

  it('refuses options that cannot be met', () => {
    const pcm = audio([1_000, SPEECH]);
    expect(() => planChunks(pcm, { targetMs: 40_000, maxMs: 30_000 })).toThrow(RangeError);
    expect(() => planChunks(pcm, { maxMs: 0 })).toThrow(RangeError);
    expect(() => planChunks(pcm, { minSilenceMs: 15_000 })).toThrow(RangeError);
  });
});

describe('audibleMs', () => {
  it('counts the 20 ms frames that hold anything audible', () => {
    expect(audibleMs(new Int16Array(0))).toBe(0);
    expect(audibleMs(audio([2_000, 0], [1_500, 180], [500, 0]))).toBe(1_500);
    expect(audibleMs(audio([3_000, 180]))).toBe(3_000);
  });
});
