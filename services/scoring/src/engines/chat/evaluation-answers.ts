/**
 * Reads the model's answers. An answer that is cut off, not JSON, off the schema, or that misses,
 * repeats or invents a criterion is rejected with a problem that names paths and ids only (it is
 * logged and sent back to the model; no content of the answer or the transcript goes in it). An
 * accepted answer becomes verdicts in the team's order with the team's names and weights, and
 * its quotes are held to the transcript (quoted-evidence.ts).
 */
import Value from 'typebox/value';
import type { Summary } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { verdictIdentity, type EvaluationInput, type JudgedVerdict, type SuccessJudgement, type TeamCriterion } from '../evaluation-engine.js';
import type { ChatReply } from '../../model-server/chat-protocol.js';
import {
  criterionKey,
  type EvaluationAnswer,
  type FindingsAnswer,
  type ObservationStatus,
  type PartFindings,
  type SuccessLeaning,
  evaluationSchema,
  EVALUATION_SCHEMA_NAME,
  findingsSchema,
  FINDINGS_SCHEMA_NAME,
  oneLine,
} from './evaluation-requests.js';
import { evidenceOf, locateQuotes, type QuoteTally } from './quoted-evidence.js';

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

const SCHEMA_ERRORS_SHOWN = 3;

/** The reply's JSON when it matches the schema; else what is wrong with it. */
function parseReply<T>(reply: ChatReply, schema: object): Checked<T> {
  if (reply.finishReason === 'length') return { ok: false, problem: "the answer was cut off at the model's output limit (finish_reason length)" };
  const content = reply.content?.trim() ?? '';
  if (content === '') return { ok: false, problem: `the answer was empty${reply.finishReason ? ` (finish_reason ${reply.finishReason})` : ''}` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripFence(content));
  } catch {
    return { ok: false, problem: 'the answer was not JSON' };
  }
  if (!Value.Check(schema, parsed)) {
    // Value.Errors also reports each anyOf branch; the deepest paths say the most.
    const errors = [...Value.Errors(schema, parsed)].map((error) => `${error.instancePath || '/'} ${error.message}`);
    return { ok: false, problem: `the answer did not match the JSON schema (${[...new Set(errors)].slice(0, SCHEMA_ERRORS_SHOWN).join('; ')})` };
  }
  return { ok: true, value: parsed as T };
}

/** Servers without structured outputs sometimes wrap JSON in a markdown fence. */
function stripFence(content: string): string {
  return /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(content)?.[1] ?? content;
}

/** Exactly one item for each of the team's criteria, and none for anything else. */
function coverageProblem(items: Array<{ groupId: string; criterionId: string }>, criteria: TeamCriterion[], what: string): string | undefined {
  const known = new Set(criteria.map((criterion) => criterionKey(criterion.groupId, criterion.criterionId)));
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const item of items) {
    const key = criterionKey(item.groupId, item.criterionId);
    if (!known.has(key)) problems.push(`${what} for unknown criterion ${JSON.stringify(item.criterionId)} of group ${JSON.stringify(item.groupId)}`);
    else if (seen.has(key)) problems.push(`more than one ${what} for criterion ${JSON.stringify(item.criterionId)}`);
    seen.add(key);
  }
  for (const criterion of criteria) {
    if (!seen.has(criterionKey(criterion.groupId, criterion.criterionId))) problems.push(`no ${what} for criterion ${JSON.stringify(criterion.criterionId)}`);
  }
  return problems.length > 0 ? `the answer had ${problems.slice(0, SCHEMA_ERRORS_SHOWN).join(', ')}${problems.length > SCHEMA_ERRORS_SHOWN ? ` and ${problems.length - SCHEMA_ERRORS_SHOWN} more problems` : ''}` : undefined;
}

/** The response format a request asks for (its name and schema), and how its reply is read. */
export interface AnswerFormat<T> {
  schemaName: string;
  schema: object;
  read: (reply: ChatReply) => Checked<T>;
}

/** An evaluation of the team's criteria: build it once per judgement, as its schema lists them all. */
export function evaluationAnswerFormat(criteria: TeamCriterion[]): AnswerFormat<EvaluationAnswer> {
  const schema = evaluationSchema(criteria);
  return {
    schemaName: EVALUATION_SCHEMA_NAME,
    schema,
    read(reply) {
      const parsed = parseReply<EvaluationAnswer>(reply, schema);
      if (!parsed.ok) return parsed;
      const problem = coverageProblem(parsed.value.verdicts, criteria, 'verdict');
      return problem ? { ok: false, problem } : parsed;
    },
  };
}

/** The findings of a part, or of a stretch of parts, for the team's criteria: build it once per judgement too. */
export function findingsAnswerFormat(criteria: TeamCriterion[]): AnswerFormat<FindingsAnswer> {
  const schema = findingsSchema(criteria);
  return {
    schemaName: FINDINGS_SCHEMA_NAME,
    schema,
    read(reply) {
      const parsed = parseReply<FindingsAnswer>(reply, schema);
      if (!parsed.ok) return parsed;
      const problem = coverageProblem(parsed.value.observations, criteria, 'observation');
      return problem ? { ok: false, problem } : parsed;
    },
  };
}

const confidenceOf = (value: number) => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0);
/**
 * What a verdict's stated confidence is worth when its quotes do not hold: the model cited words
 * that are not in the transcript, or passed a criterion citing nothing that was said. Below any
 * review threshold a team can choose (50% and up), so a person always decides.
 */
export const UNVERIFIED_CONFIDENCE = 0.45;
const textList = (items: string[]) => items.map(oneLine).filter(Boolean);

interface JudgedParts {
  verdicts: JudgedVerdict[];
  success: SuccessJudgement;
  summary: Summary;
}

/** The accepted evaluation as verdicts in the team's order, success and summary. */
export function judgedParts(answer: EvaluationAnswer, input: EvaluationInput, criteria: TeamCriterion[], tally: QuoteTally): JudgedParts {
  const { transcript } = input;
  const byKey = new Map(answer.verdicts.map((verdict) => [criterionKey(verdict.groupId, verdict.criterionId), verdict]));
  const verdicts = criteria.map((criterion): JudgedVerdict => {
    const verdict = byKey.get(criterionKey(criterion.groupId, criterion.criterionId))!;
    // An inapplicable criterion counts as passed (evaluation.proto), whatever the model wrote.
    const passed = verdict.passed || !verdict.applicable;
    const located = locateQuotes(transcript, verdict.evidence, tally);
    const unverified = located.length < verdict.evidence.length || (passed && verdict.applicable && located.length === 0);
    const stated = confidenceOf(verdict.confidence);
    return {
      ...verdictIdentity(criterion),
      passed,
      applicable: verdict.applicable,
      confidence: unverified ? Math.min(stated, UNVERIFIED_CONFIDENCE) : stated,
      reason: oneLine(verdict.reason),
      expected: passed ? '' : oneLine(verdict.expected),
      suggestion: passed ? '' : oneLine(verdict.suggestion),
      evidence: evidenceOf(transcript, located),
    };
  });

  const judgesSuccess = input.team.successPrompt.trim() !== '';
  const success: SuccessJudgement =
    judgesSuccess && answer.success.isSuccessful !== null
      ? {
          isSuccessful: answer.success.isSuccessful,
          reason: oneLine(answer.success.reason),
          confidence: confidenceOf(answer.success.confidence),
          evidence: evidenceOf(transcript, locateQuotes(transcript, answer.success.evidence, tally)),
        }
      : // No success prompt: not judged, whatever the model said. A prompt the model could not decide: N/A with its reason.
        { isSuccessful: undefined, reason: judgesSuccess ? oneLine(answer.success.reason) : '', confidence: 0, evidence: [] };

  const summary: Summary = {
    text: oneLine(answer.summary.text),
    participants: textList(answer.summary.participants),
    discussion: oneLine(answer.summary.discussion),
    outcome: oneLine(answer.summary.outcome),
    nextSteps: textList(answer.summary.nextSteps),
  };
  return { verdicts, success, summary };
}

/** The accepted findings of a part (or a stretch of parts), quotes located in the transcript. */
export function partFindings(
  answer: FindingsAnswer,
  input: EvaluationInput,
  place: Pick<PartFindings, 'firstPart' | 'lastPart' | 'partCount' | 'firstSegment' | 'lastSegment'>,
  tally: QuoteTally,
): PartFindings {
  const { transcript } = input;
  const observations: PartFindings['observations'] = new Map();
  for (const observation of answer.observations) {
    observations.set(criterionKey(observation.groupId, observation.criterionId), {
      // The schema's enum holds the status to one of these; the inferred type is only string.
      status: observation.status as ObservationStatus,
      reason: oneLine(observation.reason),
      evidence: locateQuotes(transcript, observation.evidence, tally),
    });
  }
  return {
    ...place,
    observations,
    success: {
      leaning: answer.success.leaning as SuccessLeaning,
      reason: oneLine(answer.success.reason),
      evidence: locateQuotes(transcript, answer.success.evidence, tally),
    },
    summary: {
      participants: textList(answer.summary.participants),
      discussion: oneLine(answer.summary.discussion),
      outcome: oneLine(answer.summary.outcome),
      nextSteps: textList(answer.summary.nextSteps),
    },
  };
}
