/**
 * Script match: the share (0 to 100) of the team's call script the representative actually
 * covered.
 *
 * Each sentence of the script is compared with every sentence the representative said (alone, or
 * with the next one: a scripted line is often said in two), as the weighted share of its words
 * said there, paraphrases included (lemmas, WordNet synonyms and relatives, term-match.ts). An
 * alignment that keeps the script's order (dynamic programming, as for a longest common
 * subsequence) gives each script sentence the similarity of the sentence it is aligned with. A
 * script sentence said only out of order still counts, at REORDERED_CREDIT of its best
 * similarity: it was said, but not where the script puts it. Sentences weigh by how much they
 * carry (the weights of their words), so "Hi!" counts less than the compliance disclosure.
 */
import type { Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { analyzeText, type Sentence } from '../language/text-analysis.js';
import { termOf, type Term } from '../language/term-match.js';
import { readConversation, type Conversation, type Place } from '../offline/conversation.js';
import { turnsOf } from '../offline/criterion-evidence.js';

/** Said, but out of the script's order. */
const REORDERED_CREDIT = 0.5;
/** Below this a similarity is coincidence (a shared common word), not the line being said. */
const NOISE_FLOOR = 0.2;

interface ScriptLine {
  terms: Term[];
  weight: number;
}

/** 0 to 100, one decimal; undefined when the team has no script. */
export function measureScriptMatch(callScript: string, transcript: Transcript): number | undefined {
  return scriptMatchOf(callScript, readConversation(transcript));
}

function scriptMatchOf(callScript: string, conversation: Conversation): number | undefined {
  const lines = scriptLines(callScript);
  if (lines.length === 0) return undefined;
  const spoken: Place[] = [];
  for (const turn of turnsOf(conversation, 'representative')) {
    for (const sentence of turn.sentences) spoken.push({ turn, sentence });
  }
  const total = lines.reduce((sum, line) => sum + line.weight, 0);
  if (spoken.length === 0 || total === 0) return 0;

  const position = new Map(spoken.map((place, at) => [place.sentence, at]));
  const similarity = lines.map((line) => lineSimilarities(line, spoken, position, conversation));
  // aligned[i][j]: the best in-order credit for the first i lines within the first j sentences.
  const aligned = Array.from({ length: lines.length + 1 }, () => new Float64Array(spoken.length + 1));
  for (let i = 1; i <= lines.length; i += 1) {
    const weight = lines[i - 1]!.weight;
    for (let j = 1; j <= spoken.length; j += 1) {
      const here = similarity[i - 1]![j - 1]!;
      aligned[i]![j] = Math.max(aligned[i - 1]![j]!, aligned[i]![j - 1]!, aligned[i - 1]![j - 1]! + (here >= NOISE_FLOOR ? here * weight : 0));
    }
  }
  // Walk back to see which lines the in-order alignment used.
  const inOrder = new Array<boolean>(lines.length).fill(false);
  for (let i = lines.length, j = spoken.length; i > 0 && j > 0; ) {
    if (aligned[i]![j] === aligned[i - 1]![j]) i -= 1;
    else if (aligned[i]![j] === aligned[i]![j - 1]) j -= 1;
    else {
      inOrder[i - 1] = true;
      i -= 1;
      j -= 1;
    }
  }
  let credit = aligned[lines.length]![spoken.length]!;
  lines.forEach((line, i) => {
    if (inOrder[i]) return;
    const best = Math.max(0, ...similarity[i]!);
    if (best >= NOISE_FLOOR) credit += REORDERED_CREDIT * best * line.weight;
  });
  return Math.round(Math.min(100, (credit / total) * 100) * 10) / 10;
}

// A team's script is the same for every call it scores: read once per wording.
const SCRIPT_CACHE_SIZE = 200;
const readScripts = new Map<string, ScriptLine[]>();

function scriptLines(callScript: string): ScriptLine[] {
  const text = callScript.trim();
  if (!text) return [];
  let lines = readScripts.get(text);
  if (!lines) {
    lines = readScript(text);
    if (readScripts.size >= SCRIPT_CACHE_SIZE) readScripts.delete(readScripts.keys().next().value!);
    readScripts.set(text, lines);
  }
  return lines;
}

function readScript(text: string): ScriptLine[] {
  const lines: ScriptLine[] = [];
  for (const sentence of analyzeText(text).sentences) {
    const seen = new Set<string>();
    const terms: Term[] = [];
    for (const token of sentence.tokens) {
      if (!token.content) continue;
      const key = token.lemmas[0] ?? token.normal;
      if (seen.has(key)) continue;
      seen.add(key);
      terms.push(termOf(token));
    }
    const weight = terms.reduce((sum, term) => sum + term.weight, 0);
    if (weight > 0) lines.push({ terms, weight });
  }
  return lines;
}

/** For one script line: its similarity with each spoken sentence (with the sentence after it). */
function lineSimilarities(line: ScriptLine, spoken: readonly Place[], position: ReadonlyMap<Sentence, number>, conversation: Conversation): number[] {
  // strength[termIndex][sentencePosition]
  const strength = line.terms.map((term) => {
    const best = new Float64Array(spoken.length);
    for (const hit of conversation.index.find(term)) {
      const at = position.get(hit.place.sentence);
      if (at === undefined || hit.token.negated) continue;
      if (hit.strength > best[at]!) best[at] = hit.strength;
    }
    return best;
  });
  return spoken.map((_, at) => {
    let alone = 0;
    let withNext = 0;
    line.terms.forEach((term, index) => {
      const here = strength[index]![at]!;
      const next = at + 1 < spoken.length ? strength[index]![at + 1]! : 0;
      alone += term.weight * here;
      withNext += term.weight * Math.max(here, next);
    });
    return Math.max(alone, withNext) / line.weight;
  });
}
