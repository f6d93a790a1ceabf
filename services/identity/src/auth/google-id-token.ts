/**
 * Verifies a Google ID token (an OpenID Connect JWT) on the server. The browser obtains it from
 * Google; the server checks it before trusting anything in it:
 *
 * - the signature, against the key set at the configured JWKS URL (Google's
 *   https://www.googleapis.com/oauth2/v3/certs in production), with RS256 only: `alg: none` and
 *   HMAC tricks are refused before any key is looked at;
 * - the audience, which must be our own OAuth client id (a token minted for another site is
 *   useless here);
 * - the issuer (accounts.google.com, with or without https://);
 * - expiry and not-before, with a small clock tolerance;
 * - `email_verified`, because the e-mail is what links the Google account to a Parlance account.
 *
 * The Google id returned is the token's `sub`; a Google id sent by the client is never used.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { DomainError, unauthenticated } from '@parlance/platform/errors';
import { normaliseEmail } from '../domain/accounts.js';

export const GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
/** Google's issuer, also the key under which Google accounts are linked to users. */
export const GOOGLE_ISSUER = 'https://accounts.google.com';
/** Google writes its issuer with or without the scheme. */
export const GOOGLE_ISSUERS = [GOOGLE_ISSUER, 'accounts.google.com'] as const;

export interface GoogleIdTokenOptions {
  jwksUrl: string;
  /** Our OAuth client id. */
  audience: string;
  issuers?: readonly string[];
  /** Seconds of clock skew accepted on exp / nbf / iat. Default 30. */
  clockToleranceSec?: number;
  /** How long to wait for the key set. Default 5000 ms. */
  jwksTimeoutMs?: number;
}

export interface GoogleIdentity {
  googleId: string;
  email: string;
  /** given_name; '' when the Google account has none. */
  firstName: string;
  /** family_name; '' when the Google account has none (mononymous accounts exist). */
  lastName: string;
}

export const GOOGLE_TOKEN_MESSAGES = {
  missing: 'Google sign-in token is missing.',
  malformed: 'Google sign-in token is malformed.',
  algorithm: 'Google sign-in token uses a signing algorithm that is not allowed.',
  signature: 'Google sign-in token signature is invalid.',
  unknownKey: 'Google sign-in token was signed with a key Google does not publish.',
  audience: 'Google sign-in token was issued for a different application.',
  issuer: 'Google sign-in token was not issued by Google.',
  expired: 'Google sign-in token has expired. Please sign in with Google again.',
  notYetValid: 'Google sign-in token is not valid yet. Please check your clock and try again.',
  claims: 'Google sign-in token is missing required information.',
  emailNotVerified: 'Your Google account email address is not verified. Verify it with Google, or sign up with email and password.',
  unavailable: 'Google sign-in is temporarily unavailable. Please try again in a moment.',
} as const;

// One key set per URL for the life of the process: jose caches the keys and refetches on an
// unknown `kid` (Google rotates keys), with a cool-down so a flood of bad tokens cannot make us
// hammer the endpoint. Creating it per call would throw that cache away.
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySetFor(jwksUrl: string, timeoutDuration: number) {
  const cacheKey = `${jwksUrl} ${timeoutDuration}`;
  let keySet = keySets.get(cacheKey);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration });
    keySets.set(cacheKey, keySet);
  }
  return keySet;
}

const invalid = (message: string, reason: string) => unauthenticated(message, { reason });

function translate(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof errors.JWTExpired) return invalid(GOOGLE_TOKEN_MESSAGES.expired, 'expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return invalid(GOOGLE_TOKEN_MESSAGES.audience, 'audience');
    if (error.claim === 'iss') return invalid(GOOGLE_TOKEN_MESSAGES.issuer, 'issuer');
    if (error.claim === 'nbf' || error.claim === 'iat') return invalid(GOOGLE_TOKEN_MESSAGES.notYetValid, 'not-yet-valid');
    return invalid(GOOGLE_TOKEN_MESSAGES.claims, `claim-${error.claim}`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return invalid(GOOGLE_TOKEN_MESSAGES.algorithm, 'algorithm');
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return invalid(GOOGLE_TOKEN_MESSAGES.signature, 'signature');
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return invalid(GOOGLE_TOKEN_MESSAGES.unknownKey, 'unknown-key');
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return invalid(GOOGLE_TOKEN_MESSAGES.malformed, 'malformed');
  // The key set could not be fetched or parsed (timeout, network, a non-JSON answer): not the
  // user's fault, and worth retrying.
  return new DomainError('unavailable', GOOGLE_TOKEN_MESSAGES.unavailable, { reason: 'jwks-unavailable' });
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

function identityFrom(payload: JWTPayload): GoogleIdentity {
  const googleId = text(payload.sub);
  const email = normaliseEmail(text(payload.email));
  if (googleId === '' || email === '') throw invalid(GOOGLE_TOKEN_MESSAGES.claims, 'claims');
  // Google sends a boolean; some older tokens carried the string "true".
  if (payload.email_verified !== true && payload.email_verified !== 'true') {
    throw invalid(GOOGLE_TOKEN_MESSAGES.emailNotVerified, 'email-not-verified');
  }
  return { googleId, email, firstName: text(payload.given_name), lastName: text(payload.family_name) };
}

/** Verifies the token and returns who it proves; throws an unauthenticated (or unavailable) DomainError. */
export async function verifyGoogleIdToken(idToken: string, options: GoogleIdTokenOptions): Promise<GoogleIdentity> {
  if (typeof idToken !== 'string' || idToken.trim() === '') throw invalid(GOOGLE_TOKEN_MESSAGES.missing, 'missing');
  const keySet = keySetFor(options.jwksUrl, options.jwksTimeoutMs ?? 5000);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken.trim(), keySet, {
      algorithms: ['RS256'],
      audience: options.audience,
      issuer: [...(options.issuers ?? GOOGLE_ISSUERS)],
      clockTolerance: options.clockToleranceSec ?? 30,
      requiredClaims: ['sub', 'exp', 'iat'],
    }));
  } catch (error) {
    throw translate(error);
  }
  return identityFrom(payload);
}
