/**
 * The offline verdict on one criterion, from the evidence windows of criterion-evidence.ts:
 *
 *   - met: the best window says at least MET_COVERAGE of what the requirement asks (by weight);
 *     a requirement to ask something must be asked (a question or a request);
 *   - contradicted: the side said the opposite ("No e-mail or SMS will be sent" against "send the
 *     confirmation by e-mail or SMS");
 *   - partial: the step was addressed (at least ATTEMPT_COVERAGE) but not as required;
 *   - missing: nothing said comes near it;
 *   - not applicable: a conditional criterion whose situation did not arise — neither its own words
 *     were said nor was the step attempted — which counts as passed;
 *   - for a prohibition, violated when the forbidden thing was said (not under a negation), else
 *     respected.
 */
import { MATCH_STRENGTH } from '../language/term-match.js';
import type { Sentence, Token } from '../language/text-analysis.js';
import { isAsking, scoreWindows, turnsOf, type Window } from './criterion-evidence.js';
import { clock, type Conversation, type Turn } from './conversation.js';
import type { NearestInMeaning } from './meaning.js';
import type { Requirement } from './requirement.js';

/** At least half of what the criterion asks for, by weight, must be said. */
const MET_COVERAGE = 0.5;
/** A quarter of it shows the step was addressed. */
const ATTEMPT_COVERAGE = 0.25;
/**
 * How sure a verdict resting on words not found can be. Not finding a criterion's words cannot tell
 * a step left out from one said in other words or one the conversation never needed: make eval
 * measured such "missing" verdicts, said with up to 0.99, right 12 % to 38 % of the time on
 * conversations labelled by other people. So they say they are unsure, whatever the coverage.
 */
const WORDS_NOT_FOUND_CONFIDENCE = 0.55;
/** Saying what should have been asked is not asking: it can show an attempt, never meet the criterion. */
const NOT_ASKED_FACTOR = 0.5;

export type Outcome = 'met' | 'not-applicable' | 'contradicted' | 'partial' | 'missing' | 'violated' | 'respected' | 'misplaced' | 'too-few';

export interface Finding {
  readonly requirement: Requirement;
  readonly outcome: Outcome;
  readonly passed: boolean;
  readonly applicable: boolean;
  /** Coverage of the best window, 0 to 1, after the asking factor. */
  readonly coverage: number;
  readonly confidence: number;
  /** The window the verdict rests on: what was said for it, or against it. */
  readonly window: Window | undefined;
  /**
   * 'misplaced': where it should have been ("at the start", "before the account came up at 0:42");
   * 'too-few': how many there were ("1 of the 2 questions").
   */
  readonly detail: string;
  /** 'too-few': how many of the side's questions there were. */
  readonly questions?: number;
  /** 'missing': the acting side's sentence nearest in meaning to the criterion (offline/meaning.ts), when the model is loaded and one is near. */
  readonly nearest?: NearestInMeaning;
}

/**
 * Judges every criterion. Meeting a criterion is not exclusive: one sentence may greet the caller
 * and introduce the representative. Attempting one is: a turn that meets a criterion did that, and
 * is no half-hearted attempt at another it shares a few words with ("Please confirm your e-mail"
 * meets "confirm contact details"; it does not attempt "send the confirmation by e-mail"); any
 * other turn is taken as an attempt at the one criterion not met elsewhere that it is most about
 * (the most of its words said, negated or not).
 */
export function judgeCriteria(requirements: readonly Requirement[], conversation: Conversation): Finding[] {
  const scored = requirements.map((requirement) => ({
    requirement,
    windows: scoreWindows(conversation, turnsOf(conversation, requirement.actor), requirement.terms),
  }));
  const met = new Set(scored.filter(({ requirement, windows }) => windows.some((window) => adjusted(requirement, window) >= MET_COVERAGE)).map(({ requirement }) => requirement));
  const meets = new Set<number>();
  for (const { requirement, windows } of scored) for (const window of windows) if (window.turns.length === 1 && adjusted(requirement, window) >= MET_COVERAGE) meets.add(window.turns[0]!.index);
  const mostAbout = new Map<number, { requirement: Requirement; relatedness: number }>();
  for (const { requirement, windows } of scored) {
    if (met.has(requirement)) continue;
    for (const window of windows) {
      if (meets.has(window.turns[0]!.index)) continue;
      if (window.turns.length !== 1) continue;
      const turn = window.turns[0]!.index;
      const relatedness = relatednessOf(requirement, window);
      const known = mostAbout.get(turn);
      if (!known || relatedness > known.relatedness) mostAbout.set(turn, { requirement, relatedness });
    }
  }
  // A turn meets a criterion unless the words it shares with it are only words it shares with a
  // criterion it says more of: "Please confirm your e-mail" meets "confirm the e-mail on file", and
  // not also "send the confirmation by e-mail", whose words there are a subset of the first's. A
  // sentence that greets and introduces meets both: different words meet each.
  const saidIn = new Map<Requirement, Map<number, { weight: number; tokens: Set<Token> }>>();
  for (const { requirement, windows } of scored) {
    const byTurn = new Map<number, { weight: number; tokens: Set<Token> }>();
    for (const window of windows) {
      if (window.turns.length !== 1) continue;
      const tokens = new Set<Token>();
      for (const match of window.matches) if (match && !match.negated) tokens.add(match.token);
      byTurn.set(window.turns[0]!.index, { weight: saidWeight(requirement, window), tokens });
    }
    saidIn.set(requirement, byTurn);
  }
  const explainedAway = (requirement: Requirement, turn: number) => {
    const mine = saidIn.get(requirement)?.get(turn);
    if (!mine || mine.tokens.size === 0) return false;
    for (const [other, byTurn] of saidIn) {
      if (other === requirement) continue;
      const theirs = byTurn.get(turn);
      if (theirs && theirs.weight > mine.weight && [...mine.tokens].every((token) => theirs.tokens.has(token))) return true;
    }
    return false;
  };
  return scored.map(({ requirement, windows }) =>
    judge(
      requirement,
      conversation,
      windows.filter((window) => window.turns.some((turn) => !explainedAway(requirement, turn.index))),
      windows,
      (window) => window.turns.length === 1 && mostAbout.get(window.turns[0]!.index)?.requirement === requirement,
    ),
  );
}

/** One criterion on its own: every turn may be an attempt at it. */
export function judgeCriterion(requirement: Requirement, conversation: Conversation): Finding {
  const windows = scoreWindows(conversation, turnsOf(conversation, requirement.actor), requirement.terms);
  return judge(requirement, conversation, windows, windows, () => true);
}

const adjusted = (requirement: Requirement, window: Window) => (requirement.asks && !window.asking ? window.coverage * NOT_ASKED_FACTOR : window.coverage);
const relatednessOf = (requirement: Requirement, window: Window) => adjusted(requirement, window) + window.negation;
/** The weight of the requirement's words the window says. */
const saidWeight = (requirement: Requirement, window: Window) => adjusted(requirement, window) * requirement.terms.reduce((sum, term) => sum + term.weight, 0);

/**
 * `meeting`: the windows that may meet the requirement; `windows`: all of them, for attempts and
 * contradictions.
 */
function judge(requirement: Requirement, conversation: Conversation, meeting: readonly Window[], windows: readonly Window[], attemptsThis: (window: Window) => boolean): Finding {
  // A window that says part of the requirement is not to be done ("Please give your name. Do not
  // give your member ID.") contradicts it, however much else it covers.
  let best: Window | undefined;
  for (const window of meeting) {
    if (window.negation >= ATTEMPT_COVERAGE) continue;
    if (!best || adjusted(requirement, window) > adjusted(requirement, best)) best = window;
  }
  const coverage = best ? adjusted(requirement, best) : 0;
  const attempts = windows.filter(attemptsThis);
  let attempt: Window | undefined;
  for (const window of attempts) if (!attempt || relatednessOf(requirement, window) > relatednessOf(requirement, attempt)) attempt = window;
  const contradiction = attempts
    .filter((window) => window.negation >= ATTEMPT_COVERAGE && window.negation > window.coverage)
    .sort((a, b) => b.negation - a.negation)[0];

  const finding = (outcome: Outcome, window: Window | undefined, confidence: number, detail = ''): Finding => ({
    requirement,
    outcome,
    passed: outcome === 'met' || outcome === 'not-applicable' || outcome === 'respected',
    applicable: outcome !== 'not-applicable',
    coverage,
    confidence: round(Math.min(0.99, Math.max(0.5, confidence))),
    window,
    detail,
  });

  if (requirement.prohibited) {
    return coverage >= MET_COVERAGE ? finding('violated', best, 0.5 + (coverage - MET_COVERAGE)) : finding('respected', undefined, 0.5 + (MET_COVERAGE - coverage));
  }
  if (coverage >= MET_COVERAGE && (!requirement.asks || best!.asking)) {
    // Said, and asked if it is a question: now where, and how often.
    const meets = meeting.filter((window) => window.negation < ATTEMPT_COVERAGE && adjusted(requirement, window) >= MET_COVERAGE && (!requirement.asks || window.asking));
    const placed = placedWindow(requirement, conversation, meets);
    if (!placed.window) return finding('misplaced', best, 0.75, placed.detail);
    const questions = requirement.asks && requirement.minimum > 1 ? askingSentences(requirement, conversation) : requirement.minimum;
    if (questions < requirement.minimum) return { ...finding('too-few', placed.window, 0.7, `${questions} of the ${requirement.minimum}`), questions };
    return finding('met', placed.window, 0.5 + (adjusted(requirement, placed.window) - MET_COVERAGE));
  }

  const attempted = attempt !== undefined && relatednessOf(requirement, attempt) >= ATTEMPT_COVERAGE;
  if (requirement.conditional && !attempted && !situationArose(requirement, conversation)) {
    return finding('not-applicable', undefined, 0.5 + (ATTEMPT_COVERAGE - coverage) * 2);
  }
  if (contradiction) return finding('contradicted', contradiction, 0.6 + contradiction.negation / 2);
  if (attempted) return finding('partial', attempt, WORDS_NOT_FOUND_CONFIDENCE);
  return finding('missing', best && best.coverage > 0 ? best : undefined, WORDS_NOT_FOUND_CONFIDENCE);
}

/**
 * The best window that is where the requirement wants it: in the side's first turn ("at the
 * start"), in one of its last two ("before the call ends"), or before what it must precede first
 * came up ("before discussing the account"). Without a constraint, the best window.
 */
function placedWindow(requirement: Requirement, conversation: Conversation, meets: readonly Window[]): { window: Window | undefined; detail: string } {
  const best = [...meets].sort((a, b) => adjusted(requirement, b) - adjusted(requirement, a));
  const own = turnsOf(conversation, requirement.actor);
  if (requirement.position === 'start') {
    const first = own[0];
    return { window: best.find((window) => window.turns[0] === first), detail: 'at the start' };
  }
  if (requirement.position === 'end') {
    const last = own.slice(-2);
    return { window: best.find((window) => window.turns.some((turn) => last.includes(turn))), detail: 'at the end' };
  }
  if (requirement.before.length > 0) {
    // Where the side first took it up: its own words or their relatives ("account", "accounts"),
    // not a synonym in some sense ("report"). The caller raising it is no discussion of it yet.
    let cutoff: Turn | undefined;
    for (const term of requirement.before) {
      for (const hit of conversation.index.find(term)) {
        if (hit.strength < MATCH_STRENGTH.data || !own.includes(hit.place.turn) || best.some((meet) => meet.turns.includes(hit.place.turn))) continue;
        if (!cutoff || hit.place.turn.index < cutoff.index) cutoff = hit.place.turn;
      }
    }
    if (!cutoff) return { window: best[0], detail: '' };
    const beforeIt = best.find((window) => window.turns[0]!.index < cutoff.index);
    const when = clock(cutoff.startMs);
    return { window: beforeIt, detail: `before ${requirement.before.map((term) => term.text).join(' ')} came up${when ? ` at ${when}` : ''}` };
  }
  return { window: best[0], detail: '' };
}

// Questions that open the conversation up ("what", "how", "tell me about"), not yes-or-no ones.
const OPEN_QUESTION = /^\W*(?:(?:so|and|okay|ok|well|now|great|right)\b[\s,]*)?(?:what|how|why|which|where|when|who|tell me|describe|walk me through|(?:could|can|would) you (?:tell|describe|walk|explain|share))\b/i;

/** The side's questions (open ones, if it must be open) that say something of the requirement. */
function askingSentences(requirement: Requirement, conversation: Conversation): number {
  // About the subject means its own words or their relatives, not a synonym in some sense of them.
  const relevant = new Set<Sentence>();
  for (const term of requirement.terms) for (const hit of conversation.index.find(term)) if (!hit.token.negated && hit.strength >= MATCH_STRENGTH.data) relevant.add(hit.place.sentence);
  let count = 0;
  for (const turn of turnsOf(conversation, requirement.actor)) {
    for (const sentence of turn.sentences) {
      if (!relevant.has(sentence) || !isAsking(sentence, turn.text)) continue;
      if (requirement.openQuestions && !OPEN_QUESTION.test(turn.text.slice(sentence.start, sentence.end))) continue;
      count += 1;
    }
  }
  return count;
}

/** The words of the situation were said, by either side. */
function situationArose(requirement: Requirement, conversation: Conversation): boolean {
  if (requirement.conditionTerms.length === 0) return false;
  const [best] = scoreWindows(conversation, conversation.turns, requirement.conditionTerms);
  return best !== undefined && best.coverage >= MET_COVERAGE;
}

const round = (value: number) => Math.round(value * 100) / 100;
