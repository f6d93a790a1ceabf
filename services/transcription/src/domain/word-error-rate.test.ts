import { describe, expect, it } from 'vitest';
import { comparableWords, overallWordErrorRate, wordErrorRate } from './word-error-rate.js';

describe('wordErrorRate', () => {
  it('is 0 for the same words, whatever the case and punctuation', () => {
    expect(wordErrorRate('Hello, World! How are you?', 'hello world how are you')).toEqual({
      wer: 0,
      substitutions: 0,
      deletions: 0,
      insertions: 0,
      referenceWords: 5,
    });
  });

  it('counts a substitution, a deletion and an insertion', () => {
    expect(wordErrorRate('the cat sat on the mat', 'well the bat sat on mat')).toEqual({
      wer: 3 / 6,
      substitutions: 1,
      deletions: 1,
      insertions: 1,
      referenceWords: 6,
    });
  });

  it('measures PocketSphinx’s reading of a LibriVox sentence', () => {
    const result = wordErrorRate('he was not an ill disposed young man', 'he was not an illness those young man');
    expect(result).toMatchObject({ substitutions: 2, deletions: 0, insertions: 0, referenceWords: 8, wer: 0.25 });
  });

  it('can exceed 1 when the hypothesis adds more words than the reference has', () => {
    expect(wordErrorRate('yes', 'yes yes yes')).toMatchObject({ wer: 2, insertions: 2 });
  });

  it('handles empty texts', () => {
    expect(wordErrorRate('', '')).toMatchObject({ wer: 0, referenceWords: 0 });
    expect(wordErrorRate('', 'something')).toMatchObject({ wer: 1, insertions: 1, referenceWords: 0 });
    expect(wordErrorRate('two words', '')).toMatchObject({ wer: 1, deletions: 2 });
  });

  it('prefers one substitution to a deletion and an insertion', () => {
    expect(wordErrorRate('a b c', 'a x c')).toMatchObject({ substitutions: 1, deletions: 0, insertions: 0 });
  });
});

describe('comparableWords', () => {
  it('keeps apostrophes inside words, splits hyphens and drops other punctuation', () => {
    expect(comparableWords("Don't — cold-hearted, 'quoted' words… 42 ‘curly’ O’Brien")).toEqual([
      "don't",
      'cold',
      'hearted',
      'quoted',
      'words',
      '42',
      'curly',
      "o'brien",
    ]);
    expect(comparableWords('Ünïcode ÉCOLE')).toEqual(['ünïcode', 'école']);
  });
});

describe('overallWordErrorRate', () => {
  it('divides all edits by all reference words, not the mean of the rates', () => {
    const overall = overallWordErrorRate([wordErrorRate('a b c d e f g h i j', 'a b c d e f g h i x'), wordErrorRate('yes', 'no')]);
    expect(overall).toEqual({ wer: 2 / 11, substitutions: 2, deletions: 0, insertions: 0, referenceWords: 11 });
    expect(overallWordErrorRate([])).toMatchObject({ wer: 0, referenceWords: 0 });
  });
});
