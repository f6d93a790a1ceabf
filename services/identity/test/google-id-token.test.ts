/**
 * Google ID token verification against a real HTTP server on 127.0.0.1. The local server stands
 * in for Google's JWKS endpoint (https://www.googleapis.com/oauth2/v3/certs), which these
 * machines cannot reach; the key set and every token are made here with jose, the way Google
 * makes its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, UnsecuredJWT, generateKeyPair, type JWTPayload } from 'jose';
import { DomainError } from '@parlance/platform/errors';
import { GOOGLE_TOKEN_MESSAGES, verifyGoogleIdToken, type GoogleIdTokenOptions } from '../src/auth/google-id-token.js';
import { startFakeGoogle, type FakeGoogle, type GoogleTokenOverrides } from '../../../test/support/fake-google.js';

let google: FakeGoogle;
let options: GoogleIdTokenOptions;

beforeAll(async () => {
  google = await startFakeGoogle();
  options = { jwksUrl: google.jwksUrl, audience: google.clientId, clockToleranceSec: 5 };
});

afterAll(async () => {
  await google.close();
});

const googleClaims: JWTPayload = {
  sub: '110248495921238986420',
  email: 'Ada.Lovelace@Example.com',
  email_verified: true,
  given_name: 'Ada',
  family_name: 'Lovelace',
  name: 'Ada Lovelace',
};

const googleToken = (overrides: GoogleTokenOverrides = {}) => google.idToken(googleClaims, overrides);

async function rejection(token: string): Promise<DomainError> {
  const error: unknown = await verifyGoogleIdToken(token, options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('verifyGoogleIdToken against a JWKS served over HTTP', () => {
  it('accepts a good token and returns the identity from its claims, e-mail normalised', async () => {
    await expect(verifyGoogleIdToken(await googleToken(), options)).resolves.toEqual({
      googleId: '110248495921238986420',
      email: 'ada.lovelace@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
  });

  it('accepts the issuer without https:// as Google also uses it', async () => {
    const identity = await verifyGoogleIdToken(await googleToken({ issuer: 'accounts.google.com' }), options);
    expect(identity.googleId).toBe('110248495921238986420');
  });

  it('returns empty names when the Google account has none, rather than failing', async () => {
    const token = await googleToken({ claims: { given_name: undefined, family_name: undefined } });
    await expect(verifyGoogleIdToken(token, options)).resolves.toMatchObject({ firstName: '', lastName: '' });
  });

  it('fetches the key set once and reuses it across verifications', async () => {
    const before = google.jwksRequests();
    await verifyGoogleIdToken(await googleToken(), options);
    await verifyGoogleIdToken(await googleToken(), options);
    expect(google.jwksRequests() - before).toBe(0);
  });

  it('rejects a token issued for another application (wrong audience)', async () => {
    const error = await rejection(await googleToken({ audience: 'someone-else.apps.googleusercontent.com' }));
    expect(error.kind).toBe('unauthenticated');
    expect(error.message).toBe(GOOGLE_TOKEN_MESSAGES.audience);
  });

  it('rejects a token from an issuer other than Google', async () => {
    const error = await rejection(await googleToken({ issuer: 'https://evil.example.com' }));
    expect(error.kind).toBe('unauthenticated');
    expect(error.message).toBe(GOOGLE_TOKEN_MESSAGES.issuer);
  });

  it('rejects an expired token, beyond the clock tolerance', async () => {
    const now = Math.floor(Date.now() / 1000);
    const error = await rejection(await googleToken({ issuedAt: now - 7200, expiresAt: now - 60 }));
    expect(error.kind).toBe('unauthenticated');
    expect(error.message).toBe(GOOGLE_TOKEN_MESSAGES.expired);
  });

  it('accepts a token that expired within the clock tolerance', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(verifyGoogleIdToken(await googleToken({ issuedAt: now - 3600, expiresAt: now - 2 }), options)).resolves.toBeDefined();
  });

  it('rejects a token signed by another key under the same key id (bad signature)', async () => {
    const impostor = await generateKeyPair('RS256');
    const error = await rejection(await googleToken({ key: impostor.privateKey }));
    expect(error.kind).toBe('unauthenticated');
    expect(error.message).toBe(GOOGLE_TOKEN_MESSAGES.signature);
  });

  it('rejects a token signed with a key id the key set does not contain', async () => {
    const impostor = await generateKeyPair('RS256');
    const error = await rejection(await googleToken({ key: impostor.privateKey, kid: 'unknown-key' }));
    expect(error.kind).toBe('unauthenticated');
    expect(error.message).toBe(GOOGLE_TOKEN_MESSAGES.unknownKey);
  });

  it('rejects a token whose payload was altered after signing', async () => {
    const [header, , signature] = (await googleToken()).split('.');
    const forged = Buffer.from(JSON.stringify({ ...googleClaims, sub: 'attacker', aud: google.clientId, iss: 'https://accounts.google.com', exp: 9_999_999_999, iat: 1 })).toString('base64url');
    const error = await rejection(`${header}.${forged}.${signature}`);
    expect(error.message).toBe(GOOGLE_TOKEN_MESSAGES.signature);
  });

  it('rejects a token whose e-mail Google has not verified', async () => {
    const error = await rejection(await googleToken({ claims: { email_verified: false } }));
    expect(error.kind).toBe('unauthenticated');
    expect(error.message).toBe(GOOGLE_TOKEN_MESSAGES.emailNotVerified);
  });

  it('rejects a token without email_verified at all', async () => {
    const error = await rejection(await googleToken({ claims: { email_verified: undefined } }));
    expect(error.message).toBe(GOOGLE_TOKEN_MESSAGES.emailNotVerified);
  });

  it('rejects an unsigned token (alg none)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const unsigned = new UnsecuredJWT(googleClaims)
      .setIssuer('https://accounts.google.com')
      .setAudience(google.clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .encode();
    const error = await rejection(unsigned);
    expect(error.kind).toBe('unauthenticated');
    expect(error.message).toBe(GOOGLE_TOKEN_MESSAGES.algorithm);
  });

  it('rejects a token signed with an HMAC algorithm instead of RS256', async () => {
    const now = Math.floor(Date.now() / 1000);
    const hmac = await new SignJWT(googleClaims)
      .setProtectedHeader({ alg: 'HS256', kid: google.kid })
      .setIssuer('https://accounts.google.com')
      .setAudience(google.clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(new TextEncoder().encode('a-shared-secret-anyone-could-guess'));
    const error = await rejection(hmac);
    expect(error.message).toBe(GOOGLE_TOKEN_MESSAGES.algorithm);
  });

  it('rejects an empty or malformed token with a readable message', async () => {
    expect((await rejection('')).message).toBe(GOOGLE_TOKEN_MESSAGES.missing);
    expect((await rejection('not-a-jwt')).message).toBe(GOOGLE_TOKEN_MESSAGES.malformed);
  });

  it('answers "temporarily unavailable" when the key set cannot be fetched', async () => {
    const error: unknown = await verifyGoogleIdToken(await googleToken(), {
      ...options,
      jwksUrl: options.jwksUrl.replace('/oauth2/v3/certs', '/missing'),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('unavailable');
    expect((error as DomainError).message).toBe(GOOGLE_TOKEN_MESSAGES.unavailable);
  });
});
