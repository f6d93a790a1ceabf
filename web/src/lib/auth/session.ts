import { createListenerMiddleware, type ThunkAction, type UnknownAction } from '@reduxjs/toolkit';
import { gatewayApi, type Company, type User } from '../api/gateway-api.generated';
import { csrfTokenReceived } from '../api/csrf-slice';
import { authSlice, signedIn, signedOut, type AuthState } from './auth-slice';
import { trackEvent } from '../analytics';
import { departmentChosen, departmentSlice, SELECTED_DEPARTMENT_KEY } from './department-slice';

/** Browser storage flag: 'true' while signed in (spec part 1 §3). */
export const AUTH_FLAG_KEY = 'is-authenticated';

type Thunk<R = void> = ThunkAction<R, unknown, unknown, UnknownAction>;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** A session answer is valid only with both a user and a company ('Invalid session' otherwise). */
export function isValidSession(answer: unknown): answer is { user: User; company: Company } {
  const session = answer as { user?: unknown; company?: unknown } | null | undefined;
  return Boolean(session?.user && session.company);
}

/**
 * Spec part 1 §4: at start, only when storage says signed in is the server asked for the
 * session. A valid answer signs in; anything else (no session, a missing user or company, a
 * failed call) is signed out, which also clears the flag.
 */
export function restoreSession(): Thunk<Promise<void>> {
  return async (dispatch) => {
    if (storage()?.getItem(AUTH_FLAG_KEY) !== 'true') {
      dispatch(signedOut());
      return;
    }
    const lookup = dispatch(gatewayApi.endpoints.getSession.initiate(undefined, { subscribe: false, forceRefetch: true }));
    const answer = await lookup;
    if (isValidSession(answer.data)) dispatch(signedIn({ user: answer.data.user, company: answer.data.company }));
    else dispatch(signedOut());
  };
}

/** What login, e-mail verification and Google sign-up answer: a session plus its CSRF token. */
export function sessionStarted(answer: { user: User; company: Company; csrfToken?: string }): Thunk {
  return (dispatch) => {
    if (answer.csrfToken) dispatch(csrfTokenReceived(answer.csrfToken));
    dispatch(signedIn({ user: answer.user, company: answer.company }));
  };
}

/**
 * Ends the session on the server (a failure there still signs out here), counts the logout for
 * the company it ends, and forgets cached data.
 */
export function logOut(): Thunk<Promise<void>> {
  return async (dispatch, getState) => {
    trackEvent('logout', authSlice.selectSlice(getState() as { auth: AuthState }).company?.id);
    await dispatch(gatewayApi.endpoints.logout.initiate());
    dispatch(signedOut());
    dispatch(gatewayApi.util.resetApiState());
  };
}

/** Mirrors the signed-in state and the active department into browser storage. */
export const sessionStorageListener = createListenerMiddleware();

sessionStorageListener.startListening({
  actionCreator: signedIn,
  effect: (_action, api) => {
    storage()?.setItem(AUTH_FLAG_KEY, 'true');
    const active = departmentSlice.selectSlice(api.getState() as { department: { active: string | null } }).active;
    if (active) storage()?.setItem(SELECTED_DEPARTMENT_KEY, active);
  },
});

sessionStorageListener.startListening({
  actionCreator: signedOut,
  effect: () => storage()?.removeItem(AUTH_FLAG_KEY),
});

sessionStorageListener.startListening({
  actionCreator: departmentChosen,
  effect: (action) => storage()?.setItem(SELECTED_DEPARTMENT_KEY, action.payload),
});
