/**
 * Bearer-token verification for single sign-on, against a key set served by a local HTTP server
 * (test/support/fake-google.ts, used here as any OIDC provider's JWKS endpoint). The whole path
 * with real Keycloak tokens is test/identity/sso-keycloak.test.ts.
 */
import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_MESSAGES, ssoVerifier, type SsoVerifier } from '../src/auth/sso-token.js';
import { startFakeGoogle, type FakeGoogle } from '../../test/support/fake-google.js';

const issuer = 'https://sso.example.test/realms/acme';
let provider: FakeGoogle;
let verify: SsoVerifier;

beforeAll(async () => {
  provider = await startFakeGoogle('parlance-gateway');
  verify = ssoVerifier({ issuer, jwksUrl: provider.jwksUrl, audience: 'parlance-gateway', organizationClaim: 'company_id', rolesClaim: 'realm_access.roles' });
});

afterAll(async () => {
  await provider.close();
});

const access = { sub: 'user-1', typ: 'Bearer', email: 'ada@acme.test', email_verified: true, given_name: 'Ada', family_name: 'Lovelace', company_id: 'acme', realm_access: { roles: ['admin', 'offline_access'] } };
const token = (claims: Record<string, unknown>, overrides = {}) => provider.idToken(claims, { issuer, ...overrides });

describe('ssoVerifier', () => {
  it('returns what a valid access token proves, reading roles from a dotted claim path', async () => {
    await expect(verify(await token(access))).resolves.toEqual({
      issuer,
      subject: 'user-1',
      email: 'ada@acme.test',
      emailVerified: true,
      firstName: 'Ada',
      lastName: 'Lovelace',
      organization: 'acme',
      roles: ['admin', 'offline_access'],
    });
  });

  it('refuses ID and refresh tokens signed by the same keys', async () => {
    for (const typ of ['ID', 'Refresh']) {
      await expect(verify(await token({ ...access, typ }))).rejects.toMatchObject({ kind: 'unauthenticated', message: SSO_MESSAGES.notAccessToken });
    }
  });

  it('refuses a token naming several organisations instead of picking one', async () => {
    await expect(verify(await token({ ...access, company_id: ['acme', 'globex'] }))).rejects.toMatchObject({
      kind: 'permission-denied',
      message: SSO_MESSAGES.severalOrganizations,
    });
  });

  it('refuses another issuer, another audience, an expired token and a foreign key', async () => {
    const now = Math.floor(Date.now() / 1000);
    const impostor = await generateKeyPair('RS256');
    for (const bad of [
      await token(access, { issuer: `${issuer}/` }),
      await token(access, { audience: 'another-client' }),
      await token(access, { key: impostor.privateKey }),
    ]) {
      await expect(verify(bad)).rejects.toMatchObject({ kind: 'unauthenticated', message: SSO_MESSAGES.invalid });
    }
    await expect(verify(await token(access, { issuedAt: now - 7200, expiresAt: now - 600 }))).rejects.toMatchObject({ message: SSO_MESSAGES.expired });
  });
});
