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
import { scoreWindows, turnsOf, type Window } from './criterion-evidence.js';
import type { Conversation } from './conversation.js';
import type { Requirement } from './requirement.js';

/** At least half of what the criterion asks for, by weight, must be said. */
export const MET_COVERAGE = 0.5;
/**
 * A turn meets the criteria it is mostly about: those covered at least this share as well as the
 * best-covered criterion there ("Please confirm your e-mail" meets "confirm the e-mail on file",
 * not also "send the confirmation by e-mail", which shares two of its words).
 */
const MOSTLY_ABOUT = 0.75;
/** A quarter of it shows the step was addressed. */
export const ATTEMPT_COVERAGE = 0.25;
/** Saying what should have been asked is not asking: it can show an attempt, never meet the criterion. */
const NOT_ASKED_FACTOR = 0.5;

export type Outcome = 'met' | 'not-applicable' | 'contradicted' | 'partial' | 'missing' | 'violated' | 'respected';

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
  // How well the best criterion covers each turn: a criterion meets a turn only if the turn is
  // mostly about it.
  const bestCoverage = new Map<number, number>();
  for (const { requirement, windows } of scored) {
    for (const window of windows) {
      if (window.turns.length !== 1) continue;
      const turn = window.turns[0]!.index;
      bestCoverage.set(turn, Math.max(bestCoverage.get(turn) ?? 0, adjusted(requirement, window)));
    }
  }
  const mostlyAbout = (requirement: Requirement, window: Window) =>
    window.turns.some((turn) => adjusted(requirement, window) >= MOSTLY_ABOUT * (bestCoverage.get(turn.index) ?? 0));
  return scored.map(({ requirement, windows }) =>
    judge(
      requirement,
      conversation,
      windows.filter((window) => mostlyAbout(requirement, window)),
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

  const finding = (outcome: Outcome, window: Window | undefined, confidence: number): Finding => ({
    requirement,
    outcome,
    passed: outcome === 'met' || outcome === 'not-applicable' || outcome === 'respected',
    applicable: outcome !== 'not-applicable',
    coverage,
    confidence: round(Math.min(0.99, Math.max(0.5, confidence))),
    window,
  });

  if (requirement.prohibited) {
    return coverage >= MET_COVERAGE ? finding('violated', best, 0.5 + (coverage - MET_COVERAGE)) : finding('respected', undefined, 0.5 + (MET_COVERAGE - coverage));
  }
  if (coverage >= MET_COVERAGE && (!requirement.asks || best!.asking)) return finding('met', best, 0.5 + (coverage - MET_COVERAGE));

  const attempted = attempt !== undefined && relatednessOf(requirement, attempt) >= ATTEMPT_COVERAGE;
  if (requirement.conditional && !attempted && !situationArose(requirement, conversation)) {
    return finding('not-applicable', undefined, 0.5 + (ATTEMPT_COVERAGE - coverage) * 2);
  }
  if (contradiction) return finding('contradicted', contradiction, 0.6 + contradiction.negation / 2);
  if (attempted) return finding('partial', attempt, 0.5 + (MET_COVERAGE - coverage));
  return finding('missing', best && best.coverage > 0 ? best : undefined, 0.5 + (MET_COVERAGE - coverage));
}

/** The words of the situation were said, by either side. */
function situationArose(requirement: Requirement, conversation: Conversation): boolean {
  if (requirement.conditionTerms.length === 0) return false;
  const [best] = scoreWindows(conversation, conversation.turns, requirement.conditionTerms);
  return best !== undefined && best.coverage >= MET_COVERAGE;
}

const round = (value: number) => Math.round(value * 100) / 100;
