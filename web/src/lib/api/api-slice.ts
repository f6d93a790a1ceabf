import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { csrfSlice, csrfTokenReceived } from './csrf-slice';
import { signedOut } from '../auth/auth-slice';

export const CSRF_HEADER = 'X-CSRF-Token';
/** What the gateway answers (403) when a change request carries a missing or stale token. */
export const CSRF_REJECTED = 'CSRF validation failed';
/** What the gateway answers (401) when a call needs a session and it has ended or expired. */
export const SIGN_IN_REQUIRED = 'Please sign in to continue.';
/** Spec part 1 §8: the error when no token can be obtained. */
export const CSRF_UNAVAILABLE = 'Failed to obtain CSRF token';

// Methods that change nothing on the server carry no CSRF token.
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function methodOf(arg: string | FetchArgs): string {
  return typeof arg === 'string' ? 'GET' : (arg.method ?? 'GET').toUpperCase();
}

const tokenIn = (state: unknown) => csrfSlice.selectSlice(state as { csrf: ReturnType<typeof csrfSlice.reducer> }).token;

const plainQuery = fetchBaseQuery({
  // Endpoint paths carry the /api prefix, as in the gateway's OpenAPI document they are generated from.
  baseUrl: '',
  credentials: 'include',
  prepareHeaders: (headers, { getState, arg }) => {
    const token = tokenIn(getState());
    if (token && !SAFE_METHODS.has(methodOf(arg))) headers.set(CSRF_HEADER, token);
    return headers;
  },
});

const isCsrfRejection = (error: FetchBaseQueryError | undefined) =>
  error?.status === 403 && (error.data as { error?: unknown } | undefined)?.error === CSRF_REJECTED;

/** One token request at a time per store: changes sent together wait for the same token. */
const pendingTokens = new WeakMap<object, Promise<boolean>>();

/**
 * Spec part 1 §4: the CSRF token is fetched once and cached; a change request refused with
 * 'CSRF validation failed' fetches a new token and is sent once more. When no token can be had
 * the request fails with 'Failed to obtain CSRF token'.
 */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, context, extraOptions) => {
  if (SAFE_METHODS.has(methodOf(args))) return plainQuery(args, context, extraOptions);

  const refreshToken = () => {
    let pending = pendingTokens.get(context.dispatch);
    if (!pending) {
      pending = (async () => {
        const answer = await plainQuery('/api/csrf-token', context, extraOptions);
        const token = (answer.data as { csrfToken?: unknown } | undefined)?.csrfToken;
        if (typeof token !== 'string' || token === '') return false;
        context.dispatch(csrfTokenReceived(token));
        return true;
      })().finally(() => pendingTokens.delete(context.dispatch));
      pendingTokens.set(context.dispatch, pending);
    }
    return pending;
  };
  const unavailable = { error: { status: 'CUSTOM_ERROR', error: CSRF_UNAVAILABLE } as FetchBaseQueryError };

  if (!tokenIn(context.getState()) && !(await refreshToken())) return unavailable;
  const first = await plainQuery(args, context, extraOptions);
  if (!isCsrfRejection(first.error)) return first;
  if (!(await refreshToken())) return unavailable;
  return plainQuery(args, context, extraOptions);
};

/**
 * A session that ended on the server (expired, signed out in another tab, the person removed)
 * ends here too: the app is signed out and the route guard sends the person to /login.
 */
const sessionAwareQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, context, extraOptions) => {
  const result = await baseQuery(args, context, extraOptions);
  const error = result.error as FetchBaseQueryError | undefined;
  if (error?.status === 401 && (error.data as { error?: unknown } | undefined)?.error === SIGN_IN_REQUIRED) context.dispatch(signedOut());
  return result;
};

// The one API slice for the gateway. Its endpoints are generated from the gateway's OpenAPI
// document (gateway-api.generated.ts); features may add their own with `api.injectEndpoints`.
export const api = createApi({
  reducerPath: 'api',
  baseQuery: sessionAwareQuery,
  endpoints: () => ({}),
});
