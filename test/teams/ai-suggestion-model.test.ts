/**
 * POST /api/teams/ai-suggestion with an OpenAI-compatible model configured: scoring asks the
 * model. The model is a local HTTP server speaking OpenAI's Chat Completions API
 * (test/support/fake-openai.ts), since these machines cannot reach a real one. Suggestions are
 * rate limited per user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { startIdentityStack, type IdentityStack } from '../support/identity-stack.js';

const API_KEY = 'sk-test-parlance-suggestions';
let model: FakeOpenAI;
let stack: IdentityStack;
let admin: ApiClient;

beforeAll(async () => {
  model = await startFakeOpenAI({
    apiKey: API_KEY,
    reply: (request) => {
      const asked = request.messages.at(-1)?.content ?? '';
      return asked.includes('Refund policy')
        ? 'The representative must state the 30-day refund policy before the call ends. Pass if the policy and its 30 days are stated. Fail if refunds are not mentioned.'
        : '';
    },
  });
  stack = await startIdentityStack({
    withScoring: true,
    env: { SCORING_LLM_URL: model.baseUrl, SCORING_LLM_MODEL: 'gpt-4o-mini', SCORING_LLM_API_KEY: API_KEY },
    app: { rateLimits: { 'ai-suggestion': { max: 3, windowMs: 60_000 } } },
  });
  ({ browser: admin } = await stack.signUpVerified({ firstName: 'Modeluser', lastName: 'Tester' }));
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await model?.close();
});

describe('AI suggestion with a model configured', () => {
  it('asks the model with the criterion name and description, and returns its prompt', async () => {
    const response = await admin.post<{ success: boolean; suggestion: string; source: string }>('/api/teams/ai-suggestion', {
      criterionName: 'Refund policy',
      criterionDescription: 'Mention refunds',
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      source: 'model',
      suggestion:
        'The representative must state the 30-day refund policy before the call ends. Pass if the policy and its 30 days are stated. Fail if refunds are not mentioned.',
    });
    const [request] = model.requests().slice(-1);
    expect(request?.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.body?.model).toBe('gpt-4o-mini');
    expect(request?.body?.messages.at(-1)?.content).toContain('Mention refunds');
  });

  it('answers with the offline suggestion when the model gives nothing usable, and logs why without the key', async () => {
    const response = await admin.post<{ suggestion: string; source: string }>('/api/teams/ai-suggestion', { criterionName: 'Greeting' });
    expect(response.status).toBe(200);
    expect(response.body.source).toBe('offline');
    expect(response.body.suggestion).toMatch(/pass/i);
    expect(stack.logs()).toContain('criterion suggestion model failed');
    expect(stack.logs()).not.toContain(API_KEY);
  });
});

describe('AI suggestion limits', () => {
  it('limits each user’s suggestions, since each may cost a model call', async () => {
    const { browser: eager } = await stack.signUpVerified({ firstName: 'Eager', lastName: 'Asker' });
    for (let call = 0; call < 3; call++) expect((await eager.post('/api/teams/ai-suggestion', { criterionName: 'Refund policy' })).status).toBe(200);
    const refused = await eager.post('/api/teams/ai-suggestion', { criterionName: 'Refund policy' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'You have asked for too many AI suggestions. Please wait 1 minute and try again.' });
    const { browser: other } = await stack.signUpVerified({ firstName: 'Patient', lastName: 'Asker' });
    expect((await other.post('/api/teams/ai-suggestion', { criterionName: 'Refund policy' })).status).toBe(200);
  });
});
