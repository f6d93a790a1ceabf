/**
 * The Keycloak that `deploy/local/services up --with-keycloak` starts, with the realm imported
 * from deploy/local/keycloak/parlance-realm.json: each test user gets an access token by the
 * password grant, the token verifies with `jose` against the realm's JWKS (issuer, audience
 * `parlance-gateway`), and carries the company and roles the realm file gives that user. Tokens
 * for another audience, from another issuer, or tampered with are rejected.
 *
 * Needs a running Keycloak: this suite fails (it does not skip) when none answers.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const keycloakUrl = process.env.KEYCLOAK_URL ?? 'http://127.0.0.1:58080';
const realmName = process.env.KEYCLOAK_REALM ?? 'parlance';
const issuer = process.env.OIDC_ISSUER ?? `${keycloakUrl}/realms/${realmName}`;
const jwksUrl = process.env.OIDC_JWKS_URL ?? `${issuer}/protocol/openid-connect/certs`;
const audience = 'parlance-gateway';
const testClient = 'parlance-test';

interface RealmUser {
  username: string;
  attributes?: Record<string, string[]>;
  realmRoles?: string[];
  credentials?: { type: string; value: string }[];
}
interface RealmFile {
  realm: string;
  users: RealmUser[];
  clients: { clientId: string; directAccessGrantsEnabled?: boolean; publicClient?: boolean }[];
}

// What the realm says: the expectations come from the file Keycloak imported.
const realm = JSON.parse(
  readFileSync(path.join(repoRoot, 'deploy/local/keycloak/parlance-realm.json'), 'utf8'),
) as RealmFile;
const users = realm.users.map((user) => ({
  username: user.username,
  password: user.credentials?.find((c) => c.type === 'password')?.value ?? '',
  companyId: user.attributes?.company_id?.[0],
  roles: [...(user.realmRoles ?? [])].sort(),
}));

function user(index: number) {
  const found = users[index];
  if (!found) throw new Error(`the realm file has no user #${index + 1}`);
  return found;
}

interface TokenResponse {
  access_token: string;
  id_token: string;
  token_type: string;
}

const jwks = createRemoteJWKSet(new URL(jwksUrl));

interface Discovery {
  issuer: string;
  jwks_uri: string;
  token_endpoint: string;
}

// Every test that needs Keycloak awaits this, so with Keycloak down each of them fails (a
// throwing beforeAll would only mark them skipped).
let discoveryDocument: Promise<Discovery> | undefined;
function discovery(): Promise<Discovery> {
  discoveryDocument ??= (async () => {
    const url = `${issuer}/.well-known/openid-configuration`;
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      throw new Error(
        `Keycloak does not answer at ${url} (${String(error)}); start it with ` +
          `eval "$(deploy/local/services up --with-keycloak)"`,
      );
    }
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as Discovery;
  })();
  return discoveryDocument;
}

async function passwordGrant(username: string, password: string): Promise<Response> {
  const { token_endpoint: tokenEndpoint } = await discovery();
  return fetch(tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: testClient, username, password, scope: 'openid' }),
  });
}

async function tokensFor(username: string, password: string): Promise<TokenResponse> {
  const response = await passwordGrant(username, password);
  const body = await response.text();
  if (!response.ok) throw new Error(`password grant for ${username}: HTTP ${response.status} ${body}`);
  return JSON.parse(body) as TokenResponse;
}

function verify(token: string, options: { issuer?: string; audience?: string } = {}) {
  return jwtVerify(token, jwks, {
    issuer: options.issuer ?? issuer,
    audience: options.audience ?? audience,
    algorithms: ['RS256'],
  });
}

describe('Keycloak realm for SSO', () => {
  it('the realm file defines users in two companies, admins and managers', () => {
    expect(realm.realm).toBe(realmName);
    expect(users).toHaveLength(3);
    expect(new Set(users.map((u) => u.companyId)).size).toBe(2);
    expect(users.map((u) => u.roles)).toEqual(expect.arrayContaining([['admin'], ['manager']]));
    expect(realm.clients.map((c) => c.clientId)).toEqual(
      expect.arrayContaining(['parlance-gateway', 'parlance-web', testClient]),
    );
  });

  it('serves the OIDC discovery document with the issuer and JWKS URL the gateway is configured with', async () => {
    const config = await discovery();
    expect(config.issuer).toBe(issuer);
    expect(config.jwks_uri).toBe(jwksUrl);
  });

  for (const expected of users) {
    it(`issues ${expected.username} an access token for ${audience} with company ${expected.companyId} and roles ${expected.roles.join(',')}`, async () => {
      const tokens = await tokensFor(expected.username, expected.password);
      expect(tokens.token_type).toBe('Bearer');

      const { payload, protectedHeader } = await verify(tokens.access_token);
      expect(protectedHeader.alg).toBe('RS256');
      expect(protectedHeader.kid).toBeTruthy();
      const claims = payload as JWTPayload & {
        company_id?: string;
        roles?: string[];
        realm_access?: { roles: string[] };
        email?: string;
        preferred_username?: string;
        azp?: string;
        typ?: string;
      };
      expect(claims.iss).toBe(issuer);
      expect([claims.aud].flat()).toContain(audience);
      expect(claims.sub).toMatch(/\S/);
      expect(claims.typ).toBe('Bearer');
      expect(claims.azp).toBe(testClient);
      expect(claims.company_id).toBe(expected.companyId);
      // Only the realm's application roles reach the token (no default-roles-*, offline_access).
      expect([...(claims.roles ?? [])].sort()).toEqual(expected.roles);
      expect([...(claims.realm_access?.roles ?? [])].sort()).toEqual(expected.roles);
      expect(claims.email).toBe(expected.username);
      expect(claims.preferred_username).toBe(expected.username);
    });
  }

  it('lets the web client (PKCE) sign in from local origins only', async () => {
    const { authorization_endpoint: authorize } = (await discovery()) as Discovery & { authorization_endpoint: string };
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const login = (redirectUri: string, pkce = true) =>
      fetch(
        `${authorize}?${new URLSearchParams({
          client_id: 'parlance-web',
          response_type: 'code',
          scope: 'openid',
          redirect_uri: redirectUri,
          ...(pkce ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
        })}`,
        { redirect: 'manual' },
      );
    expect((await login('http://127.0.0.1:5173/callback')).status).toBe(200); // the login page
    expect((await login('http://localhost:8080/')).status).toBe(200);
    expect((await login('https://elsewhere.test/callback')).status).toBe(400);
    // Without a PKCE challenge the request goes back to the app with an error, not to a login page.
    const noPkce = await login('http://127.0.0.1:5173/callback', false);
    expect(noPkce.status).toBe(302);
    expect(noPkce.headers.get('location')).toContain('error=invalid_request');
  });

  it('gives the two users different subjects', async () => {
    const subjects = await Promise.all(
      users.map(async (u) => (await verify((await tokensFor(u.username, u.password)).access_token)).payload.sub),
    );
    expect(new Set(subjects).size).toBe(users.length);
  });

  it('refuses a wrong password', async () => {
    const ada = user(0);
    const response = await passwordGrant(ada.username, `${ada.password}-wrong`);
    // RFC 6749 §5.2 says 400; older Keycloak releases answered 401.
    expect([400, 401]).toContain(response.status);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('rejects a token meant for another audience', async () => {
    const tokens = await tokensFor(user(0).username, user(0).password);
    // The ID token is signed by the same key and issuer, but its audience is the test client.
    expect(decodeJwt(tokens.id_token).aud).toBe(testClient);
    await expect(verify(tokens.id_token)).rejects.toMatchObject({
      code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
      claim: 'aud',
    });
    // And the access token is not accepted by a verifier expecting some other audience.
    await expect(verify(tokens.access_token, { audience: 'another-service' })).rejects.toMatchObject({
      code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
      claim: 'aud',
    });
  });

  it('rejects a token from another issuer', async () => {
    const tokens = await tokensFor(user(0).username, user(0).password);
    await expect(verify(tokens.access_token, { issuer: `${keycloakUrl}/realms/master` })).rejects.toMatchObject({
      code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
      claim: 'iss',
    });
  });

  it('rejects a tampered token (company switched, signature kept)', async () => {
    const [first, second] = [user(0), user(1)];
    const { access_token: token } = await tokensFor(first.username, first.password);
    const [header = '', body = '', signature = ''] = token.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(claims.company_id).toBe(first.companyId);
    claims.company_id = second.companyId;
    const forged = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
    await expect(verify(forged)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });

    // An unsigned token claiming the same is refused as well.
    const unsigned = [
      Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url'),
      Buffer.from(JSON.stringify(claims)).toString('base64url'),
      '',
    ].join('.');
    await expect(verify(unsigned)).rejects.toThrow();
  });
});
