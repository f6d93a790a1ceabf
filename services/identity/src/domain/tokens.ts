/**
 * Opaque random tokens: sessions, e-mail verification, invitations.
 *
 * A token is 32 random bytes (256 bits) in base64url: unguessable and safe in a URL or a cookie.
 * Only its SHA-256 hash is stored, so a leaked database row cannot be replayed. A plain hash (no
 * salt, no slow KDF) is right here and wrong for passwords: the input is already 256 bits of
 * randomness, and the hash must be deterministic so the row can be found by it.
 */
import { createHash, randomBytes } from 'node:crypto';

export const TOKEN_BYTES = 32;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** What a token is for; stored next to its hash so a token of one kind never works as another. */
export type TokenPurpose = 'session' | 'email-verification' | 'invitation';

/**
 * Lifetimes, in milliseconds.
 *
 * - E-mail verification, 24 hours, and invitation, 7 days: fixed by issue 3. Both single-use.
 * - Session idle timeout 3 days, absolute lifetime 14 days. The product holds recorded customer
 *   calls and claims SOC 2 / HIPAA readiness, so a forgotten session on a shared or lost laptop
 *   should die within days, not a month; yet a manager who works Monday to Friday stays signed
 *   in over a weekend (Friday evening to Monday morning is under 3 days). The absolute limit
 *   re-checks the password or Google account at least every two weeks whatever the activity,
 *   which bounds the life of a stolen cookie; 14 days is also Google Workspace's default web
 *   session length, which our users already live with. Both are constants so that a later
 *   per-company setting (enterprise tenants often want shorter) has one place to override.
 * - Touch interval 5 minutes: lastSeen is written at most once per 5 minutes per session rather
 *   than on every request; against a 3-day idle timeout the error is negligible.
 */
export const TOKEN_LIFETIME_MS = {
  'email-verification': 24 * HOUR_MS,
  invitation: 7 * DAY_MS,
} as const satisfies Partial<Record<TokenPurpose, number>>;

export const SESSION_IDLE_TIMEOUT_MS = 3 * DAY_MS;
export const SESSION_ABSOLUTE_LIFETIME_MS = 14 * DAY_MS;
export const SESSION_TOUCH_INTERVAL_MS = 5 * 60 * 1000;

/** When a token of this purpose, issued at `issuedAt`, stops being accepted. */
export function tokenExpiresAt(purpose: keyof typeof TOKEN_LIFETIME_MS, issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + TOKEN_LIFETIME_MS[purpose]);
}

export interface NewToken {
  /** Goes to the user (cookie, e-mail link); never stored, never logged. */
  token: string;
  /** Goes to the database. */
  hash: string;
}

export function newToken(): NewToken {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** SHA-256 of the token, hex; the key under which the token's row is stored and looked up. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A token of the right shape: 32 bytes in unpadded base64url is exactly 43 characters. */
export function isWellFormedToken(token: unknown): token is string {
  return typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token);
}
