/**
 * A finding in words a manager can check against the transcript: the one-sentence reason, the
 * evidence quoted exactly, and for a failure what was expected and a concrete suggestion that
 * points at the moment in the conversation it concerns.
 */
import type { Evidence } from '@parlance/proto/parlance/scoring/v1/evaluation';
import winkLemmatizer from 'wink-lemmatizer';
import { verdictIdentity, type JudgedVerdict } from '../engines/evaluation-engine.js';
import { lexicon } from '../language/lexicon.js';
import { lowerFirst, upperFirst } from '../language/prose.js';
import { STOP_WORDS } from '../language/stop-words.js';
import type { Term } from '../language/term-match.js';
import type { Sentence } from '../language/text-analysis.js';
import { clock, evidenceOf, timeOf, type Conversation, type Turn } from './conversation.js';
import type { TermMatch } from './criterion-evidence.js';
import type { Finding } from './criterion-judge.js';

const MAX_QUOTES = 3;
/** A quote in a sentence is cut to this many characters; the evidence keeps the whole sentence. */
const QUOTE_IN_TEXT = 140;

export function verdictOf(finding: Finding, conversation: Conversation): JudgedVerdict {
  const { requirement } = finding;
  const { criterion } = requirement;
  // A missing step's two readings: the words of it that were found, and the sentence nearest it in meaning.
  const nearest = finding.nearest && evidenceOf(finding.nearest.turn, finding.nearest.sentence);
  const evidence = nearest ? withEvidence(evidenceOfWindow(finding), nearest) : evidenceOfWindow(finding);
  const first = nearest ?? evidence[0];
  const side = requirement.actor === 'representative' ? 'representative' : 'contact';
  // The quotes the verdict rests on, two at most in a sentence: "Anna said "…" (0:05) and "…" (0:20)".
  const second = nearest ? undefined : evidence[1];
  const said = first
    ? `${first.speaker} said "${short(first.quote)}"${at(first)}${second ? ` and ${second.speaker === first.speaker ? '' : `${second.speaker} `}"${short(second.quote)}"${at(second)}` : ''}`
    : '';
  const instruction = instructionOf(requirement.clause || criterion.name);
  // "Expected the representative to greet the caller", or, for a clause that is no instruction,
  // "Expected that every concern the caller raises is answered".
  const expectedTo = (negated = false) =>
    instruction.verb ? `Expected the ${side} ${negated ? 'not ' : ''}to ${instruction.text}.` : `Expected that ${negated ? 'it is not the case that ' : ''}${instruction.text}.`;
  const todo = instruction.verb ? instruction.text : `make sure that ${instruction.text}`;

  let reason: string;
  let expected = '';
  let suggestion = '';
  switch (finding.outcome) {
    case 'met':
      reason = `Met: ${said}.`;
      break;
    case 'respected':
      reason = `Met: nothing the ${side} said does what it forbids (${instruction.text}).`;
      break;
    case 'not-applicable':
      reason = `Not applicable: ${situation(finding)}, so nothing was required.`;
      break;
    case 'violated':
      reason = `Not met: ${said}, which the criterion forbids.`;
      expected = expectedTo(true);
      suggestion = `Leave this out: instead of "${short(first?.quote ?? '')}"${at(first)}, stay within what the criterion allows.`;
      break;
    case 'contradicted':
      reason = `Not met: ${said}, which says the opposite of what is required.`;
      expected = expectedTo();
      suggestion = `Instead of "${short(first?.quote ?? '')}"${at(first)}, ${todo}.`;
      break;
    case 'partial':
      reason = `Not met: ${said}, but ${instruction.verb ? `did not ${instruction.text}` : `not so that ${instruction.text}`}.`;
      expected = expectedTo();
      suggestion = `When ${first?.speaker ?? `the ${side}`} said "${short(first?.quote ?? '')}"${at(first)}, ${todo}.`;
      break;
    case 'misplaced':
      reason = `Not met: ${said}, but not ${finding.detail}.`;
      expected = expectedTo().replace(/\.$/, ` ${finding.detail}.`);
      suggestion = `${upperFirst(todo)} ${finding.detail}, not only where ${first?.speaker ?? `the ${side}`} did${at(first) ? ` (${at(first).trim().slice(1, -1)})` : ''}.`;
      break;
    case 'too-few': {
      const more = requirement.minimum - (finding.questions ?? 0);
      reason = `Not met: ${finding.detail} questions asked (for example ${said}).`;
      expected = expectedTo();
      suggestion = `Ask ${more} more ${requirement.openQuestions ? 'open ' : ''}question${more === 1 ? '' : 's'} like "${short(first?.quote ?? '')}"${at(first)}: ${todo}.`;
      break;
    }
    case 'missing':
      reason = instruction.verb
        ? `Not met: nothing the ${side} said was found to ${instruction.text}`
        : `Not met: nothing said was found to show that ${instruction.text}`;
      // The model's reading beside the words': where it came closest, for the reviewer to judge.
      reason += !nearest ? '.' : finding.nearest?.inPlace ? `; where it belonged, ${said}.` : `; nearest in meaning, ${said}.`;
      expected = expectedTo();
      suggestion = `${upperFirst(todo)}${anchor(finding, conversation)}.`;
      break;
  }
  return {
    ...verdictIdentity(criterion),
    passed: finding.passed,
    applicable: finding.applicable,
    confidence: finding.confidence,
    reason,
    expected,
    suggestion,
    evidence,
  };
}

/** The sentences holding the window's matches, in the order they were said. */
function evidenceOfWindow(finding: Finding): Evidence[] {
  const window = finding.window;
  if (!window) return [];
  const wantNegated = finding.outcome === 'contradicted';
  const wanted = window.matches.some((match) => match && match.negated === wantNegated);
  const seen = new Set<string>();
  const places: TermMatch[] = [];
  for (const match of window.matches) {
    if (!match || (wanted && match.negated !== wantNegated)) continue;
    const key = `${match.turn.index}:${match.sentence.start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    places.push(match);
  }
  // The sentences carrying the most weight first, then shown in conversation order.
  const weightOf = (match: TermMatch) =>
    window.matches.reduce((sum, other) => sum + (other && other.turn === match.turn && other.sentence === match.sentence ? other.term.weight * other.strength : 0), 0);
  return places
    .sort((a, b) => weightOf(b) - weightOf(a))
    .slice(0, MAX_QUOTES)
    .sort((a, b) => a.turn.index - b.turn.index || a.sentence.start - b.sentence.start)
    .map((match) => evidenceOf(match.turn, match.sentence));
}

/** The quotes with one more, in the order they were said, at most MAX_QUOTES: the added one is kept. */
function withEvidence(quotes: readonly Evidence[], added: Evidence): Evidence[] {
  const others = quotes.filter((quote) => quote.segmentIndex !== added.segmentIndex || quote.quote !== added.quote).slice(0, MAX_QUOTES - 1);
  return [...others, added].sort((a, b) => a.segmentIndex - b.segmentIndex || (a.startMs ?? 0) - (b.startMs ?? 0));
}

/**
 * The clause as an instruction: "greets the caller" → "greet the caller" (verb: true); a clause
 * that does not open with a verb ("every concern … is answered") stays as it is (verb: false).
 */
function instructionOf(clause: string): { verb: boolean; text: string } {
  const text = lowerFirst(clause.trim());
  const [first = '', ...rest] = text.split(' ');
  const word = first.toLowerCase();
  const base = winkLemmatizer.lemmatizeVerb(word);
  if (!lexicon().partsOfSpeech(base).includes('v') || STOP_WORDS.has(word)) return { verb: false, text };
  // A third-person "greets" becomes "greet"; "offer" and "process" stay.
  const verb = word.endsWith('s') && base !== word ? base : word;
  return { verb: true, text: [verb, ...rest].join(' ') };
}

/** "it applies when the customer asks for a refund, and that did not come up", in the team's words. */
function situation(finding: Finding): string {
  const situation = finding.requirement.situation;
  return situation ? `it applies when ${situation}, and that did not come up` : 'this step did not come up';
}

/** Where the missing thing belonged: after what the other side said about it, or at the start. */
function anchor(finding: Finding, conversation: Conversation): string {
  const { requirement } = finding;
  // The other side's sentence most about it: the situation's words and the criterion's, each
  // counted once per sentence, so the objection itself outweighs a word of it said in passing.
  const weights = new Map<Sentence, { turn: Turn; byTerm: Map<Term, number> }>();
  for (const term of [...requirement.conditionTerms, ...requirement.terms]) {
    for (const hit of conversation.index.find(term)) {
      if (hit.place.turn.side === requirement.actor && conversation.hasRepresentative) continue;
      const entry = weights.get(hit.place.sentence) ?? { turn: hit.place.turn, byTerm: new Map<Term, number>() };
      entry.byTerm.set(term, Math.max(entry.byTerm.get(term) ?? 0, term.weight * hit.strength));
      weights.set(hit.place.sentence, entry);
    }
  }
  let best: { turn: Turn; sentence: Sentence; weight: number } | undefined;
  for (const [sentence, { turn, byTerm }] of weights) {
    const weight = [...byTerm.values()].reduce((sum, value) => sum + value, 0);
    if (!best || weight > best.weight || (weight === best.weight && turn.index < best.turn.index)) best = { turn, sentence, weight };
  }
  if (best) return `, for example right after ${best.turn.speaker} said "${short(best.turn.text.slice(best.sentence.start, best.sentence.end))}"${at({ startMs: timeOf(best.turn, best.sentence) })}`;
  const opening = conversation.turns.find((turn) => turn.side === requirement.actor && turn.sentences.length > 0);
  if (!opening) return '';
  const sentence = opening.sentences[0]!;
  return `, for example alongside "${short(opening.text.slice(sentence.start, sentence.end))}"${at({ startMs: opening.startMs })}`;
}

function at(evidence: { startMs?: number | undefined } | undefined): string {
  const time = clock(evidence?.startMs);
  return time ? ` (${time})` : '';
}

function short(quote: string): string {
  const flat = quote.replace(/\s+/g, ' ').trim();
  return flat.length <= QUOTE_IN_TEXT ? flat : `${flat.slice(0, QUOTE_IN_TEXT).replace(/\s+\S*$/, '')}…`;
}
