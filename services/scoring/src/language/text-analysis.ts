/**
 * Text as the offline evaluator reads it: sentences (tokenize.ts) of tokens,
 * each token with its candidate lemmas (WordNet's morphology through wink-lemmatizer: "sent" →
 * "send", "addresses" → "address"), whether it carries content, whether a negation ("not", "no",
 * "never", "without") has it in scope, and its character span, so evidence can quote the exact
 * words said.
 */
import winkLemmatizer from 'wink-lemmatizer';
import { lexicon } from './lexicon.js';
import { speechActsOf } from './speech-acts.js';
import { NEGATORS, STOP_WORDS } from './stop-words.js';
import { tokenize, type TokenType } from './tokenize.js';

export type TokenKind = 'word' | 'number' | 'money' | 'date' | 'time' | 'email' | 'url' | 'phone' | 'act';

export interface Token {
  /** Lower-cased, "n't" read as "not" (tokenize.ts). */
  readonly normal: string;
  /** Candidate lemmas, the most likely first; the normal form when WordNet knows none. */
  readonly lemmas: readonly string[];
  readonly kind: TokenKind;
  /** Not a stop word: it can meet a requirement. */
  readonly content: boolean;
  /** In the scope of a negation. */
  readonly negated: boolean;
  /** Written with a capital inside a sentence, or unknown to WordNet at its start: a name ("Daniel", "Parlance"). */
  readonly proper: boolean;
  /** Character span in the analysed text. */
  readonly start: number;
  readonly end: number;
}

export interface Sentence {
  /** Character span in the analysed text, without surrounding blanks. */
  readonly start: number;
  readonly end: number;
  /**
   * Words, numbers and the like; punctuation and line breaks left out. What the sentence does
   * (speech-acts.ts) comes last, as tokens of kind 'act' spanning the sentence.
   */
  readonly tokens: readonly Token[];
  readonly question: boolean;
}

interface AnalyzedText {
  readonly text: string;
  readonly sentences: readonly Sentence[];
}

// Openings that make a sentence a question (or a request) when recognised speech has no '?'.
const QUESTION_OPENINGS = /^(?:what|how|why|when|where|who|whom|whose|which|(?:can|could|would|will|may|might|shall|should|do|does|did|is|are|was|were|have|has|had)\s+(?:i|you|we|they|he|she|it|there|your|the))\b/i;

const PREFIXES = new Set(['anti', 'co', 'de', 'dis', 'ex', 'inter', 'mis', 'multi', 'non', 'over', 'post', 'pre', 're', 'self', 'semi', 'sub', 'un', 'under']);
/** Marks after which a clause no longer continues a negation. */
const CLAUSE_MARKS = ';:!?';
/** Words after which a clause no longer continues a negation. */
const CLAUSE_TURNS = new Set(['but', 'however', 'although', 'though', 'instead', 'yet', 'except', 'unless', 'otherwise', 'because', 'so', 'while', 'whereas']);
/** Verbs whose objects are left out, as if negated. */
const LEAVING_OUT = new Set(['ignore', 'ignoring', 'ignores', 'ignored', 'skip', 'skipping', 'skips', 'skipped', 'omit', 'omitting', 'omits', 'omitted', 'decline', 'declining', 'declines', 'declined', 'refuse', 'refusing', 'refuses', 'refused', 'exclude', 'excluding', 'excludes', 'excluded', 'waive', 'waiving', 'waives', 'waived']);

const KINDS: Partial<Record<TokenType, TokenKind>> = {
  word: 'word',
  number: 'number',
  ordinal: 'number',
  currency: 'money',
  date: 'date',
  time: 'time',
  email: 'email',
  url: 'url',
};

export function analyzeText(text: string): AnalyzedText {
  return analyzeTexts([text])[0]!;
}

/**
 * Several texts at once (a transcript's segments): tokenised as one document, then handed back
 * per text with spans in that text.
 */
export function analyzeTexts(texts: readonly string[]): AnalyzedText[] {
  // A blank line between texts ends every sentence at a text's end.
  const text = texts.join(TEXT_SEPARATOR);
  const partStarts: number[] = [];
  let offset = 0;
  for (const part of texts) {
    partStarts.push(offset);
    offset += part.length + TEXT_SEPARATOR.length;
  }
  const parts: Sentence[][] = texts.map(() => []);
  let part = 0;
  const { values, normals, types, starts, sentences } = tokenize(text);

  for (const [first, last] of sentences) {
    while (part + 1 < partStarts.length && partStarts[part + 1]! <= starts[first]!) part += 1;
    const base = partStarts[part]!;
    const sentenceTokens: Token[] = [];
    // A negation scopes what follows it through a list ("we will not collect your e-mail, phone
    // number or address") until the clause turns ("…, but …") or the sentence ends. Verbs of
    // leaving out ("ignore", "skip", "decline") scope what follows the same way.
    let inNegation = false;
    // Transcribers mark what is not speech in brackets or braces: "[inaudible]", "{vocalsound}".
    let inMark = false;
    for (let index = first; index <= last; index += 1) {
      const value = values[index]!;
      if (value === '[' || value === '{') inMark = true;
      if (inMark) {
        if (value === ']' || value === '}') inMark = false;
        continue;
      }
      const normal = normalise(normals[index]!);
      if (CLAUSE_TURNS.has(normal) || (value.length === 1 && CLAUSE_MARKS.includes(value))) inNegation = false;
      const kind = refinedKind(tokenKind(types[index]!, value), normal, value, normals[index - 1], normals[index + 1]);
      if (!kind) continue;
      const negated = inNegation;
      if (NEGATORS.has(normal) || LEAVING_OUT.has(normal)) inNegation = true;
      const lemmas = lemmasOf(normal, kind);
      sentenceTokens.push({
        normal,
        lemmas,
        kind,
        content: kind !== 'word' || !STOP_WORDS.has(normal),
        negated,
        proper: kind === 'word' && isName(value, sentenceTokens.length === 0, lemmas),
        start: starts[index]! - base,
        end: starts[index]! - base + values[index]!.length,
      });
    }
    const start = starts[first]! - base;
    const end = starts[last]! - base + values[last]!.length;
    const spoken = texts[part]!.slice(start, end);
    const question = /\?["')\]]*\s*$/.test(spoken) || (!/[.!?]/.test(spoken) && QUESTION_OPENINGS.test(spoken));
    for (const act of speechActsOf(spoken)) {
      sentenceTokens.push({ normal: act, lemmas: [act], kind: 'act', content: true, negated: false, proper: false, start, end });
    }
    parts[part]!.push({ start, end, tokens: sentenceTokens, question });
  }
  return texts.map((partText, index) => ({ text: partText, sentences: parts[index]! }));
}

const TEXT_SEPARATOR = '\n\n';

const DAY_WORDS = new Set([
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'today', 'tomorrow', 'tonight', 'yesterday', 'weekend',
  'january', 'february', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
]);
const CLOCK_WORDS = new Set(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'noon', 'midnight']);

/** Days and dates said in words ("Thursday", "tomorrow", "March"), and times ("at two", "ten o'clock"). */
function refinedKind(kind: TokenKind | undefined, normal: string, value: string, previous: string | undefined, next: string | undefined): TokenKind | undefined {
  if (kind !== 'word' && kind !== 'number') return kind;
  if (DAY_WORDS.has(normal) || ((normal === 'march' || normal === 'may') && /^[A-Z]/.test(value) && next !== undefined && /^\d/.test(next))) return 'date';
  if ((CLOCK_WORDS.has(normal) || kind === 'number') && (previous === 'at' || next === "o'clock" || next === 'am' || next === 'pm' || next === 'a.m.' || next === 'p.m.')) return 'time';
  return kind;
}

function isName(value: string, sentenceStart: boolean, lemmas: readonly string[]): boolean {
  if (value.length < 2 || !/^[A-Z][a-z]/.test(value)) return false;
  return !sentenceStart || !lexicon().knows(lemmas[0] ?? '');
}

function tokenKind(type: TokenType, value: string): TokenKind | undefined {
  const kind = KINDS[type];
  if (kind === 'number' && value.replace(/\D/g, '').length >= 7) return 'phone';
  return kind;
}

/** "customer's" → "customer"; "e-mail" → "email"; trailing dots of abbreviations dropped. */
function normalise(normal: string): string {
  if (!/['’.-]/.test(normal)) return normal;
  return normal
    .replace(/['’]s$/, '')
    .replace(/^e-(mail|commerce|book|ticket|signature)/, 'e$1')
    .replace(/\.+$/, '');
}

const lemmaCache = new Map<string, readonly string[]>();

/** The readings WordNet knows, the normal form first when it is one of them. */
export function lemmasOf(normal: string, kind: TokenKind = 'word'): readonly string[] {
  if (kind !== 'word') return [normal];
  let lemmas = lemmaCache.get(normal);
  if (lemmas) return lemmas;
  const words = lexicon();
  const readings = new Set<string>();
  for (const candidate of [normal, winkLemmatizer.lemmatizeNoun(normal), winkLemmatizer.lemmatizeVerb(normal), winkLemmatizer.lemmatizeAdjective(normal)]) {
    if (words.knows(candidate)) readings.add(candidate);
  }
  // "follow-up", "pre-approval": the whole word if WordNet has it, else its parts ("approval"),
  // prefixes left out ("co-pay" is about paying, not Colorado).
  if (readings.size === 0 && normal.includes('-')) {
    for (const part of normal.split('-')) if (part && !PREFIXES.has(part) && words.knows(part) && !STOP_WORDS.has(part)) readings.add(part);
  }
  lemmas = readings.size > 0 ? [...readings] : [normal];
  lemmaCache.set(normal, lemmas);
  return lemmas;
}
