/**
 * The evaluation engine for any OpenAI-compatible chat model with JSON-schema output
 * ("openai:<model>"). It judges the transcript against the team's criteria and success prompt,
 * and summarises it, in one request when the transcript fits the model's context window
 * (settings.contextTokens), and otherwise in parts:
 *
 * 1. map: the transcript is split into parts that fit (never cut: every segment goes in exactly
 *    one part, and a segment too long for any part is split inside, keeping its index); each
 *    part is judged for what it shows per criterion (met, violated, mixed, not observed, with
 *    quotes and a reason) and summarised;
 * 2. reduce: one request with the parts' findings, not the transcript, decides the verdicts,
 *    success and summary. When the findings of all parts do not fit one request, neighbouring
 *    parts' findings are first merged into the findings of longer stretches, as often as needed.
 *
 * A model is the better judge of how a part's finding weighs in the whole ("greets at the
 * start" is met by the first part alone; "never interrupts" fails on one part), so the reduce
 * step asks it rather than merging by rule.
 *
 * An answer that is not usable (cut off, not JSON, off the schema, a criterion missing, repeated
 * or unknown) is asked for once more, saying what was wrong; a refusal is not (asking again
 * rarely changes it). What the model quotes is held to the transcript (quoted-evidence.ts).
 *
 * This engine does not fall back: it rejects with a ChatEvaluationError, and
 * create-evaluation-engine.ts has the offline engine judge instead.
 */
import type { EvaluationModelSettings } from '../../config.js';
import type { ChatReply } from '../../model-server/chat-protocol.js';
import { teamCriteria, type EvaluationEngine, type EvaluationInput, type Judgement, type TeamCriterion } from '../evaluation-engine.js';
import { ChatEvaluationError } from './chat-evaluation-error.js';
import { createChatCompletionsClient, DEFAULT_RETRY_POLICY, type ChatMessage, type RetryPolicy, type TokenMeter } from './chat-completions-client.js';
import { evaluationAnswerFormat, findingsAnswerFormat, judgedParts, partFindings, type AnswerFormat } from './evaluation-answers.js';
import {
  combineMessages,
  evaluationAnswerTokens,
  evaluationMessages,
  findingsAnswerTokens,
  mergeMessages,
  partMessages,
  renderFindings,
  stretchOf,
  withCorrection,
  type EvaluationAnswer,
  type FindingsAnswer,
  type PartFindings,
} from './evaluation-requests.js';
import type { QuoteTally } from './quoted-evidence.js';
import { estimateRequestTokens } from './token-estimate.js';
import { splitIntoParts, transcriptLines, type TranscriptLine } from './transcript-parts.js';

/** Our token estimate can be off by a few percent either way; a tenth of the context stays unplanned. */
const CONTEXT_SHARE_PLANNED = 0.9;

/** A part smaller than this holds too little of a conversation to judge anything in it. */
const MIN_PART_TOKENS = 400;

// Room for the digits in "part 12 of 13: segments 1200 to 1399 of 2600", which the fixed share of a part's request is measured without.
const PART_NUMBERS_TOKENS = 24;

export interface ChatEvaluationEngineOptions {
  retry?: RetryPolicy;
}

export interface ChatEvaluationEngine extends EvaluationEngine {
  /** The most a request may take of the context: its estimated prompt plus the room kept for the answer. */
  readonly requestTokenLimit: number;
}

export function createChatEvaluationEngine(settings: EvaluationModelSettings, options: ChatEvaluationEngineOptions = {}): ChatEvaluationEngine {
  const client = createChatCompletionsClient(settings, options.retry ?? DEFAULT_RETRY_POLICY);
  const name = `openai:${settings.model}`;
  const limit = Math.floor(settings.contextTokens * CONTEXT_SHARE_PLANNED);
  const contextWindow = `the model's context window of ${settings.contextTokens.toLocaleString('en-US')} tokens`;

  async function judge(input: EvaluationInput, signal: AbortSignal): Promise<Judgement> {
    const criteria = teamCriteria(input.team);
    const evaluationFormat = evaluationAnswerFormat(criteria);
    const findingsFormat = findingsAnswerFormat(criteria);
    const meter: TokenMeter = { reported: 0, estimated: 0 };
    const tally: QuoteTally = { dropped: 0 };
    const warnings: string[] = [];
    const hasSuccessPrompt = input.team.successPrompt.trim() !== '';

    /**
     * One request, asked again once when the answer is unusable. `what` names the request in
     * failures ("judging part 2 of 5"); empty for the single evaluation.
     */
    async function ask<T>(messages: ChatMessage[], format: AnswerFormat<T>, what: string): Promise<T> {
      const during = what ? ` while ${what}` : '';
      let problem: string | undefined;
      for (let round = 1; round <= 2; round += 1) {
        let reply: ChatReply;
        try {
          reply = await client.complete({ messages: problem ? withCorrection(messages, problem) : messages, schemaName: format.schemaName, schema: format.schema }, signal, meter);
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          if (!(error instanceof ChatEvaluationError)) throw error;
          if (error.failure === 'malformed' && round === 1) {
            problem = 'the answer was not a chat completion';
            continue;
          }
          throw new ChatEvaluationError(error.failure, `${error.message}${during}`, error.status);
        }
        // The refusal's own words stay out: they may repeat the transcript.
        if (reply.refusal !== null) throw new ChatEvaluationError('refused', `the model ${settings.model} refused to evaluate the transcript${during}`);
        const checked = format.read(reply);
        if (checked.ok) return checked.value;
        problem = checked.problem;
      }
      throw new ChatEvaluationError('malformed', `${client.server} answered twice without a usable evaluation${during}: ${problem}`);
    }

    async function judgeInParts(parts: TranscriptLine[][]): Promise<EvaluationAnswer> {
      const findings: PartFindings[] = [];
      for (const [index, lines] of parts.entries()) {
        const position = { number: index + 1, of: parts.length, lines };
        const place = { firstPart: index + 1, lastPart: index + 1, partCount: parts.length, firstSegment: lines[0]!.segmentIndex, lastSegment: lines.at(-1)!.segmentIndex };
        const answer = await ask(partMessages(input, criteria, position), findingsFormat, `judging ${stretchOf(place)}`);
        findings.push(partFindings(answer, input, place, tally));
      }
      return combine(findings, parts.length);
    }

    async function combine(findings: PartFindings[], partCount: number): Promise<EvaluationAnswer> {
      let stretches = findings;
      for (;;) {
        const rendered = stretches.map((each) => renderFindings(each, criteria, hasSuccessPrompt));
        const messages = combineMessages(input, criteria, rendered, partCount);
        if (estimateRequestTokens(messages, evaluationFormat.schema) + evaluationAnswerTokens(criteria) <= limit) {
          return ask(messages, evaluationFormat, "combining the parts' findings");
        }
        // Too many findings for one request: merge neighbours into longer stretches first.
        const groups = mergeGroups(stretches, rendered);
        if (groups.every((group) => group.length === 1)) {
          throw new ChatEvaluationError('too-large', `the findings of the transcript's ${partCount} parts, for ${criteria.length} criteria, do not fit ${contextWindow} to be combined`);
        }
        const merged: PartFindings[] = [];
        for (const group of groups) merged.push(group.length === 1 ? group[0]! : await merge(group));
        stretches = merged;
      }
    }

    /** Consecutive findings whose merge request fits, greedily. */
    function mergeGroups(stretches: PartFindings[], rendered: string[]): PartFindings[][] {
      const fits = (from: number, to: number) =>
        estimateRequestTokens(mergeMessages(input, criteria, rendered.slice(from, to + 1), stretchOf(span(stretches.slice(from, to + 1)))), findingsFormat.schema) +
          findingsAnswerTokens(criteria) <=
        limit;
      const groups: PartFindings[][] = [];
      let start = 0;
      while (start < stretches.length) {
        let end = start;
        while (end + 1 < stretches.length && fits(start, end + 1)) end += 1;
        groups.push(stretches.slice(start, end + 1));
        start = end + 1;
      }
      return groups;
    }

    async function merge(group: PartFindings[]): Promise<PartFindings> {
      const place = span(group);
      const rendered = group.map((each) => renderFindings(each, criteria, hasSuccessPrompt));
      const answer = await ask(mergeMessages(input, criteria, rendered, stretchOf(place)), findingsFormat, `combining the findings of ${stretchOf(place)}`);
      return partFindings(answer, input, place, tally);
    }

    try {
      const plan = planRequests(input, criteria, evaluationFormat, findingsFormat);
      let answer: EvaluationAnswer;
      if (plan.whole) {
        answer = await ask(evaluationMessages(input, criteria, plan.whole), evaluationFormat, '');
      } else {
        warnings.push(`The transcript was judged in ${plan.parts.length} parts, because it is longer than ${contextWindow} holds in one request; the verdicts combine what each part showed.`);
        const piecewise = [...new Set(plan.parts.flat().filter((line) => line.piece).map((line) => line.segmentIndex))];
        if (piecewise.length > 0) {
          warnings.push(`${piecewise.length === 1 ? 'Segment' : 'Segments'} ${listed(piecewise.map(String))} ${piecewise.length === 1 ? 'was' : 'were'} too long for one request and ${piecewise.length === 1 ? 'was' : 'were'} judged in pieces.`);
        }
        answer = await judgeInParts(plan.parts);
      }
      const judged = judgedParts(answer, input, criteria, tally);
      if (tally.dropped > 0) {
        warnings.push(`${tally.dropped} ${tally.dropped === 1 ? 'quote the model cited was' : 'quotes the model cited were'} not found in the transcript and ${tally.dropped === 1 ? 'was' : 'were'} left out.`);
      }
      if (hasSuccessPrompt && judged.success.isSuccessful === undefined) warnings.push('The model could not tell from the transcript whether the conversation met the success prompt.');
      return { ...judged, engine: name, fallbackReason: '', insightTokens: meter.reported + meter.estimated, warnings };
    } catch (error) {
      if (error instanceof ChatEvaluationError) error.tokensSpent = meter.reported + meter.estimated;
      throw error;
    }
  }

  /** The transcript's lines: whole when they fit one evaluation request, else in the parts they are judged in. */
  function planRequests(
    input: EvaluationInput,
    criteria: TeamCriterion[],
    evaluationFormat: AnswerFormat<EvaluationAnswer>,
    findingsFormat: AnswerFormat<FindingsAnswer>,
  ): { whole: TranscriptLine[]; parts?: never } | { whole?: never; parts: TranscriptLine[][] } {
    const whole = transcriptLines(input.transcript, Number.POSITIVE_INFINITY);
    const wholeTokens = whole.reduce((sum, line) => sum + line.tokens, 0);
    const evaluationFixed = estimateRequestTokens(evaluationMessages(input, criteria, []), evaluationFormat.schema) + evaluationAnswerTokens(criteria);
    if (evaluationFixed + wholeTokens <= limit) return { whole };

    const partFixed =
      estimateRequestTokens(partMessages(input, criteria, { number: 1, of: 1, lines: [] }), findingsFormat.schema) + findingsAnswerTokens(criteria) + PART_NUMBERS_TOKENS;
    const budget = limit - partFixed;
    if (budget < MIN_PART_TOKENS) {
      throw new ChatEvaluationError(
        'too-large',
        `the team's ${criteria.length} criteria and the answer they need leave too little of ${contextWindow} for the transcript (SCORING_LLM_CONTEXT_TOKENS)`,
      );
    }
    const parts = splitIntoParts(transcriptLines(input.transcript, budget), budget);
    if (parts.length > 1) return { parts };
    // Too long for an evaluation but short enough for one part (a part's answer is smaller):
    // two halves then, since one part and a combining step would judge it with less context.
    const half = Math.max(MIN_PART_TOKENS, Math.ceil(wholeTokens / 2));
    return { parts: splitIntoParts(transcriptLines(input.transcript, half), half) };
  }

  return { name, requestTokenLimit: limit, judge };
}

/** The place of consecutive findings taken together. */
function span(group: PartFindings[]): Pick<PartFindings, 'firstPart' | 'lastPart' | 'partCount' | 'firstSegment' | 'lastSegment'> {
  const first = group[0]!;
  const last = group.at(-1)!;
  return { firstPart: first.firstPart, lastPart: last.lastPart, partCount: first.partCount, firstSegment: first.firstSegment, lastSegment: last.lastSegment };
}

/** "3", "3 and 7", "3, 7 and 9". */
function listed(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
