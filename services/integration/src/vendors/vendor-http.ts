/**
 * The one way integration calls a vendor's HTTP API (Close, HubSpot, Google), made reliable the
 * same way for all of them:
 *
 * - a rate limit is honoured by waiting exactly the time the vendor gives, then trying again: a
 *   429's `Retry-After` (seconds or an HTTP date), Close's `rate_reset` seconds in a 429's body
 *   (`error.rate_reset`, or at the top level), or HubSpot's rate-limit window
 *   (`X-HubSpot-RateLimit-Interval-Milliseconds` once `X-HubSpot-RateLimit-Remaining` is 0);
 * - a 429 that names no wait, Google's 403 whose reason is `userRateLimitExceeded` or
 *   `rateLimitExceeded`, a 5xx, a network error or a time-out is tried again after an exponential
 *   backoff: 1 s, 2 s, 4 s… plus up to 1 s of jitter, at most 32 s (Google's recommendation);
 * - any other 4xx is final: asking again changes nothing. OAuth's `invalid_grant` (and HubSpot's
 *   `BAD_REFRESH_TOKEN`) is told apart from other refusals: the user must connect again.
 *
 * A request that is not idempotent (a POST creating a note) is tried again only when the vendor
 * surely did nothing with it: a rate limit, or a connection never made. After a 5xx or a lost
 * answer it may have been done, so the failure goes back to the caller, who can look before
 * sending it again. A wait longer than `maxWaitMs` is not waited here either: the failure goes
 * back with the wait asked for (`retryAfterMs`), for the caller to come back later.
 *
 * After maxAttempts the last failure is thrown, as a VendorHttpError. Its message names the
 * vendor, the method and the path; never the query, the request's headers (credentials) or body,
 * whose values are also scrubbed from anything the vendor says back. A retry is logged with the
 * same few facts (vendor, method, path, status, kind, wait), never the vendor's words.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '@parlance/platform/logger';

export type VendorHttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type VendorFailureKind = 'rate_limited' | 'unauthorized' | 'invalid_grant' | 'server' | 'client' | 'network';

export class VendorHttpError extends Error {
  readonly vendor: string;
  readonly kind: VendorFailureKind;
  /** The HTTP status, or undefined when the vendor gave no answer (kind 'network'). */
  readonly status: number | undefined;
  /** Whether the same request may succeed later (a rate limit, the vendor's or the network's trouble). */
  readonly retryable: boolean;
  /** The wait the vendor asked for before the next request, when it named one. */
  readonly retryAfterMs: number | undefined;
  readonly attempts: number;

  constructor(failure: { vendor: string; kind: VendorFailureKind; status?: number; retryable: boolean; retryAfterMs?: number; attempts: number; message: string }) {
    super(failure.message);
    this.name = 'VendorHttpError';
    this.vendor = failure.vendor;
    this.kind = failure.kind;
    this.status = failure.status;
    this.retryable = failure.retryable;
    this.retryAfterMs = failure.retryAfterMs;
    this.attempts = failure.attempts;
  }
}

/** The vendor no longer accepts the credentials held (a deleted API key, a revoked refresh token): the connection must be made again. */
export function refusesCredentials(error: unknown): boolean {
  return error instanceof VendorHttpError && (error.kind === 'unauthorized' || error.kind === 'invalid_grant');
}

export interface VendorHttpOptions {
  /** The vendor's name, for messages: "Close", "HubSpot", "Google". */
  vendor: string;
  baseUrl: string;
  /** The credential headers (Basic or Bearer), asked before every attempt so a refreshed token is used. */
  authorize: () => Promise<Record<string, string>>;
  /** Attempts in all, the first included; 5 unless said. */
  maxAttempts?: number;
  /** Each attempt's time limit; 30 s unless said. */
  timeoutMs?: number;
  /** The longest wait between attempts; a vendor asking for more gets the failure back instead. 60 s unless said. */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Draws the backoff's jitter, in [0, 1). */
  random?: () => number;
  /** The clock a `Retry-After` HTTP date is measured against, in epoch milliseconds. */
  now?: () => number;
  fetch?: typeof fetch;
  /** Told of each failed attempt that will be tried again. */
  logger?: Pick<Logger, 'warn'>;
}

export interface VendorRequest {
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as a form when URLSearchParams (OAuth token endpoints), as JSON otherwise. */
  body?: unknown;
  /** Extra headers; they win over the defaults and authorize's. */
  headers?: Record<string, string>;
  /** False for a request that must not be done twice: it is tried again only when the vendor surely did nothing with it. */
  idempotent?: boolean;
  /** How errors and logs name the path when the path itself holds a secret (HubSpot's token info: /oauth/v1/access-tokens/{token}). */
  pathLabel?: string;
}

export interface VendorHttp {
  /**
   * The answer's parsed JSON, null for an empty answer; a VendorHttpError otherwise (a success
   * whose body is not JSON included, as a final 'server' failure).
   */
  request(method: VendorHttpMethod, path: string, request?: VendorRequest): Promise<unknown>;
  /**
   * The bytes at `url` (a recording), tried again like a request. The credentials go only to the
   * API's own origin: a recording stored elsewhere (a signed link) gets none. More than
   * `maxBytes` is a final 'client' failure, read no further.
   */
  download(url: string, maxBytes: number): Promise<Buffer>;
}

const DEFAULT_MAX_ATTEMPTS = 5;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_WAIT_MS = 60_000;
/** Network failures in which the request never reached the vendor. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
const FIRST_BACKOFF_MS = 1_000;
const MAX_JITTER_MS = 1_000;
const MAX_BACKOFF_MS = 32_000;
const GOOGLE_RATE_LIMIT_REASONS = new Set(['userratelimitexceeded', 'ratelimitexceeded']);
const DETAIL_MAX_CHARS = 300;
// Shorter values (true, 10, "en") are too common in a vendor's words to be worth hiding.
const MIN_SCRUBBED_CHARS = 4;

/** One attempt that did not give an answer to return. */
interface Failure {
  kind: VendorFailureKind;
  retryable: boolean;
  /** "answered HTTP 503 to GET /me/", "could not be reached for GET /me/ (ECONNRESET)". */
  what: string;
  /** The vendor's own words, scrubbed. */
  detail?: string;
  status?: number;
  retryAfterMs?: number;
  /** The vendor surely did nothing with the request: it refused it for the rate, or never got it. */
  notDone?: boolean;
}

export function createVendorHttp(options: VendorHttpOptions): VendorHttp {
  const { vendor, authorize } = options;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const send = options.fetch ?? fetch;
  const logger = options.logger;

  async function attempt(method: VendorHttpMethod, url: string, where: string, request: VendorRequest, download?: { maxBytes: number }): Promise<{ value: unknown } | Failure> {
    const credentials = download && new URL(url).origin !== new URL(options.baseUrl).origin ? {} : await authorize();
    const secrets = secretsOf(credentials, request);
    const scrub = (text: string) => withoutSecrets(text, secrets);
    const { body, contentType } = encodedBody(request.body);
    const headers = { accept: download ? '*/*' : 'application/json', ...(contentType ? { 'content-type': contentType } : {}), ...credentials, ...request.headers };
    const timeout = AbortSignal.timeout(timeoutMs);

    let response: Response;
    let text: string;
    try {
      response = await send(url, { method, headers, body, signal: timeout });
      if (download && response.ok) {
        const bytes = await bodyUpTo(response, download.maxBytes);
        if (bytes) return { value: bytes };
        return { kind: 'client', retryable: false, status: response.status, what: `sent more than ${download.maxBytes} bytes for ${where}` };
      }
      text = await response.text();
    } catch (error) {
      if (timeout.aborted) return { kind: 'network', retryable: true, what: `did not answer ${where} within ${timeoutMs / 1000} s` };
      const reason = networkReason(error);
      return { kind: 'network', retryable: true, notDone: NOT_SENT_CODES.has(reason), what: `could not be reached for ${where} (${scrub(reason)})` };
    }

    const { status } = response;
    const json = parsedJson(text);
    if (response.ok) {
      if (text.trim() === '') return { value: null };
      if (json === NOT_JSON) return { kind: 'server', retryable: false, status, what: `answered ${where} with a body that is not JSON` };
      return { value: json };
    }

    const answered = { status, what: `answered HTTP ${status} to ${where}`, detail: vendorWords(json, text, scrub) };
    if (status === 429) {
      const retryAfterMs = retryAfterHeaderMs(response.headers.get('retry-after'), now()) ?? rateResetMs(json) ?? hubSpotWindowMs(response.headers);
      return { kind: 'rate_limited', retryable: true, notDone: true, ...answered, retryAfterMs };
    }
    if (status === 403 && isGoogleRateLimit(json)) return { kind: 'rate_limited', retryable: true, notDone: true, ...answered };
    if ((status === 400 || status === 401) && isInvalidGrant(json)) return { kind: 'invalid_grant', retryable: false, ...answered };
    if (status === 401) return { kind: 'unauthorized', retryable: false, ...answered };
    if (status >= 500) return { kind: 'server', retryable: true, ...answered };
    return { kind: 'client', retryable: false, ...answered };
  }

  async function withRetries(method: VendorHttpMethod, url: string, path: string, request: VendorRequest, download?: { maxBytes: number }): Promise<unknown> {
    const where = `${method} ${path}`;
    for (let attemptNumber = 1; ; attemptNumber += 1) {
      const outcome = await attempt(method, url, where, request, download);
      if ('value' in outcome) return outcome.value;
      const waitMs = outcome.retryAfterMs ?? backoffMs(attemptNumber, random);
      const mayRepeat = request.idempotent !== false || outcome.notDone === true;
      if (!outcome.retryable || !mayRepeat || attemptNumber >= maxAttempts || waitMs > maxWaitMs) throw vendorError(vendor, outcome, attemptNumber);
      logger?.warn({ vendor, method, path, status: outcome.status, kind: outcome.kind, attempt: attemptNumber, waitMs }, 'vendor request failed; trying again');
      await sleep(waitMs);
    }
  }

  return {
    request(method, path, request = {}) {
      return withRetries(method, requestUrl(options.baseUrl, path, request.query), request.pathLabel ?? path.split('?')[0]!, request);
    },

    async download(url, maxBytes) {
      // A signed link carries its credential in the query: only the path is ever named.
      return (await withRetries('GET', url, new URL(url).pathname, {}, { maxBytes })) as Buffer;
    },
  };
}

/** The whole body, or undefined once it passes `maxBytes` (the rest is not read). */
async function bodyUpTo(response: Response, maxBytes: number): Promise<Buffer | undefined> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  if (!response.body) return Buffer.alloc(0);
  // Leaving the loop early cancels the stream: the rest is never downloaded.
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > maxBytes) return undefined;
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** The wait after the `attempt`th failed attempt: 1 s, 2 s, 4 s… plus jitter, at most 32 s. */
function backoffMs(attempt: number, random: () => number): number {
  return Math.min(FIRST_BACKOFF_MS * 2 ** (attempt - 1) + Math.floor(random() * MAX_JITTER_MS), MAX_BACKOFF_MS);
}

function vendorError(vendor: string, failure: Failure, attempts: number): VendorHttpError {
  const detail = failure.detail ? `: ${failure.detail}` : '';
  const tries = attempts > 1 ? ` (after ${attempts} attempts)` : '';
  return new VendorHttpError({
    vendor,
    kind: failure.kind,
    status: failure.status,
    retryable: failure.retryable,
    retryAfterMs: failure.retryAfterMs,
    attempts,
    message: `${vendor} ${failure.what}${detail}${tries}`,
  });
}

function requestUrl(baseUrl: string, path: string, query: VendorRequest['query']): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

function encodedBody(body: unknown): { body?: string; contentType?: string } {
  if (body === undefined) return {};
  if (body instanceof URLSearchParams) return { body: body.toString(), contentType: 'application/x-www-form-urlencoded' };
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

/** `Retry-After`: a number of seconds, or an HTTP date (a date already past means now). */
function retryAfterHeaderMs(value: string | null, nowMs: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Close's 429 body: `{"error": {"rate_reset": 1.5, …}}` (seconds); a top-level `rate_reset` too. */
function rateResetMs(json: unknown): number | undefined {
  const body = asRecord(json);
  const seconds = asRecord(body?.error)?.rate_reset ?? body?.rate_reset;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : undefined;
}

/** HubSpot's window: when none of its requests remain, the rest of the window is the wait. */
function hubSpotWindowMs(headers: Headers): number | undefined {
  const remaining = headers.get('x-hubspot-ratelimit-remaining')?.trim();
  const interval = Number(headers.get('x-hubspot-ratelimit-interval-milliseconds') ?? Number.NaN);
  return remaining === '0' && Number.isFinite(interval) && interval >= 0 ? interval : undefined;
}

/**
 * Google's quota refusals: `error.errors[].reason` (older APIs) or `error.details[].reason` and
 * `error.status` (newer ones, which spell it RATE_LIMIT_EXCEEDED). Other 403s are final.
 */
function isGoogleRateLimit(json: unknown): boolean {
  const error = asRecord(asRecord(json)?.error);
  if (!error) return false;
  const reasons = [...asArray(error.errors).map((entry) => asRecord(entry)?.reason), ...asArray(error.details).map((entry) => asRecord(entry)?.reason), error.status];
  return reasons.some((reason) => typeof reason === 'string' && GOOGLE_RATE_LIMIT_REASONS.has(reason.replaceAll('_', '').toLowerCase()));
}

/** An OAuth token endpoint refusing a refresh token: Google's and RFC 6749's `invalid_grant`, HubSpot's BAD_REFRESH_TOKEN. */
function isInvalidGrant(json: unknown): boolean {
  const body = asRecord(json);
  return body?.error === 'invalid_grant' || body?.status === 'BAD_REFRESH_TOKEN';
}

/** What the vendor said of the refusal, on one line, in the shapes Close, HubSpot, Google and OAuth use. */
function vendorWords(json: unknown, text: string, scrub: (text: string) => string): string | undefined {
  const body = asRecord(json);
  let words: unknown;
  if (body) {
    const error = body.error;
    words = [body.error_description, asRecord(error)?.message, body.message, error, asArray(body.errors)[0], fieldErrors(body['field-errors'])].find(
      (candidate) => typeof candidate === 'string' && candidate.trim() !== '',
    );
  } else if (json === NOT_JSON) {
    words = text;
  }
  if (typeof words !== 'string') return undefined;
  const line = scrub(words.replace(/\s+/g, ' ').trim());
  return line.length > DETAIL_MAX_CHARS ? `${line.slice(0, DETAIL_MAX_CHARS)}…` : line;
}

/** Close's validation errors: `{"field-errors": {"lead": "This field is required."}}`. */
function fieldErrors(value: unknown): string | undefined {
  const fields = asRecord(value);
  if (!fields) return undefined;
  return Object.entries(fields)
    .map(([field, problem]) => `${field}: ${String(problem)}`)
    .join('; ');
}

/** Every value a request carries that must not be repeated: its credential headers and body values. */
function secretsOf(credentials: Record<string, string>, request: VendorRequest): string[] {
  const values = [...Object.values(credentials), ...Object.values(request.headers ?? {})].flatMap(credentialParts);
  values.push(...stringLeaves(request.body));
  return values.filter((value) => value.length >= MIN_SCRUBBED_CHARS).sort((a, b) => b.length - a.length);
}

/** A header value, the credential after its scheme ("Bearer …"), and a Basic credential's user name and password. */
function credentialParts(value: string): string[] {
  const parts = [value];
  const scheme = /^(\S+)\s+(\S+)$/.exec(value.trim());
  if (scheme) {
    parts.push(scheme[2]!);
    if (scheme[1]!.toLowerCase() === 'basic') {
      const decoded = Buffer.from(scheme[2]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0) parts.push(decoded.slice(0, colon), decoded.slice(colon + 1));
    }
  }
  return parts;
}

function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value instanceof URLSearchParams) return [...value.values()];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringLeaves);
  return [];
}

function withoutSecrets(text: string, secrets: readonly string[]): string {
  return secrets.reduce((scrubbed, secret) => scrubbed.replaceAll(secret, '[redacted]'), text);
}

/** The network's reason (ECONNREFUSED, "other side closed"), from fetch's TypeError or its cause. */
function networkReason(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause && typeof cause === 'object') {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string') return code;
    if (typeof message === 'string') return message;
  }
  return error instanceof Error ? error.message : String(error);
}

const NOT_JSON = Symbol('not JSON');

function parsedJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

