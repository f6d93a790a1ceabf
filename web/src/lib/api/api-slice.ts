import { createApi, fetchBaseQuery, type FetchArgs } from '@reduxjs/toolkit/query/react';

export const CSRF_HEADER = 'X-CSRF-Token';

// Methods that change nothing on the server carry no CSRF token.
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function methodOf(arg: string | FetchArgs): string {
  return typeof arg === 'string' ? 'GET' : (arg.method ?? 'GET').toUpperCase();
}

// Shared code does not import features, so the API slice reads the token through the shape of
// the state it relies on rather than through the session feature's selector.
type StateWithCsrfToken = { session?: { csrfToken?: string | null } };

function csrfTokenFrom(state: unknown): string | null {
  return (state as StateWithCsrfToken).session?.csrfToken ?? null;
}

// The one API slice for the gateway. Its endpoints are generated from the gateway's OpenAPI
// document (gateway-api.generated.ts); features may add their own with `api.injectEndpoints`.
export const api = createApi({
  reducerPath: 'api',
  baseQuery: fetchBaseQuery({
    // Endpoint paths carry the /api prefix, as in the gateway's OpenAPI document they are generated from.
    baseUrl: '',
    credentials: 'include',
    prepareHeaders: (headers, { getState, arg }) => {
      const token = csrfTokenFrom(getState());
      if (token && !SAFE_METHODS.has(methodOf(arg))) {
        headers.set(CSRF_HEADER, token);
      }
      return headers;
    },
  }),
  endpoints: () => ({}),
});
