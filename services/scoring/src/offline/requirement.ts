/**
 * What a criterion asks for, read from its name and prompt the way a reviewer would:
 *
 *   - who must do it: the representative, unless the prompt names the other side ("The customer
 *     agrees to …");
 *   - whether it is a prohibition ("Do not promise delivery dates", "Never share the code");
 *   - whether it only applies in a situation ("If the caller asks for a refund, …", "Escalate …
 *     if the customer threatens legal action"), and the words of that situation;
 *   - whether it is a question to ask ("Ask for the account number") rather than a thing to say;
 *   - the words that carry it, each weighted by how specific it is. A short label before a colon
 *     ("Verify identity: ask for …") and a reviewer's "Pass if …" sentence count half; "Fail if …"
 *     sentences restate the requirement negatively and are left out; speech-act verbs ("ask",
 *     "say", "tell") and words naming the parties are not content: nobody says "ask".
 */
import type { TeamCriterion } from '../engines/evaluation-engine.js';
import { analyzeText, type Token } from '../language/text-analysis.js';
import { termOf, type Term } from '../language/term-match.js';
import type { Side } from './conversation.js';
import { structureOf, type Position } from './requirement-structure.js';

export interface Requirement {
  readonly criterion: TeamCriterion;
  readonly actor: Side;
  readonly prohibited: boolean;
  readonly conditional: boolean;
  /** The situation a conditional criterion applies in, as the team wrote it ("the customer asks for a refund"); may be empty. */
  readonly situation: string;
  /** Words of the situation a conditional criterion applies in; may be empty ("this step"). */
  readonly conditionTerms: readonly Term[];
  readonly asks: boolean;
  /** Questions that ask what, how, why (not yes-or-no ones). */
  readonly openQuestions: boolean;
  /** How many asking sentences it takes, at least ("asks at least two questions"). */
  readonly minimum: number;
  /** Where the evidence must be: the side's first turn, or one of its last two. */
  readonly position: Position | undefined;
  /** What must not have come up before the requirement is met ("before discussing the account"). */
  readonly before: readonly Term[];
  readonly terms: readonly Term[];
  /** The requirement as the team wrote it, for messages: "greet the caller and introduce yourself as Ava". */
  readonly clause: string;
}

// Words naming the parties, or how a reviewer phrases things: never what is said.
const META_WORDS = new Set(
  `caller customer client contact user patient member prospect buyer representative rep agent assistant
  salesperson seller advisor associate interviewer recruiter candidate speaker person people party
  ensure sure must should shall need always clearly appropriately properly pass fail`.split(/\s+/),
);
// Verbs that name the act of speaking or asking, not what is said.
const SPEECH_ACT_VERBS = new Set(
  'ask asks asked asking inquire enquire query request requests requested collect gather obtain say says said state states tell tells told mention mentions mentioned inform informs use uses let lets know prompt question questions'.split(
    ' ',
  ),
);
const ASKING_VERBS = new Set('ask inquire enquire query request collect gather obtain'.split(' '));

const OTHER_SIDE_SUBJECT =
  /^(?:the\s+|a\s+)?(?:customer|caller|client|contact|prospect|buyer|patient|candidate|user|lead|member|interviewee|other party)s?\b(?!['’])\s*/i;
const OWN_SIDE_SUBJECT =
  /^(?:the\s+|a\s+)?(?:representative|rep|agent|assistant|salesperson|seller|recruiter|interviewer|advisor|associate|host)s?\b(?!['’])\s*/i;
const MODAL = /^(?:must|should|shall|will|needs? to|has to|have to|is expected to|are expected to|is required to|always)\s+/i;
const PROHIBITION = /^(?:do not|don't|does not|doesn't|never|must not|mustn't|should not|shouldn't|shall not|may not|cannot|can't|avoid(?:s)?|refrain(?:s)? from|no longer)\b\s*/i;
const CONDITION = /^(?:only\s+)?(?:if|when|whenever|once|in case|in the event that|where|should)\b\s+([^,:;]+?)(?:\s*[,:;]\s*|\s+then\s+)([\s\S]+)$/i;
// A situation named after what must be done: "Escalate … if the customer threatens legal action",
// "Transfer the caller when asked", "Offer a callback if needed". Only a party or a bare participle
// opens one, and not as what is asked or explained: "ask when the payment is due", "explain the next
// step and when the candidate will hear back" stay what is to be said.
const TRAILING_CONDITION =
  /^([\s\S]+?)[,;]?\s+(?<!\b(?:and|or|about|whether|explains?|asks?|tells?|says?|states?|confirms?|checks?|shares?|mentions?|knows?|out)\s+)(?:only\s+)?(?:if|when|whenever|once|in case|in the event that)\s+(?![^.!?]*\b(?:will|would|is going to)\b)((?:the\s+|a\s+|an\s+)?(?:customer|caller|client|contact|prospect|buyer|patient|candidate|user|member|lead|other party|they|he|she)\b[^.!?]*|(?:asked|requested|needed|necessary|required|appropriate|applicable|prompted|relevant|possible)\b[^.!?]*)[.!]?\s*$/i;
const LABEL = /^([^:.?!\n]{1,80}):\s+(\S[\s\S]*)$/;
const REVIEW_SENTENCE = /(?:^|(?<=[.!?]\s))(pass|fail)\s+(?:if|when)\b[^.!?]*[.!?]?/gi;

const LABEL_WEIGHT = 0.5;
const PASS_SENTENCE_WEIGHT = 0.5;

// A team's criteria are read for every activity it scores; they change rarely.
const CACHE_SIZE = 2_000;
const cache = new Map<string, Requirement>();

/** What the criterion asks for (read once per wording, then remembered). */
export function readRequirement(criterion: TeamCriterion, defaultActor: Side = 'representative'): Requirement {
  const key = JSON.stringify([criterion.groupId, criterion.groupName, criterion.criterionId, criterion.name, criterion.prompt, criterion.weight, defaultActor]);
  const known = cache.get(key);
  if (known) return known;
  const requirement = parseRequirement(criterion, defaultActor);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, requirement);
  return requirement;
}

function parseRequirement(criterion: TeamCriterion, defaultActor: Side): Requirement {
  let text = (criterion.prompt.trim() || criterion.name.trim()).replace(/\s+/g, ' ');

  // "Pass if …" adds words at half weight; "Fail if …" restates the requirement negatively.
  const passSentences: string[] = [];
  text = text
    .replace(REVIEW_SENTENCE, (sentence, kind: string) => {
      if (kind.toLowerCase() === 'pass') passSentences.push(sentence.replace(/^pass\s+(?:if|when)\s+/i, ''));
      return ' ';
    })
    .trim();

  let label = '';
  let conditional = false;
  let condition = '';
  const conditionMatch = CONDITION.exec(text);
  if (conditionMatch) {
    conditional = true;
    condition = conditionMatch[1]!;
    text = conditionMatch[2]!;
  }
  const labelMatch = LABEL.exec(text);
  if (labelMatch && labelMatch[1]!.trim().split(/\s+/).length <= 8) {
    label = labelMatch[1]!;
    text = labelMatch[2]!;
  }
  // A condition may also follow the label: "Transfer: if the caller asks for a human, …".
  const laterCondition = !conditional ? CONDITION.exec(text) : null;
  if (laterCondition) {
    conditional = true;
    condition = laterCondition[1]!;
    text = laterCondition[2]!;
  }
  const trailingCondition = !conditional ? TRAILING_CONDITION.exec(text.trim()) : null;
  if (trailingCondition) {
    conditional = true;
    text = trailingCondition[1]!;
    condition = trailingCondition[2]!;
  }

  const structure = structureOf(text.trim(), conditional);
  let actor = defaultActor;
  let clause = structure.clause;
  let stated = structure.stated;
  // Who must act, a modal and a prohibition open the clause: "The agent must never share …".
  const strip = (pattern: RegExp) => {
    const found = pattern.exec(clause);
    if (found) clause = clause.slice(found[0].length);
    const inStated = pattern.exec(stated);
    if (inStated) stated = stated.slice(inStated[0].length);
    return found !== null;
  };
  if (strip(OTHER_SIDE_SUBJECT)) actor = 'contact';
  else if (strip(OWN_SIDE_SUBJECT)) actor = 'representative';
  strip(MODAL);
  const prohibited = strip(PROHIBITION);

  const mainTokens = contentTokens(clause);
  const asks =
    structure.openQuestions ||
    mainTokens.some((token) => token.lemmas.some((lemma) => ASKING_VERBS.has(lemma))) ||
    /^(?:asks?|inquires?|enquires?|checks? whether|finds? out)\b/i.test(clause) ||
    /\bquestions?\b/i.test(clause);
  const terms = uniqueTerms([
    ...mainTokens.map((token) => termOf(token)),
    ...contentTokens(label).map((token) => termOf(token, LABEL_WEIGHT)),
    ...passSentences.flatMap((sentence) => contentTokens(sentence).map((token) => termOf(token, PASS_SENTENCE_WEIGHT))),
  ]);
  return {
    criterion,
    actor,
    prohibited,
    conditional,
    situation: condition.trim().replace(/[.\s]+$/, ''),
    conditionTerms: uniqueTerms(contentTokens(condition).map((token) => termOf(token))),
    asks,
    openQuestions: structure.openQuestions,
    minimum: structure.minimum,
    position: structure.position,
    before: structure.before ? uniqueTerms(contentTokens(structure.before).map((token) => termOf(token))) : [],
    terms,
    clause: stated.replace(/[.\s]+$/, ''),
  };
}

/** Words that carry the requirement: content words that are neither meta words nor speech acts. */
function contentTokens(text: string): Token[] {
  if (!text.trim()) return [];
  const tokens: Token[] = [];
  for (const sentence of analyzeText(text).sentences) {
    for (const token of sentence.tokens) {
      // The prompt names acts in words ("thank the caller"); the act tokens are for what is said.
      if (!token.content || token.kind === 'act') continue;
      if (token.kind === 'word' && token.lemmas.some((lemma) => META_WORDS.has(lemma) || SPEECH_ACT_VERBS.has(lemma))) continue;
      if (token.kind === 'word' && token.normal.length < 2) continue;
      tokens.push(token);
    }
  }
  return tokens;
}

/** One term per lemma, keeping the heavier weight when a word recurs. */
function uniqueTerms(terms: Term[]): Term[] {
  const byLemma = new Map<string, Term>();
  for (const term of terms) {
    const key = term.lemmas[term.lemmas.length - 1] ?? term.text;
    const known = byLemma.get(key);
    if (!known || known.weight < term.weight) byLemma.set(key, term);
  }
  return [...byLemma.values()];
}
