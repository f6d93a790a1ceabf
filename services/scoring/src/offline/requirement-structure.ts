/**
 * The parts of a criterion that say when and how often, not what: a reviewer writes "greets the
 * caller in the first sentence", "asks at least two open questions", "before discussing the
 * account, confirms the customer's identity", "states the ticket number before the call ends".
 * Those words are never said on the call; they constrain where and how often the rest must be.
 * `structureOf` takes them out of the clause and names the constraint.
 */

export type Position = 'start' | 'end';

interface RequirementStructure {
  /** The clause without the constraint phrases, with the words for what is said ("echo", "proposal"). */
  clause: string;
  /** The clause without the constraint phrases, as the team wrote it: for messages. */
  stated: string;
  /** Where the evidence must be: the side's first turn, or one of its last two. */
  position: Position | undefined;
  /** How many times it must happen (counted for questions), at least. */
  minimum: number;
  /** "before discussing the account": what must not come up before the requirement is met. */
  before: string | undefined;
  /** "open questions": questions that ask what, how, why…, not yes-or-no. */
  openQuestions: boolean;
}

const NUMBERS: Record<string, number> = { once: 1, one: 1, twice: 2, two: 2, three: 3, thrice: 3, four: 4, five: 5, six: 6 };

const START =
  /\b(?:(?:in|within|during) (?:the|their|his|her) (?:very )?(?:first|opening) (?:sentence|line|seconds?|minute|turn|words?|exchange)|at the (?:very )?(?:start|beginning|outset|opening)(?: of the (?:call|conversation|meeting))?|(?:early|first thing) in the (?:call|conversation|meeting))\b/gi;
// "Right away": at the start of the call, or, when a situation calls for it, as soon as it arises.
const PROMPTLY = /\b(?:right away|straight away|immediately|promptly|at once|without delay)\b/gi;
const END =
  /\b(?:at the (?:very )?end(?: of the (?:call|conversation|meeting))?|before (?:the (?:call|conversation|meeting) ends|ending the (?:call|conversation|meeting)|hanging up|closing(?: the (?:call|conversation))?|wrapping up|saying goodbye|the end(?: of the (?:call|conversation|meeting))?)|to (?:close|end|wrap up) the (?:call|conversation|meeting))\b/gi;
const BEFORE =
  /\bbefore (?:discussing|talking about|getting into|going into|going over|reviewing|addressing|sharing|giving out|disclosing|accessing|changing|updating|making changes to|looking into|any discussion of|discussion of) ([^,.;:]+)/i;
const AT_LEAST = /\b(?:at least|a minimum of|no fewer than) (once|twice|thrice|one|two|three|four|five|six|\d+)(?: (?:times?|occasions?))?\b/i;
const FILLERS =
  /\b(?:in (?:their|his|her|your) own words|at some point(?: in the (?:call|conversation))?|(?:later|again) (?:on )?in the (?:call|conversation|meeting)|on the call|during the (?:call|conversation|meeting)|throughout(?: the (?:call|conversation|meeting))?|before moving on|at any (?:point|time))\b/gi;
const ECHOED =
  /\b(?:(?:a|an|the|one|each|every) )?(?:(?:of )?(?:the )?)(?:needs?|pains?(?: points?)?|problems?|goals?|concerns?|challenges?|requirements?|priorities?|issues?|points?)\s+(?:that\s+)?(?:the\s+)?(?:caller|customer|client|prospect|contact|buyer|patient)\s+(?:has\s+)?(?:stated|said|mentioned|raised|expressed|shared|described|gave|named)\b|\bwhat the (?:caller|customer|client|prospect|contact|buyer|patient) (?:said|stated|mentioned|shared|described)\b/gi;
const ASKED_NAME = /\b((?:asks?|requests?|gets?|obtains?|takes?)(?: for)?) (?:the |their )?(?:caller|customer|client|contact|prospect|patient|person)['’]s (?:full |first |last )?name\b/gi;
const OPEN_QUESTIONS = /\bopen(?:[- ]ended)? questions?\b/i;

/** `conditional`: the requirement applies in a situation, so "immediately" means once it arises. */
export function structureOf(clause: string, conditional = false): RequirementStructure {
  let text = ` ${clause} `;
  let position: Position | undefined;
  if (text.search(START) >= 0 || (!conditional && text.search(PROMPTLY) >= 0)) position = 'start';
  text = text.replace(START, ' ').replace(PROMPTLY, ' ');
  if (text.search(END) >= 0) position ??= 'end';
  text = text.replace(END, ' ');

  let before: string | undefined;
  const order = BEFORE.exec(text);
  if (order) {
    before = order[1]!.trim();
    text = text.replace(order[0], ' ');
  }

  let minimum = 1;
  const count = AT_LEAST.exec(text);
  if (count) {
    minimum = NUMBERS[count[1]!.toLowerCase()] ?? Number(count[1]);
    text = text.replace(count[0], ' ');
  }
  text = text.replace(FILLERS, ' ');

  const stated = tidy(text);
  const openQuestions = OPEN_QUESTIONS.test(text);
  if (openQuestions) text = text.replace(OPEN_QUESTIONS, 'questions');

  // "a need the caller stated": the representative takes up what the other side said.
  text = text.replace(ECHOED, ' echo ');

  // "asks for the caller's name": the act of asking someone's name, said in many ways ("who am I
  // speaking with?").
  text = text.replace(ASKED_NAME, '$1 askname');

  // "next step" names a proposal of what happens next, said in many ways ("shall we…", "would
  // Tuesday suit you?").
  text = text.replace(/\bnext steps?\b/gi, 'proposal');

  return { clause: tidy(text), stated, position, minimum: Math.max(1, minimum), before, openQuestions };
}

function tidy(text: string): string {
  return text.replace(/\s+([,.;:])/g, '$1').replace(/\s+/g, ' ').replace(/^[\s,;:]+|[\s,;:]+$/g, '');
}
