/**
 * The suggester against a real HTTP server speaking the OpenAI Chat Completions API
 * (test/support/fake-openai.ts, because these machines cannot reach a real one).
 */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@parlance/platform/logger';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from '../../../../test/support/fake-openai.js';
import { createCriterionSuggester } from './criterion-suggester.js';
import { suggestCriterionPrompt } from './offline-suggestion.js';

const API_KEY = 'sk-suggester-0123456789abcdef';
const input = { name: 'Handles price objections', description: 'Mention the "price-match promise"' };
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

async function suggesterWithModel(options: FakeOpenAIOptions, settings: { apiKey?: string; timeoutMs?: number } = {}) {
  fake = await startFakeOpenAI(options);
  const { lines, logger } = capturedLogger();
  const suggester = createCriterionSuggester(
    { model: { baseUrl: fake.baseUrl, model: 'test-model', apiKey: settings.apiKey, timeoutMs: settings.timeoutMs ?? 5_000 } },
    logger,
  );
  return { suggester, lines };
}

describe('createCriterionSuggester', () => {
  it('answers with the model’s suggestion when the model works', async () => {
    const { suggester, lines } = await suggesterWithModel(
      { apiKey: API_KEY, reply: (request) => `Model prompt for ${request.model}. Pass if x. Fail if y.` },
      { apiKey: API_KEY },
    );
    expect(await suggester.suggest(input)).toEqual({ suggestion: 'Model prompt for test-model. Pass if x. Fail if y.', source: 'model' });
    expect(fake!.requests()).toHaveLength(1);
    expect(lines).toEqual([]);
  });

  it('answers offline without a model', async () => {
    const { lines, logger } = capturedLogger();
    const suggester = createCriterionSuggester({ model: undefined }, logger);
    expect(await suggester.suggest(input)).toEqual({ suggestion: suggestCriterionPrompt(input), source: 'offline' });
    expect(lines).toEqual([]);
  });

  it.each([
    ['rejects the key (401)', { apiKey: API_KEY }, { apiKey: 'sk-not-the-right-key-123456' }, 'rejected', /answered HTTP 401: Incorrect API key provided/],
    ['fails (500)', { fail: { status: 500 } }, { apiKey: API_KEY }, 'rejected', /answered HTTP 500: The server had an error/],
    ['is too slow', { delayMs: 2_000 }, { apiKey: API_KEY, timeoutMs: 100 }, 'timeout', /did not answer within 100 ms/],
    ['answers nothing', { reply: () => '' }, { apiKey: API_KEY }, 'empty', /empty suggestion/],
  ] as const)('falls back to the offline suggestion and logs why when the model %s', async (_case, options, settings, failure, reason) => {
    const { suggester, lines } = await suggesterWithModel(options, settings);
    expect(await suggester.suggest(input)).toEqual({ suggestion: suggestCriterionPrompt(input), source: 'offline' });
    expect(fake!.requests()).toHaveLength(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, failure, model: 'test-model', msg: 'criterion suggestion model failed; answered with the offline suggestion' });
    expect(lines[0]!.reason).toMatch(reason);
    const logged = JSON.stringify(lines[0]);
    expect(logged).not.toContain(settings.apiKey);
    expect(logged).not.toContain(API_KEY);
    expect(logged).not.toContain('price-match promise');
  });
});
