import { describe, expect, it, vi } from 'vitest';
import { api, CSRF_HEADER } from '../lib/api/api-slice';
import { systemApi } from '../features/system/system-api';
import { makeStore } from './store';
import { jsonResponse } from '../testing/json-response';

// A state-changing endpoint for the test only; real features inject their own.
const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    saveProbe: build.mutation<{ saved: boolean }, void>({
      query: () => ({ url: '/probe', method: 'POST', body: { value: 1 } }),
    }),
  }),
});

function captureRequests() {
  const requests: Request[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      requests.push(input);
      return input.method === 'GET'
        ? jsonResponse({ status: 'ok', version: '0.1.0', mode: 'standalone', modules: [] })
        : jsonResponse({ saved: true });
    }),
  );
  return requests;
}

describe('CSRF header on API requests', () => {
  it('sends the session CSRF token on a POST', async () => {
    const requests = captureRequests();
    const store = makeStore({ session: { csrfToken: 'token-123' } });

    await store.dispatch(probeApi.endpoints.saveProbe.initiate()).unwrap();

    expect(requests).toHaveLength(1);
    expect(requests[0]?.method).toBe('POST');
    expect(requests[0]?.headers.get(CSRF_HEADER)).toBe('token-123');
  });

  it('does not send the CSRF token on a GET', async () => {
    const requests = captureRequests();
    const store = makeStore({ session: { csrfToken: 'token-123' } });

    await store.dispatch(systemApi.endpoints.getHealth.initiate()).unwrap();

    expect(requests).toHaveLength(1);
    expect(requests[0]?.method).toBe('GET');
    expect(requests[0]?.headers.has(CSRF_HEADER)).toBe(false);
  });

  it('sends no CSRF header on a POST before the gateway has handed out a token', async () => {
    const requests = captureRequests();
    const store = makeStore();

    await store.dispatch(probeApi.endpoints.saveProbe.initiate()).unwrap();

    expect(requests[0]?.headers.has(CSRF_HEADER)).toBe(false);
  });
});
