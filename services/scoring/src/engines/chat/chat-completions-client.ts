/**
 * One structured-output request to an OpenAI-compatible Chat Completions server
 * (`POST {baseUrl}/chat/completions` with `response_format: {type: "json_schema", json_schema:
 * {name, strict: true, schema}}`), made reliable:
 *
 * - each attempt has its own time limit (settings.timeoutMs), and the caller's signal ends it at
 *   once; an abort is rethrown as the signal's reason, never turned into a failure;
 * - 429, 5xx, network errors and time-outs are tried again, up to settings.maxAttempts in all,
 *   after an exponential backoff with jitter, or after the server's `Retry-After` (seconds or an
 *   HTTP date) or `retry-after-ms` on 429 and 503. A server asking for a longer wait than
 *   maxRetryAfterMs, or a 429 saying the quota is spent, is given up on at once: the caller falls
 *   back instead of holding a worker;
 * - any other 4xx is final (the request or the key is wrong; asking again changes nothing);
 * - every answer's `usage.total_tokens` is added to the caller's meter, failed ones included;
 *   a successful answer without usage is estimated (see `meterAnswer`).
 *
 * Failures are ChatEvaluationErrors whose messages name the server by its URL without
 * credentials, and never contain the API key.
 */
import { equalJitterBackoffMs } from '@parlance/platform/grpc/grpc-client';
import type { EvaluationModelSettings } from '../../config.js';
import { authHeaders, readChatReply, type ChatReply } from '../../model-server/chat-protocol.js';
import { chatCompletionsUrl, isTimeout, networkReason, serverErrorCode, serverMessage, withoutCredentials, withoutSecrets } from '../../model-server/model-server-text.js';
import { ChatEvaluationError, type ChatFailure } from './chat-evaluation-error.js';
import { estimateRequestTokens, estimateTokens } from './token-estimate.js';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export interface StructuredRequest {
  messages: ChatMessage[];
  /** The response format's name: letters, digits, _ and -, at most 64. */
  schemaName: string;
  /** A JSON schema in the subset strict structured outputs accept. */
  schema: object;
}

/** Counts the tokens a judgement used, over all its requests. */
export interface TokenMeter {
  /** Tokens the server reported in `usage.total_tokens`. */
  reported: number;
  /** Tokens estimated for answers that came without usage. */
  estimated: number;
}

export interface RetryPolicy {
  /** The first backoff; it doubles with each attempt, with jitter. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** The longest `Retry-After` scoring waits; a server asking for more is given up on. */
  maxRetryAfterMs: number;
}

/**
 * A minute is as long as a worker should sit on an activity for a rate limit: longer, and the
 * offline evaluator's answer now is worth more than the model's answer later.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { initialDelayMs: 1_000, maxDelayMs: 20_000, maxRetryAfterMs: 60_000 };

// Evaluations should not change from one run to the next.
const TEMPERATURE = 0;

export interface ChatCompletionsClient {
  /** "the model server at http://…/chat/completions", for messages. */
  readonly server: string;
  complete(request: StructuredRequest, signal: AbortSignal, meter: TokenMeter): Promise<ChatReply>;
}

/** An attempt that may succeed if tried again. */
interface RetryableOutcome {
  failure: Extract<ChatFailure, 'unreachable' | 'timeout' | 'unavailable'>;
  /** "answered HTTP 503", "did not answer within 120 s": the same words for the same outcome. */
  what: string;
  /** The server's own message, when it gave one. */
  detail?: string;
  status?: number;
  retryAfterMs?: number;
}

export function createChatCompletionsClient(settings: EvaluationModelSettings, retry: RetryPolicy = DEFAULT_RETRY_POLICY): ChatCompletionsClient {
  const url = chatCompletionsUrl(settings.baseUrl);
  const server = `the model server at ${withoutCredentials(url)}`;
  const scrub = (text: string) => withoutSecrets(text, settings.apiKey);
  const headers = authHeaders(settings.apiKey);

  /** One attempt: the reply, a retryable outcome, or a final ChatEvaluationError. */
  async function attempt(request: StructuredRequest, requestBody: string, signal: AbortSignal, meter: TokenMeter): Promise<ChatReply | RetryableOutcome> {
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { method: 'POST', headers, body: requestBody, signal: AbortSignal.any([signal, timeout]) });
      text = await response.text();
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (timeout.aborted || isTimeout(error)) return { failure: 'timeout', what: `did not answer within ${describeMs(settings.timeoutMs)}` };
      return { failure: 'unreachable', what: `could not be reached (${scrub(networkReason(error))})` };
    }
    const { status } = response;
    const reported = reportedTotal(text);
    if (reported !== undefined) meter.reported += reported;

    if (status === 429 || status >= 500) {
      const detail = serverMessage(text);
      const outcome: RetryableOutcome = { failure: 'unavailable', what: `answered HTTP ${status}`, status, ...(detail ? { detail: scrub(detail) } : {}) };
      if (status === 429 && serverErrorCode(text) === 'insufficient_quota') {
        throw new ChatEvaluationError('rate-limited', `${server} answered HTTP 429: its quota is spent${outcome.detail ? ` (${outcome.detail})` : ''}`, status);
      }
      const wait = status === 429 || status === 503 ? retryAfterMs(response.headers) : undefined;
      return wait === undefined ? outcome : { ...outcome, retryAfterMs: wait };
    }
    if (status < 200 || status > 299) {
      const detail = serverMessage(text);
      const explained = detail ? `: ${scrub(detail)}` : response.statusText ? ` ${response.statusText}` : '';
      throw new ChatEvaluationError('rejected', `${server} answered HTTP ${status}${explained}`, status);
    }
    const reply = readChatReply(text);
    if (typeof reply === 'string') throw new ChatEvaluationError('malformed', `${server} answered ${reply}`);
    if (reported === undefined) meterAnswer(request, reply, meter);
    return reply;
  }

  return {
    server,
    async complete(request, signal, meter) {
      signal.throwIfAborted();
      const body = JSON.stringify({
        model: settings.model,
        messages: request.messages,
        temperature: TEMPERATURE,
        response_format: { type: 'json_schema', json_schema: { name: request.schemaName, strict: true, schema: request.schema } },
      });
      const outcomes: RetryableOutcome[] = [];
      for (let attemptNumber = 1; ; attemptNumber += 1) {
        const result = await attempt(request, body, signal, meter);
        if (!('what' in result)) return result;
        outcomes.push(result);
        if (attemptNumber >= settings.maxAttempts) throw exhausted(server, outcomes);
        if (result.retryAfterMs !== undefined && result.retryAfterMs > retry.maxRetryAfterMs) {
          throw new ChatEvaluationError(
            'rate-limited',
            `${server} ${result.what} and asked to wait ${describeMs(result.retryAfterMs)} before trying again, longer than the ${describeMs(retry.maxRetryAfterMs)} scoring waits`,
            result.status,
          );
        }
        await pause(result.retryAfterMs ?? backoffMs(attemptNumber, retry), signal);
      }
    },
  };
}

/**
 * How long the server asks us to wait: `retry-after-ms` (OpenAI's and Azure's, in milliseconds),
 * else `Retry-After` in seconds or as an HTTP date. Undefined when it says nothing usable.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const milliseconds = headers.get('retry-after-ms')?.trim();
  if (milliseconds && /^\d+(\.\d+)?$/.test(milliseconds)) return Math.ceil(Number(milliseconds));
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential with "equal jitter" (half the delay fixed, half random, so workers spread out), as gRPC clients back off. */
export function backoffMs(attemptNumber: number, retry: RetryPolicy, random: () => number = Math.random): number {
  return equalJitterBackoffMs(attemptNumber, retry.initialDelayMs, retry.maxDelayMs, random);
}

/** `usage.total_tokens`, when the body reports it. */
function reportedTotal(text: string): number | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const total = (body as { usage?: { total_tokens?: unknown } } | null)?.usage?.total_tokens;
  return typeof total === 'number' && Number.isFinite(total) && total >= 0 ? total : undefined;
}

/**
 * A server that reports no usage (some self-hosted ones) still spent tokens: the prompt as our
 * estimator counts it, plus the answer. Failed attempts without usage count nothing, as servers
 * do not bill them.
 */
function meterAnswer(request: StructuredRequest, reply: ChatReply, meter: TokenMeter): void {
  meter.estimated += estimateRequestTokens(request.messages, request.schema) + estimateTokens(reply.content ?? reply.refusal ?? '');
}

/** "the model server at … answered HTTP 503 four times: The server is overloaded". */
function exhausted(server: string, outcomes: RetryableOutcome[]): ChatEvaluationError {
  const counts = new Map<string, number>();
  for (const outcome of outcomes) counts.set(outcome.what, (counts.get(outcome.what) ?? 0) + 1);
  const last = outcomes.at(-1)!;
  const what = [...counts].map(([description, count]) => `${description} ${times(count)}`).join(', then ');
  const said = outcomes.findLast((outcome) => outcome.detail)?.detail;
  return new ChatEvaluationError(last.failure, `${server} ${what}${said ? ` (${said})` : ''}`, last.status);
}

function times(count: number): string {
  const words = ['once', 'twice', 'three times', 'four times', 'five times', 'six times', 'seven times', 'eight times', 'nine times', 'ten times'];
  return words[count - 1] ?? `${count} times`;
}

function describeMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** Waits, unless the signal aborts first (then rejects with its reason). */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  if (ms <= 0) return;
  await new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
