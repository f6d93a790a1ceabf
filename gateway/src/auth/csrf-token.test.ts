import { describe, expect, it } from 'vitest';
import { constantTimeEqual, csrfTokenFor, newCsrfSecret, verifyCsrfToken } from './csrf-token.js';

describe('constantTimeEqual', () => {
  it('is true only for identical strings, including different lengths', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});

describe('CSRF tokens (signed double submit)', () => {
  it('accepts a token issued for the same secret', () => {
    const secret = newCsrfSecret();
    expect(verifyCsrfToken(secret, csrfTokenFor(secret))).toBe(true);
  });

  it('issues a different token each time, all valid for the secret', () => {
    const secret = newCsrfSecret();
    const [a, b] = [csrfTokenFor(secret), csrfTokenFor(secret)];
    expect(a).not.toBe(b);
    expect(verifyCsrfToken(secret, a) && verifyCsrfToken(secret, b)).toBe(true);
  });

  it('rejects a token issued for another browser secret', () => {
    expect(verifyCsrfToken(newCsrfSecret(), csrfTokenFor(newCsrfSecret()))).toBe(false);
  });

  it('rejects a missing header, a missing cookie and a tampered token', () => {
    const secret = newCsrfSecret();
    const token = csrfTokenFor(secret);
    expect(verifyCsrfToken(secret, undefined)).toBe(false);
    expect(verifyCsrfToken(undefined, token)).toBe(false);
    expect(verifyCsrfToken(secret, `x${token}`)).toBe(false);
    expect(verifyCsrfToken(secret, token.replace('.', ''))).toBe(false);
    expect(verifyCsrfToken(secret, secret)).toBe(false);
  });
});
