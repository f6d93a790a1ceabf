/**
 * The built-in engine behind the team editor's "AI Suggestion" (spec part 1 §2 "Team editor",
 * §4 "Criterion AI suggestion"): turns a criterion's name and the description written so far into
 * a concrete evaluation prompt, saying what the representative must say or do, what counts as a
 * pass and what counts as a fail. It needs no model, so it answers when none is configured and
 * when the configured one fails.
 *
 * How: a table of common call-quality criterion kinds, each recognised by stems in the name (and,
 * failing that, the description) and each with its own must-do sentence and pass and fail
 * conditions. A name matching no kind gets a generic prompt built from the name. Details from the
 * description are kept, quoted phrases first when space runs out. Pure and deterministic: the same
 * input always gives the same prompt.
 */
import { fitToLength } from '../model-server/fit-to-length.js';

export { fitToLength };

/** The criterion description limit (spec part 1 §9); a suggestion replaces the description. */
export const CRITERION_PROMPT_MAX_LENGTH = 500;
/** The criterion name limit (spec part 1 §9). */
export const CRITERION_NAME_MAX_LENGTH = 100;

export interface CriterionPromptInput {
  /** Non-blank; the caller validates it. */
  name: string;
  /** The prompt written so far; may be empty or absent. */
  description?: string | undefined;
}

interface CriterionKind {
  id: string;
  /** Stems and phrases, matched case-insensitively from a word start to the end of a word. */
  patterns: string[];
  mustDo: string;
  /** Completes "Pass if …". */
  pass: string;
  /** Completes "Fail if …". */
  fail: string;
}

// Order matters only for ties: the kind matching the most characters of the name wins, then the
// most characters of the description, then the earlier entry.
const KINDS: CriterionKind[] = [
  {
    id: 'greeting',
    patterns: ['greet', 'hello', 'welcom', 'opening', 'opens? the (call|conversation)', 'salutation', 'first impression'],
    mustDo: 'The representative must open the call with a clear, friendly greeting before moving on to business.',
    pass: 'a greeting is the first thing said to the customer and it sounds polite and welcoming.',
    fail: 'there is no greeting, it comes late, or the representative starts with business straight away.',
  },
  {
    id: 'introduction',
    patterns: ['introduc', 'self[- ]intro', 'company name', 'name and company', 'states? (their|his|her) name', 'says? (their|his|her) name'],
    mustDo: 'The representative must introduce themselves by name and state the company they represent at the start of the call.',
    pass: "both the representative's name and the company name are said clearly in the opening.",
    fail: 'the name or the company is missing, unclear, or only given after the customer asks.',
  },
  {
    id: 'identity-verification',
    patterns: [
      'identity',
      'verif\\w* (the )?(caller|customer|client|account|details)',
      'authenticat',
      'security (questions?|checks?)',
      'kyc\\b',
      'date of birth',
      'passcode',
      'pin\\b',
    ],
    mustDo: "The representative must verify the customer's identity with the required security checks before discussing or changing any account details.",
    pass: 'the checks are completed and confirmed before any account-specific information is shared.',
    fail: 'checks are skipped, incomplete, or done only after account details were disclosed.',
  },
  {
    id: 'needs-discovery',
    patterns: [
      'discover',
      'needs?\\b',
      'open[- ]?ended',
      'open questions?',
      'probing',
      'ask\\w* questions',
      'pain points?',
      'qualif(y|ies|ying|ication)',
      'bant\\b',
      'understand\\w* (the )?(customer|client|their)',
    ],
    mustDo: "The representative must ask open-ended questions to uncover the customer's needs, current situation and goals before proposing a solution.",
    pass: 'at least two open questions are asked and the answers are used to shape what is offered.',
    fail: 'the representative pitches without asking, asks only yes/no questions, or ignores the answers.',
  },
  {
    id: 'active-listening',
    patterns: ['listen', 'interrupt', 'paraphras', 'mirror', 'lets? the (customer|caller|client) (speak|talk|finish)'],
    mustDo: 'The representative must listen actively: let the customer finish, acknowledge what was said and paraphrase key points to confirm understanding.',
    pass: "the representative does not interrupt and accurately reflects back at least one of the customer's points.",
    fail: 'the representative talks over the customer, asks again for information already given, or misstates what the customer said.',
  },
  {
    id: 'empathy',
    patterns: ['empath', 'sympath', 'compassion', 'apolog', 'acknowledg\\w* (the )?(customer|feeling|frustration|emotion|concern)'],
    mustDo: "The representative must acknowledge the customer's feelings and situation with empathy, naming the concern and showing they understand it.",
    pass: 'at least one sincere empathetic statement is made when the customer expresses a concern or frustration.',
    fail: "the customer's emotions are ignored, dismissed, or met with a stock phrase that does not fit the situation.",
  },
  {
    id: 'objection-handling',
    patterns: ['objection', 'push[- ]?back', 'hesitat', 'rebut', 'overcom', 'too expensive', 'not interested', 'concerns?\\b'],
    mustDo: 'The representative must handle each objection by acknowledging it, asking a clarifying question and answering it with a relevant fact or benefit.',
    pass: 'every objection raised is acknowledged and addressed, and the representative checks the customer is satisfied with the answer.',
    fail: 'an objection is ignored, argued with, dismissed, or answered only with a discount without exploring it.',
  },
  {
    id: 'value-proposition',
    patterns: ['value prop', 'value\\b', 'benefit', 'roi\\b', 'business case', 'pitch', 'usp\\b', 'unique selling', 'why (choose|buy)'],
    mustDo: "The representative must present the offer's value in terms of the customer's own needs, linking at least one feature to a concrete benefit for them.",
    pass: 'a clear benefit tied to a need the customer expressed is stated.',
    fail: 'only generic features are listed, or no benefit relevant to this customer is mentioned.',
  },
  {
    id: 'product-knowledge',
    patterns: ['product', 'knowledge', 'features?\\b', 'specifications?', 'specs\\b', 'technical (details|questions)', 'answers? (the )?(customer|client)?\\s?questions', 'expertise'],
    mustDo: "The representative must explain the product or service accurately and answer the customer's questions about it with confidence.",
    pass: 'the answers are correct and specific, without guessing or contradicting earlier statements.',
    fail: 'information is wrong or vague, or a question is left unanswered without a promise to follow up.',
  },
  {
    id: 'pricing',
    patterns: ['pric(e|es|ing)\\b', 'cost', 'quote', 'discount', 'payment', 'fees?\\b', 'budget', 'invoice', 'billing', 'subscription'],
    mustDo: 'The representative must state the price clearly and accurately, including what it covers and any conditions, and relate it to the value for the customer.',
    pass: "the price and its terms are stated correctly and the customer's questions about cost are answered.",
    fail: 'the price is wrong or vague, avoided when asked, or discounts are offered that are not authorised.',
  },
  {
    id: 'compliance',
    patterns: [
      'complian',
      'legal',
      'disclos',
      'disclaimer',
      'recording',
      'recorded',
      'consent',
      'gdpr\\b',
      'regulat',
      'terms and conditions',
      'privacy',
      'data protection',
      '(mandatory|required) statements?',
    ],
    mustDo: 'The representative must give every required legal and compliance statement, including telling the customer the call is recorded and obtaining consent where required.',
    pass: 'each required statement is said clearly and in full at the right point of the call.',
    fail: 'a required statement is missing, incomplete, changed in meaning, or given only after the step it concerns.',
  },
  {
    id: 'script-adherence',
    patterns: ['script', 'talk track', 'word[- ]for[- ]word', 'verbatim', 'playbook'],
    mustDo: 'The representative must follow the approved call script, covering each required section in order and using its key phrases.',
    pass: 'every required section of the script is covered in the intended order with its meaning kept.',
    fail: 'a required section is skipped, the order is changed in a way that matters, or a key phrase is contradicted.',
  },
  {
    id: 'hold-transfer',
    patterns: ['hold\\b', 'on hold', 'transfer', 'escalat', 'hand[- ]?over', 'hand[- ]?off'],
    mustDo: 'Before placing the customer on hold or transferring the call, the representative must explain why, ask permission and say how long it will take.',
    pass: 'the customer is told the reason and agrees, is thanked for waiting, and gets a warm handover when transferred.',
    fail: 'the customer is put on hold or transferred without explanation or consent, or left waiting without updates.',
  },
  {
    id: 'next-steps',
    patterns: ['next steps?', 'follow[- ]?up', 'action items?', 'what happens next', 'agreed actions?'],
    mustDo: 'The representative must agree clear next steps with the customer: what happens next, who does it and by when.',
    pass: 'at least one specific action with an owner and a date or time frame is stated and confirmed by the customer.',
    fail: 'the call ends without next steps, or they stay vague, such as a promise to be in touch.',
  },
  {
    id: 'closing',
    patterns: [
      'clos(e|es|ing)\\b',
      'clos(e|es|ing) the (sale|deal|order)',
      'ask\\w* for (the )?(sale|order|business|commitment|decision|deal)',
      'commitment',
      'call to action',
      'secur\\w* (the )?(deal|sale|order)',
      'sign\\w* (up|the contract)',
    ],
    mustDo: 'Once the customer’s needs are addressed, the representative must ask directly for a commitment, such as the order, a signature or a decision.',
    pass: 'a clear closing question asking for the commitment is put to the customer.',
    fail: 'the call ends without asking for a commitment, or the representative only hints at it.',
  },
  {
    id: 'farewell',
    patterns: ['goodbye', 'farewell', 'thank', 'call (closing|ending|end|wrap[- ]?up)', '(closes|closing|ends|ending) the call', 'sign[- ]?off', 'wrap[- ]?up'],
    mustDo: 'The representative must end the call politely: thank the customer, check whether anything else is needed and say goodbye.',
    pass: 'the call ends with thanks, an offer of further help and a courteous goodbye.',
    fail: 'the call ends abruptly or without thanks, or the customer is cut off.',
  },
  {
    id: 'summary',
    patterns: ['summar', 'recap', 'read\\w* back', 'confirm\\w* (the )?(details|order|agreement|understanding)'],
    mustDo: 'Before the call ends, the representative must summarise the key points and what was agreed, and ask the customer to confirm the summary.',
    pass: 'a recap of the main points and agreements is given and the customer confirms it is correct.',
    fail: 'there is no recap, it leaves out what was agreed, or it contains mistakes.',
  },
  {
    id: 'scheduling',
    patterns: [
      'schedul',
      'book\\w* (a |the )?(meeting|demo|call|appointment|visit)',
      'appointment',
      'calendar',
      'meeting',
      'set\\w* up (a |the )?(meeting|demo|call)',
    ],
    mustDo: 'The representative must propose a specific follow-up meeting and book it during the call, agreeing on the date, time and who attends.',
    pass: 'a concrete date and time are agreed and the representative confirms an invitation will be sent.',
    fail: 'no meeting is proposed, or it is left open without a date and time.',
  },
  {
    id: 'candidate-motivation',
    patterns: ['motivat', 'why (this|our|the) (company|role|job|position)', 'interest in the (role|job|position)', 'career goals?'],
    mustDo: 'The representative must ask the candidate why they want this role and this company, and explore the answer with at least one follow-up question.',
    pass: "the candidate's motivation is asked about explicitly and explored beyond the first answer.",
    fail: 'motivation is not asked about, or the first answer is accepted without any follow-up.',
  },
  {
    id: 'candidate-experience',
    patterns: ['(work|relevant|professional|previous|past|job|candidate\\w*) experience', '^experience$', 'work history', 'background', 'cv\\b', 'r[eé]sum[eé]', 'previous (role|job|position)s?'],
    mustDo: 'The representative must ask the candidate to describe their relevant work experience, with concrete examples of responsibilities and results.',
    pass: 'the candidate is asked for, and gives, at least one specific example relevant to the role.',
    fail: 'experience is not discussed, or only generic questions are asked and no example is obtained.',
  },
  {
    id: 'salary-expectations',
    patterns: ['salary', 'compensation', 'remunerat', 'pay (expectations|range)', 'wage', 'package\\b'],
    mustDo: 'The representative must ask the candidate for their salary expectations and make sure they are understood precisely: amount, gross or net, and period.',
    pass: 'a concrete figure or range is obtained and confirmed back to the candidate.',
    fail: 'the topic is skipped, or the answer stays vague without a follow-up question.',
  },
  {
    id: 'candidate-availability',
    patterns: ['availab', 'notice period', 'start date', 'relocat', 'when (they|the candidate) can start'],
    mustDo: 'The representative must ask when the candidate could start, including their notice period and any constraints on schedule or location.',
    pass: 'a start date or notice period is obtained and confirmed back to the candidate.',
    fail: 'availability is not asked about, or the answer is left vague.',
  },
  {
    id: 'troubleshooting',
    patterns: ['troubleshoot', 'diagnos', 'root cause', 'technical (issue|problem)s?', 'debug'],
    mustDo: 'The representative must diagnose the problem systematically, asking what happens, since when and what was already tried, then guide the customer through the fix step by step.',
    pass: 'the cause is investigated with relevant questions and clear instructions are given.',
    fail: 'the representative guesses without asking questions, gives unclear steps, or skips basic checks.',
  },
  {
    id: 'resolution-confirmation',
    patterns: [
      'resol',
      'fix(ed|es)?\\b',
      'solved',
      'verif\\w* (the )?(fix|solution|resolution)',
      'confirm\\w* (the )?(issue|problem)',
      'first[- ]call',
      'fcr\\b',
    ],
    mustDo: 'Before ending, the representative must confirm with the customer that the issue is resolved, or clearly explain what remains open and what happens next.',
    pass: 'the customer explicitly confirms the problem is solved, or agrees to the open items and their timeline.',
    fail: 'the call ends without checking that the issue is resolved and without a plan for what is left.',
  },
  {
    id: 'ticket-number',
    patterns: ['ticket', 'case (number|id|reference)', 'reference number', 'tracking number'],
    mustDo: 'The representative must give the customer the ticket or case reference number and explain how to use it for follow-up.',
    pass: 'the reference number is stated clearly, and repeated or spelled out if needed.',
    fail: 'no reference number is given, or it is said too unclearly to note down.',
  },
  {
    id: 'tone',
    patterns: ['tone', 'polite', 'courte', 'professional', 'friendl', 'respect', 'manners', 'attitude', 'rude', 'profan', 'swear'],
    mustDo: 'The representative must keep a polite, calm and professional tone throughout the call, using courteous language.',
    pass: 'the tone stays respectful and friendly from start to finish, including when the customer is difficult.',
    fail: 'the representative is rude, sarcastic or impatient, uses inappropriate language, or raises their voice.',
  },
];

const COMPILED = KINDS.map((kind) => ({
  kind,
  patterns: kind.patterns.map((source) => new RegExp(`(?:^|(?<=\\W))(?:${source})\\w*`, 'gi')),
}));

const GENERIC_PASS = 'the transcript shows the representative doing this explicitly and correctly.';
const GENERIC_FAIL = 'it is missing, only implied, incomplete, or done incorrectly.';

// Words that add nothing to a criterion name beyond the kind it matched.
const FILLER = new Set(
  ('a an and the of to for with on in at by or its their his her our your s ' +
    'call calls customer customers client clients caller callers rep reps representative agent agents ' +
    'proper properly good clear clearly correct correctly effective active skill skills quality ' +
    'handle handles handling ask asks asking use uses using give gives giving make makes making show shows showing ' +
    'do does doing provide provides providing').split(' '),
);

// Verbs a criterion name commonly starts with, in their base form, so "Mentions the warranty"
// becomes "mention the warranty" after "must".
const VERBS = new Set(
  ('accept acknowledge address agree answer apologise apologize ask avoid book build capture check clarify close ' +
    'collect commit compare confirm create demonstrate describe disclose discuss emphasise emphasize end escalate ' +
    'establish explain follow gather get give greet guide handle highlight identify inform introduce invite keep lead ' +
    'listen log maintain make mention note obtain offer open overcome personalise personalize pitch position present ' +
    'probe promise propose provide qualify quote read recap recommend record remind request resolve respond say ' +
    'schedule secure send set share show speak start state suggest summarise summarize take tell thank transfer ' +
    'troubleshoot uncover understand upsell use verify welcome').split(' '),
);

/**
 * A concrete evaluation prompt for a criterion, at most CRITERION_PROMPT_MAX_LENGTH characters of
 * plain text: a must-do sentence, the criterion's own details, then "Pass if …" and "Fail if …".
 */
export function suggestCriterionPrompt(input: CriterionPromptInput): string {
  const name = fitToLength(toPlainText(input.name).replace(/[.!?:;,]+$/, ''), CRITERION_NAME_MAX_LENGTH);
  const description = ownDetails(input.description ?? '', name);
  const kindMatch = bestKind(name, description);

  let mustDo: string;
  let pass: string;
  let fail: string;
  let nameDetail = '';
  if (kindMatch) {
    ({ mustDo, pass, fail } = kindMatch.kind);
    if (addsToKind(name, kindMatch)) nameDetail = sentence(name);
  } else {
    mustDo = genericMustDo(name);
    pass = GENERIC_PASS;
    fail = GENERIC_FAIL;
  }
  const verdict = `Pass if ${pass} Fail if ${fail}`;
  const room = CRITERION_PROMPT_MAX_LENGTH - `${mustDo} Specifically:  ${verdict}`.length;
  const details = fitDetails(nameDetail, description, room);
  const text = details ? `${mustDo} Specifically: ${details} ${verdict}` : `${mustDo} ${verdict}`;
  return fitToLength(text, CRITERION_PROMPT_MAX_LENGTH);
}

/**
 * Text as one plain paragraph: markdown fences, headings, list markers, bold and code marks
 * removed, lines joined into sentences, whitespace collapsed.
 */
export function toPlainText(text: string): string {
  return text
    .replace(/```[\w-]*/g, '\n')
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*(?:[-*+•]|\d+[.)]|#{1,6}|>)\s+/, '').trim())
    .filter((line) => line.length > 0)
    .map((line, index, lines) => (index < lines.length - 1 ? sentence(line) : line))
    .join(' ')
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

interface KindMatch {
  kind: CriterionKind;
  /** Which characters of the name the kind's patterns matched. */
  nameCovered: boolean[];
}

function bestKind(name: string, description: string): KindMatch | undefined {
  let best: { match: KindMatch; score: [number, number] } | undefined;
  for (const { kind, patterns } of COMPILED) {
    const nameCovered = coverage(name, patterns);
    const score: [number, number] = [count(nameCovered), description ? count(coverage(description, patterns)) : 0];
    if (score[0] === 0 && score[1] === 0) continue;
    if (!best || score[0] > best.score[0] || (score[0] === best.score[0] && score[1] > best.score[1])) {
      best = { match: { kind, nameCovered }, score };
    }
  }
  return best?.match;
}

function coverage(text: string, patterns: RegExp[]): boolean[] {
  const covered = new Array<boolean>(text.length).fill(false);
  for (const pattern of patterns) {
    for (const found of text.matchAll(pattern)) covered.fill(true, found.index, found.index + found[0].length);
  }
  return covered;
}

const count = (covered: boolean[]) => covered.filter(Boolean).length;

/**
 * Whether the name says more than the kind it matched: "Handles price objections" does (price),
 * "Salary expectations" does not (the kind's own wording talks about expectations).
 */
function addsToKind(name: string, match: KindMatch): boolean {
  const { mustDo, pass, fail } = match.kind;
  const kindWords = new Set([...`${mustDo} ${pass} ${fail}`.matchAll(WORD)].map(([word]) => stem(word)));
  for (const word of name.matchAll(WORD)) {
    const matched = match.nameCovered.slice(word.index, word.index + word[0].length).some(Boolean);
    if (!matched && !FILLER.has(word[0].toLowerCase()) && !kindWords.has(stem(word[0]))) return true;
  }
  return false;
}

const WORD = /[\p{L}\p{N}'’-]+/gu;
const stem = (word: string) => word.toLowerCase().replace(/(?<=..)s$/, '');

/**
 * The user's own details from the description. When it is an earlier suggestion (the button was
 * pressed twice), only what came before its pass and fail conditions counts, minus the must-do
 * sentence this engine adds, so suggesting again does not nest suggestions.
 */
function ownDetails(raw: string, name: string): string {
  let text = toPlainText(raw);
  const verdict = /\bpass if\b/i.exec(text);
  if (verdict) text = text.slice(0, verdict.index).trim();
  const added = [...KINDS.map((kind) => kind.mustDo), genericMustDo(name)].find((mustDo) => text.startsWith(mustDo));
  if (added) text = text.slice(added.length).trim();
  text = text.replace(/^specifically:\s*/i, '');
  // An earlier suggestion may have repeated the name as its first detail.
  if (text.startsWith(`${sentence(name)} `)) text = text.slice(sentence(name).length).trim();
  const nameLike = (value: string) => value.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  if (nameLike(text) === nameLike(name)) return '';
  return text ? sentence(text) : '';
}

/** The name's detail and the description within `room` characters, quoted phrases first. */
function fitDetails(nameDetail: string, description: string, room: number): string {
  const full = [nameDetail, description].filter(Boolean).join(' ');
  if (full.length <= room) return full;
  let left = room;
  let wording = '';
  // An earlier suggestion's description already starts with its expected wording.
  const quotes = description.startsWith('Expected wording: ') ? [] : quotedPhrases(description).filter((phrase) => !nameDetail.includes(phrase));
  if (quotes.length > 0) {
    wording = fitToLength(`Expected wording: ${quotes.map((phrase) => `"${phrase}"`).join(', ')}.`, left);
    left -= wording.length + 1;
  }
  const named = nameDetail.length + 1 <= left ? nameDetail : '';
  left -= named ? named.length + 1 : 0;
  const described = left >= 40 ? fitToLength(description, left) : '';
  return [named, wording, described].filter(Boolean).join(' ');
}

/** Phrases the description puts in double, typographic or single quotes, in order, once each. */
export function quotedPhrases(text: string): string[] {
  const found = new Set<string>();
  const pattern = /"([^"\n]{2,160})"|“([^”\n]{2,160})”|«([^»\n]{2,160})»|(?<![\p{L}\p{N}])'([^'\n]{2,160})'(?![\p{L}\p{N}])/gu;
  for (const match of text.matchAll(pattern)) {
    const phrase = (match[1] ?? match[2] ?? match[3] ?? match[4] ?? '').trim();
    if (phrase) found.add(phrase);
  }
  return [...found];
}

function genericMustDo(name: string): string {
  return `The representative must clearly ${asAction(name)} during the call.`;
}

/** The name as what the representative does: "Mentions the warranty" → "mention the warranty". */
function asAction(name: string): string {
  const words = name.split(' ').map(lowerCaseWord);
  const verb = baseVerb(words[0] ?? '');
  if (verb) return [verb, ...words.slice(1)].join(' ');
  return `cover ${words.join(' ')}`;
}

// "Warranty" → "warranty", but "CRM", "ProPlan" and "iPhone" keep their capitals.
const lowerCaseWord = (word: string) => (/^\p{Lu}[\p{Ll}'’-]*$/u.test(word) ? word.toLowerCase() : word);

function baseVerb(word: string): string | undefined {
  const lower = word.toLowerCase();
  const candidates = [lower];
  if (lower.endsWith('ies')) candidates.push(`${lower.slice(0, -3)}y`);
  if (lower.endsWith('es')) candidates.push(lower.slice(0, -2));
  if (lower.endsWith('s')) candidates.push(lower.slice(0, -1));
  if (lower.endsWith('ing')) {
    const stem = lower.slice(0, -3);
    candidates.push(stem, `${stem}e`, stem.slice(0, -1));
  }
  return candidates.find((candidate) => VERBS.has(candidate));
}

/** The text ending in sentence punctuation (a closing quote or bracket may follow it). */
function sentence(text: string): string {
  const trimmed = text.trim().replace(/[,;:\-–—]+$/, '');
  return /[.!?…]["'”’)]?$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
