import { describe, expect, it } from 'vitest';
import { longSegments, sampleTranscript } from '../../../test/support/evaluation-input.js';
import { estimateTokens } from './token-estimate.js';
import { formatTime, splitIntoParts, splitText, transcriptLines } from './transcript-parts.js';

describe('transcriptLines', () => {
  it('numbers each segment with its time, speaker and role, whitespace collapsed', () => {
    const lines = transcriptLines(sampleTranscript(), Number.POSITIVE_INFINITY);
    expect(lines.map((line) => line.text).slice(0, 3)).toEqual([
      '[0] 0:00 Anna Lee (representative): Hello, welcome to Acme, this is Anna speaking.',
      '[1] 0:04 John (contact): Hi Anna, I am calling about your analytics plan.',
      '[2] 0:09 Anna Lee (representative): Great. What do you need the analytics for?',
    ]);
    expect(lines[0]!.tokens).toBe(estimateTokens(`${lines[0]!.text}\n`));
  });

  it('leaves out the time when the transcript has none, and says when a speaker has no role', () => {
    const transcript = sampleTranscript([{ speaker: 'Guest', text: 'Hello there.', words: [] }]);
    expect(transcriptLines(transcript, 1_000)[0]!.text).toBe('[0] Guest (role unknown): Hello there.');
    expect(formatTime(3_725_000)).toBe('1:02:05');
  });

  it('splits a segment longer than the budget into pieces that keep its index and give back its text', () => {
    const text = Array.from({ length: 400 }, (_, index) => `word${index}`).join(' ');
    const transcript = sampleTranscript([{ speaker: 'Anna Lee', startMs: 0, text, words: [] }, { speaker: 'John', startMs: 5_000, text: 'Short.', words: [] }]);
    const lines = transcriptLines(transcript, 200);
    const pieces = lines.filter((line) => line.segmentIndex === 0);
    expect(pieces.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.tokens).toBeLessThanOrEqual(200);
    expect(pieces.map((line) => line.piece)).toEqual(pieces.map((_, index) => ({ number: index + 1, of: pieces.length })));
    expect(pieces[1]!.text).toMatch(new RegExp(`^\\[0 piece 2/${pieces.length}\\] 0:00 Anna Lee \\(representative\\): word`));
    const given = pieces.map((line) => line.text.slice(line.text.indexOf('): ') + 3)).join(' ');
    expect(given).toBe(text);
    expect(lines.at(-1)!.segmentIndex).toBe(1);
    expect(lines.at(-1)!.piece).toBeUndefined();
  });
});

describe('splitText', () => {
  it('splits inside a word only when the word alone is too long, each piece a substring of the text', () => {
    const text = `short ${'x'.repeat(100)} end`;
    const pieces = splitText(text, 10);
    expect(pieces.length).toBeGreaterThan(3);
    for (const piece of pieces) {
      expect(estimateTokens(piece)).toBeLessThanOrEqual(10);
      expect(text).toContain(piece);
    }
    expect(pieces.join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
  });

  it('counts characters outside ASCII as a token each, so such text is never under-counted', () => {
    expect(estimateTokens('abcdefgh')).toBe(2);
    expect(estimateTokens('日本語です')).toBe(5);
  });
});

describe('splitIntoParts', () => {
  it('puts every line in exactly one part, in order, each within the budget and the parts about even', () => {
    const lines = transcriptLines(sampleTranscript(longSegments(101)), 500);
    const parts = splitIntoParts(lines, 500);
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.flat()).toEqual(lines);
    const sizes = parts.map((part) => part.reduce((sum, line) => sum + line.tokens, 0));
    for (const size of sizes) expect(size).toBeLessThanOrEqual(500);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(2 * Math.max(...lines.map((line) => line.tokens)));
  });
});
