import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';

/** How a failed call through the API slice reports its error (`result.error`, or what `unwrap` throws). */
export type CallError = FetchBaseQueryError | SerializedError | undefined;

/** The sentence the gateway puts in an error answer's body: `{ error }`, or `{ message }`. */
export function sentenceInBody(data: unknown): string | undefined {
  const body = data as { error?: unknown; message?: unknown } | null | undefined;
  return [body?.error, body?.message].find((text): text is string => typeof text === 'string' && text.trim() !== '');
}

/**
 * What a failed call has to say for itself: the gateway's sentence, or the base query's own
 * (e.g. 'Failed to obtain CSRF token'). Undefined when neither said anything.
 */
export function serverMessage(error: CallError): string | undefined {
  if (!error || !('status' in error)) return undefined;
  if (error.status === 'CUSTOM_ERROR') return error.error;
  return sentenceInBody(error.data);
}

/** The sentence to show for a failed call: what it said, or the caller's fallback. */
export function errorMessage(error: CallError, fallback: string): string {
  return serverMessage(error) ?? fallback;
}

/** A failed call described for the status page, where the kind of failure matters. */
export function describeApiError(error: CallError): string {
  if (error === undefined) return 'Something went wrong.';

  if (!('status' in error)) {
    return error.message ?? 'Something went wrong.';
  }

  switch (error.status) {
    case 'FETCH_ERROR':
      return 'Could not reach the Parlance server. Check your connection and try again.';
    case 'TIMEOUT_ERROR':
      return 'The Parlance server took too long to answer. Try again in a moment.';
    case 'PARSING_ERROR':
      return `The Parlance server sent an answer that could not be read (HTTP ${error.originalStatus}).`;
    case 'CUSTOM_ERROR':
      return error.error;
    default: {
      const detail = sentenceInBody(error.data);
      return detail
        ? `The Parlance server answered with an error (HTTP ${error.status}): ${detail}`
        : `The Parlance server answered with an error (HTTP ${error.status}).`;
    }
  }
}
