/**
 * What scoring says about an OpenAI-compatible model server, made safe to show a person or write
 * to a log: its URL without user and password, its error message without the API key, and why a
 * request could not reach it. The criterion suggester and the chat evaluation engine both speak
 * to the same server, and describe its failures with these.
 */
import { fitToLength } from './fit-to-length.js';

// Enough of a server's error message to explain it, not a page of HTML.
const SERVER_MESSAGE_MAX_LENGTH = 300;

/** `{baseUrl}/chat/completions`, however many slashes the base URL ends with. */
export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.trim().replace(/\/+$/, '')}/chat/completions`;
}

/** OpenAI's `{"error": {"message": …}}`, or a plain `{"message": …}` or `{"error": "…"}`. */
export function serverMessage(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const body = parsed as { error?: unknown; message?: unknown } | null;
  const error = body?.error;
  const message =
    typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string'
      ? (error as { message: string }).message
      : typeof error === 'string'
        ? error
        : typeof body?.message === 'string'
          ? body.message
          : undefined;
  const trimmed = message?.replace(/\s+/g, ' ').trim();
  return trimmed ? fitToLength(trimmed, SERVER_MESSAGE_MAX_LENGTH) : undefined;
}

/** OpenAI's `error.code` ("insufficient_quota", "context_length_exceeded"…), when the body has one. */
export function serverErrorCode(text: string): string | undefined {
  try {
    const code = (JSON.parse(text) as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** True for what fetch throws when its signal aborts or times out. */
export const isTimeout = (error: unknown) => error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

/** What undici's "fetch failed" hides in its cause: ECONNREFUSED, ENOTFOUND, a TLS error… */
export function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** The text with the API key, and anything shaped like a bearer token or an OpenAI key, masked. */
export function withoutSecrets(text: string, apiKey: string | undefined): string {
  const masked = apiKey ? text.split(apiKey).join('***') : text;
  return masked.replace(/\bBearer\s+\S+/gi, 'Bearer ***').replace(/\bsk-[A-Za-z0-9_-]{8,}/g, 'sk-***');
}
