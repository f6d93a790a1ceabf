/**
 * The OAuth authorization-code flow's rules (issue 16, point 2), pure:
 *
 * - `state` is 32 random bytes, stored only as its SHA-256 with the company, the user and the
 *   session that asked (the session as a hash too), for OAUTH_STATE_TTL_MS. It is taken by the
 *   callback once (the row is deleted as it is read), and accepted only from the same session,
 *   user and company, before it expires.
 * - Tokens are stored sealed (credential-cipher.ts) as one JSON value; an access token is
 *   refreshed REFRESH_BEFORE_EXPIRY_MS before it expires, so a request never carries one about to
 *   lapse (HubSpot's last 30 minutes).
 */
import { createHash, randomBytes } from 'node:crypto';

export const OAUTH_STATE_TTL_MS = 10 * 60_000;
export const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;

/** A new state for an authorization request: what goes in the URL, and what is stored. */
export function newOAuthState(): { state: string; stateHash: string } {
  const state = randomBytes(32).toString('base64url');
  return { state, stateHash: sha256(state) };
}

export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export interface StoredOAuthState {
  companyId: string;
  userId: string;
  /** SHA-256 of what binds the state to the session that asked (the gateway's session). */
  bindingHash: string;
  expiresAt: Date;
}

export type OAuthStateCheck = 'accepted' | 'unknown' | 'foreign';

/**
 * Whether the callback may use the state it brought: 'unknown' when none was stored (never, or
 * already used) or it has expired; 'foreign' when another session, user or company asked for it.
 */
export function checkOAuthState(stored: StoredOAuthState | undefined, callback: { companyId: string; userId: string; binding: string; now: Date }): OAuthStateCheck {
  if (!stored || stored.expiresAt.getTime() <= callback.now.getTime()) return 'unknown';
  if (stored.companyId !== callback.companyId || stored.userId !== callback.userId || stored.bindingHash !== sha256(callback.binding)) return 'foreign';
  return 'accepted';
}

/** OAuth tokens as sealed in a connection's credentials. */
export interface OAuthTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: Date;
}

export function tokensText(tokens: OAuthTokens): string {
  return JSON.stringify({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: tokens.expiresAt.toISOString() });
}

/** The tokens of a credential tokensText wrote; an Error when it holds something else (e.g. an API key). */
export function tokensOf(text: string): OAuthTokens {
  const parsed = JSON.parse(text) as { accessToken?: unknown; refreshToken?: unknown; expiresAt?: unknown };
  if (typeof parsed.accessToken !== 'string' || typeof parsed.refreshToken !== 'string' || typeof parsed.expiresAt !== 'string') throw new Error('the credential holds no OAuth tokens');
  return { accessToken: parsed.accessToken, refreshToken: parsed.refreshToken, expiresAt: new Date(parsed.expiresAt) };
}

/** Whether the access token should be refreshed before it is used now. */
export function needsRefresh(tokens: Pick<OAuthTokens, 'expiresAt'>, now: Date): boolean {
  return tokens.expiresAt.getTime() - now.getTime() <= REFRESH_BEFORE_EXPIRY_MS;
}
