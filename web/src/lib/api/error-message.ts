import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';

/**
 * The sentence to show for a failed call: the gateway's `{ error }` when it sent one, the base
 * query's own message (e.g. 'Failed to obtain CSRF token'), or the caller's fallback.
 */
export function errorMessage(error: FetchBaseQueryError | SerializedError | undefined, fallback: string): string {
  if (!error) return fallback;
  if ('status' in error) {
    const body = error.data as { error?: unknown; message?: unknown } | undefined;
    if (typeof body?.error === 'string' && body.error) return body.error;
    if (typeof body?.message === 'string' && body.message) return body.message;
    if (error.status === 'CUSTOM_ERROR' && error.error) return error.error;
    return fallback;
  }
  return fallback;
}
