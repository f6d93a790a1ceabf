/**
 * The vendor HTTP client against a real local HTTP server that answers as each test scripts it:
 * the waits it asks of the (fake) sleep, the attempts the server counts, and the errors it throws.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createVendorHttp, VendorHttpError, type VendorHttpOptions } from '../src/vendors/vendor-http.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A scripted answer: JSON (or raw text) with a status and headers, a dropped connection, or an answer late by delayMs. */
type Reply = { status: number; headers?: Record<string, string>; body?: unknown; delayMs?: number } | 'drop';

const TOKEN = 'ya29.access-token-never-to-be-shown';
const NOW = Date.UTC(2026, 10, 3, 10, 0, 0);

let server: Server;
let origin: string;
let replies: Reply[] = [];
const received: Received[] = [];
const waits: number[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const reply = replies.shift() ?? { status: 500, body: { message: 'no reply scripted' } };
      if (reply === 'drop') {
        request.socket.destroy();
        return;
      }
      const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      const send = () => response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(text);
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

beforeEach(() => {
  replies = [];
  received.length = 0;
  waits.length = 0;
});

function script(...answers: Reply[]) {
  replies = answers;
}

function vendorHttp(options: Partial<VendorHttpOptions> = {}) {
  return createVendorHttp({
    vendor: 'Google',
    baseUrl: `${origin}/api/v1/`,
    authorize: async () => ({ authorization: `Bearer ${TOKEN}` }),
    sleep: async (ms) => void waits.push(ms),
    random: () => 0.5,
    now: () => NOW,
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<VendorHttpError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(VendorHttpError);
  return error as VendorHttpError;
}

const OK = { status: 200, body: { ok: true } };

describe('answers', () => {
  it('returns the parsed JSON, having sent the query, a JSON body and the authorize headers', async () => {
    script({ status: 200, body: { id: 'acti_1', tags: ['a'] } });

    const answer = await vendorHttp().request('POST', '/activity/note/', {
      query: { verbose: true, page: 2, skipped: undefined },
      body: { lead_id: 'lead_1', note: 'Called.' },
      headers: { 'x-request-id': 'r-1' },
    });

    expect(answer).toEqual({ id: 'acti_1', tags: ['a'] });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/api/v1/activity/note/?verbose=true&page=2', body: '{"lead_id":"lead_1","note":"Called."}' });
    expect(received[0]!.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'x-request-id': 'r-1',
    });
  });

  it('sends URLSearchParams as a form, as OAuth token endpoints want', async () => {
    script(OK);
    await vendorHttp().request('POST', '/token', { body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'r1' }) });
    expect(received[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(received[0]!.body).toBe('grant_type=refresh_token&refresh_token=r1');
  });

  it('returns null for an empty answer', async () => {
    script({ status: 204 });
    await expect(vendorHttp().request('DELETE', '/lead/lead_1/')).resolves.toBeNull();
  });

  it('asks authorize before every attempt, so a token refreshed meanwhile is used', async () => {
    script({ status: 503 }, OK);
    let issued = 0;
    await vendorHttp({ authorize: async () => ({ authorization: `Bearer token-${++issued}` }) }).request('GET', '/me/');
    expect(received.map((request) => request.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it('refuses a success whose body is not JSON, without trying again', async () => {
    script({ status: 200, body: '<html>maintenance</html>' });
    const error = await failure(vendorHttp().request('GET', '/me/'));
    expect(error).toMatchObject({ kind: 'server', status: 200, retryable: false, attempts: 1 });
    expect(received).toHaveLength(1);
  });
});

describe('rate limits: waiting exactly the time the vendor gives', () => {
  it('waits a 429’s Retry-After seconds', async () => {
    script({ status: 429, headers: { 'retry-after': '3' } }, OK);
    await expect(vendorHttp().request('GET', '/me/')).resolves.toEqual({ ok: true });
    expect(waits).toEqual([3000]);
    expect(received).toHaveLength(2);
  });

  it('waits until a 429’s Retry-After HTTP date, and not at all for a date already past', async () => {
    script({ status: 429, headers: { 'retry-after': new Date(NOW + 7_000).toUTCString() } }, { status: 429, headers: { 'retry-after': new Date(NOW - 60_000).toUTCString() } }, OK);
    await vendorHttp().request('GET', '/me/');
    expect(waits).toEqual([7000, 0]);
  });

  it('waits the rate_reset seconds of Close’s 429 body, in error or at the top level', async () => {
    script({ status: 429, body: { error: { rate_reset: 1.5, message: 'slow down' } } }, { status: 429, body: { rate_reset: 0.25 } }, OK);
    await vendorHttp({ vendor: 'Close' }).request('GET', '/activity/call/');
    expect(waits).toEqual([1500, 250]);
    expect(received).toHaveLength(3);
  });

  it('waits out HubSpot’s rate-limit interval when none of its requests remain', async () => {
    const hubSpotLimit = { 'x-hubspot-ratelimit-interval-milliseconds': '10000', 'x-hubspot-ratelimit-max': '100', 'x-hubspot-ratelimit-remaining': '0' };
    script({ status: 429, headers: hubSpotLimit, body: { status: 'error', errorType: 'RATE_LIMIT', policyName: 'TEN_SECONDLY_ROLLING' } }, OK);
    await vendorHttp({ vendor: 'HubSpot' }).request('GET', '/crm/v3/objects/calls');
    expect(waits).toEqual([10000]);
  });

  it('backs off exponentially from a 429 that names no wait (HubSpot’s with requests remaining too)', async () => {
    const remaining = { 'x-hubspot-ratelimit-interval-milliseconds': '10000', 'x-hubspot-ratelimit-remaining': '7' };
    script({ status: 429 }, { status: 429, headers: remaining }, OK);
    await vendorHttp().request('GET', '/me/');
    expect(waits).toEqual([1500, 2500]);
  });

  it.each([
    ['error.errors[].reason userRateLimitExceeded', { error: { code: 403, message: 'User Rate Limit Exceeded', errors: [{ domain: 'usageLimits', reason: 'userRateLimitExceeded' }] } }],
    ['error.errors[].reason rateLimitExceeded', { error: { code: 403, errors: [{ domain: 'usageLimits', reason: 'rateLimitExceeded' }] } }],
    ['error.details[].reason RATE_LIMIT_EXCEEDED', { error: { code: 403, status: 'PERMISSION_DENIED', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'RATE_LIMIT_EXCEEDED' }] } }],
    ['error.status USER_RATE_LIMIT_EXCEEDED', { error: { code: 403, status: 'USER_RATE_LIMIT_EXCEEDED' } }],
  ])('backs off exponentially from Google’s 403 with %s', async (_, body) => {
    script({ status: 403, body }, { status: 403, body }, OK);
    await expect(vendorHttp().request('GET', '/drive/v3/files')).resolves.toEqual({ ok: true });
    expect(waits).toEqual([1500, 2500]);
    expect(received).toHaveLength(3);
  });

  it('treats Google’s other 403s (a daily quota, a missing permission) as final', async () => {
    script({ status: 403, body: { error: { code: 403, message: 'Daily Limit Exceeded', errors: [{ reason: 'dailyLimitExceeded' }] } } });
    const error = await failure(vendorHttp().request('GET', '/drive/v3/files'));
    expect(error).toMatchObject({ kind: 'client', status: 403, retryable: false, attempts: 1 });
    expect(error.message).toBe('Google answered HTTP 403 to GET /drive/v3/files: Daily Limit Exceeded');
    expect(waits).toEqual([]);
  });

  it('throws the last rate limit once maxAttempts are spent', async () => {
    script(...Array.from({ length: 3 }, (): Reply => ({ status: 429, body: { error: { rate_reset: 2, message: 'API call count exceeded' } } })));
    const error = await failure(vendorHttp({ vendor: 'Close', maxAttempts: 3 }).request('GET', '/lead/'));
    expect(error).toMatchObject({ vendor: 'Close', kind: 'rate_limited', status: 429, retryable: true, retryAfterMs: 2000, attempts: 3 });
    expect(error.message).toBe('Close answered HTTP 429 to GET /lead/: API call count exceeded (after 3 attempts)');
    expect(waits).toEqual([2000, 2000]);
    expect(received).toHaveLength(3);
  });
});

describe('server and network failures: exponential backoff with jitter', () => {
  it('waits 1 s, 2 s, 4 s… plus the jitter between attempts at a failing server', async () => {
    script({ status: 500 }, { status: 502 }, { status: 503 }, OK);
    await expect(vendorHttp().request('GET', '/me/')).resolves.toEqual({ ok: true });
    expect(waits).toEqual([1500, 2500, 4500]);
    expect(received).toHaveLength(4);
  });

  it('adds up to a second of jitter drawn from random', async () => {
    script({ status: 503 }, OK, { status: 503 }, OK);
    await vendorHttp({ random: () => 0 }).request('GET', '/me/');
    await vendorHttp({ random: () => 0.9999 }).request('GET', '/me/');
    expect(waits).toEqual([1000, 1999]);
  });

  it('never waits more than 32 s, and throws the last failure after maxAttempts', async () => {
    script(...Array.from({ length: 8 }, (): Reply => ({ status: 503, body: { message: 'Service Unavailable' } })));
    const error = await failure(vendorHttp({ maxAttempts: 8 }).request('GET', '/me/'));
    expect(waits).toEqual([1500, 2500, 4500, 8500, 16500, 32000, 32000]);
    expect(error).toMatchObject({ kind: 'server', status: 503, retryable: true, attempts: 8 });
    expect(received).toHaveLength(8);
  });

  it('tries again after a dropped connection', async () => {
    script('drop', OK);
    await expect(vendorHttp().request('GET', '/me/')).resolves.toEqual({ ok: true });
    expect(waits).toEqual([1500]);
    expect(received).toHaveLength(2);
  });

  it('reports a vendor out of reach as a network failure with no status', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const error = await failure(vendorHttp({ baseUrl: `http://127.0.0.1:${port}`, maxAttempts: 2 }).request('GET', '/me/'));
    expect(error).toMatchObject({ kind: 'network', status: undefined, retryable: true, attempts: 2 });
    expect(error.message).toBe('Google could not be reached for GET /me/ (ECONNREFUSED) (after 2 attempts)');
    expect(waits).toEqual([1500]);
  });

  it('ends an attempt at its time limit, as a network failure', async () => {
    script({ ...OK, delayMs: 500 });
    const error = await failure(vendorHttp({ timeoutMs: 20, maxAttempts: 1 }).request('GET', '/slow/'));
    expect(error).toMatchObject({ kind: 'network', retryable: true, attempts: 1 });
    expect(error.message).toBe('Google did not answer GET /slow/ within 0.02 s');
  });
});

describe('requests that must not be done twice, and waits too long to make', () => {
  it('gives a 5xx or a lost answer to a non-idempotent request back at once: the vendor may have done it', async () => {
    script({ status: 503, body: { message: 'Service Unavailable' } }, 'drop');
    const http = vendorHttp({ vendor: 'Close' });
    const afterServerError = await failure(http.request('POST', '/activity/note/', { body: { note: 'Score 7.5' }, idempotent: false }));
    expect(afterServerError).toMatchObject({ kind: 'server', status: 503, retryable: true, attempts: 1 });
    const afterDrop = await failure(http.request('POST', '/activity/note/', { body: { note: 'Score 7.5' }, idempotent: false }));
    expect(afterDrop).toMatchObject({ kind: 'network', retryable: true, attempts: 1 });
    expect(waits).toEqual([]);
    expect(received).toHaveLength(2);
  });

  it('tries a non-idempotent request again after a rate limit, which the vendor refused without doing it', async () => {
    script({ status: 429, body: { error: { rate_reset: 2 } } }, OK);
    await expect(vendorHttp({ vendor: 'Close' }).request('POST', '/activity/note/', { body: { note: 'Score 7.5' }, idempotent: false })).resolves.toEqual({ ok: true });
    expect(waits).toEqual([2000]);
  });

  it('tries a non-idempotent request again when the connection was never made', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const error = await failure(vendorHttp({ baseUrl: `http://127.0.0.1:${port}`, maxAttempts: 3 }).request('POST', '/activity/note/', { idempotent: false }));
    expect(error).toMatchObject({ kind: 'network', attempts: 3 });
    expect(waits).toEqual([1500, 2500]);
  });

  it('gives a rate limit back with its wait when the wait is longer than maxWaitMs', async () => {
    script({ status: 429, headers: { 'retry-after': '600' } });
    const error = await failure(vendorHttp({ maxWaitMs: 60_000 }).request('GET', '/me/'));
    expect(error).toMatchObject({ kind: 'rate_limited', retryable: true, retryAfterMs: 600_000, attempts: 1 });
    expect(waits).toEqual([]);
  });
});

describe('final refusals', () => {
  it.each([
    [400, { errors: [], 'field-errors': { lead_id: 'This field is required.' } }, 'client', 'lead_id: This field is required.'],
    [404, { error: 'Not found.' }, 'client', 'Not found.'],
    [422, 'Unprocessable', 'client', 'Unprocessable'],
    [401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } }, 'unauthorized', 'Request had invalid authentication credentials.'],
  ] as const)('gives HTTP %i as kind %s at once', async (status, body, kind, words) => {
    script({ status, body }, OK);
    const error = await failure(vendorHttp().request('PUT', '/lead/lead_1/?x=1', { body: { status_id: 'stat_1' } }));
    expect(error).toMatchObject({ kind, status, retryable: false, attempts: 1 });
    expect(error.message).toBe(`Google answered HTTP ${status} to PUT /lead/lead_1/: ${words}`);
    expect(received).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it.each([
    ['Google’s 400 invalid_grant', 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }],
    ['a 401 invalid_grant', 401, { error: 'invalid_grant' }],
    ['HubSpot’s 400 BAD_REFRESH_TOKEN', 400, { status: 'BAD_REFRESH_TOKEN', message: 'missing or invalid refresh token' }],
  ])('tells %s apart as kind invalid_grant, at once', async (_, status, body) => {
    script({ status, body }, OK);
    const error = await failure(vendorHttp().request('POST', '/token', { body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'rt' }) }));
    expect(error).toMatchObject({ kind: 'invalid_grant', status, retryable: false, attempts: 1 });
    expect(received).toHaveLength(1);
  });
});

describe('secrets', () => {
  it('scrubs credentials and request values from what the vendor says back', async () => {
    const apiKey = 'api_close.secret-key-0123';
    const refreshToken = '1//0g-refresh-token-secret';
    script({ status: 400, body: { error: `Bad request from ${apiKey} with Basic ${Buffer.from(`${apiKey}:`).toString('base64')} for ${refreshToken}` } });

    const http = vendorHttp({ vendor: 'Close', authorize: async () => ({ authorization: `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}` }) });
    const error = await failure(http.request('POST', '/token', { body: new URLSearchParams({ refresh_token: refreshToken }) }));

    expect(error.message).toBe('Close answered HTTP 400 to POST /token: Bad request from [redacted] with [redacted] for [redacted]');
  });

  it('names the path without its query, and logs retries with the same few facts', async () => {
    const logged: unknown[] = [];
    script({ status: 503, body: { message: `token ${TOKEN} refused` } }, { status: 503 });
    const http = vendorHttp({ maxAttempts: 2, logger: { warn: (facts: unknown, message?: string) => void logged.push({ facts, message }) } });

    const error = await failure(http.request('POST', '/files/?access_token=query-secret', { body: { name: 'renewal-acme' } }));

    expect(error.message).toBe('Google answered HTTP 503 to POST /files/ (after 2 attempts)');
    expect(logged).toEqual([
      {
        facts: { vendor: 'Google', method: 'POST', path: '/files/', status: 503, kind: 'server', attempt: 1, waitMs: 1500 },
        message: 'vendor request failed; trying again',
      },
    ]);
    expect(JSON.stringify(logged)).not.toContain(TOKEN);
    expect(JSON.stringify(logged)).not.toContain('renewal-acme');
  });
});

describe('downloads', () => {
  it('returns the bytes, with the credentials when the file is on the API’s own origin, tried again after a 5xx', async () => {
    script({ status: 503, body: { message: 'busy' } }, { status: 200, headers: { 'content-type': 'audio/mpeg' }, body: 'ID3-audio-bytes' });

    const bytes = await vendorHttp().download(`${origin}/api/v1/activity/call/acti_1/recording/`, 1_000);

    expect(bytes.toString('utf8')).toBe('ID3-audio-bytes');
    expect(received.map((request) => [request.url, request.headers.authorization])).toEqual([
      ['/api/v1/activity/call/acti_1/recording/', `Bearer ${TOKEN}`],
      ['/api/v1/activity/call/acti_1/recording/', `Bearer ${TOKEN}`],
    ]);
    expect(waits).toEqual([1_500]);
  });

  it('sends no credentials to another origin, and names only the path of a signed link', async () => {
    script({ status: 403, body: 'Request has expired' });
    const elsewhere = createVendorHttp({ vendor: 'Close', baseUrl: 'https://api.close.test/api/v1/', authorize: async () => ({ authorization: `Bearer ${TOKEN}` }) });

    const error = await failure(elsewhere.download(`${origin}/recordings/acti_1.mp3?X-Signature=secret-signature`, 1_000));

    expect(received[0]!.headers.authorization).toBeUndefined();
    expect(error.message).toContain('GET /recordings/acti_1.mp3');
    expect(error.message).not.toContain('secret-signature');
  });

  it('refuses a file larger than the limit without reading it', async () => {
    script({ status: 200, body: 'x'.repeat(2_000) });
    const declared = await failure(vendorHttp().download(`${origin}/api/v1/big`, 1_000));
    expect(declared).toMatchObject({ kind: 'client', retryable: false });
    expect(declared.message).toContain('sent more than 1000 bytes for GET /api/v1/big');
  });
});
