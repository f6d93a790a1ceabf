/**
 * How strongly a word said in a conversation meets a word of a requirement, from WordNet's
 * knowledge: the same lemma ("sent" for "send") counts fully; a derivational relative
 * ("verification" for "verify") almost; a synonym in one of the common senses ("buy" for
 * "purchase") a little less; a word that names a kind of the required thing ("passport" for
 * "document", "hello" for a greeting) less again. Data said in the conversation meets the word for
 * it: an e-mail address meets "email", a date "date of birth", an amount "price".
 *
 * Synonyms are taken in a word's three most frequent senses per part of speech (the lexicon keeps
 * no more), where its common meanings are.
 *
 * A requirement word becomes a Term with every word it accepts and how strongly (its lemmas, its
 * relatives, the synonyms of its senses and the words for kinds of them), worked out once per
 * criterion; a token offers only its lemmas (and its data kind or act), so indexing a
 * conversation is cheap and a match is a few map look-ups.
 */
import { lexicon } from './lexicon.js';
import { ACT_WORDS, type SpeechAct } from './speech-acts.js';
import type { Token, TokenKind } from './text-analysis.js';

export const MATCH_STRENGTH = {
  same: 1,
  family: 0.9,
  data: 0.85,
  synonym: 0.8,
  kindOf: 0.7,
  kindOfFamily: 0.6,
} as const;

export interface Term {
  /** As written in the requirement. */
  readonly text: string;
  readonly lemmas: readonly string[];
  /** How much meeting it counts: specific words count more than words of many senses. */
  readonly weight: number;
  /** Match key → strength. */
  readonly keys: ReadonlyMap<string, number>;
}

// Words of a requirement that data of a kind meets.
const DATA_WORDS: Record<string, Array<TokenKind | 'name'>> = {
  email: ['email'],
  mail: ['email'],
  // A number said with spaces ("415 555 0100") arrives as several numbers.
  phone: ['phone', 'number'],
  telephone: ['phone', 'number'],
  mobile: ['phone', 'number'],
  date: ['date'],
  birthday: ['date'],
  birth: ['date'],
  time: ['time'],
  hour: ['time'],
  amount: ['money', 'number'],
  price: ['money'],
  cost: ['money'],
  fee: ['money'],
  charge: ['money'],
  total: ['money', 'number'],
  balance: ['money', 'number'],
  payment: ['money'],
  refund: ['money'],
  money: ['money'],
  dollar: ['money'],
  number: ['number', 'phone'],
  code: ['number'],
  id: ['number'],
  identifier: ['number'],
  digit: ['number'],
  pin: ['number'],
  zip: ['number'],
  postcode: ['number'],
  name: ['name'],
  link: ['url'],
  url: ['url'],
  website: ['url'],
};

const ACTS_NAMED_BY = new Map<string, SpeechAct[]>();
for (const [act, words] of Object.entries(ACT_WORDS) as Array<[SpeechAct, readonly string[]]>) {
  for (const word of words) ACTS_NAMED_BY.set(word, [...(ACTS_NAMED_BY.get(word) ?? []), act]);
}

const keyCache = new Map<string, readonly string[]>();

/** The keys a token offers. */
export function tokenKeys(token: Token): readonly string[] {
  if (!token.content) return [];
  if (token.kind === 'act') return [`act:${token.normal}`];
  if (token.proper) return [...wordKeys(token), 'data:name'];
  return wordKeys(token);
}

function wordKeys(token: Token): readonly string[] {
  if (token.kind !== 'word') return [`lemma:${token.normal}`, `data:${token.kind}`];
  let keys = keyCache.get(token.normal);
  if (!keys) keyCache.set(token.normal, (keys = token.lemmas.map((lemma) => `lemma:${lemma}`)));
  return keys;
}

/** A requirement word as a Term; `weight` scales the word's specificity. */
export function termOf(token: Pick<Token, 'normal' | 'lemmas' | 'kind'>, weight = 1): Term {
  const words = lexicon();
  const keys = new Map<string, number>();
  const accept = (key: string, strength: number) => {
    if ((keys.get(key) ?? 0) < strength) keys.set(key, strength);
  };
  if (token.kind === 'act') {
    accept(`act:${token.normal}`, MATCH_STRENGTH.same);
  } else if (token.kind !== 'word') {
    accept(`lemma:${token.normal}`, MATCH_STRENGTH.same);
  } else {
    for (const lemma of token.lemmas) {
      accept(`lemma:${lemma}`, MATCH_STRENGTH.same);
      for (const kind of DATA_WORDS[lemma] ?? []) accept(`data:${kind}`, MATCH_STRENGTH.data);
      for (const act of ACTS_NAMED_BY.get(lemma) ?? []) accept(`act:${act}`, MATCH_STRENGTH.same);
      for (const sense of words.senses(lemma)) {
        for (const synonym of words.wordsWithSense(sense)) accept(`lemma:${synonym}`, MATCH_STRENGTH.synonym);
        for (const kind of words.wordsOfKind(sense)) accept(`lemma:${kind}`, MATCH_STRENGTH.kindOf);
      }
      for (const relative of words.family(lemma)) {
        accept(`lemma:${relative}`, MATCH_STRENGTH.family);
        for (const sense of words.senses(relative)) for (const kind of words.wordsOfKind(sense)) accept(`lemma:${kind}`, MATCH_STRENGTH.kindOfFamily);
      }
    }
  }
  return { text: token.normal, lemmas: token.lemmas, weight: weight * specificity(token), keys };
}

/** How strongly the token meets the term, 0 when not at all. */
export function matchStrength(term: Term, token: Token): number {
  let best = 0;
  for (const key of tokenKeys(token)) {
    const strength = term.keys.get(key);
    if (strength !== undefined && strength > best) best = strength;
  }
  return best;
}

/**
 * 1 for a word of one sense (or one WordNet does not know: a name, a product), less for words of
 * many senses: "take" (44 senses) weighs about a fifth of "passport".
 */
export function specificity(token: Pick<Token, 'lemmas' | 'kind'>): number {
  if (token.kind !== 'word') return 1;
  // Token objects share their lemma arrays (one per spelling), so this is worked out once each.
  let weight = specificities.get(token.lemmas);
  if (weight === undefined) {
    weight = 1;
    // A word naming an act ("greet", "introduce") is what its criterion is about, however many senses it has.
    if (!token.lemmas.some((lemma) => ACTS_NAMED_BY.has(lemma))) {
      for (const lemma of token.lemmas) weight = Math.min(weight, 1 / (1 + Math.log2(lexicon().polysemy(lemma))));
    }
    specificities.set(token.lemmas, weight);
  }
  return weight;
}

const specificities = new WeakMap<readonly string[], number>();
