/**
 * The offline summary of a call or meeting: who spoke, what it was about, its key points, the
 * outcome and the next steps agreed.
 *
 *   - Topics: the conversation's most characteristic words and repeated two-word phrases (noun
 *     readings in WordNet, weighted by frequency and specificity), e.g. "pricing", "remote control".
 *   - Key points: sentences chosen for how much of the conversation's characteristic vocabulary
 *     they hold (a centroid score, as in extractive summarisers), penalised for repeating a chosen
 *     one (maximal marginal relevance), in the order they were said, attributed to their speaker.
 *   - Outcome: the success judgement when the team has a success prompt; otherwise a decision said
 *     in the conversation ("we decided", "let's go with", "agreed that").
 *   - Next steps: commitments said late rather than early ("I'll send you", "we will", "let's
 *     schedule", "follow up", "by Friday").
 * Nothing is invented: every key point, decision and step is a sentence someone said.
 */
import type { Summary } from '@parlance/proto/parlance/scoring/v1/evaluation';
import type { SuccessJudgement } from '../engines/evaluation-engine.js';
import { lexicon } from '../language/lexicon.js';
import { list, upperFirst } from '../language/prose.js';
import { specificity } from '../language/term-match.js';
import type { Sentence, Token } from '../language/text-analysis.js';
import type { Conversation, Turn } from './conversation.js';

interface Candidate {
  turn: Turn;
  sentence: Sentence;
  /** Content words and numbers in the sentence. */
  words: number;
  lemmas: Set<string>;
  score: number;
  order: number;
}

const DECISION =
  /\b(?:we(?:'ve| have)? decided|(?:we|you|they) agreed|agreed (?:that|to|on)|let'?s go (?:with|ahead)|we(?:'ll| will) go with|the decision (?:is|was)|we settled on|final decision|it'?s decided)\b/i;
const COMMITMENT =
  /\b(?:i(?:'ll| will| am going to|'m going to)|we(?:'ll| will| are going to|'re going to)|let'?s|next steps?|follow(?:ing)?[- ]up|action items?|i(?:'ll| will) (?:send|email|call)|schedule|by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next week|end of (?:the )?(?:day|week|month)))\b/i;
// Talking about possibilities is neither a decision nor a commitment: "let's say", "we might".
const TENTATIVE = /\b(?:let'?s (?:say|see|think|imagine|suppose|assume)|may|might|maybe|perhaps|if|would|could|whether|suppose|think about it|consider)\b/i;
/** A decision or a commitment is said crisply; a long sentence around one is usually about something else. */
const MAX_COMMITMENT_WORDS = 30;
const DECISION_OR_ACTION_WEIGHT = 1.5;
/** Sentences of fewer words rarely carry a point ("Yes, sure.", "Okay, thanks."). */
const MIN_POINT_WORDS = 6;
/** Long run-on sentences make poor quotes. */
const MAX_POINT_WORDS = 45;
const MAX_TOPICS = 4;
const MAX_NEXT_STEPS = 3;
/** Words of key points: a summary is read in under a minute. */
const MIN_POINT_BUDGET = 30;
const MAX_POINT_BUDGET = 100;
// Non-speech marks transcribers add ("[inaudible]", "(laughter)", "{vocalsound}") and hesitations.
const NON_SPEECH = /\[[^\]]{1,30}\]|\([a-z ]{1,30}\)|\{[^}]{1,30}\}/gi;
const HESITATION = /(?:^|\s)(?:u+h+|u+m+|e+r+m*|a+h+|h+m+|mm+)(?=[\s,.!?]|$)[,]?/gi;

interface SummaryContext {
  kind: 'call' | 'meeting';
  success: SuccessJudgement;
}

export function summarise(conversation: Conversation, context: SummaryContext): Summary {
  const noun = context.kind === 'meeting' ? 'meeting' : 'call';
  const words = conversation.turns.reduce((sum, turn) => sum + turn.words, 0);
  if (words === 0) {
    return { text: `The ${noun} has no words to summarise.`, participants: [], discussion: '', outcome: '', nextSteps: [] };
  }

  const participants = participantsOf(conversation, context.kind);
  const candidates = candidatesOf(conversation);
  const weights = vocabularyWeights(candidates);
  const topics = topicsOf(conversation, weights);
  const steps = nextStepsOf(candidates);
  const points = keyPoints(
    candidates.filter((candidate) => !steps.includes(candidate)),
    weights,
    Math.max(MIN_POINT_BUDGET, Math.min(MAX_POINT_BUDGET, Math.round(words / 50))),
  );
  const outcome = outcomeOf(conversation, context);
  const nextSteps = steps.map((step) => `${step.turn.speaker}: "${textOf(step)}"`);

  const discussion = [
    topics.length > 0 ? `It was mainly about ${list(topics)}.` : '',
    ...points.map((point) => `${point.turn.speaker} said: "${textOf(point)}"`),
  ]
    .filter(Boolean)
    .join(' ');
  const text = [
    `${upperFirst(noun)} between ${list(participants)}.`,
    discussion,
    outcome ? `Outcome: ${outcome}` : '',
    nextSteps.length > 0 ? `Next steps: ${nextSteps.join(' ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return { text, participants, discussion, outcome, nextSteps };
}

/** By how much each spoke, at most six named; a call's two sides with their roles ("Anna Lee (representative)"). */
function participantsOf(conversation: Conversation, kind: SummaryContext['kind']): string[] {
  const spoken = new Map<string, { words: number; side: string }>();
  for (const turn of conversation.turns) {
    const known = spoken.get(turn.speaker) ?? { words: 0, side: turn.side };
    known.words += turn.words;
    spoken.set(turn.speaker, known);
  }
  const ranked = [...spoken].filter(([, { words }]) => words > 0).sort((a, b) => b[1].words - a[1].words);
  const withRoles = kind === 'call' && conversation.hasRepresentative;
  const named = ranked.slice(0, 6).map(([speaker, { side }]) => (withRoles ? `${speaker} (${side})` : speaker));
  if (ranked.length > 6) named.push(`${ranked.length - 6} others`);
  return named;
}

function candidatesOf(conversation: Conversation): Candidate[] {
  const candidates: Candidate[] = [];
  for (const turn of conversation.turns) {
    for (const sentence of turn.sentences) {
      const lemmas = new Set<string>();
      for (const token of sentence.tokens) if (isTopical(token)) lemmas.add(token.lemmas[0]!);
      const words = sentence.tokens.reduce((sum, token) => sum + (token.kind === 'act' ? 0 : 1), 0);
      candidates.push({ turn, sentence, words, lemmas, score: 0, order: candidates.length });
    }
  }
  return candidates;
}

const isTopical = (token: Token) => token.content && token.kind === 'word' && token.normal.length > 2 && !/^\d/.test(token.normal);

/** Each word's weight: how often it was said, times how specific it is. */
function vocabularyWeights(candidates: readonly Candidate[]): Map<string, number> {
  const counts = new Map<string, { count: number; token: Token }>();
  for (const candidate of candidates) {
    for (const token of candidate.sentence.tokens) {
      if (!isTopical(token)) continue;
      const lemma = token.lemmas[0]!;
      const known = counts.get(lemma);
      if (known) known.count += 1;
      else counts.set(lemma, { count: 1, token });
    }
  }
  const weights = new Map<string, number>();
  for (const [lemma, { count, token }] of counts) weights.set(lemma, Math.log2(1 + count) * specificity(token));
  return weights;
}

// Nouns of politeness and of the conversation itself, never what it was about.
const COURTESY_NOUNS = new Set('thanks thank hello hi bye goodbye morning afternoon evening day night welcome pleasure sorry apology time moment minute second bit lot thing stuff way question call meeting conversation chat today tomorrow yesterday week weekend yes no okay'.split(' '));

function topicsOf(conversation: Conversation, weights: ReadonlyMap<string, number>): string[] {
  const words = lexicon();
  const names = new Set(conversation.speakers.flatMap((speaker) => speaker.label.toLowerCase().split(/[^a-z'-]+/).filter(Boolean)));
  const scores = new Map<string, number>();
  const phraseCounts = new Map<string, number>();
  for (const turn of conversation.turns) {
    for (const sentence of turn.sentences) {
      const tokens = sentence.tokens;
      for (let index = 0; index < tokens.length; index += 1) {
        const token = tokens[index]!;
        if (!isTopical(token)) continue;
        const lemma = token.lemmas[0]!;
        // Things talked about: words WordNet reads first as nouns. Not a name (people are listed
        // as participants, "It was mainly about Oliver and Leeds" says nothing), a word it does not
        // know ("mm-hmm") or a courtesy ("thanks", "morning").
        if (!words.partsOfSpeech(lemma).startsWith('n') || token.proper || names.has(lemma) || COURTESY_NOUNS.has(lemma)) continue;
        scores.set(lemma, weights.get(lemma) ?? 0);
        const next = tokens[index + 1];
        if (next && isTopical(next) && next.start - token.end <= 1 && words.partsOfSpeech(next.lemmas[0]!).startsWith('n')) {
          const phrase = `${token.normal} ${next.normal}`;
          phraseCounts.set(phrase, (phraseCounts.get(phrase) ?? 0) + 1);
        }
      }
    }
  }
  const phrases = [...phraseCounts]
    .filter(([, count]) => count >= 2)
    .map(([phrase, count]) => [phrase, count * phrase.split(' ').reduce((sum, word) => sum + (weights.get(word) ?? 0), 0)] as const);
  const ranked = [...phrases, ...[...scores].map(([lemma, score]) => [lemma, score] as const)].sort((a, b) => b[1] - a[1]);
  const topics: string[] = [];
  for (const [topic] of ranked) {
    if (topics.length >= MAX_TOPICS) break;
    // "remote control" covers "remote" and "control".
    if (topics.some((chosen) => chosen.split(' ').some((word) => topic.split(' ').includes(word)))) continue;
    topics.push(topic);
  }
  return topics;
}

const readableText = new WeakMap<Candidate, string>();

/** What the candidate said, readable (computed once, and only for sentences that get looked at). */
function textOf(candidate: Candidate): string {
  let text = readableText.get(candidate);
  if (text === undefined) readableText.set(candidate, (text = readable(candidate.turn.text.slice(candidate.sentence.start, candidate.sentence.end))));
  return text;
}

/** What was said, for reading: without non-speech marks and hesitations. Evidence keeps the exact words. */
function readable(text: string): string {
  return text.replace(NON_SPEECH, ' ').replace(HESITATION, ' ').replace(/\s+([,.!?])/g, '$1').replace(/\s+/g, ' ').replace(/^[,\s]+/, '').trim();
}

// Greeting, thanking and parting carry no point of their own unless much else is said with them.
const PLEASANTRY_ACTS = new Set(['greet', 'thank', 'farewell']);
const MIN_TOPICAL_WORDS_BESIDE_A_PLEASANTRY = 4;

/** "Okay, that's really helpful, thank you.": a courtesy, not a point of the conversation. */
function pleasantry(candidate: Candidate): boolean {
  return candidate.sentence.tokens.some((token) => token.kind === 'act' && PLEASANTRY_ACTS.has(token.normal)) && candidate.lemmas.size < MIN_TOPICAL_WORDS_BESIDE_A_PLEASANTRY;
}

/** Sentences by centroid score with a penalty for repeating chosen ones, until `budget` words. */
function keyPoints(candidates: Candidate[], weights: ReadonlyMap<string, number>, budget: number): Candidate[] {
  const eligible = candidates.filter(
    (candidate) => candidate.words >= MIN_POINT_WORDS && candidate.words <= MAX_POINT_WORDS && !candidate.sentence.question && !pleasantry(candidate),
  );
  for (const candidate of eligible) {
    let sum = 0;
    for (const lemma of candidate.lemmas) sum += weights.get(lemma) ?? 0;
    // Square root of the length: longer sentences say more, but not in proportion. A decision or
    // a commitment is what a reader of the summary needs most: it counts half as much again.
    const text = textOf(candidate);
    const acts = (DECISION.test(text) || COMMITMENT.test(text)) && !TENTATIVE.test(text) ? DECISION_OR_ACTION_WEIGHT : 1;
    candidate.score = (acts * sum) / Math.sqrt(candidate.sentence.tokens.length);
  }
  const chosen: Candidate[] = [];
  const covered = new Set<string>();
  let used = 0;
  while (used < budget) {
    let best: Candidate | undefined;
    let bestScore = 0;
    for (const candidate of eligible) {
      if (chosen.includes(candidate)) continue;
      let repeated = 0;
      for (const lemma of candidate.lemmas) if (covered.has(lemma)) repeated += weights.get(lemma) ?? 0;
      const score = candidate.score - repeated / Math.sqrt(candidate.sentence.tokens.length);
      if (score > bestScore) {
        best = candidate;
        bestScore = score;
      }
    }
    if (!best) break;
    chosen.push(best);
    used += best.words;
    for (const lemma of best.lemmas) covered.add(lemma);
  }
  return chosen.sort((a, b) => a.order - b.order);
}

function outcomeOf(conversation: Conversation, context: SummaryContext): string {
  if (context.success.isSuccessful !== undefined) {
    return `${context.success.isSuccessful ? 'Successful' : 'Not successful'}. ${context.success.reason}`;
  }
  let decision: { speaker: string; text: string } | undefined;
  for (const turn of conversation.turns) {
    for (const sentence of turn.sentences) {
      if (sentence.tokens.length > MAX_COMMITMENT_WORDS + 5) continue;
      const spoken = turn.text.slice(sentence.start, sentence.end);
      if (!DECISION.test(spoken)) continue;
      const text = readable(spoken);
      if (crisp(text)) decision = { speaker: turn.speaker, text };
    }
  }
  return decision ? `${decision.speaker}: "${decision.text}"` : '';
}

/** Commitments from the last third of the conversation, at most the last three. */
function nextStepsOf(candidates: readonly Candidate[]): Candidate[] {
  const late = candidates.slice(Math.floor((candidates.length * 2) / 3));
  const steps = late.filter(
    (candidate) =>
      !candidate.sentence.question && candidate.words >= 4 && candidate.words <= MAX_COMMITMENT_WORDS + 5 && COMMITMENT.test(textOf(candidate)) && crisp(textOf(candidate)),
  );
  return steps.slice(-MAX_NEXT_STEPS);
}

function crisp(text: string): boolean {
  return text.split(' ').length <= MAX_COMMITMENT_WORDS && !TENTATIVE.test(text);
}
