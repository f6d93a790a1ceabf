/**
 * Session expiry rules. A session is a row keyed by the hash of an opaque token (see tokens.ts);
 * these functions decide, from its timestamps and the current time, whether it still counts.
 * The clock is always passed in.
 */
import { SESSION_ABSOLUTE_LIFETIME_MS, SESSION_IDLE_TIMEOUT_MS, SESSION_TOUCH_INTERVAL_MS } from './tokens.js';

export interface SessionTimes {
  createdAt: Date;
  lastSeenAt: Date;
  /** Set at logout (or when an admin removes the user); a revoked session never comes back. */
  revokedAt?: Date | null;
}

export type SessionState = 'active' | 'idle-expired' | 'absolute-expired' | 'revoked';

export interface SessionPolicy {
  idleTimeoutMs: number;
  absoluteLifetimeMs: number;
  touchIntervalMs: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = {
  idleTimeoutMs: SESSION_IDLE_TIMEOUT_MS,
  absoluteLifetimeMs: SESSION_ABSOLUTE_LIFETIME_MS,
  touchIntervalMs: SESSION_TOUCH_INTERVAL_MS,
};

/**
 * Revocation wins, then the absolute limit (it cannot be extended by activity), then idleness.
 * Both limits are exclusive: at exactly createdAt + absolute lifetime the session is over.
 */
export function sessionState(session: SessionTimes, now: Date, policy: SessionPolicy = DEFAULT_SESSION_POLICY): SessionState {
  if (session.revokedAt) return 'revoked';
  const t = now.getTime();
  if (t >= session.createdAt.getTime() + policy.absoluteLifetimeMs) return 'absolute-expired';
  if (t >= session.lastSeenAt.getTime() + policy.idleTimeoutMs) return 'idle-expired';
  return 'active';
}

/** The moment the session ends if nothing else happens: the cookie's Expires, the row's clean-up time. */
export function sessionExpiresAt(session: SessionTimes, policy: SessionPolicy = DEFAULT_SESSION_POLICY): Date {
  return new Date(
    Math.min(session.lastSeenAt.getTime() + policy.idleTimeoutMs, session.createdAt.getTime() + policy.absoluteLifetimeMs),
  );
}

/**
 * The new lastSeenAt to store for a request at `now`, or null when no write is needed: the session
 * is not active, or it was seen less than the touch interval ago (one write per 5 minutes per
 * session, not one per request). A lastSeenAt in the future (clock skew between replicas) is left
 * alone rather than moved backwards.
 */
export function touch(session: SessionTimes, now: Date, policy: SessionPolicy = DEFAULT_SESSION_POLICY): Date | null {
  if (sessionState(session, now, policy) !== 'active') return null;
  if (now.getTime() - session.lastSeenAt.getTime() < policy.touchIntervalMs) return null;
  return now;
}

/** What GetSession answers (UNAUTHENTICATED) when there is no usable session. */
export const SESSION_MESSAGES = {
  missing: 'Please sign in to continue.',
  expired: 'Your session has expired. Please sign in again.',
} as const;
