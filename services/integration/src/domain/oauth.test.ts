import { describe, expect, it } from 'vitest';
import { checkOAuthState, needsRefresh, newOAuthState, OAUTH_STATE_TTL_MS, sha256, tokensOf, tokensText } from './oauth.js';

const NOW = new Date('2026-11-24T10:00:00.000Z');
const stored = { companyId: 'c1', userId: 'u1', bindingHash: sha256('session-1'), expiresAt: new Date(NOW.getTime() + OAUTH_STATE_TTL_MS) };
const callback = { companyId: 'c1', userId: 'u1', binding: 'session-1', now: NOW };

describe('OAuth state', () => {
  it('is 32 random bytes in the URL, stored only as its hash', () => {
    const { state, stateHash } = newOAuthState();
    expect(Buffer.from(state, 'base64url')).toHaveLength(32);
    expect(stateHash).toBe(sha256(state));
    expect(stateHash).not.toContain(state);
    expect(newOAuthState().state).not.toBe(state);
  });

  it('is accepted from the session, user and company that asked, before it expires', () => {
    expect(checkOAuthState(stored, callback)).toBe('accepted');
  });

  it('is unknown when none was stored (never, or used already) or once expired', () => {
    expect(checkOAuthState(undefined, callback)).toBe('unknown');
    expect(checkOAuthState(stored, { ...callback, now: stored.expiresAt })).toBe('unknown');
  });

  it('is foreign from another session, user or company', () => {
    expect(checkOAuthState(stored, { ...callback, binding: 'session-2' })).toBe('foreign');
    expect(checkOAuthState(stored, { ...callback, userId: 'u2' })).toBe('foreign');
    expect(checkOAuthState(stored, { ...callback, companyId: 'c2' })).toBe('foreign');
  });
});

describe('OAuth tokens', () => {
  it('go through their sealed text whole', () => {
    const tokens = { accessToken: 'at-1', refreshToken: 'rt-1', expiresAt: new Date(NOW.getTime() + 1_800_000) };
    expect(tokensOf(tokensText(tokens))).toEqual(tokens);
  });

  it('are not read from a credential that holds none (an API key)', () => {
    expect(() => tokensOf('"api_key"')).toThrow('the credential holds no OAuth tokens');
  });

  it('are refreshed from five minutes before they expire', () => {
    expect(needsRefresh({ expiresAt: new Date(NOW.getTime() + 5 * 60_000 + 1) }, NOW)).toBe(false);
    expect(needsRefresh({ expiresAt: new Date(NOW.getTime() + 5 * 60_000) }, NOW)).toBe(true);
    expect(needsRefresh({ expiresAt: new Date(NOW.getTime() - 1) }, NOW)).toBe(true);
  });
});
