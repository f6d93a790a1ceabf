/**
 * Tokens and sentence boundaries of English conversation text, in one regular-expression pass.
 *
 * Written for the offline evaluator's budget (a 1,500-word call judged in a few milliseconds):
 * wink-nlp's general-purpose tokenizer took half of that on its own. It tells what the evaluator
 * needs and nothing more: words (with inner apostrophes and hyphens: "don't", "e-mail",
 * "follow-up"; "n't" split off as wink-nlp does, so "didn't" reads "did" "not"), numbers and
 * ordinals, amounts' currency signs, dates ("12/03/2024"), times ("5:30pm", "10 am"), e-mail
 * addresses, web addresses, punctuation and line breaks. A sentence ends at . ! ? (or an
 * ellipsis) followed by a capital, a digit, a quote or the end, except after a title or a common
 * abbreviation ("Dr.", "e.g.") or an initial ("J. Smith"); a line break ends a sentence too, and
 * belongs to none.
 *
 * Why not domain/conversation-language.ts's tokenize: that one counts words for the conversation
 * statistics ("didn't", "3.5" and each CJK character one word); this one gives the evaluator what
 * it matches on: "n't" as "not" for lemmas and negation, and numbers, times, dates and addresses.
 */

export type TokenType = 'word' | 'number' | 'ordinal' | 'currency' | 'date' | 'time' | 'email' | 'url' | 'punctuation' | 'linebreak' | 'symbol';

interface Tokenized {
  /** Each token as written. */
  values: string[];
  /** Lower-cased, "n't" read as "not", "ca" of "can't" as "can". */
  normals: string[];
  types: TokenType[];
  /** Where each token starts in the text. */
  starts: number[];
  /** Sentences as [first token, last token] pairs, in order, covering every token but line breaks. */
  sentences: Array<[number, number]>;
}

// One alternative per type, in this order; the first that matches at a position wins.
const ALTERNATIVES: Array<[TokenType, string]> = [
  ['url', String.raw`(?:https?:\/\/|www\.)[^\s<>"]*[^\s<>".,;:!?)\]'"]`],
  ['email', String.raw`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`],
  ['time', String.raw`\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap](?:\.m\.|m\b))?|\d{1,2}\s?[ap](?:\.m\.|m\b)`],
  ['date', String.raw`\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}`],
  ['ordinal', String.raw`\d+(?:st|nd|rd|th)\b`],
  ['number', String.raw`\d+(?:[.,]\d+)*`],
  ['word', String.raw`[\p{L}\p{M}]+(?:['’][\p{L}]+)*(?:-[\p{L}\p{M}\d]+)*`],
  ['linebreak', String.raw`\r?\n\s*`],
  ['currency', String.raw`[$£€¥₹]`],
  ['punctuation', String.raw`\.{2,}|…|[.!?]+|[,;:()"“”'‘’\[\]{}\-–—/]`],
  ['symbol', String.raw`[^\s]`],
];
const TOKEN = new RegExp(ALTERNATIVES.map(([, pattern]) => `(${pattern})`).join('|'), 'gu');
const TYPES = ALTERNATIVES.map(([type]) => type);

const CONTRACTION_BASES: Record<string, string> = { ca: 'can', wo: 'will', sha: 'shall' };

/** Words after which a period does not end a sentence. */
const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'jr', 'sr', 'vs', 'etc', 'e.g', 'i.e', 'inc', 'ltd', 'co', 'corp', 'no', 'approx', 'dept', 'est', 'fig', 'mt', 'ave', 'blvd', 'rd',
]);
const SENTENCE_END = /^(?:[.!?]+|\.{2,}|…)$/;
/** What may follow a sentence end inside the sentence: closing quotes and brackets. */
const CLOSERS = new Set(['"', '”', "'", '’', ')', ']', '}']);

export function tokenize(text: string): Tokenized {
  const tokenized: Tokenized = { values: [], normals: [], types: [], starts: [], sentences: [] };
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match !== null; match = TOKEN.exec(text)) {
    let group = 1;
    while (match[group] === undefined) group += 1;
    const type = TYPES[group - 1]!;
    const value = match[0];
    if (type === 'word') {
      addWord(tokenized, value, match.index);
      continue;
    }
    push(tokenized, value, value.toLowerCase(), type, match.index);
  }
  markSentences(tokenized);
  return tokenized;
}

function push(tokenized: Tokenized, value: string, normal: string, type: TokenType, start: number): void {
  tokenized.values.push(value);
  tokenized.normals.push(normal);
  tokenized.types.push(type);
  tokenized.starts.push(start);
}

/** A word, with "n't" split off: "didn't" is "did" and "n't". */
function addWord(tokenized: Tokenized, value: string, start: number): void {
  const lower = value.toLowerCase().replaceAll('’', "'");
  if (lower.length > 3 && lower.endsWith("n't")) {
    const base = value.slice(0, -3);
    const baseNormal = lower.slice(0, -3);
    push(tokenized, base, CONTRACTION_BASES[baseNormal] ?? baseNormal, 'word', start);
    push(tokenized, value.slice(-3), 'not', 'word', start + base.length);
    return;
  }
  push(tokenized, value, lower, 'word', start);
}

function markSentences(tokenized: Tokenized): void {
  const { values, normals, types, sentences } = tokenized;
  let first = 0;
  for (let index = 0; index < values.length; index += 1) {
    // Lists and transcripts put one thought per line.
    if (types[index] === 'linebreak') {
      if (first < index) sentences.push([first, index - 1]);
      first = index + 1;
      continue;
    }
    if (types[index] !== 'punctuation' || !SENTENCE_END.test(values[index]!)) continue;
    // Closing quotes and brackets belong to the sentence they close.
    let last = index;
    while (last + 1 < values.length && types[last + 1] === 'punctuation' && CLOSERS.has(values[last + 1]!)) last += 1;
    const next = last + 1;
    // "?" and "!" end a sentence whatever follows; a period only before what can open one.
    const firm = /[?!]/.test(values[index]!);
    if (!firm && values[index] === '.' && index > 0 && types[index - 1] === 'word' && isAbbreviation(values[index - 1]!, normals[index - 1]!)) continue;
    if (!firm && next < values.length && !opensSentence(values[next]!, types[next]!)) continue;
    sentences.push([first, last]);
    first = next;
    index = last;
  }
  if (first < values.length) sentences.push([first, values.length - 1]);
}

function isAbbreviation(value: string, normal: string): boolean {
  return ABBREVIATIONS.has(normal) || /^[A-Z]$/.test(value);
}

function opensSentence(value: string, type: TokenType): boolean {
  if (type === 'number' || type === 'ordinal' || type === 'currency' || type === 'date' || type === 'time') return true;
  if (type === 'punctuation') return value === '"' || value === '“' || value === "'" || value === '‘' || value === '(' || value === '-' || value === '–' || value === '—';
  return /^[\p{Lu}\d]/u.test(value) || type === 'email' || type === 'url';
}
