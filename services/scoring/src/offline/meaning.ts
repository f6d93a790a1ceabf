/**
 * What was meant, beside what was said. The sentence-embedding model (semantic/sentence-encoder.ts)
 * places each criterion and every sentence of the conversation that says something in one space,
 * where a cosine says how close two meanings are.
 *
 * It is used where words alone leave a reviewer with nothing to look at: a criterion whose words
 * were not found (a "missing" failure, which is below the review threshold) gets as evidence the
 * sentence of the side that had to act that comes closest to it in meaning, between the places
 * where the criteria listed around it were met when those follow the list's order (a call script's
 * steps do): where the step was attempted in other words, done wrong, or skipped for something else.
 * The verdict itself stays as the words left it: closeness in meaning cannot tell a step done right
 * from one done wrong (both are on its topic; measured in services/scoring/src/semantic/README.md),
 * so it never passes or fails anything on its own.
 */
import type { Sentence } from '../language/text-analysis.js';
import { cosine, type SentenceEncoder } from '../semantic/sentence-encoder.js';
import { turnsOf } from './criterion-evidence.js';
import type { Conversation, Turn } from './conversation.js';
import type { Finding } from './criterion-judge.js';
import type { Requirement } from './requirement.js';

/** "Okay.", "Sure, thanks.": too short to mean anything on their own. */
const MIN_SENTENCE_WORDS = 3;
/**
 * Closer than unrelated sentences come: all-MiniLM-L6-v2 put unrelated instruction–utterance pairs
 * written for the purpose at 0.01 to 0.24, and a paraphrase ("Ask for the booking reference" /
 * "Could you give me your reservation number?") at 0.41. Below it, no sentence is shown as near.
 */
export const NEAR_IN_MEANING = 0.3;

export interface Meanings {
  /** The sentence's vector; undefined for a sentence too short to carry a meaning. */
  vectorOf(sentence: Sentence): Float32Array | undefined;
  /** The criterion's vector (its description, or its name when it has none). */
  criterionVector(requirement: Requirement): Float32Array | undefined;
}

export interface NearestInMeaning {
  readonly turn: Turn;
  readonly sentence: Sentence;
  readonly similarity: number;
  /** Found between the places of the criteria listed before and after it: where the step belonged. */
  readonly inPlace: boolean;
}

/** Encodes the criteria and the sentences of the sides that act on them, in one batched call to the model. */
export async function readMeanings(conversation: Conversation, requirements: readonly Requirement[], encoder: SentenceEncoder): Promise<Meanings> {
  const sentences: Sentence[] = [];
  const texts = requirements.map(criterionText);
  const turns = new Set(requirements.flatMap((requirement) => turnsOf(conversation, requirement.actor)));
  for (const turn of conversation.turns) {
    if (!turns.has(turn)) continue;
    for (const sentence of turn.sentences) {
      if (sentence.tokens.filter((token) => token.kind !== 'act').length < MIN_SENTENCE_WORDS) continue;
      sentences.push(sentence);
      texts.push(turn.text.slice(sentence.start, sentence.end));
    }
  }
  const vectors = await encoder.encode(texts);
  const byRequirement = new Map(requirements.map((requirement, index) => [requirement, vectors[index]!]));
  const bySentence = new Map(sentences.map((sentence, index) => [sentence, vectors[requirements.length + index]!]));
  return { vectorOf: (sentence) => bySentence.get(sentence), criterionVector: (requirement) => byRequirement.get(requirement) };
}

/**
 * Each missing finding with the sentence to look at for it: when the criteria before and after it
 * were met at places in the order they are listed, the one of the acting side's sentences between
 * those places nearest in meaning (where the step belonged, and what was said instead); otherwise the
 * acting side's sentence nearest in meaning, if one is near.
 */
export function withNearestInMeaning(findings: readonly Finding[], conversation: Conversation, meanings: Meanings): Finding[] {
  const placeOf = (finding: Finding | undefined) => (finding?.outcome === 'met' ? finding.window?.turns[0]?.index : undefined);
  return findings.map((finding, at) => {
    if (finding.outcome !== 'missing') return finding;
    // The two criteria met nearest before it in the list and the two nearest after: in the order
    // they were met, they read as a script's steps around this one.
    const before = findings.slice(0, at).map(placeOf).filter((place) => place !== undefined).slice(-2);
    const after = findings.slice(at + 1).map(placeOf).filter((place) => place !== undefined).slice(0, 2);
    const around = [...before, ...after];
    const from = before.at(-1) ?? -1;
    const to = after[0] ?? Infinity;
    const inOrder = around.length >= 2 && around.every((place, index) => index === 0 || place >= around[index - 1]!) && from < to;
    const nearest = inOrder
      ? nearestInMeaning(finding.requirement, conversation, meanings, (turn) => turn.index > from && turn.index < to, -1)
      : nearestInMeaning(finding.requirement, conversation, meanings, () => true, NEAR_IN_MEANING);
    return nearest ? { ...finding, nearest: { ...nearest, inPlace: inOrder } } : finding;
  });
}

/** The acting side's sentence, in the turns `within` takes, nearest in meaning to the criterion, at `floor` or above. */
function nearestInMeaning(requirement: Requirement, conversation: Conversation, meanings: Meanings, within: (turn: Turn) => boolean, floor: number) {
  const target = meanings.criterionVector(requirement);
  if (!target) return undefined;
  let nearest: Omit<NearestInMeaning, 'inPlace'> | undefined;
  for (const turn of turnsOf(conversation, requirement.actor)) {
    if (!within(turn)) continue;
    for (const sentence of turn.sentences) {
      const vector = meanings.vectorOf(sentence);
      if (!vector) continue;
      const similarity = cosine(target, vector);
      if (similarity >= floor && (!nearest || similarity > nearest.similarity)) nearest = { turn, sentence, similarity };
    }
  }
  return nearest;
}

function criterionText(requirement: Requirement): string {
  const { criterion } = requirement;
  return criterion.prompt.trim() || criterion.name;
}
