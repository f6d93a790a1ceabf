import { describe, expect, it } from 'vitest';
import { segmentsFromWords, type SpeakerWord } from './speaker-segments.js';

const word = (speaker: number, text: string, startMs: number, endMs = startMs + 300): SpeakerWord => ({ speaker, text, startMs, endMs });

describe('segmentsFromWords', () => {
  it('gives no segments for no words', () => {
    expect(segmentsFromWords([])).toEqual([]);
  });

  it('merges the two channels of a stereo call by start time', () => {
    const left = [word(0, 'hello', 0), word(0, 'there', 350), word(0, 'how', 3_000), word(0, 'are', 3_300), word(0, 'you', 3_600)];
    const right = [word(1, 'hi', 1_200), word(1, 'fine', 4_500), word(1, 'thanks', 4_800)];
    const segments = segmentsFromWords([...left, ...right]);
    expect(segments.map(({ speaker, startMs, endMs, text }) => ({ speaker, startMs, endMs, text }))).toEqual([
      { speaker: 0, startMs: 0, endMs: 650, text: 'hello there' },
      { speaker: 1, startMs: 1_200, endMs: 1_500, text: 'hi' },
      { speaker: 0, startMs: 3_000, endMs: 3_900, text: 'how are you' },
      { speaker: 1, startMs: 4_500, endMs: 5_100, text: 'fine thanks' },
    ]);
  });

  it('keeps each word with its timing and confidence, without the speaker', () => {
    const [segment] = segmentsFromWords([{ speaker: 2, text: 'yes', startMs: 10, endMs: 200, confidence: 0.9 }]);
    expect(segment).toEqual({ speaker: 2, startMs: 10, endMs: 200, text: 'yes', words: [{ text: 'yes', startMs: 10, endMs: 200, confidence: 0.9 }] });
  });

  it('starts a new segment after a pause longer than 1.5 s, and not after a shorter one', () => {
    const segments = segmentsFromWords([word(0, 'one', 0, 500), word(0, 'two', 2_000, 2_400), word(0, 'three', 3_901, 4_200)]);
    expect(segments.map((segment) => segment.text)).toEqual(['one two', 'three']);
  });

  it('takes the longest pause as an option', () => {
    const words = [word(0, 'one', 0, 500), word(0, 'two', 900, 1_200)];
    expect(segmentsFromWords(words, { maxPauseMs: 300 }).map((segment) => segment.text)).toEqual(['one', 'two']);
  });

  it('orders overlapping speech by time: a remark made over a sentence splits it', () => {
    const segments = segmentsFromWords([word(0, 'so', 0), word(0, 'the', 400), word(1, 'right', 500), word(0, 'plan', 800), word(0, 'is', 1_100)]);
    expect(segments.map((segment) => [segment.speaker, segment.text])).toEqual([
      [0, 'so the'],
      [1, 'right'],
      [0, 'plan is'],
    ]);
  });

  it('accepts words in any order and keeps equal start times in their given order', () => {
    const segments = segmentsFromWords([word(0, 'b', 500), word(0, 'a', 0), word(1, 'x', 500), word(1, 'y', 800)]);
    expect(segments.map((segment) => [segment.speaker, segment.text])).toEqual([
      [0, 'a b'],
      [1, 'x y'],
    ]);
  });

  it('ends a segment at the latest end of its words and skips blank words', () => {
    const [segment, ...rest] = segmentsFromWords([word(0, 'long', 0, 2_000), word(0, ' ', 100, 200), word(0, 'short', 500, 900)]);
    expect(rest).toEqual([]);
    expect(segment).toMatchObject({ startMs: 0, endMs: 2_000, text: 'long short' });
  });

  it('does not change its input', () => {
    const words = [word(1, 'b', 500), word(0, 'a', 0)];
    const copy = structuredClone(words);
    segmentsFromWords(words);
    expect(words).toEqual(copy);
  });
});
