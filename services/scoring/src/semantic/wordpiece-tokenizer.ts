/**
 * BERT's uncased WordPiece tokenizer, as Hugging Face's `tokenizers` runs it for the sentence
 * encoders (BertNormalizer, BertPreTokenizer, WordPiece, then [CLS] … [SEP]):
 *
 * 1. Clean: drop NUL, U+FFFD and control characters, turn every kind of whitespace into a space,
 *    and put spaces around CJK ideographs (each is a word of its own).
 * 2. Strip accents (NFD, then drop the combining marks) and lower-case.
 * 3. Split on whitespace, and make every punctuation character a word of its own.
 * 4. Cut each word into the longest pieces the vocabulary has, left to right, the pieces after the
 *    first prefixed with "##"; a word that cannot be cut, or is longer than 100 characters, is
 *    [UNK].
 * 5. Keep at most `maxLength` − 2 pieces and put [CLS] before them and [SEP] after.
 *
 * The vocabulary comes from the model's tokenizer.json (`model.vocab`) or vocab.txt (one token a
 * line, its id the line number from 0). Special tokens written in the text ("[SEP]") are read as
 * text, not as special tokens: what people said never steers the model.
 */
import { readFile } from 'node:fs/promises';

export interface WordPieceOptions {
  /** Lower-case the text (uncased models). Default true. */
  lowercase?: boolean;
  /** Remove accents. Default: as `lowercase`, as BERT's uncased tokenizers do. */
  stripAccents?: boolean;
  /** Pieces per text, [CLS] and [SEP] included; longer texts are cut. Default 128. */
  maxLength?: number;
  /** A longer word is [UNK]. Default 100. */
  maxInputCharsPerWord?: number;
}

/** Token ids of a batch, padded to its longest text, as the model's int64 inputs want them. */
export interface EncodedBatch {
  /** Rows of `sequenceLength` ids, row-major, [PAD] after each text. */
  inputIds: BigInt64Array;
  /** 1 for a text's tokens, 0 for the padding. */
  attentionMask: BigInt64Array;
  /** All 0: one segment. */
  tokenTypeIds: BigInt64Array;
  batchSize: number;
  sequenceLength: number;
}

export interface WordPieceTokenizer {
  readonly vocabularySize: number;
  readonly maxLength: number;
  /** The word pieces of a text, without [CLS] and [SEP], not cut to `maxLength`. */
  tokenize(text: string): string[];
  /** [CLS], the text's piece ids (at most `maxLength` − 2 of them), [SEP]. */
  encode(text: string): number[];
  /** `encode`d texts padded into one batch. */
  pad(sequences: readonly (readonly number[])[]): EncodedBatch;
}

const SPECIAL = { unknown: '[UNK]', classifier: '[CLS]', separator: '[SEP]', padding: '[PAD]' } as const;
const CONTINUATION = '##';

/** Reads a tokenizer.json (WordPiece model) or a vocab.txt, by the file's name. */
export async function readWordPieceTokenizer(path: string, options: WordPieceOptions = {}): Promise<WordPieceTokenizer> {
  const text = await readFile(path, 'utf8');
  return path.endsWith('.json') ? wordPieceFromTokenizerJson(JSON.parse(text), options) : wordPieceFromVocabTxt(text, options);
}

/** vocab.txt: one token a line, its id the line's number from 0. */
export function wordPieceFromVocabTxt(text: string, options: WordPieceOptions = {}): WordPieceTokenizer {
  const vocabulary = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((token, id) => vocabulary.set(token, id));
  return createWordPieceTokenizer(vocabulary, options);
}

interface TokenizerJson {
  model?: { type?: string; vocab?: Record<string, number>; max_input_chars_per_word?: number; continuing_subword_prefix?: string };
  normalizer?: { lowercase?: boolean; strip_accents?: boolean | null } | null;
  truncation?: { max_length?: number } | null;
}

/** Hugging Face's tokenizer.json of a BERT model: the vocabulary, lower-casing and truncation length are read from it. */
export function wordPieceFromTokenizerJson(json: unknown, options: WordPieceOptions = {}): WordPieceTokenizer {
  const { model, normalizer, truncation } = json as TokenizerJson;
  if (model?.type !== 'WordPiece' || !model.vocab) throw new Error(`Not a WordPiece tokenizer.json (model type ${model?.type ?? 'missing'})`);
  if ((model.continuing_subword_prefix ?? CONTINUATION) !== CONTINUATION) throw new Error(`Unsupported subword prefix ${model.continuing_subword_prefix}`);
  const lowercase = options.lowercase ?? normalizer?.lowercase ?? true;
  return createWordPieceTokenizer(new Map(Object.entries(model.vocab)), {
    lowercase,
    stripAccents: options.stripAccents ?? normalizer?.strip_accents ?? lowercase,
    maxLength: options.maxLength ?? truncation?.max_length ?? undefined,
    maxInputCharsPerWord: options.maxInputCharsPerWord ?? model.max_input_chars_per_word,
  });
}

export function createWordPieceTokenizer(vocabulary: ReadonlyMap<string, number>, options: WordPieceOptions = {}): WordPieceTokenizer {
  const lowercase = options.lowercase ?? true;
  const stripAccents = options.stripAccents ?? lowercase;
  const maxLength = options.maxLength ?? 128;
  const maxInputCharsPerWord = options.maxInputCharsPerWord ?? 100;
  if (maxLength < 2) throw new Error(`maxLength must leave room for [CLS] and [SEP], not ${maxLength}`);
  const idOf = (token: string): number => {
    const id = vocabulary.get(token);
    if (id === undefined) throw new Error(`The vocabulary has no ${token}`);
    return id;
  };
  const unknown = idOf(SPECIAL.unknown);
  const classifier = idOf(SPECIAL.classifier);
  const separator = idOf(SPECIAL.separator);
  const padding = idOf(SPECIAL.padding);

  function tokenize(text: string): string[] {
    const pieces: string[] = [];
    for (const word of words(normalize(text, lowercase, stripAccents))) {
      for (const piece of wordPieces(word, vocabulary, maxInputCharsPerWord)) pieces.push(piece);
    }
    return pieces;
  }

  function encode(text: string): number[] {
    const ids = [classifier];
    for (const piece of tokenize(text)) {
      if (ids.length === maxLength - 1) break;
      ids.push(vocabulary.get(piece) ?? unknown);
    }
    ids.push(separator);
    return ids;
  }

  function pad(sequences: readonly (readonly number[])[]): EncodedBatch {
    const batchSize = sequences.length;
    const sequenceLength = Math.max(0, ...sequences.map((ids) => ids.length));
    const inputIds = new BigInt64Array(batchSize * sequenceLength).fill(BigInt(padding));
    const attentionMask = new BigInt64Array(batchSize * sequenceLength);
    sequences.forEach((ids, row) => {
      const offset = row * sequenceLength;
      ids.forEach((id, column) => {
        inputIds[offset + column] = BigInt(id);
        attentionMask[offset + column] = 1n;
      });
    });
    return { inputIds, attentionMask, tokenTypeIds: new BigInt64Array(batchSize * sequenceLength), batchSize, sequenceLength };
  }

  return { vocabularySize: vocabulary.size, maxLength, tokenize, encode, pad };
}

const CONTROL = /\p{C}/u;
const WHITESPACE = /\p{White_Space}/u;
const PUNCTUATION = /\p{P}/u;
const COMBINING_MARKS = /\p{Mn}/gu;

/** BertNormalizer: clean the text, space out CJK ideographs, strip accents, lower-case. */
function normalize(text: string, lowercase: boolean, stripAccents: boolean): string {
  let cleaned = '';
  for (const character of text) {
    const code = character.codePointAt(0)!;
    if (character === '\t' || character === '\n' || character === '\r') {
      cleaned += ' ';
      continue;
    }
    if (code === 0 || code === 0xfffd || CONTROL.test(character)) continue;
    if (WHITESPACE.test(character)) cleaned += ' ';
    else if (isCjkIdeograph(code)) cleaned += ` ${character} `;
    else cleaned += character;
  }
  if (stripAccents) cleaned = cleaned.normalize('NFD').replace(COMBINING_MARKS, '');
  return lowercase ? cleaned.toLowerCase() : cleaned;
}

/** The CJK Unified Ideographs blocks BERT spaces out (not Hiragana, Katakana or Hangul). */
function isCjkIdeograph(code: number): boolean {
  return (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x20000 && code <= 0x2a6df) ||
    (code >= 0x2a700 && code <= 0x2b73f) ||
    (code >= 0x2b740 && code <= 0x2b81f) ||
    (code >= 0x2b820 && code <= 0x2ceaf) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0x2f800 && code <= 0x2fa1f)
  );
}

/** ASCII symbols count as punctuation for BERT ("$", "+", "<", "^", "`", "|", "~"), as do Unicode's P categories. */
function isPunctuation(character: string): boolean {
  const code = character.charCodeAt(0);
  if ((code >= 33 && code <= 47) || (code >= 58 && code <= 64) || (code >= 91 && code <= 96) || (code >= 123 && code <= 126)) return true;
  return PUNCTUATION.test(character);
}

/** BertPreTokenizer: whitespace separates words, and each punctuation character is a word. */
function* words(text: string): Generator<string> {
  let word = '';
  for (const character of text) {
    if (WHITESPACE.test(character)) {
      if (word) yield word;
      word = '';
    } else if (isPunctuation(character)) {
      if (word) yield word;
      word = '';
      yield character;
    } else {
      word += character;
    }
  }
  if (word) yield word;
}

/** Greedy longest-match-first; the whole word is [UNK] when a part of it matches nothing. */
function wordPieces(word: string, vocabulary: ReadonlyMap<string, number>, maxInputCharsPerWord: number): string[] {
  const characters = Array.from(word);
  if (characters.length > maxInputCharsPerWord) return [SPECIAL.unknown];
  const pieces: string[] = [];
  let start = 0;
  while (start < characters.length) {
    let end = characters.length;
    let piece: string | undefined;
    while (start < end) {
      const candidate = (start > 0 ? CONTINUATION : '') + characters.slice(start, end).join('');
      if (vocabulary.has(candidate)) {
        piece = candidate;
        break;
      }
      end -= 1;
    }
    if (piece === undefined) return [SPECIAL.unknown];
    pieces.push(piece);
    start = end;
  }
  return pieces;
}
