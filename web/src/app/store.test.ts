import { describe, expect, it } from 'vitest';
import { makeStore } from './store';
import { csrfTokenReceived, selectCsrfToken } from '../lib/api/csrf-slice';

describe('makeStore', () => {
  it('starts with no CSRF token and an empty API cache', () => {
    const store = makeStore();

    expect(selectCsrfToken(store.getState())).toBeNull();
    expect(store.getState().api.queries).toEqual({});
  });

  it('starts from the preloaded CSRF state', () => {
    const store = makeStore({ csrf: { token: 'preloaded-token' } });

    expect(selectCsrfToken(store.getState())).toBe('preloaded-token');
  });

  it('records the CSRF token the gateway hands out', () => {
    const store = makeStore();

    store.dispatch(csrfTokenReceived('fresh-token'));

    expect(selectCsrfToken(store.getState())).toBe('fresh-token');
  });
});
