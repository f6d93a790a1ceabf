import { describe, expect, it } from 'vitest';
import { sessionExpiresAt, sessionState, touch } from './sessions.js';
import { SESSION_ABSOLUTE_LIFETIME_MS, SESSION_IDLE_TIMEOUT_MS, SESSION_TOUCH_INTERVAL_MS } from './tokens.js';

const created = new Date('2025-05-01T09:00:00Z');
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
const MINUTE = 60_000;

describe('sessionState', () => {
  it('is active right after sign-in', () => {
    expect(sessionState({ createdAt: created, lastSeenAt: created }, at(created, 1000))).toBe('active');
  });

  it('expires after the idle timeout without activity, exactly at the limit', () => {
    const session = { createdAt: created, lastSeenAt: created };
    expect(sessionState(session, at(created, SESSION_IDLE_TIMEOUT_MS - 1))).toBe('active');
    expect(sessionState(session, at(created, SESSION_IDLE_TIMEOUT_MS))).toBe('idle-expired');
  });

  it('stays active past the idle timeout when the user keeps coming back', () => {
    const lastSeenAt = at(created, 5 * SESSION_IDLE_TIMEOUT_MS / 2);
    expect(sessionState({ createdAt: created, lastSeenAt }, at(lastSeenAt, MINUTE))).toBe('active');
  });

  it('expires at the absolute lifetime however recently it was used', () => {
    const end = at(created, SESSION_ABSOLUTE_LIFETIME_MS);
    expect(sessionState({ createdAt: created, lastSeenAt: at(end, -MINUTE) }, end)).toBe('absolute-expired');
  });

  it('reports absolute expiry before idle expiry when both apply', () => {
    expect(sessionState({ createdAt: created, lastSeenAt: created }, at(created, SESSION_ABSOLUTE_LIFETIME_MS * 2))).toBe(
      'absolute-expired',
    );
  });

  it('is revoked once logged out, even if otherwise fresh', () => {
    expect(sessionState({ createdAt: created, lastSeenAt: created, revokedAt: created }, at(created, 1))).toBe('revoked');
  });
});

describe('sessionExpiresAt', () => {
  it('is the idle deadline early on and the absolute deadline late in the session', () => {
    expect(sessionExpiresAt({ createdAt: created, lastSeenAt: created })).toEqual(at(created, SESSION_IDLE_TIMEOUT_MS));
    const late = at(created, SESSION_ABSOLUTE_LIFETIME_MS - MINUTE);
    expect(sessionExpiresAt({ createdAt: created, lastSeenAt: late })).toEqual(at(created, SESSION_ABSOLUTE_LIFETIME_MS));
  });
});

describe('touch', () => {
  const session = { createdAt: created, lastSeenAt: created };

  it('does not write when the session was seen less than 5 minutes ago', () => {
    expect(touch(session, at(created, SESSION_TOUCH_INTERVAL_MS - 1))).toBeNull();
  });

  it('moves lastSeen to now once 5 minutes have passed', () => {
    const now = at(created, SESSION_TOUCH_INTERVAL_MS);
    expect(touch(session, now)).toEqual(now);
  });

  it('never revives an expired or revoked session', () => {
    expect(touch(session, at(created, SESSION_IDLE_TIMEOUT_MS))).toBeNull();
    expect(touch({ ...session, revokedAt: created }, at(created, 10 * MINUTE))).toBeNull();
  });

  it('leaves a lastSeen from the future (clock skew) alone', () => {
    expect(touch({ createdAt: created, lastSeenAt: at(created, 10 * MINUTE) }, at(created, MINUTE))).toBeNull();
  });

  it('honours a custom policy', () => {
    const policy = { idleTimeoutMs: 10 * MINUTE, absoluteLifetimeMs: 60 * MINUTE, touchIntervalMs: MINUTE };
    expect(touch(session, at(created, MINUTE), policy)).toEqual(at(created, MINUTE));
    expect(sessionState(session, at(created, 10 * MINUTE), policy)).toBe('idle-expired');
  });
});
