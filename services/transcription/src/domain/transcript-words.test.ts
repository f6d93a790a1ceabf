import { describe, expect, it } from 'vitest';
import { normalizeRecognizedWord, shiftWords } from './transcript-words.js';

describe('normalizeRecognizedWord', () => {
  it('keeps ordinary words, apostrophes and hyphens included', () => {
    expect(normalizeRecognizedWord('leisure')).toBe('leisure');
    expect(normalizeRecognizedWord("i'm")).toBe("i'm");
    expect(normalizeRecognizedWord('well-known')).toBe('well-known');
    expect(normalizeRecognizedWord('  padded ')).toBe('padded');
  });

  it('strips the alternate-pronunciation suffix PocketSphinx adds', () => {
    expect(normalizeRecognizedWord('and(2)')).toBe('and');
    expect(normalizeRecognizedWord("i'm(3)")).toBe("i'm");
    expect(normalizeRecognizedWord('to(12)')).toBe('to');
  });

  it.each(['<s>', '</s>', '<sil>', '[NOISE]', '[SPEECH]', '++NOISE++', '++UH++', '<unk>', '[MUSIC]', '(laughs)', '', '   '])(
    'drops %j, which is not a word',
    (token) => {
      expect(normalizeRecognizedWord(token)).toBeUndefined();
    },
  );
});

describe('shiftWords', () => {
  it('moves every word by the offset and keeps the rest', () => {
    expect(shiftWords([{ text: 'hi', startMs: 0, endMs: 120, confidence: 0.5 }, { text: 'there', startMs: 130, endMs: 400 }], 20_000)).toEqual([
      { text: 'hi', startMs: 20_000, endMs: 20_120, confidence: 0.5 },
      { text: 'there', startMs: 20_130, endMs: 20_400 },
    ]);
  });
});
