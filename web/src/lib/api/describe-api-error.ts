import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

function messageFromBody(data: unknown): string | null {
  if (typeof data === 'object' && data !== null && 'message' in data) {
    const { message } = data as { message: unknown };
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return null;
}

// Turns whatever RTK Query reports into one sentence a person can act on.
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
