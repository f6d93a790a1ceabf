/**
 * Whether the activity succeeded, judged from the team's success prompt ("The customer agrees to a
 * follow-up demo", "The candidate accepts the offer"): the latest decision the named side (the contact,
 * unless the prompt names the representative) took on what the prompt is about.
 *
 * A decision is a sentence of that side that mentions the subject of the prompt, or answers the
 * other side's question about it, and says yes ("I'll take two seats", "Sure, let's book it") or no ("I
 * can't do that", "Not interested"). The representative confirming an agreement ("Thank you for
 * your order", "You're all set for Tuesday") counts as a yes. People change their minds, so the
 * last decision wins; with none, the activity did not succeed. No prompt: not judged (N/A).
 */
import type { Evidence } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { SuccessJudgement } from '../engines/evaluation-engine.js';
import { lowerFirst } from '../language/prose.js';
import type { Sentence, Token } from '../language/text-analysis.js';
import { MATCH_STRENGTH } from '../language/term-match.js';
import { evidenceOf, type Conversation, type Side, type Turn } from './conversation.js';
import { readRequirement } from './requirement.js';

const AGREEING =
  /\b(?:yes|yeah|yep|(?<!make |not |for )sure|ok(?:ay)?|absolutely|definitely|certainly|of course|why not|sounds? (?:good|great|fine)|deal|agreed?|happy to|glad to|go ahead|count me in|sign me up|let(?:'?s| us) (?!say\b|see\b|think\b|imagine\b|suppose\b|assume\b|not\b)[a-z]+|(?:i|we)(?:'ll| will) take|i(?:'ll| will| would|'d| can| want to| am going to|'m going to) (?!not\b|never\b|like to (?:know|ask|see|hear|understand|learn)\b|want to (?:know|ask|see|hear|understand|learn|make sure)\b)|will do|i do[.!]?$|i'm in|that works|(?:works|suits?|is (?:perfect|fine|great|good)) for (?:me|us)\b|\bworks(?: (?:fine|great|well|perfectly))?[.!]*$|see you (?:then|there|on)\b|send (?:me|us|over) the (?:invite|invitation|link|details|contract|paperwork)|book it|lock it in|pencil (?:me|us|it) in|(?:i am|i'm) willing|put me down|(?:don'?t|do not|wouldn'?t|would not) mind|(?:i|we)(?: will| 'll|'ll)? accept(?:ed)?\b|accepted)/i;
// An amount offered: "$1", "50 cents", "two dollars".
const AMOUNT = /(?:\$\s?\d|\b\d+(?:\.\d+)?\s?(?:cents?|dollars?|usd|bucks|pounds?|euros?)\b|\b(?:one|two|three|four|five|ten|twenty|fifty) (?:cents?|dollars?|bucks)\b)/i;
const DECLINING =
  /\b(?:no|nope|probably not|not really|i don'?t think so|not for me|dont|cant|wont|not (?:interested|now|today|really|sure|at this time)|no thanks?|can't|cannot|won't|will not|don't|do not|wouldn't|would not|shouldn't|am not|i'm not|not going to|never|maybe (?:later|next time)|(?:think|thinking) about it|pass on|decline|rather not|no way)\b/i;
// Not a decision either way: "Maybe I'll consider upgrading", "I might".
// Nor is what someone usually does: "I normally order around $75 a month".
const HEDGING = /\b(?:maybe|perhaps|possibly|might|consider(?:ing)?|not sure|if|as long as|depends|unless|some ?day|in the future|future|normally|usually|often|generally|typically|always|don'?t know|do not know)\b/i;
// Verbs that are the decision itself, not its subject: "agrees to upgrade" is about upgrading.
const DECISION_VERBS = new Set(['agree', 'accept', 'decide', 'commit', 'consent', 'say', 'end', 'result', 'make', 'successful', 'succeed']);
const CONFIRMING =
  /\b(?:thank(?:s| you) (?:so much |very much )?for (?:your|the|agreeing)|you(?:'re| are) all set|(?:is|are|has been|have been) (?:confirmed|booked|scheduled|processed|placed|approved|signed)|i(?:'ve| have) (?:booked|scheduled|confirmed|sent|placed|processed|set up)|(?:glad|great|happy) (?:that )?you(?:'re| are| have|'ve)? (?:agreed|decided|joining|on board))/i;

/**
 * A question that asks for the decision ("Would you like to upgrade?", "How many seats can you take?"),
 * not one about the subject ("Have you used the premium plan before?"), whose "no" declines nothing.
 */
const ASKING_FOR_DECISION = /\b(?:would|will|could|can|are|do|shall) you\b[^?]*\b(?:like|want|willing|interested|able|consider|be|agree|go|do|sign|book|buy|give|join|try|take|accept)\b|\bhow much\b|\bwhat amount\b|\bshall we\b|\bready to\b/i;

/**
 * The representative telling the contact the outcome has happened to them: "you are moved to the
 * next round", "your refund has been processed", "you'll be booked in for Tuesday". Only what is so
 * or will be, never what could be ("you can upgrade online").
 */
const STATED_TO_CONTACT = /\byou(?:'re| are|'ve been| have been|'ll be| will be| were| got)\b|\byour\b[^.?!]*?\b(?:is|are|was|were|has been|have been|will be)\b/i;
/** Things held at a time: when the prompt is about one, a day or a time proposed or accepted is about it. */
const HELD_AT_A_TIME = /\b(?:meeting|call|demo|demonstration|interview|appointment|call-?back|session|visit|consultation|walk-?through|round|follow-?up|onboarding|training|workshop|viewing|tour|presentation)s?\b/i;

/** A time or a day to meet ("at 10", "Tuesday", "tomorrow"), not any date: a date of birth is no appointment. */
const APPOINTMENT_DAYS = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'today', 'tomorrow', 'tonight', 'weekend']);
const isAppointmentTime = (token: Token) => token.kind === 'time' || (token.kind === 'date' && APPOINTMENT_DAYS.has(token.normal));

/** Nothing offered: "$0", "zero dollars", "I'm putting in nothing", "nothing this time". */
const ZERO_AMOUNT =
  /(?:\$\s?0(?:\.0+)?(?!\.?\d)|\b(?:0|zero) (?:cents|dollars|euros|pounds)\b|\b(?:give|pay|spend|put in|offer|commit|choose|pick) (?:\$\s?)?0\b(?!\.\d)|\b(?:\w+ing|give|pay|spend|offer|contribute|commit|put in) nothing\b|\bnothing (?:today|now|this time|at all)\b)/i;

/** "is resolved", "gets booked", "was closed": the outcome a success prompt describes. */
const OUTCOME_PREDICATE = /\b(?:is|are|was|were|gets?|got|been|be)\s+(?:fully\s+|successfully\s+)?(\w+ed)\b/gi;
const SUCCESS_IS =
  /^(?:an? |the )?(?:call|meeting|conversation|activity|interview|chat|deal)(?: is| counts as| will be| was)? (?:considered |deemed |only )?(?:successful|a success|won|a win)(?: only)?(?: if| when| once| where)?[\s,:]*/i;

/** How closely a word must meet the prompt's subject: the word itself or a relative, not a synonym. */
const SUBJECT_MATCH = MATCH_STRENGTH.data;

export function judgeSuccess(successPrompt: string, conversation: Conversation): SuccessJudgement {
  const prompt = successPrompt.trim();
  if (!prompt) return { isSuccessful: undefined, reason: '', confidence: 0, evidence: [] };
  // "The call is successful when the prospect agrees to …" says what success is: "the prospect agrees to …".
  const definition = prompt.replace(SUCCESS_IS, '');
  const requirement = readRequirement({ groupId: '', groupName: '', criterionId: 'success', name: 'Success', prompt: definition, weight: 0 }, 'contact');
  const side: Side = requirement.actor;
  const other: Side = side === 'contact' ? 'representative' : 'contact';
  // The subject: what is to come about ("the problem is resolved": resolved), or else the prompt's
  // most specific words, not the verb of deciding.
  const outcomes = [...definition.matchAll(OUTCOME_PREDICATE)].map((match) => match[1]!.toLowerCase());
  const predicated = requirement.terms.filter((term) => outcomes.includes(term.text) && !term.lemmas.some((lemma) => DECISION_VERBS.has(lemma)));
  const candidates = predicated.length > 0 ? predicated : requirement.terms.filter((term) => !term.lemmas.some((lemma) => DECISION_VERBS.has(lemma)));
  const heaviest = Math.max(0, ...candidates.map((term) => term.weight));
  const terms = candidates.filter((term) => term.weight >= heaviest / 2);

  // The sentences that name the subject: the prompt's own words, not loose synonyms ("upgrade" is
  // the subject, "change" may not be).
  const onSubjectSentences = new Set<Sentence>();
  for (const term of terms) for (const hit of conversation.index.find(term)) if (hit.strength >= SUBJECT_MATCH) onSubjectSentences.add(hit.place.sentence);
  // "Agrees to a follow-up meeting": "How about Tuesday at 10?" proposes one, "Tuesday at 10 works" accepts it.
  if (HELD_AT_A_TIME.test(definition)) {
    for (const turn of conversation.turns) for (const sentence of turn.sentences) if (sentence.tokens.some(isAppointmentTime)) onSubjectSentences.add(sentence);
  }

  type Decision = { yes: boolean; turn: Turn; sentence: Sentence; how: 'decided' | 'answered' | 'confirmed' | 'stated' };
  // The outcome itself, not only a word of it: every word of what is to come about ("moved"), or
  // most of the subject's words ("next", "round").
  const subjectStated = (spoken: string) => {
    const said = terms.filter((term) => new RegExp(`\\b${escapeRegExp(term.text)}`, 'i').test(spoken) || term.lemmas.some((lemma) => new RegExp(`\\b${escapeRegExp(lemma)}`, 'i').test(spoken)));
    return predicated.length > 0 ? predicated.every((term) => said.includes(term)) : said.length * 2 >= terms.length;
  };
  const decisions: Decision[] = [];
  let openQuestion = false; // the other side just asked for the decision
  for (const turn of conversation.turns) {
    const decider = turn.side === side || !conversation.hasRepresentative;
    for (const sentence of turn.sentences) {
      const onSubject = onSubjectSentences.has(sentence);
      if (!onSubject && !openQuestion) continue;
      const spoken = turn.text.slice(sentence.start, sentence.end);
      if (decider) {
        if ((onSubject || openQuestion) && !sentence.question && !HEDGING.test(spoken)) {
          const zero = ZERO_AMOUNT.test(spoken);
          // "I can't take any more": an earlier yes stands.
          const onlyMore = /\b(?:more|another|again|extra|additional)\b/i.test(spoken) && decisions.some((decision) => decision.yes);
          const declined = zero || (DECLINING.test(spoken) && !onlyMore && !/\b(?:no problem|no worries|not a problem|why not|(?:don'?t|do not|wouldn'?t|would not) mind)\b/i.test(spoken));
          const agreed = AGREEING.test(spoken) && !onlyMore;
          // "I'd love to but I can't": the refusal is the decision.
          if (declined) decisions.push({ yes: false, turn, sentence, how: onSubject ? 'decided' : 'answered' });
          else if (agreed || AMOUNT.test(spoken)) decisions.push({ yes: true, turn, sentence, how: onSubject ? 'decided' : 'answered' });
        }
      } else if (turn.side === other && onSubject) {
        if (CONFIRMING.test(spoken)) decisions.push({ yes: true, turn, sentence, how: 'confirmed' });
        else if (!sentence.question && !HEDGING.test(spoken) && STATED_TO_CONTACT.test(spoken) && subjectStated(spoken)) {
          decisions.push({ yes: !/\b(?:not|never|no longer)\b|n['’]t\b/i.test(spoken), turn, sentence, how: 'stated' });
        }
      }
    }
    if (turn.side === other) {
      openQuestion = turn.sentences.some((sentence) => sentence.question && onSubjectSentences.has(sentence) && ASKING_FOR_DECISION.test(turn.text.slice(sentence.start, sentence.end)));
    }
    else if (turn.sentences.length > 0) openQuestion = false;
  }

  const last = decisions[decisions.length - 1];
  const subject = requirement.clause || prompt;
  if (!last) {
    const decider = conversation.hasRepresentative ? conversation.speakers.find((speaker) => (side === 'representative') === (speaker.role === SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE))?.label : undefined;
    if (outcomes.length > 0) return { isSuccessful: false, reason: `Nothing said shows that ${lowerFirst(definition.replace(/[.\s]+$/, ''))}.`, confidence: 0.55, evidence: [] };
    const what = subject.replace(/^(?:agrees?|agreed|consents?|commits?|decides?) to\s+/i, '');
    return { isSuccessful: false, reason: `No agreement found: ${decider ?? `the ${side}`} did not agree to ${what}.`, confidence: 0.55, evidence: [] };
  }
  const agreeing = decisions.filter((decision) => decision.yes).length;
  const consistency = agreeing / decisions.length;
  const evidence: Evidence[] = [evidenceOf(last.turn, last.sentence)];
  const quote = evidence[0]!.quote;
  const confidence = Math.round(Math.min(0.95, 0.6 + 0.35 * (last.yes ? consistency : 1 - consistency)) * 100) / 100;
  if (!last.yes) return { isSuccessful: false, reason: `${last.turn.speaker} ${last.how === 'stated' ? 'said it did not happen' : 'declined'}: "${quote}".`, confidence, evidence };
  const verb = last.how === 'confirmed' ? 'confirmed the agreement' : last.how === 'stated' ? 'said so' : 'agreed';
  return { isSuccessful: true, reason: `${last.turn.speaker} ${verb}: "${quote}".`, confidence, evidence };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
