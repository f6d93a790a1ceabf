/**
 * CSRF protection: the signed double-submit pattern (OWASP CSRF Prevention Cheat Sheet).
 *
 * The browser fetches `GET /api/csrf-token` before anyone is signed in (login itself is a POST that
 * needs the header), so the token cannot hang off the session. Instead the gateway keeps a random
 * secret in an HttpOnly, SameSite=Lax cookie and hands out tokens `nonce.hmac(secret, nonce)`;
 * a request passes when its X-CSRF-Token header carries a token that verifies against the
 * secret in its cookie. Another site can make the browser send the cookie but can neither read
 * the cookie nor a token, so it cannot produce the header. Rejections answer 403 with exactly
 * 'CSRF validation failed' (spec part 1, §4 and §8).
 *
 * The secret cookie is replaced at sign-in and sign-out, together with the session, so a token
 * from before sign-in stops working; the web app then fetches a new one and retries once.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_FAILED_MESSAGE = 'CSRF validation failed';
const SECRET_BYTES = 32;
const NONCE_BYTES = 16;

/**
 * Constant-time string comparison. Both sides are hashed first, so neither the content nor the
 * length of the secret leaks through timing (timingSafeEqual itself requires equal lengths).
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** A new per-browser CSRF secret, for the HttpOnly cookie. */
export function newCsrfSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

function signature(secret: string, nonce: string): string {
  return createHmac('sha256', secret).update(`csrf:${nonce}`, 'utf8').digest('base64url');
}

/** A token for the `csrfToken` field of GET /api/csrf-token; a fresh nonce each time, all valid for the secret. */
export function csrfTokenFor(secret: string): string {
  const nonce = randomBytes(NONCE_BYTES).toString('base64url');
  return `${nonce}.${signature(secret, nonce)}`;
}

/** True when the header token was issued for this secret. Missing either side is a failure. */
export function verifyCsrfToken(secret: string | undefined, token: string | undefined): boolean {
  if (!secret || !token) return false;
  const dot = token.indexOf('.');
  if (dot <= 0) return false;
  const nonce = token.slice(0, dot);
  return constantTimeEqual(token.slice(dot + 1), signature(secret, nonce));
}
