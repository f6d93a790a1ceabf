/**
 * The model engine against a real HTTP server speaking the OpenAI Chat Completions API
 * (test/support/fake-openai.ts, because these machines cannot reach a real one).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from '../../../../test/support/fake-openai.js';
import { ModelSuggestionError, SUGGESTION_SYSTEM_PROMPT, cleanSuggestion, createModelSuggester } from './model-suggestion.js';
import { CRITERION_PROMPT_MAX_LENGTH } from './offline-suggestion.js';

const API_KEY = 'sk-test-0123456789abcdefghij';
const input = { name: 'Greeting', description: 'Say "Welcome to Acme"' };
let fake: FakeOpenAI | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function suggesterFor(options: FakeOpenAIOptions, settings: { apiKey?: string; timeoutMs?: number; trailingSlash?: boolean } = {}) {
  fake = await startFakeOpenAI(options);
  return createModelSuggester({
    baseUrl: settings.trailingSlash ? `${fake.baseUrl}/` : fake.baseUrl,
    model: 'test-model',
    apiKey: settings.apiKey,
    timeoutMs: settings.timeoutMs ?? 5_000,
  });
}

async function failureOf(promise: Promise<unknown>): Promise<ModelSuggestionError> {
  const error = await promise.then(
    () => expect.unreachable('the suggestion should have failed'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ModelSuggestionError);
  return error as ModelSuggestionError;
}

describe('createModelSuggester', () => {
  it('sends the criterion to /chat/completions with the model, a system prompt and the key, and returns the reply', async () => {
    const suggest = await suggesterFor(
      { apiKey: API_KEY, reply: () => '  The representative must say "Welcome to Acme". Pass if said first. Fail if missing.  ' },
      { apiKey: API_KEY, trailingSlash: true },
    );
    expect(await suggest(input)).toBe('The representative must say "Welcome to Acme". Pass if said first. Fail if missing.');

    const [request] = fake!.requests();
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions', authorization: `Bearer ${API_KEY}`, contentType: 'application/json' });
    expect(request!.body).toMatchObject({ model: 'test-model', temperature: expect.any(Number) });
    expect(request!.body!.messages).toEqual([
      { role: 'system', content: SUGGESTION_SYSTEM_PROMPT },
      { role: 'user', content: 'Criterion name: Greeting\nCurrent description: Say "Welcome to Acme"' },
    ]);
    expect(SUGGESTION_SYSTEM_PROMPT).toMatch(/450 characters/);
  });

  it('sends no Authorization header without a key, and says when there is no description', async () => {
    const suggest = await suggesterFor({});
    await suggest({ name: 'Empathy' });
    const [request] = fake!.requests();
    expect(request!.authorization).toBeUndefined();
    expect(request!.body!.messages[1]!.content).toBe('Criterion name: Empathy\nCurrent description: (none)');
  });

  it('strips markdown fences and surrounding quotes and cuts a long reply at a sentence', async () => {
    const long = `${'The representative must do this one thing. '.repeat(15)}Pass if done. Fail if not.`;
    const suggest = await suggesterFor({ reply: () => `\`\`\`text\n"${long}"\n\`\`\`` });
    const text = await suggest(input);
    expect(text.length).toBeLessThanOrEqual(CRITERION_PROMPT_MAX_LENGTH);
    expect(text).toMatch(/^The representative must do this one thing\./);
    expect(text).toMatch(/thing\.$/);
  });

  it('reports a wrong key as HTTP 401 with the server’s message, without the key', async () => {
    const suggest = await suggesterFor({ apiKey: API_KEY }, { apiKey: 'sk-wrong-key-9876543210zyxwvu' });
    const error = await failureOf(suggest(input));
    expect(error.failure).toBe('rejected');
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/^Language model server at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions answered HTTP 401: Incorrect API key provided/);
    expect(error.message).not.toContain('sk-wrong-key-9876543210zyxwvu');
  });

  it('reports a server error with its status and message, masking a key the server echoes', async () => {
    const suggest = await suggesterFor({ fail: { status: 500, message: `upstream refused key ${API_KEY}` } }, { apiKey: API_KEY });
    const error = await failureOf(suggest(input));
    expect(error).toMatchObject({ failure: 'rejected', status: 500 });
    expect(error.message).toMatch(/answered HTTP 500: upstream refused key \*\*\*$/);
    expect(error.message).not.toContain(API_KEY);
  });

  it('gives up after the timeout', async () => {
    const suggest = await suggesterFor({ delayMs: 2_000 }, { timeoutMs: 100 });
    const started = Date.now();
    const error = await failureOf(suggest(input));
    expect(error.failure).toBe('timeout');
    expect(error.message).toMatch(/did not answer within 100 ms$/);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('reports an empty reply', async () => {
    const suggest = await suggesterFor({ reply: () => '  ' });
    const error = await failureOf(suggest(input));
    expect(error.failure).toBe('empty');
    expect(error.message).toMatch(/answered with an empty suggestion \(finish_reason stop\)$/);
  });

  it('reports a body that is not JSON, or not a chat completion', async () => {
    let suggest = await suggesterFor({ rawBody: '<html>Bad gateway</html>' });
    expect((await failureOf(suggest(input))).message).toMatch(/answered with a body that is not JSON$/);
    await fake!.close();
    suggest = await suggesterFor({ rawBody: JSON.stringify({ choices: [] }) });
    expect((await failureOf(suggest(input))).message).toMatch(/answered without choices\[0\]\.message/);
  });

  it('reports a server that cannot be reached', async () => {
    fake = await startFakeOpenAI();
    const baseUrl = fake.baseUrl;
    await fake.close();
    fake = undefined;
    const suggest = createModelSuggester({ baseUrl, model: 'test-model', timeoutMs: 5_000 });
    const error = await failureOf(suggest(input));
    expect(error.failure).toBe('unreachable');
    expect(error.message).toMatch(/could not be reached \(ECONNREFUSED\)$/);
  });
});

describe('cleanSuggestion', () => {
  it('removes a "Prompt:" label, typographic quotes and markdown, keeping inner quotes', () => {
    expect(cleanSuggestion('Prompt: “Say **hello**. Pass if said. Fail if not.”')).toBe('Say hello. Pass if said. Fail if not.');
    expect(cleanSuggestion('Say "hi". Pass if "hi" is said.')).toBe('Say "hi". Pass if "hi" is said.');
  });
});
