/**
 * Stands in for Google's key set endpoint (https://www.googleapis.com/oauth2/v3/certs), which these
 * machines cannot reach: a real HTTP server on 127.0.0.1 serving a JWKS, and ID tokens signed with
 * its private key the way Google signs its own (RS256, `kid` in the header, Google's issuer).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';

export interface GoogleTokenOverrides {
  claims?: JWTPayload;
  audience?: string;
  issuer?: string;
  expiresAt?: number;
  issuedAt?: number;
  key?: CryptoKey;
  kid?: string;
}

export interface FakeGoogle {
  clientId: string;
  jwksUrl: string;
  kid: string;
  /** How many times the key set was fetched. */
  jwksRequests(): number;
  /** An ID token for `claims` (sub, email, email_verified, given_name, family_name…). */
  idToken(claims: JWTPayload, overrides?: GoogleTokenOverrides): Promise<string>;
  close(): Promise<void>;
}

export async function startFakeGoogle(clientId = '1234567890-parlance.apps.googleusercontent.com'): Promise<FakeGoogle> {
  const kid = 'test-key-1';
  const pair = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' };
  let requests = 0;
  const server = createServer((request, response) => {
    if (request.url !== '/oauth2/v3/certs') {
      response.writeHead(404).end();
      return;
    }
    requests += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    clientId,
    kid,
    jwksUrl: `http://127.0.0.1:${port}/oauth2/v3/certs`,
    jwksRequests: () => requests,
    idToken(claims, overrides = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ ...claims, ...overrides.claims })
        .setProtectedHeader({ alg: 'RS256', kid: overrides.kid ?? kid, typ: 'JWT' })
        .setIssuer(overrides.issuer ?? 'https://accounts.google.com')
        .setAudience(overrides.audience ?? clientId)
        .setIssuedAt(overrides.issuedAt ?? now)
        .setExpirationTime(overrides.expiresAt ?? now + 3600)
        .sign(overrides.key ?? pair.privateKey);
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
