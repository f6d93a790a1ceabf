import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosine, loadSentenceEncoder, SentenceEncoderModelMissingError, type SentenceEncoder } from './sentence-encoder.js';

const TEXTS = [
  'Could I have your booking reference?',
  'What is your reservation number?',
  'The weather is nice today',
  "I'd like to cancel my subscription.",
  'Please terminate my membership.',
  'Is there anything else I can help you with today, or have we covered everything you needed?',
  'yeah',
];

const norm = (vector: Float32Array) => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
const largestDifference = (a: Float32Array, b: Float32Array) => a.reduce((largest, value, index) => Math.max(largest, Math.abs(value - b[index]!)), 0);

describe('sentence encoder (all-MiniLM-L6-v2, int8)', () => {
  let encoder: SentenceEncoder;
  let vectors: Float32Array[];
  beforeAll(async () => {
    encoder = await loadSentenceEncoder();
    vectors = await encoder.encode(TEXTS);
  });
  afterAll(async () => {
    await encoder.close();
  });

  it('loads once: callers at the same time share one encoder', async () => {
    const [first, second] = await Promise.all([loadSentenceEncoder(), loadSentenceEncoder()]);
    expect(first).toBe(encoder);
    expect(second).toBe(encoder);
  });

  it('gives one 384-number vector of length 1 per text', () => {
    expect(encoder.dimension).toBe(384);
    expect(vectors).toHaveLength(TEXTS.length);
    for (const vector of vectors) {
      expect(vector).toHaveLength(384);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
  });

  it('scores a paraphrase above an unrelated sentence', () => {
    const [booking, reservation, weather, cancel, terminate] = vectors;
    expect(cosine(booking!, reservation!)).toBeGreaterThan(cosine(booking!, weather!) + 0.3);
    expect(cosine(booking!, reservation!)).toBeGreaterThan(cosine(reservation!, weather!) + 0.3);
    expect(cosine(cancel!, terminate!)).toBeGreaterThan(cosine(cancel!, booking!) + 0.3);
    expect(cosine(cancel!, terminate!)).toBeGreaterThan(0.5);
  });

  it('gives a text the same vector in a batch as alone, and keeps the order of the texts', async () => {
    for (const [index, text] of TEXTS.entries()) {
      const [alone] = await encoder.encode([text]);
      expect(largestDifference(alone!, vectors[index]!)).toBeLessThan(1e-4);
    }
  });

  it('gives the same vectors in batches of any size', async () => {
    const inPairs = await loadSentenceEncoder({ batchSize: 2 });
    try {
      const paired = await inPairs.encode(TEXTS);
      paired.forEach((vector, index) => expect(largestDifference(vector, vectors[index]!)).toBeLessThan(1e-4));
    } finally {
      await inPairs.close();
    }
  });

  it('encodes no texts as no vectors, and an empty text as a vector all the same', async () => {
    expect(await encoder.encode([])).toEqual([]);
    const [empty] = await encoder.encode(['']);
    expect(norm(empty!)).toBeCloseTo(1, 5);
  });
});

describe('cosine', () => {
  it('is 1 for the same direction, 0 for a right angle or a zero vector, −1 for opposites', () => {
    expect(cosine(Float32Array.of(1, 2), Float32Array.of(2, 4))).toBeCloseTo(1, 6);
    expect(cosine(Float32Array.of(1, 0), Float32Array.of(0, 3))).toBe(0);
    expect(cosine(Float32Array.of(0, 0), Float32Array.of(1, 1))).toBe(0);
    expect(cosine(Float32Array.of(1, -1), Float32Array.of(-1, 1))).toBeCloseTo(-1, 6);
  });

  it('rejects vectors of different lengths', () => {
    expect(() => cosine(Float32Array.of(1), Float32Array.of(1, 2))).toThrow(RangeError);
  });
});

describe('loading', () => {
  it('rejects a thread count below 1 or a batch size that is not a whole number', async () => {
    await expect(loadSentenceEncoder({ intraOpThreads: 0 })).rejects.toThrow(RangeError);
    await expect(loadSentenceEncoder({ batchSize: 1.5 })).rejects.toThrow(/batchSize/);
  });

  it('without the model says which file is missing and how to install it, and tries again on the next call', async () => {
    const modelDirectory = join(tmpdir(), 'parlance-no-such-model');
    const attempt = loadSentenceEncoder({ modelDirectory });
    await expect(attempt).rejects.toBeInstanceOf(SentenceEncoderModelMissingError);
    await expect(attempt).rejects.toThrow(/model\.onnx does not exist.*scripts\/ensure-embedding-model\.sh/);
    const retry = loadSentenceEncoder({ modelDirectory });
    expect(retry).not.toBe(attempt);
    await expect(retry).rejects.toBeInstanceOf(SentenceEncoderModelMissingError);
  });
});
