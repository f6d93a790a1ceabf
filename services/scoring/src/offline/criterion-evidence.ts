/**
 * Where in the conversation a requirement was met, and how well: for every window of up to
 * WINDOW_TURNS consecutive turns of the side that must act, the weighted share of the
 * requirement's words said there (each at its best match strength), apart from words said under a
 * negation ("No e-mail will be sent" does not send an e-mail: it counts against). The best window
 * is the evidence.
 */
import type { Sentence, Token } from '../language/text-analysis.js';
import type { Term } from '../language/term-match.js';
import type { Conversation, Side, Turn } from './conversation.js';

/** A step of a conversation may take a couple of turns ("name?" … "and your date of birth?"). */
const WINDOW_TURNS = 2;

export interface TermMatch {
  readonly term: Term;
  readonly strength: number;
  readonly negated: boolean;
  readonly turn: Turn;
  readonly sentence: Sentence;
  readonly token: Token;
}

export interface Window {
  readonly turns: readonly Turn[];
  /** Best match of each term in the window (undefined: not said). */
  readonly matches: ReadonlyArray<TermMatch | undefined>;
  /** Weighted share of the terms said, not negated: 0 to 1. */
  readonly coverage: number;
  /** Weighted share of the terms said under a negation: 0 to 1. */
  readonly negation: number;
  /** Whether a sentence holding a match asks something (a question or a request). */
  readonly asking: boolean;
}

/** The turns the side can act in: the side's own, or every turn when nobody has the representative role. */
export function turnsOf(conversation: Conversation, side: Side | 'either'): Turn[] {
  if (side === 'either' || !conversation.hasRepresentative) return [...conversation.turns];
  return conversation.turns.filter((turn) => turn.side === side);
}

/** Each term's best match in each of the turns; matches[turnPosition][termIndex]. */
function matchTurns(conversation: Conversation, turns: readonly Turn[], terms: readonly Term[]): Array<Array<TermMatch | undefined>> {
  const position = new Map(turns.map((turn, at) => [turn, at]));
  const best: Array<Array<TermMatch | undefined>> = turns.map(() => new Array<TermMatch | undefined>(terms.length));
  terms.forEach((term, index) => {
    for (const { place, token, strength } of conversation.index.find(term)) {
      const at = position.get(place.turn);
      if (at === undefined) continue;
      const known = best[at]![index];
      // A plain mention beats a negated one of the same strength: "not now, but yes, send it".
      if (!known || strength > known.strength || (strength === known.strength && known.negated && !token.negated)) {
        best[at]![index] = { term, strength, negated: token.negated, turn: place.turn, sentence: place.sentence, token };
      }
    }
  });
  return best;
}

/** Every window of 1 to WINDOW_TURNS consecutive turns, scored; best coverage first. */
export function scoreWindows(conversation: Conversation, turns: readonly Turn[], terms: readonly Term[]): Window[] {
  const perTurn = matchTurns(conversation, turns, terms);
  const total = terms.reduce((sum, term) => sum + term.weight, 0);
  if (total === 0 || turns.length === 0) return [];
  const said = perTurn.map((matches) => matches.some((match) => match !== undefined));
  const windows: Window[] = [];
  for (let first = 0; first < turns.length; first += 1) {
    // A window starting with a turn that says none of it is no better than the one after it.
    if (!said[first]) continue;
    for (let size = 1; size <= WINDOW_TURNS && first + size <= turns.length; size += 1) {
      if (size > 1 && !eachAddsToTheOther(perTurn, first, size)) continue;
      const matches = terms.map((_, index) => {
        let best: TermMatch | undefined;
        for (let at = first; at < first + size; at += 1) {
          const match = perTurn[at]![index];
          if (match && (!best || effective(match) > effective(best))) best = match;
        }
        return best;
      });
      let said = 0;
      let negated = 0;
      let asking = false;
      for (const match of matches) {
        if (!match) continue;
        if (match.negated) negated += match.term.weight * match.strength;
        else said += match.term.weight * match.strength;
        if (isAsking(match.sentence, match.turn.text)) asking = true;
      }
      windows.push({ turns: turns.slice(first, first + size), matches, coverage: said / total, negation: negated / total, asking });
    }
  }
  return windows.sort((a, b) => b.coverage - a.coverage || a.turns.length - b.turns.length || a.turns[0]!.index - b.turns[0]!.index);
}

/**
 * Every turn of a longer window says a word of the requirement the others do not: two turns each
 * doing part of the step add up ("What have you tried?" … "First, open Settings…"); a turn that
 * only repeats what its neighbour said does not make a window of its own.
 */
function eachAddsToTheOther(perTurn: Array<Array<TermMatch | undefined>>, first: number, size: number): boolean {
  for (let at = first; at < first + size; at += 1) {
    const adds = perTurn[at]!.some((match, term) => match !== undefined && !match.negated && perTurn.slice(first, first + size).every((other, position) => position + first === at || !other[term] || other[term]!.negated));
    if (!adds) return false;
  }
  return true;
}

const effective = (match: TermMatch) => (match.negated ? match.strength / 2 : match.strength);

// A request for information phrased without a question mark: "Please provide your …".
const REQUEST_WORDS = new Set(['please', 'provide', 'share', 'confirm', 'tell', 'give', 'send', 'reply', 'enter', 'choose', 'select', 'spell', 'type', 'let']);

const REQUEST_PHRASES = /\b(?:please|i(?:'ll| will)? need|can i (?:get|have)|may i (?:get|have|ask)|could i (?:get|have)|let me (?:have|know)|i(?:'d| would) like (?:to know|your|the))\b/i;

export function isAsking(sentence: Sentence, text: string): boolean {
  return sentence.question || sentence.tokens.slice(0, 4).some((token) => REQUEST_WORDS.has(token.normal)) || REQUEST_PHRASES.test(text.slice(sentence.start, sentence.end));
}
