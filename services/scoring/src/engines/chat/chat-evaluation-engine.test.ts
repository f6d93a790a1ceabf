/**
 * The chat evaluation engine against a real HTTP server speaking the OpenAI Chat Completions API
 * (test/support/fake-openai.ts, because these machines cannot reach a real one), whose answers
 * are computed from each request by services/scoring/test/support/fake-evaluation-model.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import { longSegments, sampleInput, SAMPLE_SEGMENTS } from '../../../test/support/evaluation-input.js';
import { answerEvaluationRequest, readRequest, type EvaluationModelScript } from '../../../test/support/fake-evaluation-model.js';
import { jsonSchemaOf, startFakeOpenAI, type ChatCompletionRequest, type FakeOpenAI, type ScriptedAnswer } from '../../../../../test/support/fake-openai.js';
import type { EvaluationModelSettings } from '../../config.js';
import { teamCriteria, type EvaluationInput } from '../evaluation-engine.js';
import { ChatEvaluationError } from './chat-evaluation-error.js';
import { createChatEvaluationEngine } from './chat-evaluation-engine.js';
import { UNVERIFIED_CONFIDENCE } from './evaluation-answers.js';
import { EVALUATION_SYSTEM_PROMPT, evaluationAnswerTokens, findingsAnswerTokens, PART_SYSTEM_PROMPT } from './evaluation-requests.js';
import { estimateRequestTokens } from './token-estimate.js';

const API_KEY = 'sk-engine-test-0123456789abcdef';
const FAST = { initialDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2_000 };
const USAGE = (total: number) => ({ prompt_tokens: total - 10, completion_tokens: 10, total_tokens: total });
let fake: FakeOpenAI | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function engineFor(answer: (request: ChatCompletionRequest, index: number) => ScriptedAnswer | undefined, settings: Partial<EvaluationModelSettings> = {}) {
  fake = await startFakeOpenAI({ apiKey: API_KEY, answer });
  return createChatEvaluationEngine(
    { baseUrl: fake.baseUrl, model: 'gpt-test', apiKey: API_KEY, timeoutMs: 5_000, maxAttempts: 3, contextTokens: 16_384, ...settings },
    { retry: FAST },
  );
}

const modelAnswering =
  (script: EvaluationModelScript = {}, usage = USAGE(100)) =>
  (request: ChatCompletionRequest): ScriptedAnswer => ({ content: answerEvaluationRequest(request, script), usage });

async function failureOf(promise: Promise<unknown>): Promise<ChatEvaluationError> {
  const error = await promise.then(
    () => expect.unreachable('the evaluation should have failed'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ChatEvaluationError);
  expect((error as Error).message).not.toContain(API_KEY);
  return error as ChatEvaluationError;
}

const signal = () => new AbortController().signal;
const userMessage = (request: ChatCompletionRequest) => request.messages.find((message) => message.role === 'user')!.content;

describe('the chat evaluation engine, for a transcript that fits one request', () => {
  it('sends the transcript, criteria, success prompt and kind, and answers the verdicts in the team’s order with located evidence', async () => {
    const script: EvaluationModelScript = {
      verdict: ({ criterionId }) =>
        ({
          'crit-greeting': { evidence: [{ segmentIndex: 0, quote: 'welcome to Acme' }], reason: 'Anna said "welcome to Acme" first.', confidence: 0.95 },
          // The segment has three spaces where the model wrote one.
          'crit-needs': { evidence: [{ segmentIndex: 2, quote: 'What do you need the analytics for?' }] },
          'crit-next-step': {
            passed: false,
            evidence: [{ segmentIndex: 4, quote: 'book a demo for Tuesday' }],
            reason: 'A demo was proposed but no time was confirmed.',
            expected: 'Confirm the date and time of the next step.',
            suggestion: 'When John said "Tuesday works", confirm the time and send an invite.',
            confidence: 0.7,
          },
        })[criterionId],
      success: { isSuccessful: true, reason: 'John agreed to a demo on Tuesday.', confidence: 0.9, evidence: [{ segmentIndex: 5, quote: 'Tuesday works.' }] },
      summary: { text: 'Anna and John agreed on a demo.', participants: ['Anna Lee (representative)', 'John (contact)'], discussion: 'Analytics for weekly reports.', outcome: 'Demo booked.', nextSteps: ['Anna sends an invite.'] },
    };
    const engine = await engineFor((request) => {
      const answer = answerEvaluationRequest(request, script) as { verdicts: unknown[] };
      // The model answers in its own order; the engine answers in the team's.
      return { content: { ...answer, verdicts: [...answer.verdicts].reverse() }, usage: USAGE(1_234) };
    });
    const judgement = await engine.judge(sampleInput(), signal());

    const requests = fake!.requests();
    expect(requests).toHaveLength(1);
    const body = requests[0]!.body!;
    expect(requests[0]!.authorization).toBe(`Bearer ${API_KEY}`);
    expect(body).toMatchObject({ model: 'gpt-test', temperature: 0, response_format: { type: 'json_schema', json_schema: { name: 'parlance_evaluation', strict: true } } });
    expect(jsonSchemaOf(body)!.schema).toMatchObject({ type: 'object', additionalProperties: false, required: ['verdicts', 'success', 'summary'] });
    expect(body.messages[0]).toEqual({ role: 'system', content: EVALUATION_SYSTEM_PROMPT });
    const sent = userMessage(body);
    expect(sent).toContain('Activity: a call of the sales department\'s team "Inbound sales".');
    expect(sent).toContain('Success prompt: The customer agrees to a demo.');
    expect(sent).toContain('Group "Discovery" (groupId "group-discovery"):\n- criterionId "crit-needs", "Asks about needs": The representative asks what the customer needs. Pass if asked. Fail if not.');
    expect(sent).toContain('The transcript has 6 segments, numbered 0 to 5.\n<transcript>\n[0] 0:00 Anna Lee (representative): Hello, welcome to Acme, this is Anna speaking.\n[1] 0:04 John (contact):');
    expect(readRequest(body).lines.map((line) => line.segmentIndex)).toEqual([0, 1, 2, 3, 4, 5]);

    const representative = { speaker: 'Anna Lee', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE };
    expect(judgement).toEqual({
      verdicts: [
        {
          groupId: 'group-opening', criterionId: 'crit-greeting', groupName: 'Opening', criterionName: 'Greeting', weight: 3,
          passed: true, applicable: true, confidence: 0.95, reason: 'Anna said "welcome to Acme" first.', expected: '', suggestion: '',
          evidence: [{ quote: 'welcome to Acme', segmentIndex: 0, ...representative, startMs: 0 }],
        },
        {
          groupId: 'group-discovery', criterionId: 'crit-needs', groupName: 'Discovery', criterionName: 'Asks about needs', weight: 4,
          passed: true, applicable: true, confidence: 0.9, reason: 'The representative did what the criterion asks.', expected: '', suggestion: '',
          evidence: [{ quote: 'What do you   need the analytics for?', segmentIndex: 2, ...representative, startMs: 9_000 }],
        },
        {
          groupId: 'group-discovery', criterionId: 'crit-next-step', groupName: 'Discovery', criterionName: 'Next step', weight: 3,
          passed: false, applicable: true, confidence: 0.7, reason: 'A demo was proposed but no time was confirmed.',
          expected: 'Confirm the date and time of the next step.', suggestion: 'When John said "Tuesday works", confirm the time and send an invite.',
          evidence: [{ quote: 'book a demo for Tuesday', segmentIndex: 4, ...representative, startMs: 20_000 }],
        },
      ],
      success: {
        isSuccessful: true, reason: 'John agreed to a demo on Tuesday.', confidence: 0.9,
        evidence: [{ quote: 'Tuesday works.', segmentIndex: 5, speaker: 'John', role: SpeakerRole.SPEAKER_ROLE_CONTACT, startMs: 26_000 }],
      },
      summary: { text: 'Anna and John agreed on a demo.', participants: ['Anna Lee (representative)', 'John (contact)'], discussion: 'Analytics for weekly reports.', outcome: 'Demo booked.', nextSteps: ['Anna sends an invite.'] },
      engine: 'openai:gpt-test',
      fallbackReason: '',
      insightTokens: 1_234,
      warnings: [],
    });
  });

  it('leaves success unjudged without a success prompt, even when the model says it failed', async () => {
    const engine = await engineFor(modelAnswering({ success: { isSuccessful: false, reason: 'No demo.', confidence: 0.9, evidence: [{ segmentIndex: 1, quote: 'Hi Anna' }] } }));
    const judgement = await engine.judge(sampleInput({ team: { successPrompt: '  ' } }), signal());
    expect(userMessage(fake!.requests()[0]!.body!)).toContain('Success prompt: none (success is not judged).');
    expect(judgement.success).toEqual({ isSuccessful: undefined, reason: '', confidence: 0, evidence: [] });
  });

  it('answers N/A with a warning when the model cannot tell success from the transcript', async () => {
    const engine = await engineFor(modelAnswering({ success: { isSuccessful: null, reason: 'The call ends before any decision.' } }));
    const judgement = await engine.judge(sampleInput(), signal());
    expect(judgement.success).toEqual({ isSuccessful: undefined, reason: 'The call ends before any decision.', confidence: 0, evidence: [] });
    expect(judgement.warnings).toEqual(['The model could not tell from the transcript whether the conversation met the success prompt.']);
  });

  it('drops invented quotes with a warning, and corrects the index of a quote found in another segment', async () => {
    const engine = await engineFor(
      modelAnswering({
        verdict: ({ criterionId }) =>
          criterionId === 'crit-greeting'
            ? { evidence: [{ segmentIndex: 0, quote: 'We offer a 30% discount today' }, { segmentIndex: 3, quote: '"welcome to Acme,"' }] }
            : criterionId === 'crit-needs'
              ? { evidence: [{ segmentIndex: 2, quote: 'what do you need' }] }
              : undefined,
      }),
    );
    const judgement = await engine.judge(sampleInput(), signal());
    expect(judgement.verdicts[0]!.evidence.map(({ segmentIndex, quote }) => ({ segmentIndex, quote }))).toEqual([{ segmentIndex: 0, quote: 'welcome to Acme,' }]);
    expect(judgement.verdicts[1]!.evidence).toEqual([]);
    expect(judgement.warnings).toEqual(['2 quotes the model cited were not found in the transcript and were left out.']);
  });

  it('is unsure of a verdict whose quotes do not hold: words not in the transcript, or a pass citing nothing', async () => {
    const engine = await engineFor(
      modelAnswering({
        verdict: ({ criterionId }) =>
          criterionId === 'crit-greeting'
            ? { passed: true, confidence: 0.95, evidence: [{ segmentIndex: 0, quote: 'We offer a 30% discount today' }] }
            : criterionId === 'crit-needs'
              ? { passed: true, confidence: 0.9, evidence: [] }
              : { passed: false, confidence: 0.8, evidence: [] },
      }),
    );
    const judgement = await engine.judge(sampleInput(), signal());
    // A failure for something never said cites nothing, and keeps the confidence the model stated.
    expect(judgement.verdicts.map(({ passed, confidence }) => ({ passed, confidence }))).toEqual([
      { passed: true, confidence: UNVERIFIED_CONFIDENCE },
      { passed: true, confidence: UNVERIFIED_CONFIDENCE },
      { passed: false, confidence: 0.8 },
    ]);
  });

  it('counts an inapplicable criterion as passed, and keeps expectation and suggestion for failures only', async () => {
    const engine = await engineFor(
      modelAnswering({
        verdict: ({ criterionId }) =>
          criterionId === 'crit-needs'
            ? { applicable: false, passed: false, expected: 'Ask.', suggestion: 'Ask more.' }
            : { passed: true, expected: 'Stray text.', suggestion: 'Stray text.', confidence: 1.7 },
      }),
    );
    const judgement = await engine.judge(sampleInput(), signal());
    expect(judgement.verdicts.map(({ passed, applicable, expected, suggestion, confidence }) => ({ passed, applicable, expected, suggestion, confidence }))).toEqual([
      { passed: true, applicable: true, expected: '', suggestion: '', confidence: 1 },
      { passed: true, applicable: false, expected: '', suggestion: '', confidence: 0.9 },
      { passed: true, applicable: true, expected: '', suggestion: '', confidence: 1 },
    ]);
  });
});

describe('the chat evaluation engine, when an answer is unusable', () => {
  it('asks again once when the answer is not JSON, saying why, and adds up the tokens of both answers', async () => {
    const engine = await engineFor((request, index) => (index === 0 ? { content: 'Sure! Here is the evaluation: {"verdicts": [', usage: USAGE(500) } : modelAnswering({}, USAGE(700))(request)));
    const judgement = await engine.judge(sampleInput(), signal());
    expect(judgement.insightTokens).toBe(1_200);
    const [first, second] = fake!.requests();
    expect(second!.body!.messages).toEqual([
      ...first!.body!.messages,
      { role: 'user', content: 'An earlier answer to this request was rejected: the answer was not JSON. Answer again, following the rules and the schema exactly.' },
    ]);
  });

  it('counts tokens it has to estimate when the server reports no usage', async () => {
    const engine = await engineFor((request) => ({ content: answerEvaluationRequest(request), usage: null }));
    const judgement = await engine.judge(sampleInput(), signal());
    const body = fake!.requests()[0]!.body!;
    expect(judgement.insightTokens).toBeGreaterThan(estimateRequestTokens(body.messages, jsonSchemaOf(body)!.schema));
  });

  const edits: Array<[string, (answer: { verdicts: Array<Record<string, unknown>> }) => unknown, RegExp]> = [
    ['a missing criterion', (answer) => ({ ...answer, verdicts: answer.verdicts.slice(0, 2) }), /the answer had no verdict for criterion "crit-next-step"$/],
    ['a criterion under the wrong group', (answer) => ({ ...answer, verdicts: [...answer.verdicts.slice(0, 2), { ...answer.verdicts[2], groupId: 'group-opening' }] }), /the answer had verdict for unknown criterion "crit-next-step" of group "group-opening", no verdict for criterion "crit-next-step"$/],
    ['a repeated criterion', (answer) => ({ ...answer, verdicts: [...answer.verdicts, answer.verdicts[0]] }), /the answer had more than one verdict for criterion "crit-greeting"$/],
    ['a value of the wrong type', (answer) => ({ ...answer, verdicts: [{ ...answer.verdicts[0], passed: 'yes' }, ...answer.verdicts.slice(1)] }), /the answer did not match the JSON schema \(\/verdicts\/0\/passed must be boolean\)$/],
  ];
  it.each(edits)('gives up after two answers with %s, naming the problem', async (_, edit, problem) => {
    const engine = await engineFor((request) => ({ content: edit(answerEvaluationRequest(request) as { verdicts: Array<Record<string, unknown>> }) as object, usage: USAGE(300) }));
    const error = await failureOf(engine.judge(sampleInput(), signal()));
    expect(error.failure).toBe('malformed');
    expect(error.message).toMatch(/^the model server at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions answered twice without a usable evaluation: /);
    expect(error.message).toMatch(problem);
    expect(error.tokensSpent).toBe(600);
    expect(fake!.requests()).toHaveLength(2);
  });

  it('gives up on an answer cut off at the output limit after asking again', async () => {
    const engine = await engineFor(() => ({ content: '{"verdicts": [{"groupId": "group-opening", ', finishReason: 'length' }));
    const error = await failureOf(engine.judge(sampleInput(), signal()));
    expect(error.message).toMatch(/the answer was cut off at the model's output limit \(finish_reason length\)$/);
  });

  it('does not ask again when the model refuses, and leaves the refusal’s words out', async () => {
    const engine = await engineFor(() => ({ refusal: 'I cannot evaluate John saying "Tuesday works".' }));
    const error = await failureOf(engine.judge(sampleInput(), signal()));
    expect(error).toMatchObject({ failure: 'refused', message: 'the model gpt-test refused to evaluate the transcript' });
    expect(fake!.requests()).toHaveLength(1);
  });
});

describe('the chat evaluation engine, for a transcript longer than the context', () => {
  /** Every request's estimated prompt plus the room kept for its answer, within the engine's limit. */
  function expectEachRequestWithin(limit: number, input: EvaluationInput) {
    const criteria = teamCriteria(input.team);
    for (const { body } of fake!.requests()) {
      const format = jsonSchemaOf(body!)!;
      const answerRoom = format.name === 'parlance_part_findings' ? findingsAnswerTokens(criteria) : evaluationAnswerTokens(criteria);
      expect(estimateRequestTokens(body!.messages, format.schema) + answerRoom).toBeLessThanOrEqual(limit);
    }
  }

  it('judges it in parts that fit, sending every segment exactly once, then combines the parts’ findings', async () => {
    const input = sampleInput({ segments: longSegments(150) });
    const engine = await engineFor(
      modelAnswering({ observation: ({ criterionId }, read) => (criterionId === 'crit-next-step' && read.lines[0]!.segmentIndex > 0 ? { status: 'not_observed', evidence: [] } : undefined) }),
      { contextTokens: 6_000 },
    );
    const judgement = await engine.judge(input, signal());

    const reads = fake!.requests().map((request) => readRequest(request.body!));
    const parts = reads.filter((read) => read.kind === 'part');
    expect(parts.length).toBeGreaterThanOrEqual(2);
    expect(reads.map((read) => read.kind)).toEqual([...parts.map(() => 'part'), 'combine']);
    expect(fake!.requests()[0]!.body!.messages[0]!.content).toBe(PART_SYSTEM_PROMPT);
    const sentIndexes = parts.flatMap((read) => read.lines.map((line) => line.segmentIndex));
    expect(sentIndexes).toEqual(Array.from({ length: 150 }, (_, index) => index));
    expect(userMessage(fake!.requests()[1]!.body!)).toContain(`This is part 2 of ${parts.length}: segments ${parts[1]!.lines[0]!.segmentIndex} to `);
    expectEachRequestWithin(engine.requestTokenLimit, input);
    expect(engine.requestTokenLimit).toBe(5_400);

    // The combining request gets the findings, not the transcript.
    const combining = userMessage(fake!.requests().at(-1)!.body!);
    expect(combining).not.toContain('<transcript>');
    expect(combining).toContain(`was judged in ${parts.length} parts. Their findings, in order:\n<findings>\nPart 1 of ${parts.length} (segments 0 to `);
    expect(reads.at(-1)!.findingsStatuses.get('crit-next-step')).toEqual(['met', ...parts.slice(1).map(() => 'not observed')]);

    expect(judgement.verdicts.map((verdict) => verdict.evidence.map((evidence) => evidence.segmentIndex))).toEqual([[0], [0], [0]]);
    expect(judgement.warnings).toEqual([`The transcript was judged in ${parts.length} parts, because it is longer than the model's context window of 6,000 tokens holds in one request; the verdicts combine what each part showed.`]);
    expect(judgement.insightTokens).toBe(100 * reads.length);
  });

  it('splits a segment too long for any part inside, keeping its index', async () => {
    const monologue = Array.from({ length: 3_000 }, (_, index) => `w${index}`).join(' ');
    const segments = [SAMPLE_SEGMENTS[0]!, { speaker: 'John', startMs: 4_000, text: monologue, words: [] }, SAMPLE_SEGMENTS[5]!];
    const input = sampleInput({ segments });
    const engine = await engineFor(modelAnswering(), { contextTokens: 6_000 });
    const judgement = await engine.judge(input, signal());

    const parts = fake!.requests().map((request) => readRequest(request.body!)).filter((read) => read.kind === 'part');
    const lines = parts.flatMap((read) => read.lines);
    const pieces = lines.filter((line) => line.segmentIndex === 1);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.map((line) => line.piece)).toEqual(pieces.map((_, index) => `${index + 1}/${pieces.length}`));
    expect(pieces.map((line) => line.text).join(' ')).toBe(monologue);
    expect(lines.filter((line) => line.segmentIndex !== 1).map((line) => line.segmentIndex)).toEqual([0, 2]);
    expectEachRequestWithin(engine.requestTokenLimit, input);
    expect(judgement.warnings).toContain('Segment 1 was too long for one request and was judged in pieces.');
  });

  it('merges neighbouring parts’ findings first when all of them do not fit one combining request', async () => {
    const input = sampleInput({ segments: longSegments(600) });
    const engine = await engineFor(modelAnswering(), { contextTokens: 5_000 });
    const judgement = await engine.judge(input, signal());

    const kinds = fake!.requests().map((request) => readRequest(request.body!).kind);
    const partCount = kinds.filter((kind) => kind === 'part').length;
    expect(kinds.filter((kind) => kind === 'merge').length).toBeGreaterThan(0);
    expect(kinds.at(-1)).toBe('combine');
    expect(kinds.slice(0, partCount)).toEqual(kinds.slice(0, partCount).map(() => 'part'));
    expect(userMessage(fake!.requests()[partCount]!.body!)).toMatch(/^Combine these findings, in order, into the findings of parts 1 to \d+ of \d+ \(segments 0 to \d+\):$/m);
    expectEachRequestWithin(engine.requestTokenLimit, input);
    expect(judgement.verdicts).toHaveLength(3);
    expect(judgement.warnings[0]).toMatch(new RegExp(`^The transcript was judged in ${partCount} parts`));
  });

  it('fails as too large, without a request, when the criteria leave no room for the transcript', async () => {
    const criteria = Array.from({ length: 40 }, (_, index) => ({ id: `crit-${index}`, name: `Criterion ${index}`, prompt: 'Pass if the representative does this particular thing well.', weight: 0.25 }));
    const engine = await engineFor(modelAnswering(), { contextTokens: 4_000 });
    const error = await failureOf(engine.judge(sampleInput({ team: { criteriaGroups: [{ id: 'group-all', name: 'All', criteria }] }, segments: longSegments(200) }), signal()));
    expect(error.failure).toBe('too-large');
    expect(error.message).toBe("the team's 40 criteria and the answer they need leave too little of the model's context window of 4,000 tokens for the transcript (SCORING_LLM_CONTEXT_TOKENS)");
    expect(fake!.requests()).toHaveLength(0);
  });

  it('rejects with the abort reason, and asks no more, when the caller aborts between parts', async () => {
    const controller = new AbortController();
    const reason = new Error('lease lost');
    const engine = await engineFor((request, index) => {
      if (index === 0) setTimeout(() => controller.abort(reason), 20);
      return { ...modelAnswering()(request), delayMs: 200 };
    }, { contextTokens: 6_000 });
    await expect(engine.judge(sampleInput({ segments: longSegments(150) }), controller.signal)).rejects.toBe(reason);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake!.requests()).toHaveLength(1);
  });
});
