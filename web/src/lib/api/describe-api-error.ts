import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

/** The API answers errors as `{ error: "sentence for a person" }`. */
function messageFromBody(data: unknown): string | null {
  if (typeof data === 'object' && data !== null && 'error' in data) {
    const { error } = data as { error: unknown };
    if (typeof error === 'string' && error.trim() !== '') return error;
  }
  return null;
}

export function describeApiError(error: FetchBaseQueryError | SerializedError | undefined): string {
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
      const detail = messageFromBody(error.data);
      return detail
        ? `The Parlance server answered with an error (HTTP ${error.status}): ${detail}`
        : `The Parlance server answered with an error (HTTP ${error.status}).`;
    }
  }
}
