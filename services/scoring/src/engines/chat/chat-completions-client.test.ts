/**
 * The Chat Completions client against a real HTTP server speaking the OpenAI API
 * (test/support/fake-openai.ts, because these machines cannot reach a real one). Waits are kept
 * short with a small backoff and one-second Retry-After values.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from '../../../../../test/support/fake-openai.js';
import type { EvaluationModelSettings } from '../../config.js';
import { ChatEvaluationError } from './chat-evaluation-error.js';
import { backoffMs, createChatCompletionsClient, retryAfterMs, type RetryPolicy, type StructuredRequest, type TokenMeter } from './chat-completions-client.js';
import { estimateRequestTokens, estimateTokens } from './token-estimate.js';

const API_KEY = 'sk-client-test-0123456789abcdef';
const FAST: RetryPolicy = { initialDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2_000 };
const request: StructuredRequest = {
  messages: [
    { role: 'system', content: 'You answer in JSON.' },
    { role: 'user', content: 'Say ok.' },
  ],
  schemaName: 'parlance_test',
  schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false },
};
let fake: FakeOpenAI | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function clientFor(options: FakeOpenAIOptions, settings: Partial<EvaluationModelSettings> = {}, retry = FAST) {
  fake = await startFakeOpenAI(options);
  const client = createChatCompletionsClient({ baseUrl: fake.baseUrl, model: 'test-model', apiKey: API_KEY, timeoutMs: 5_000, maxAttempts: 4, contextTokens: 16_384, ...settings }, retry);
  return { client, meter: { reported: 0, estimated: 0 } as TokenMeter };
}

async function failureOf(promise: Promise<unknown>): Promise<ChatEvaluationError> {
  const error = await promise.then(
    () => expect.unreachable('the request should have failed'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ChatEvaluationError);
  expect((error as Error).message).not.toContain(API_KEY);
  return error as ChatEvaluationError;
}

const ok = { content: { ok: true } };
const signal = () => new AbortController().signal;

describe('createChatCompletionsClient', () => {
  it('posts the documented request: model, messages, temperature and a strict json_schema response format, with the key', async () => {
    const { client, meter } = await clientFor({ apiKey: API_KEY, answer: () => ok });
    const reply = await client.complete(request, signal(), meter);
    expect(reply).toEqual({ content: '{"ok":true}', refusal: null, finishReason: 'stop' });
    const [sent] = fake!.requests();
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/chat/completions', authorization: `Bearer ${API_KEY}`, contentType: 'application/json' });
    expect(sent!.body).toEqual({
      model: 'test-model',
      messages: request.messages,
      temperature: 0,
      response_format: { type: 'json_schema', json_schema: { name: 'parlance_test', strict: true, schema: request.schema } },
    });
  });

  it('is refused, like OpenAI refuses it, when its schema breaks strict mode’s rules', async () => {
    const { client, meter } = await clientFor({ answer: () => ok });
    const loose = { ...request, schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } };
    const error = await failureOf(client.complete(loose, signal(), meter));
    expect(error).toMatchObject({ failure: 'rejected', status: 400 });
    expect(error.message).toMatch(/answered HTTP 400: Invalid schema for response_format 'parlance_test': In context=\(\), 'additionalProperties' is required to be supplied and to be false\.$/);
  });

  it('adds up the usage the server reports, and estimates it when the server reports none', async () => {
    const { client, meter } = await clientFor({
      answer: (_, index) => (index === 0 ? { ...ok, usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } } : { ...ok, usage: null }),
    });
    await client.complete(request, signal(), meter);
    expect(meter).toEqual({ reported: 120, estimated: 0 });
    await client.complete(request, signal(), meter);
    expect(meter).toEqual({ reported: 120, estimated: estimateRequestTokens(request.messages, request.schema) + estimateTokens('{"ok":true}') });
  });

  it('tries a 5xx again after a backoff and answers with the next success', async () => {
    const { client, meter } = await clientFor({ answer: (_, index) => (index < 2 ? { status: index === 0 ? 500 : 502 } : ok) });
    expect((await client.complete(request, signal(), meter)).content).toBe('{"ok":true}');
    expect(fake!.requests()).toHaveLength(3);
  });

  it('waits as long as Retry-After says, in seconds, on 429', async () => {
    const { client, meter } = await clientFor({ answer: (_, index) => (index === 0 ? { status: 429, message: 'Rate limit reached', headers: { 'retry-after': '1' } } : ok) });
    const started = performance.now();
    await client.complete(request, signal(), meter);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(fake!.requests()).toHaveLength(2);
  });

  it('waits as long as retry-after-ms says on 503', async () => {
    const { client, meter } = await clientFor({ answer: (_, index) => (index === 0 ? { status: 503, headers: { 'retry-after-ms': '300' } } : ok) });
    const started = performance.now();
    await client.complete(request, signal(), meter);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(295);
    expect(waited).toBeLessThan(1_500);
  });

  it('gives up at once when Retry-After asks for longer than it waits', async () => {
    const { client, meter } = await clientFor({ answer: () => ({ status: 429, headers: { 'retry-after': '3600' } }) });
    const started = performance.now();
    const error = await failureOf(client.complete(request, signal(), meter));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toMatchObject({ failure: 'rate-limited', status: 429 });
    expect(error.message).toMatch(/^the model server at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions answered HTTP 429 and asked to wait 3600 s before trying again, longer than the 2 s scoring waits$/);
    expect(fake!.requests()).toHaveLength(1);
  });

  it('gives up on a 429 that says the quota is spent, without trying again', async () => {
    const { client, meter } = await clientFor({ answer: () => ({ status: 429, code: 'insufficient_quota', type: 'insufficient_quota', message: 'You exceeded your current quota.' }) });
    const error = await failureOf(client.complete(request, signal(), meter));
    expect(error.failure).toBe('rate-limited');
    expect(error.message).toMatch(/answered HTTP 429: its quota is spent \(You exceeded your current quota\.\)$/);
    expect(fake!.requests()).toHaveLength(1);
  });

  it('says how often the server failed when every attempt does', async () => {
    const { client, meter } = await clientFor({ answer: () => ({ status: 503, message: 'The engine is currently overloaded.' }) });
    const error = await failureOf(client.complete(request, signal(), meter));
    expect(error).toMatchObject({ failure: 'unavailable', status: 503 });
    expect(error.message).toMatch(/^the model server at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions answered HTTP 503 four times \(The engine is currently overloaded\.\)$/);
    expect(fake!.requests()).toHaveLength(4);
  });

  it('does not try a 4xx other than 429 again, and masks a key the server echoes', async () => {
    const { client, meter } = await clientFor({ answer: () => ({ status: 400, type: 'invalid_request_error', message: `Invalid schema for key ${API_KEY}` }) });
    const error = await failureOf(client.complete(request, signal(), meter));
    expect(error).toMatchObject({ failure: 'rejected', status: 400 });
    expect(error.message).toMatch(/answered HTTP 400: Invalid schema for key \*\*\*$/);
    expect(fake!.requests()).toHaveLength(1);
  });

  it('reports a wrong key as HTTP 401 without the key', async () => {
    const { client, meter } = await clientFor({ apiKey: 'sk-the-right-key-0123456789' });
    const error = await failureOf(client.complete(request, signal(), meter));
    expect(error).toMatchObject({ failure: 'rejected', status: 401 });
    expect(error.message).toMatch(/answered HTTP 401: Incorrect API key provided/);
    expect(fake!.requests()).toHaveLength(1);
  });

  it('times out each attempt, tries again, and says so', async () => {
    const { client, meter } = await clientFor({ answer: () => ({ ...ok, delayMs: 2_000 }) }, { timeoutMs: 100, maxAttempts: 2 });
    const started = performance.now();
    const error = await failureOf(client.complete(request, signal(), meter));
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(error.failure).toBe('timeout');
    expect(error.message).toMatch(/did not answer within 100 ms twice$/);
    expect(fake!.requests()).toHaveLength(2);
  });

  it('tries again after a dropped connection, and after a slow answer', async () => {
    const { client, meter } = await clientFor({ answer: (_, index) => (index === 0 ? { hangUp: true } : index === 1 ? { ...ok, delayMs: 1_000 } : ok) }, { timeoutMs: 200 });
    expect((await client.complete(request, signal(), meter)).content).toBe('{"ok":true}');
    expect(fake!.requests()).toHaveLength(3);
  });

  it('reports a server that cannot be reached', async () => {
    const { client, meter } = await clientFor({}, { maxAttempts: 2 });
    await fake!.close();
    fake = undefined;
    const error = await failureOf(client.complete(request, signal(), meter));
    expect(error.failure).toBe('unreachable');
    expect(error.message).toMatch(/could not be reached \(ECONNREFUSED\) twice$/);
  });

  it('rejects with the abort reason when the caller aborts a request or a wait, and tries no more', async () => {
    const { client, meter } = await clientFor({ answer: (_, index) => (index === 0 ? { ...ok, delayMs: 5_000 } : { status: 503, headers: { 'retry-after': '1' } }) });
    const reason = new Error('worker stopping');
    const during = new AbortController();
    setTimeout(() => during.abort(reason), 50);
    await expect(client.complete(request, during.signal, meter)).rejects.toBe(reason);

    const waiting = new AbortController();
    setTimeout(() => waiting.abort(reason), 300);
    const started = performance.now();
    await expect(client.complete(request, waiting.signal, meter)).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(900);
    expect(fake!.requests()).toHaveLength(2);
  });

  it('answers a refusal and a cut-off answer as they are, for the engine to judge', async () => {
    const { client, meter } = await clientFor({ answer: (_, index) => (index === 0 ? { refusal: "I'm sorry, I can't help with that." } : { content: '{"ok":', finishReason: 'length' }) });
    expect(await client.complete(request, signal(), meter)).toEqual({ content: null, refusal: "I'm sorry, I can't help with that.", finishReason: 'stop' });
    expect(await client.complete(request, signal(), meter)).toEqual({ content: '{"ok":', refusal: null, finishReason: 'length' });
  });

  it('reports a body that is not a chat completion as malformed', async () => {
    const { client, meter } = await clientFor({ answer: (_, index) => ({ rawBody: index === 0 ? '<html>Bad gateway</html>' : '{"choices":[]}' }) });
    expect((await failureOf(client.complete(request, signal(), meter))).message).toMatch(/answered with a body that is not JSON$/);
    expect((await failureOf(client.complete(request, signal(), meter))).failure).toBe('malformed');
  });
});

describe('retryAfterMs and backoffMs', () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);

  it('reads retry-after-ms, Retry-After in seconds, and Retry-After as an HTTP date', () => {
    const now = Date.parse('2026-03-02T10:00:00Z');
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after': '2' }), now)).toBe(2_000);
    expect(retryAfterMs(headers({ 'retry-after': 'Mon, 02 Mar 2026 10:00:07 GMT' }), now)).toBe(7_000);
    expect(retryAfterMs(headers({ 'retry-after': 'Mon, 02 Mar 2026 09:59:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
  });

  it('doubles the backoff with each attempt up to its cap, half of it random', () => {
    const policy = { initialDelayMs: 1_000, maxDelayMs: 5_000, maxRetryAfterMs: 60_000 };
    expect([1, 2, 3, 4].map((attempt) => backoffMs(attempt, policy, () => 0))).toEqual([500, 1_000, 2_000, 2_500]);
    expect([1, 2, 3, 4].map((attempt) => backoffMs(attempt, policy, () => 1))).toEqual([1_000, 2_000, 4_000, 5_000]);
  });
});
