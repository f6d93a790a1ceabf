import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_DIRECTORY } from './sentence-encoder.js';
import { readWordPieceTokenizer, wordPieceFromVocabTxt, type WordPieceTokenizer } from './wordpiece-tokenizer.js';

// A vocab.txt of a few lines: a token's id is its line number from 0.
const TINY_VOCABULARY = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'un', '##aff', '##able', 'hello', 'world', '!', ',', 'cafe', '$', '5', '中'].join('\n');

describe('WordPiece tokenizer on a hand-made vocabulary', () => {
  const tokenizer = wordPieceFromVocabTxt(TINY_VOCABULARY);

  it('lower-cases, strips accents and splits off punctuation', () => {
    expect(tokenizer.tokenize('Hello, CAFÉ!')).toEqual(['hello', ',', 'cafe', '!']);
    expect(tokenizer.encode('Hello, CAFÉ!')).toEqual([2, 7, 10, 11, 9, 3]);
  });

  it('cuts a word into the longest pieces the vocabulary has', () => {
    expect(tokenizer.tokenize('unaffable')).toEqual(['un', '##aff', '##able']);
  });

  it('makes a word [UNK] when a part of it matches nothing, or when it is too long', () => {
    expect(tokenizer.tokenize('unaffablex hello')).toEqual(['[UNK]', 'hello']);
    expect(wordPieceFromVocabTxt(TINY_VOCABULARY, { maxInputCharsPerWord: 4 }).tokenize('hello')).toEqual(['[UNK]']);
  });

  it('counts ASCII symbols as punctuation and spaces out CJK ideographs', () => {
    expect(tokenizer.tokenize('$5')).toEqual(['$', '5']);
    expect(tokenizer.tokenize('hello中world')).toEqual(['hello', '中', 'world']);
  });

  it('drops control characters and reads every kind of whitespace as a space', () => {
    expect(tokenizer.tokenize('hello\u0000\u200b\tworld\u00a0!\r\n')).toEqual(['hello', 'world', '!']);
  });

  it('reads special tokens written in the text as text', () => {
    expect(tokenizer.encode('[SEP]')).toEqual([2, 1, 1, 1, 3]);
  });

  it('keeps at most maxLength tokens, [CLS] and [SEP] included', () => {
    const short = wordPieceFromVocabTxt(TINY_VOCABULARY, { maxLength: 4 });
    expect(short.encode('hello world hello world')).toEqual([2, 7, 8, 3]);
    expect(short.encode('')).toEqual([2, 3]);
  });

  it('pads a batch to its longest text, with an attention mask of its real tokens', () => {
    const batch = tokenizer.pad([tokenizer.encode('hello world!'), tokenizer.encode('hello')]);
    expect(batch).toMatchObject({ batchSize: 2, sequenceLength: 5 });
    expect(Array.from(batch.inputIds, Number)).toEqual([2, 7, 8, 9, 3, 2, 7, 3, 0, 0]);
    expect(Array.from(batch.attentionMask, Number)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 0, 0]);
    expect(Array.from(batch.tokenTypeIds, Number)).toEqual(new Array(10).fill(0));
  });
});

// Expected ids are the line numbers (from 0) of the tokens in the model's vocabulary, the same as
// Hugging Face's `tokenizers` gives for this tokenizer.json: [PAD] 0, [UNK] 100, [CLS] 101,
// [SEP] 102, hello 7592, world 2088, could 2071, i 1045, have 2031, your 2115, booking 21725,
// reference 4431, ? 1029, cafe 7668, resume 13746, naive 15743, "," 1010, ! 999, una 14477,
// ##ffa 20961, ##ble 3468.
describe("WordPiece tokenizer on all-MiniLM-L6-v2's vocabulary", () => {
  let tokenizer: WordPieceTokenizer;
  beforeAll(async () => {
    tokenizer = await readWordPieceTokenizer(join(DEFAULT_MODEL_DIRECTORY, 'tokenizer.json'));
  });

  it('reads the vocabulary and the truncation length from tokenizer.json', () => {
    expect(tokenizer.vocabularySize).toBe(30522);
    expect(tokenizer.maxLength).toBe(128);
  });

  it('encodes "hello world" as [CLS] hello world [SEP]', () => {
    expect(tokenizer.encode('hello world')).toEqual([101, 7592, 2088, 102]);
  });

  it('encodes a question word by word, its question mark a token of its own', () => {
    expect(tokenizer.encode('Could I have your booking reference?')).toEqual([101, 2071, 1045, 2031, 2115, 21725, 4431, 1029, 102]);
  });

  it('strips accents', () => {
    expect(tokenizer.encode('Café résumé, naïve!')).toEqual([101, 7668, 13746, 1010, 15743, 999, 102]);
  });

  it('cuts an unknown word into sub-word pieces', () => {
    expect(tokenizer.tokenize('unaffable')).toEqual(['una', '##ffa', '##ble']);
    expect(tokenizer.encode('unaffable')).toEqual([101, 14477, 20961, 3468, 102]);
  });

  it('cuts a long text to 128 tokens', () => {
    const ids = tokenizer.encode('hello '.repeat(300));
    expect(ids).toHaveLength(128);
    expect(ids.at(0)).toBe(101);
    expect(ids.at(-1)).toBe(102);
  });
});
