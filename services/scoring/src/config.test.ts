import { describe, expect, it } from 'vitest';
import { configProblems } from '@parlance/platform/testing/config-problems';
import { loadScoringConfig } from './config.js';

describe('loadScoringConfig', () => {
  it('uses offline suggestions when no model server is set', () => {
    const offline = { suggestions: { model: undefined }, evaluation: { model: undefined, sentenceModel: { directory: undefined } }, rescore: true, worker: { workers: 2, leaseMs: 60_000 } };
    expect(loadScoringConfig({})).toEqual(offline);
    expect(loadScoringConfig({ SCORING_LLM_URL: '', SCORING_LLM_MODEL: '' })).toEqual(offline);
  });

  it('reads the model server, dropping a trailing slash, with a 20 s timeout by default', () => {
    expect(loadScoringConfig({ SCORING_LLM_URL: 'http://127.0.0.1:1234/v1/', SCORING_LLM_MODEL: 'qwen2.5-7b-instruct' }).suggestions).toEqual({
      model: { baseUrl: 'http://127.0.0.1:1234/v1', model: 'qwen2.5-7b-instruct', apiKey: undefined, timeoutMs: 20_000 },
    });
    expect(
      loadScoringConfig({ SCORING_LLM_URL: 'https://api.openai.com/v1', SCORING_LLM_MODEL: 'gpt-4o-mini', SCORING_LLM_API_KEY: 'sk-abc', SCORING_LLM_TIMEOUT_MS: '5000' })
        .suggestions.model,
    ).toEqual({ baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-abc', timeoutMs: 5000 });
  });

  it('gives the evaluation engine the same server, with its own timeout, attempts and context size', () => {
    const config = loadScoringConfig({
      SCORING_LLM_URL: 'https://api.openai.com/v1',
      SCORING_LLM_MODEL: 'gpt-4o-mini',
      SCORING_LLM_API_KEY: 'sk-abc',
      SCORING_LLM_CONTEXT_TOKENS: '128000',
    });
    expect(config.evaluation.model).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini',
      apiKey: 'sk-abc',
      timeoutMs: 120_000,
      maxAttempts: 4,
      contextTokens: 128_000,
    });
  });

  it('reads the worker count and lease, and refuses a context too small to hold an evaluation', () => {
    expect(loadScoringConfig({ SCORING_WORKERS: '4', SCORING_LEASE_SECONDS: '30' }).worker).toEqual({ workers: 4, leaseMs: 30_000 });
    expect(configProblems(() => loadScoringConfig({ SCORING_LLM_CONTEXT_TOKENS: '512' }))[0]).toMatch(/^SCORING_LLM_CONTEXT_TOKENS /);
    expect(configProblems(() => loadScoringConfig({ SCORING_WORKERS: '0' }))[0]).toMatch(/^SCORING_WORKERS /);
  });

  it('reads meaning with the sentence-embedding model unless told not to, from the folder given', () => {
    expect(loadScoringConfig({ SCORING_SENTENCE_MODEL_DIR: '/opt/models/minilm' }).evaluation.sentenceModel).toEqual({ directory: '/opt/models/minilm' });
    expect(loadScoringConfig({ SCORING_SENTENCE_MODEL: 'off' }).evaluation.sentenceModel).toBeUndefined();
    expect(configProblems(() => loadScoringConfig({ SCORING_SENTENCE_MODEL: 'maybe' }))[0]).toMatch(/^SCORING_SENTENCE_MODEL /);
    expect(loadScoringConfig({ SCORING_RESCORE: 'off' }).rescore).toBe(false);
  });

  it('requires SCORING_LLM_MODEL with SCORING_LLM_URL', () => {
    expect(configProblems(() => loadScoringConfig({ SCORING_LLM_URL: 'http://127.0.0.1:1234/v1' }))).toEqual([
      'SCORING_LLM_MODEL is required when SCORING_LLM_URL is set (the model name the server should run, e.g. gpt-4o-mini)',
    ]);
  });

  it('names a model or key set without a server, instead of ignoring them', () => {
    expect(configProblems(() => loadScoringConfig({ SCORING_LLM_MODEL: 'gpt-4o-mini', SCORING_LLM_API_KEY: 'sk-abc' }))).toEqual([
      'SCORING_LLM_MODEL is set but SCORING_LLM_URL is not (set both, or neither for the offline engines)',
      'SCORING_LLM_API_KEY is set but SCORING_LLM_URL is not (set both, or neither for the offline engines)',
    ]);
  });

  it('refuses a URL that is not http(s), masking any credentials in it', () => {
    const [problem] = configProblems(() => loadScoringConfig({ SCORING_LLM_URL: 'ftp://user:hunter2@models.example.com/v1', SCORING_LLM_MODEL: 'm' }));
    expect(problem).toMatch(/^SCORING_LLM_URL .*\(got "ftp:\/\/\*\*\*@models\.example\.com\/v1"\)/);
    expect(problem).not.toContain('hunter2');
    expect(configProblems(() => loadScoringConfig({ SCORING_LLM_URL: 'http://x/v1?key=1', SCORING_LLM_MODEL: 'm' }))[0]).toMatch(/^SCORING_LLM_URL /);
  });

  it('refuses a timeout that is not a positive whole number of milliseconds', () => {
    for (const value of ['soon', '0', '-5']) {
      expect(configProblems(() => loadScoringConfig({ SCORING_LLM_TIMEOUT_MS: value }))[0]).toMatch(/^SCORING_LLM_TIMEOUT_MS /);
    }
  });

  it('never repeats the API key in an error', () => {
    const message = configProblems(() => loadScoringConfig({ SCORING_LLM_URL: 'not a url', SCORING_LLM_MODEL: 'm', SCORING_LLM_API_KEY: 'sk-secret-value' })).join('\n');
    expect(message).toMatch(/SCORING_LLM_URL/);
    expect(message).not.toContain('sk-secret-value');
  });
});
