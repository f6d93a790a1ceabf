/**
 * The word knowledge the offline evaluator matches with: WordNet 3.1's senses, derivational
 * families, hypernyms and polysemy, prepared at build time by scripts/build-lexicon.ts (never
 * fetched at run time). Loaded once, on first use.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where scripts/build-lexicon.ts writes the lexicon and the evaluator reads it. */
export const LEXICON_PATH = fileURLToPath(new URL('../../generated/wordnet-lexicon.json', import.meta.url));

/** The file scripts/build-lexicon.ts writes: synsets as small numbers. */
export interface LexiconFile {
  source: string;
  senses: Record<string, number[]>;
  families: Record<string, string[]>;
  hypernyms: Record<string, number[]>;
  polysemy: Record<string, number>;
  partsOfSpeech: Record<string, string>;
}

interface Lexicon {
  /** Whether WordNet knows the word as a lemma of some part of speech. */
  knows(word: string): boolean;
  /** The word's most frequent senses (at most three per part of speech). */
  senses(word: string): readonly number[];
  /** Derivationally related words: "verify" → "verification", "verifier", … */
  family(word: string): readonly string[];
  /** The senses one level up from a sense. */
  hypernyms(sense: number): readonly number[];
  /** How many senses WordNet gives the word (1 for words it does not know). */
  polysemy(word: string): number;
  /** Its parts of speech, the one with most senses first: "n", "v", "a", "r" ("nv" for "book"). */
  partsOfSpeech(word: string): string;
  /** The words having this sense among their most frequent ones: its synonyms. */
  wordsWithSense(sense: number): readonly string[];
  /** The words having a frequent sense one level below this one: kinds of it ("passport" of "document"). */
  wordsOfKind(sense: number): readonly string[];
}

const NONE: readonly never[] = Object.freeze([]);
let loaded: Lexicon | undefined;

export function lexicon(): Lexicon {
  if (loaded) return loaded;
  if (!existsSync(LEXICON_PATH)) {
    throw new Error(`The WordNet lexicon is missing at ${LEXICON_PATH}: run \`npm run build-lexicon -w @parlance/scoring\` (make run and make test do it).`);
  }
  const file = JSON.parse(readFileSync(LEXICON_PATH, 'utf8')) as LexiconFile;
  // The parsed objects are used as they are: copying 80,000 entries into Maps costs a second.
  const own = Object.prototype.hasOwnProperty;
  // Synonyms and kinds are looked up from the sense; built from the words' senses on first use.
  let bySense: Map<number, string[]> | undefined;
  let byKind: Map<number, string[]> | undefined;
  const inverse = () => {
    bySense = new Map();
    byKind = new Map();
    const add = (map: Map<number, string[]>, key: number, word: string) => {
      const list = map.get(key);
      if (!list) map.set(key, [word]);
      else if (list[list.length - 1] !== word) list.push(word);
    };
    for (const word in file.senses) {
      for (const sense of file.senses[word]!) {
        add(bySense, sense, word);
        for (const up of file.hypernyms[sense] ?? NONE) add(byKind, up, word);
      }
    }
  };
  loaded = {
    knows: (word) => own.call(file.senses, word),
    senses: (word) => (own.call(file.senses, word) ? file.senses[word]! : NONE),
    family: (word) => (own.call(file.families, word) ? file.families[word]! : NONE),
    hypernyms: (sense) => file.hypernyms[sense] ?? NONE,
    polysemy: (word) => (own.call(file.polysemy, word) ? file.polysemy[word]! : 1),
    partsOfSpeech: (word) => (own.call(file.partsOfSpeech, word) ? file.partsOfSpeech[word]! : ''),
    wordsWithSense: (sense) => {
      if (!bySense) inverse();
      return bySense!.get(sense) ?? NONE;
    },
    wordsOfKind: (sense) => {
      if (!byKind) inverse();
      return byKind!.get(sense) ?? NONE;
    },
  };
  return loaded;
}
