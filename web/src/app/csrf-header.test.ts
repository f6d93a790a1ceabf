import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, CSRF_HEADER, CSRF_REJECTED, CSRF_UNAVAILABLE } from '../lib/api/api-slice';
import { selectCsrfToken } from '../lib/api/csrf-slice';
import { systemApi } from '../features/system/system-api';
import { makeStore } from './store';
import { jsonResponse } from '../testing/json-response';

// A state-changing endpoint for the test only; real features use the generated ones.
const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    saveProbe: build.mutation<{ saved: boolean }, void>({
      query: () => ({ url: '/api/probe', method: 'POST', body: { value: 1 } }),
    }),
  }),
});

/**
 * Stands in for the gateway: hands out `tokens` in turn from /api/csrf-token (a 500 when none is
 * left), and answers a POST with `answerPost` (by default: saved when the token is the latest).
 */
function fakeGateway(options: { tokens?: string[]; answerPost?: (token: string | null, attempt: number) => Response } = {}) {
  const tokens = [...(options.tokens ?? [])];
  let latest: string | null = null;
  let posts = 0;
  const requests: Request[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      requests.push(request);
      const path = new URL(request.url).pathname;
      if (path === '/api/csrf-token') {
        latest = tokens.shift() ?? null;
        return latest ? jsonResponse({ csrfToken: latest }) : jsonResponse({ error: 'down', message: 'down' }, 500);
      }
      if (request.method === 'GET') return jsonResponse({ status: 'ok', version: '0.1.0', mode: 'standalone', modules: [] });
      posts += 1;
      const sent = request.headers.get(CSRF_HEADER);
      if (options.answerPost) return options.answerPost(sent, posts);
      return sent && sent === latest ? jsonResponse({ saved: true }) : jsonResponse({ error: CSRF_REJECTED, message: CSRF_REJECTED }, 403);
    }),
  );
  return { requests, tokenRequests: () => requests.filter((r) => new URL(r.url).pathname === '/api/csrf-token').length };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('CSRF token on API requests', () => {
  it('sends the cached token on a POST', async () => {
    const gateway = fakeGateway({ answerPost: () => jsonResponse({ saved: true }) });
    const store = makeStore({ csrf: { token: 'token-123' } });

    await store.dispatch(probeApi.endpoints.saveProbe.initiate()).unwrap();

    expect(gateway.requests).toHaveLength(1);
    expect(gateway.requests[0]?.headers.get(CSRF_HEADER)).toBe('token-123');
  });

  it('sends no token on a GET, and fetches none for it', async () => {
    const gateway = fakeGateway();
    const store = makeStore({ csrf: { token: 'token-123' } });

    await store.dispatch(systemApi.endpoints.getHealth.initiate()).unwrap();

    expect(gateway.requests).toHaveLength(1);
    expect(gateway.requests[0]?.headers.has(CSRF_HEADER)).toBe(false);
  });

  it('fetches a token once before the first change, even for changes sent together, and keeps it', async () => {
    const gateway = fakeGateway({ tokens: ['first-token'] });
    const store = makeStore();

    await Promise.all([store.dispatch(probeApi.endpoints.saveProbe.initiate()).unwrap(), store.dispatch(probeApi.endpoints.saveProbe.initiate()).unwrap()]);
    await store.dispatch(probeApi.endpoints.saveProbe.initiate()).unwrap();

    expect(gateway.tokenRequests()).toBe(1);
    expect(selectCsrfToken(store.getState())).toBe('first-token');
    const posts = gateway.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.headers.get(CSRF_HEADER))).toEqual(['first-token', 'first-token', 'first-token']);
  });

  it("refetches the token and sends the change once more when it is refused with 'CSRF validation failed'", async () => {
    const gateway = fakeGateway({ tokens: ['fresh-token'] });
    const store = makeStore({ csrf: { token: 'stale-token' } });

    await expect(store.dispatch(probeApi.endpoints.saveProbe.initiate()).unwrap()).resolves.toEqual({ saved: true });

    const posts = gateway.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.headers.get(CSRF_HEADER))).toEqual(['stale-token', 'fresh-token']);
    expect(selectCsrfToken(store.getState())).toBe('fresh-token');
  });

  it('retries only once: a second refusal is the answer', async () => {
    const gateway = fakeGateway({ tokens: ['fresh-token', 'fresher-token'], answerPost: () => jsonResponse({ error: CSRF_REJECTED, message: CSRF_REJECTED }, 403) });
    const store = makeStore({ csrf: { token: 'stale-token' } });

    await expect(store.dispatch(probeApi.endpoints.saveProbe.initiate()).unwrap()).rejects.toMatchObject({ status: 403, data: { error: CSRF_REJECTED } });
    expect(gateway.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
    expect(gateway.tokenRequests()).toBe(1);
  });

  it('does not retry a 403 for another reason', async () => {
    const gateway = fakeGateway({ answerPost: () => jsonResponse({ error: 'Members management is only available for Admin users', message: '' }, 403) });
    const store = makeStore({ csrf: { token: 'token-123' } });

    await expect(store.dispatch(probeApi.endpoints.saveProbe.initiate()).unwrap()).rejects.toMatchObject({ status: 403 });
    expect(gateway.requests).toHaveLength(1);
  });

  it("fails with 'Failed to obtain CSRF token' when no token can be had", async () => {
    const gateway = fakeGateway({ tokens: [] });
    const store = makeStore();

    await expect(store.dispatch(probeApi.endpoints.saveProbe.initiate()).unwrap()).rejects.toEqual({ status: 'CUSTOM_ERROR', error: CSRF_UNAVAILABLE });
    expect(gateway.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });
});
