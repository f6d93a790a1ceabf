import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  SESSION_ABSOLUTE_LIFETIME_MS,
  SESSION_IDLE_TIMEOUT_MS,
  TOKEN_LIFETIME_MS,
  hashToken,
  isWellFormedToken,
  newToken,
  tokenExpiresAt,
} from './tokens.js';

describe('newToken and hashToken', () => {
  it('makes a 32-byte base64url token and stores only its SHA-256 hash', () => {
    const { token, hash } = newToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(hash).not.toContain(token);
  });

  it('never repeats a token', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => newToken().token));
    expect(tokens.size).toBe(1000);
  });

  it('hashes the same token to the same value, so the row can be found by it', () => {
    const { token, hash } = newToken();
    expect(hashToken(token)).toBe(hash);
    expect(hashToken(`${token}x`)).not.toBe(hash);
  });

  it('recognises a well-formed token and rejects anything else before a lookup', () => {
    expect(isWellFormedToken(newToken().token)).toBe(true);
    expect(isWellFormedToken('short')).toBe(false);
    expect(isWellFormedToken(`${newToken().token}=`)).toBe(false);
    expect(isWellFormedToken(42)).toBe(false);
  });
});

describe('lifetimes', () => {
  it('gives e-mail verification 24 hours and invitations 7 days', () => {
    const issued = new Date('2025-03-01T12:00:00Z');
    expect(tokenExpiresAt('email-verification', issued).toISOString()).toBe('2025-03-02T12:00:00.000Z');
    expect(tokenExpiresAt('invitation', issued).toISOString()).toBe('2025-03-08T12:00:00.000Z');
    expect(TOKEN_LIFETIME_MS['email-verification']).toBe(86_400_000);
  });

  it('keeps the idle timeout shorter than the absolute lifetime', () => {
    expect(SESSION_IDLE_TIMEOUT_MS).toBeLessThan(SESSION_ABSOLUTE_LIFETIME_MS);
  });
});
