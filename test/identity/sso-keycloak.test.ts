/**
 * Single sign-on against the real Keycloak that `deploy/local/services up --with-keycloak` starts
 * (realm imported from deploy/local/keycloak/parlance-realm.json). Access tokens come from
 * Keycloak's token endpoint; the gateway, configured with the realm as OIDC issuer, verifies them
 * with jose against the realm's key set, and identity maps each to a user and a company: one
 * company per organisation claim (`company_id`), provisioned on first sign-in.
 *
 * Needs a running Keycloak: this suite fails (it does not skip) when none answers.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OidcSettings } from '@parlance/gateway/config';
import { ApiClient } from '../support/api-client.js';
import { repoRoot } from '../support/host-process.js';
import { closeIdentitySql, identitySql } from '../support/identity-db.js';
import { startIdentityStack, type IdentityStack } from '../support/identity-stack.js';

const keycloakUrl = process.env.KEYCLOAK_URL ?? 'http://127.0.0.1:58080';
const issuer = process.env.OIDC_ISSUER ?? `${keycloakUrl}/realms/${process.env.KEYCLOAK_REALM ?? 'parlance'}`;
const oidc: OidcSettings = {
  issuer,
  jwksUrl: process.env.OIDC_JWKS_URL ?? `${issuer}/protocol/openid-connect/certs`,
  audience: 'parlance-gateway',
  organizationClaim: 'company_id',
  rolesClaim: 'roles',
};

interface RealmUser {
  username: string;
  credentials: Array<{ value: string }>;
  attributes: { company_id: string[] };
  realmRoles: string[];
}
const realm = JSON.parse(readFileSync(`${repoRoot}/deploy/local/keycloak/parlance-realm.json`, 'utf8')) as { users: RealmUser[] };
const account = (username: string) => {
  const user = realm.users.find((u) => u.username === username);
  if (!user) throw new Error(`the realm file has no user ${username}`);
  return { username, password: user.credentials[0]!.value, organization: user.attributes.company_id[0]! };
};
const ada = account('ada@acme.test'); // admin at acme
const alan = account('alan@acme.test'); // manager at acme
const grace = account('grace@globex.test'); // manager at globex

async function accessToken(user: { username: string; password: string }): Promise<{ access: string; id: string }> {
  const response = await fetch(`${issuer}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: 'parlance-test', username: user.username, password: user.password, scope: 'openid' }),
  }).catch((error: unknown) => {
    throw new Error(`Keycloak does not answer at ${issuer} (${String(error)}); start it with eval "$(deploy/local/services up --with-keycloak)"`);
  });
  const body = (await response.json()) as { access_token: string; id_token: string };
  if (!response.ok) throw new Error(`password grant for ${user.username}: ${response.status} ${JSON.stringify(body)}`);
  return { access: body.access_token, id: body.id_token };
}

let stack: IdentityStack;
/** An API client that authenticates with a bearer token instead of cookies. */
const api = (token: string) => new ApiClient(stack.url, { authorization: `Bearer ${token}` });

beforeAll(async () => {
  stack = await startIdentityStack({ app: { oidc } });
}, 90_000);

afterAll(async () => {
  await stack?.stop();
  await closeIdentitySql();
});

interface Session {
  user: { email: string; firstName: string; lastName: string; role: string };
  company: { id: string; name: string; departments: string[] };
}

describe('bearer tokens from Keycloak', () => {
  it('map to a user and to the company of their organisation, provisioned on first sign-in', async () => {
    const session = await api((await accessToken(ada)).access).get<Session>('/api/auth/session');
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ email: 'ada@acme.test', firstName: 'Ada', lastName: 'Lovelace', role: 'admin' });
    expect(session.body.company).toMatchObject({ name: ada.organization, departments: ['sales', 'hr', 'support'] });
    const [row] = await identitySql<{ sso_issuer: string; sso_organization: string }>('select sso_issuer, sso_organization from identity.companies where id = $1', [
      session.body.company.id,
    ]);
    expect(row).toEqual({ sso_issuer: issuer, sso_organization: ada.organization });
  });

  it('put people of one organisation in one company, with the roles Keycloak grants', async () => {
    const adaSession = await api((await accessToken(ada)).access).get<Session>('/api/auth/session');
    const alanSession = await api((await accessToken(alan)).access).get<Session>('/api/auth/session');
    expect(alanSession.body.company.id).toBe(adaSession.body.company.id);
    expect(alanSession.body.user.role).toBe('manager');
    const members = await api((await accessToken(ada)).access).get<Array<{ email: string; role: string }>>('/api/settings/members');
    expect(members.body).toEqual(
      expect.arrayContaining([
        { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.test', role: 'admin' },
        { first_name: 'Alan', last_name: 'Turing', email: 'alan@acme.test', role: 'manager' },
      ]),
    );
  });

  it('keep another organisation in another company, out of reach', async () => {
    const graceSession = await api((await accessToken(grace)).access).get<Session>('/api/auth/session');
    const adaApi = api((await accessToken(ada)).access);
    const adaSession = await adaApi.get<Session>('/api/auth/session');
    expect(graceSession.body.company.id).not.toBe(adaSession.body.company.id);
    expect(graceSession.body.company.name).toBe(grace.organization);
    // The first person of a company administers it, whatever role they bring.
    expect(graceSession.body.user.role).toBe('admin');

    // Members of a single-sign-on company are managed at the provider, so this is refused before
    // any member is even looked up; and Grace is not among Ada's members anyway.
    const reach = await adaApi.put('/api/settings/members/grace%40globex.test', { role: 'manager' });
    expect(reach.status).toBe(409);
    expect(reach.body).toMatchObject({ error: `The members of ${ada.organization} are managed in your single sign-on provider: invite, remove and change roles there.` });
    const adaMembers = await adaApi.get<Array<{ email: string }>>('/api/settings/members');
    expect(adaMembers.body.map((m) => m.email)).not.toContain('grace@globex.test');
    const graceMembers = await api((await accessToken(grace)).access).get<Array<{ email: string }>>('/api/settings/members');
    expect(graceMembers.body.map((m) => m.email)).toEqual(['grace@globex.test']);
  });

  it('need no CSRF token (nothing rides on a cookie), and follow the same role rules', async () => {
    const alanApi = api((await accessToken(alan)).access);
    const profile = await alanApi.put<{ user: { firstName: string } }>('/api/settings/profile/update', { firstName: 'Alan M.' }, { withoutCsrf: true });
    expect(profile.status).toBe(200);
    expect(profile.body.user.firstName).toBe('Alan M.');
    await alanApi.put('/api/settings/profile/update', { firstName: 'Alan' }, { withoutCsrf: true });
    const invite = await alanApi.post('/api/auth/invite', { email: 'someone@acme.test', role: 'manager' }, { withoutCsrf: true });
    expect(invite.status).toBe(403);
    expect(invite.body).toMatchObject({ error: 'Members management is only available for Admin users' });
  });

  it('are refused when tampered with, meant for another audience, or not tokens at all', async () => {
    const { access, id } = await accessToken(ada);
    const [header, body, signature] = access.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const forged = [header, Buffer.from(JSON.stringify({ ...claims, company_id: grace.organization })).toString('base64url'), signature].join('.');
    for (const token of [forged, id, 'not-a-jwt']) {
      const response = await api(token).get('/api/auth/session');
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ error: 'Your single sign-on token is not valid. Please sign in again.' });
    }
    const basic = await new ApiClient(stack.url, { authorization: 'Basic YWRhOnB3' }).get('/api/auth/session');
    expect(basic.status).toBe(401);
  });

  it('are not accepted at all when single sign-on is not configured', async () => {
    const plain = await startIdentityStack();
    try {
      const response = await new ApiClient(plain.url, { authorization: `Bearer ${(await accessToken(ada)).access}` }).get('/api/auth/session');
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ error: 'Bearer tokens are not accepted: single sign-on is not configured on this server.' });
    } finally {
      await plain.stop();
    }
  }, 60_000);
});
