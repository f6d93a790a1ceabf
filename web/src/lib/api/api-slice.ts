import type { Dispatch } from '@reduxjs/toolkit';
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

const errorInBody = (body: unknown) => (body as { error?: unknown } | null | undefined)?.error;

/** The gateway refused a change request's CSRF token (403 'CSRF validation failed'). */
export const isCsrfRejected = (status: unknown, body: unknown) => status === 403 && errorInBody(body) === CSRF_REJECTED;

/** The gateway says the session has ended (401 'Please sign in to continue.'). */
export const isSessionEnded = (status: unknown, body: unknown) => status === 401 && errorInBody(body) === SIGN_IN_REQUIRED;

type Awaitable<T> = T | PromiseLike<T>;

/** Where a change request gets its CSRF token. */
export type CsrfTokens = {
  /** The token held now, if any. */
  current(): string | null;
  /** Fetches a new token and keeps it; null when none could be had. */
  refresh(): Promise<string | null>;
};

/** One token request at a time per store: changes sent together wait for the same token. */
const pendingTokens = new WeakMap<object, Promise<string | null>>();

/**
 * The store's CSRF token: the one it holds, or a new one asked of the gateway with `fetchToken`
 * (GET /api/csrf-token, answering { csrfToken }) and kept in the store.
 */
export function storeCsrfTokens(store: { dispatch: Dispatch; getState: () => unknown }, fetchToken: () => Awaitable<{ data?: unknown }>): CsrfTokens {
  return {
    current: () => tokenIn(store.getState()),
    refresh: () => {
      let pending = pendingTokens.get(store.dispatch);
      if (!pending) {
        pending = (async () => {
          const token = ((await fetchToken()).data as { csrfToken?: unknown } | undefined)?.csrfToken;
          if (typeof token !== 'string' || token === '') return null;
          store.dispatch(csrfTokenReceived(token));
          return token;
        })().finally(() => pendingTokens.delete(store.dispatch));
        pendingTokens.set(store.dispatch, pending);
      }
      return pending;
    },
  };
}

/**
 * Spec part 1 §4: a change request carries the CSRF token, fetched first when none is held; when
 * the gateway refuses it ('CSRF validation failed'), a new token is fetched and the request is sent
 * once more (`retry` true). Undefined when no token can be had ('Failed to obtain CSRF token').
 */
export async function sendWithCsrfToken<Answer>(
  tokens: CsrfTokens,
  send: (token: string, retry: boolean) => Awaitable<Answer>,
  isRejected: (answer: Answer) => boolean,
): Promise<Answer | undefined> {
  const token = tokens.current() ?? (await tokens.refresh());
  if (!token) return undefined;
  const first = await send(token, false);
  if (!isRejected(first)) return first;
  const fresh = await tokens.refresh();
  if (!fresh) return undefined;
  return send(fresh, true);
}

const unavailable = { error: { status: 'CUSTOM_ERROR', error: CSRF_UNAVAILABLE } as FetchBaseQueryError };

/** Change requests go out with the CSRF token (the token itself is set by `prepareHeaders`). */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, context, extraOptions) => {
  if (SAFE_METHODS.has(methodOf(args))) return plainQuery(args, context, extraOptions);
  const tokens = storeCsrfTokens(context, () => plainQuery('/api/csrf-token', context, extraOptions));
  const answer = await sendWithCsrfToken(
    tokens,
    () => plainQuery(args, context, extraOptions),
    (result) => isCsrfRejected(result.error?.status, result.error?.data),
  );
  return answer ?? unavailable;
};

/**
 * A session that ended on the server (expired, signed out in another tab, the person removed)
 * ends here too: the app is signed out and the route guard sends the person to /login.
 */
const sessionAwareQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, context, extraOptions) => {
  const result = await baseQuery(args, context, extraOptions);
  if (isSessionEnded(result.error?.status, result.error?.data)) context.dispatch(signedOut());
  return result;
};

// The one API slice for the gateway. Its endpoints are generated from the gateway's OpenAPI
// document (gateway-api.generated.ts); features may add their own with `api.injectEndpoints`.
export const api = createApi({
  reducerPath: 'api',
  baseQuery: sessionAwareQuery,
  endpoints: () => ({}),
});
