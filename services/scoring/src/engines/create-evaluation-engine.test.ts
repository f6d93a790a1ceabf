/**
 * The engine scoring runs: offline without a model, the chat model with it, and the offline
 * engine judging whenever the model cannot. The model is a real HTTP server speaking the OpenAI
 * Chat Completions API (test/support/fake-openai.ts); the offline engine is a stand-in that
 * records what it judged (the real one is offline/offline-engine.ts).
 */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@parlance/platform/logger';
import { sampleInput } from '../../test/support/evaluation-input.js';
import { answerEvaluationRequest } from '../../test/support/fake-evaluation-model.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from '../../../../test/support/fake-openai.js';
import { createEvaluationEngine } from './create-evaluation-engine.js';
import type { EvaluationEngine, EvaluationInput, Judgement } from './evaluation-engine.js';

const API_KEY = 'sk-evaluation-0123456789abcdef';
const FAST = { retry: { initialDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2_000 } };
let fake: FakeOpenAI | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ service: 'scoring', level: 'info', destination, pretty: false }) };
}

/** Judges every criterion failed, and remembers what it was asked. */
function stubOfflineEngine() {
  const judged: EvaluationInput[] = [];
  const engine: EvaluationEngine = {
    name: 'offline-evidence',
    async judge(input, signal): Promise<Judgement> {
      signal.throwIfAborted();
      judged.push(input);
      return {
        verdicts: [],
        success: { isSuccessful: undefined, reason: '', confidence: 0, evidence: [] },
        summary: { text: 'Offline summary.', participants: [], discussion: '', outcome: '', nextSteps: [] },
        engine: 'offline-evidence',
        fallbackReason: '',
        insightTokens: 0,
        warnings: ['Offline warning.'],
      };
    },
  };
  return { engine, judged };
}

async function engineWithModel(options: FakeOpenAIOptions, settings: { apiKey?: string; maxAttempts?: number } = {}) {
  fake = await startFakeOpenAI(options);
  const offline = stubOfflineEngine();
  const { lines, logger } = capturedLogger();
  const engine = createEvaluationEngine(
    { model: { baseUrl: fake.baseUrl, model: 'gpt-4o-mini', apiKey: settings.apiKey ?? API_KEY, timeoutMs: 2_000, maxAttempts: settings.maxAttempts ?? 4, contextTokens: 16_384 } },
    logger,
    offline.engine,
    FAST,
  );
  return { engine, offline, lines };
}

const signal = () => new AbortController().signal;
const transcriptWords = sampleInput().transcript.segments.map((segment) => segment.text.split(' ').slice(0, 3).join(' '));

describe('createEvaluationEngine', () => {
  it('is the offline engine when no model is configured', () => {
    const offline = stubOfflineEngine();
    expect(createEvaluationEngine({ model: undefined }, capturedLogger().logger, offline.engine)).toBe(offline.engine);
  });

  it('judges with the model when it answers, as "openai:<model>"', async () => {
    const { engine, offline, lines } = await engineWithModel({ apiKey: API_KEY, answer: (request) => ({ content: answerEvaluationRequest(request) }) });
    expect(engine.name).toBe('openai:gpt-4o-mini');
    const judgement = await engine.judge(sampleInput(), signal());
    expect(judgement).toMatchObject({ engine: 'openai:gpt-4o-mini', fallbackReason: '' });
    expect(judgement.verdicts).toHaveLength(3);
    expect(judgement.insightTokens).toBeGreaterThan(0);
    expect(offline.judged).toHaveLength(0);
    expect(lines).toEqual([]);
  });

  it('has the offline engine judge when the model server fails every attempt, saying why, and logs it without the key or transcript', async () => {
    const { engine, offline, lines } = await engineWithModel({ apiKey: API_KEY, answer: () => ({ status: 503, message: `Overloaded (key ${API_KEY})` }) });
    const input = sampleInput();
    const judgement = await engine.judge(input, signal());

    expect(offline.judged).toEqual([input]);
    expect(fake!.requests()).toHaveLength(4);
    const reason = judgement.fallbackReason;
    expect(reason).toMatch(/^the model server at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions answered HTTP 503 four times \(Overloaded \(key \*\*\*\)\)$/);
    expect(judgement).toMatchObject({ engine: 'offline-evidence', insightTokens: 0, summary: { text: 'Offline summary.' }, warnings: ['Offline warning.'] });

    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      msg: 'evaluation model failed; the offline evaluator judged instead',
      activityId: 'activity-1',
      engine: 'openai:gpt-4o-mini',
      fallback: 'offline-evidence',
      failure: 'unavailable',
      reason,
      tokensSpent: 0,
    });
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain(API_KEY);
    for (const words of transcriptWords) expect(logged).not.toContain(words);
  });

  it('falls back after unusable answers, and logs the tokens they cost', async () => {
    const { engine, lines } = await engineWithModel({ answer: () => ({ content: 'not json', usage: { prompt_tokens: 90, completion_tokens: 10, total_tokens: 100 } }) });
    const judgement = await engine.judge(sampleInput(), signal());
    expect(judgement.fallbackReason).toMatch(/answered twice without a usable evaluation: the answer was not JSON$/);
    expect(lines[0]).toMatchObject({ failure: 'malformed', tokensSpent: 200 });
  });

  it('falls back at once on a rejected key, without the key in the reason or the log', async () => {
    const wrongKey = 'sk-wrong-key-9876543210zyxwvu';
    const { engine, lines } = await engineWithModel({ apiKey: API_KEY }, { apiKey: wrongKey });
    const judgement = await engine.judge(sampleInput(), signal());
    expect(fake!.requests()).toHaveLength(1);
    expect(judgement.fallbackReason).toMatch(/answered HTTP 401: Incorrect API key provided/);
    expect(`${judgement.fallbackReason}${JSON.stringify(lines)}`).not.toContain(wrongKey);
    expect(lines[0]).toMatchObject({ failure: 'rejected' });
  });

  it('propagates an abort instead of falling back', async () => {
    const { engine, offline, lines } = await engineWithModel({ answer: (request) => ({ content: answerEvaluationRequest(request), delayMs: 1_000 }) });
    const controller = new AbortController();
    const reason = new Error('shutting down');
    setTimeout(() => controller.abort(reason), 50);
    await expect(engine.judge(sampleInput(), controller.signal)).rejects.toBe(reason);
    expect(offline.judged).toHaveLength(0);
    expect(lines).toEqual([]);
  });
});
