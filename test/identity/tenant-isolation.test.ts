/**
 * Tenancy: a user of one company can neither read nor change another company's data, through any
 * endpoint. Two companies, each with an admin and a manager; the admin of A tries every endpoint
 * of the API against B (B's members by e-mail, B's ids in headers, query and body). The last test
 * checks that this file covers every operation in the OpenAPI document, so a new endpoint cannot
 * be added without a case here.
 */
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { activities as ingestActivities } from '@parlance/ingest/db/schema';
import { integrationRequests } from '@parlance/integration/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountsServiceClient } from '@parlance/proto/parlance/identity/v1/accounts';
import { createClient } from '@parlance/platform/grpc/grpc-client';
import { linkIn, type ApiClient } from '../support/api-client.js';
import { repoRoot } from '../support/host-process.js';
import { closeIdentitySql } from '../support/identity-db.js';
import { startIdentityStack, uniqueEmail, type IdentityStack } from '../support/identity-stack.js';
import { waitFor } from '../support/wait-for.js';
import { memberPayload, teamPayload } from '../teams/team-fixtures.js';
import { startCloseStandin, STANDIN_SEED, type CloseStandin } from '../../services/integration/test/support/close-standin.js';
import { GOOGLE_STANDIN_SEED, startGoogleStandin, type GoogleStandin } from '../../services/integration/test/support/google-standin.js';
import { HUBSPOT_STANDIN_SEED, startHubSpotStandin, type HubSpotStandin } from '../../services/integration/test/support/hubspot-standin.js';
import { activityOfJob } from '../uploads/upload-fixtures.js';

interface Tenant {
  admin: ApiClient;
  adminEmail: string;
  adminId: string;
  manager: ApiClient;
  managerEmail: string;
  companyId: string;
}

let stack: IdentityStack;
let closeCrm: CloseStandin;
let hubspotCrm: HubSpotStandin;
let google: GoogleStandin;
let a: Tenant;
let b: Tenant;
let teamOfB: { id: string; name: string; version: number };
let representativeOfB: string;
let callOfB: { jobId: string; activityId: string };
let meetingOfB: { jobId: string; activityId: string };
const covered = new Set<string>();

async function tenant(name: string): Promise<Tenant> {
  const admin = await stack.signUpVerified({ firstName: `${name}Admin`, lastName: 'Tenant' });
  const managerEmail = uniqueEmail(`${name.toLowerCase()}-manager`);
  await admin.browser.post('/api/auth/invite', { email: managerEmail, role: 'manager' });
  const token = linkIn((await stack.mailTo(managerEmail)).text, '/auth/accept-invite').searchParams.get('token');
  const manager = stack.browser();
  await manager.get(`/api/auth/accept-invite?token=${token}`);
  await manager.post('/api/auth/signup', { firstName: `${name}Manager`, lastName: 'Tenant', email: managerEmail, password: 'separate companies 5' });
  const verify = linkIn((await stack.mailTo(managerEmail, 1)).text, '/auth/verify-email').searchParams.get('token');
  expect((await manager.post('/api/auth/verify-email', { token: verify })).status).toBe(200);
  return { admin: admin.browser, adminEmail: admin.person.email, adminId: admin.userId, manager, managerEmail, companyId: admin.companyId };
}

beforeAll(async () => {
  // Close is a third-party SaaS tests cannot reach: a local stand-in speaks its documented API.
  closeCrm = await startCloseStandin();
  hubspotCrm = await startHubSpotStandin();
  google = await startGoogleStandin();
  stack = await startIdentityStack({
    withScoring: true,
    withIngest: true,
    withIntegration: true,
    env: {
      CLOSE_API_URL: closeCrm.baseUrl,
      HUBSPOT_CLIENT_ID: HUBSPOT_STANDIN_SEED.clientId,
      HUBSPOT_CLIENT_SECRET: HUBSPOT_STANDIN_SEED.clientSecret,
      HUBSPOT_AUTHORIZE_URL: hubspotCrm.authorizeUrl,
      HUBSPOT_API_URL: hubspotCrm.baseUrl,
      GOOGLE_CLIENT_ID: GOOGLE_STANDIN_SEED.clientId,
      GOOGLE_CLIENT_SECRET: GOOGLE_STANDIN_SEED.clientSecret,
      GOOGLE_TOKEN_URL: google.tokenUrl,
      GOOGLE_USERINFO_URL: google.userinfoUrl,
      GOOGLE_DRIVE_URL: google.driveUrl,
      GOOGLE_CALENDAR_URL: google.calendarUrl,
      GOOGLE_MEET_URL: google.meetUrl,
    },
  });
  a = await tenant('A');
  b = await tenant('B');
  const saved = await b.manager.put<{ team: typeof teamOfB; members: Array<{ email: string }> }>('/api/teams/save', { team: teamPayload(), isNew: true, members: [memberPayload()] });
  expect(saved.status).toBe(200);
  teamOfB = saved.body.team;
  representativeOfB = saved.body.members[0]!.email;
  await stack.publishInsightTokens({ companyId: b.companyId, tokens: 4_242 });
  callOfB = await uploadOfB('/api/calls/transcribe/text', { fileName: 'b-call.txt', content: 'Rep: Hello from B.', teamId: teamOfB.id, representative: representativeOfB, repName: 'Rep' });
  meetingOfB = await uploadOfB('/api/meetings/upload', { meetingName: 'b-meeting.txt', content: 'Rep: Minutes of B.', teamId: teamOfB.id, repEmail: representativeOfB });
}, 120_000);

/** Uploads as B's admin; the job id and the activity id ingest stored for it. */
async function uploadOfB(path: string, body: Record<string, unknown>): Promise<{ jobId: string; activityId: string }> {
  const response = await b.admin.post<{ jobId: string }>(path, body);
  expect([200, 202]).toContain(response.status);
  return { jobId: response.body.jobId, activityId: await activityOfJob(stack, b.companyId, response.body.jobId) };
}

/** B's uploads, counted in ingest's own tables. */
async function activitiesOfB(): Promise<number> {
  return (await stack.runtime('ingest').database.db.select().from(ingestActivities).where(eq(ingestActivities.companyId, b.companyId))).length;
}

afterAll(async () => {
  await stack?.stop();
  await closeCrm?.close();
  await hubspotCrm?.close();
  await google?.close();
  await closeIdentitySql();
});

/** Headers, query and body fields that try to name B; every one must be ignored. */
const smuggle = () => ({ 'x-parlance-company-id': b.companyId, 'x-parlance-user-id': b.adminId, 'x-company-id': b.companyId });

const membersOf = async (tenantOf: Tenant) =>
  (await tenantOf.admin.get<Array<{ email: string; role: string }>>('/api/settings/members')).body.map((m) => `${m.email}:${m.role}`).sort();

function operation(method: string, path: string): string {
  covered.add(`${method} ${path}`);
  return `${method} ${path}`;
}

describe('every endpoint keeps company A’s users out of company B', () => {
  it(operation('GET', '/api/auth/session'), async () => {
    const response = await a.admin.get<{ company: { id: string }; user: { email: string } }>(`/api/auth/session?companyId=${b.companyId}`, { headers: smuggle() });
    expect(response.body.company.id).toBe(a.companyId);
    expect(response.body.user.email).toBe(a.adminEmail);
  });

  it(operation('GET', '/api/company'), async () => {
    const response = await a.admin.get<{ id: string }>(`/api/company?companyId=${b.companyId}`, { headers: smuggle() });
    expect(response.body.id).toBe(a.companyId);
  });

  it(operation('GET', '/api/settings/members'), async () => {
    const response = await a.admin.get<Array<{ email: string }>>(`/api/settings/members?companyId=${b.companyId}`, { headers: smuggle() });
    const emails = response.body.map((m) => m.email);
    expect(emails.sort()).toEqual([a.adminEmail, a.managerEmail].sort());
    expect(JSON.stringify(response.body)).not.toContain(b.managerEmail);
  });

  it(operation('PUT', '/api/settings/members/{email}'), async () => {
    const before = await membersOf(b);
    for (const target of [b.managerEmail, b.adminEmail]) {
      const response = await a.admin.put(`/api/settings/members/${encodeURIComponent(target)}`, { role: 'admin', companyId: b.companyId }, { headers: smuggle() });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ error: `No member with the email ${target} was found in your company.` });
    }
    expect(await membersOf(b)).toEqual(before);
  });

  it(operation('DELETE', '/api/settings/members/{email}'), async () => {
    const before = await membersOf(b);
    const response = await a.admin.delete(`/api/settings/members/${encodeURIComponent(b.managerEmail)}?companyId=${b.companyId}`, { headers: smuggle() });
    expect(response.status).toBe(404);
    expect(await membersOf(b)).toEqual(before);
    expect((await b.manager.get('/api/auth/session')).status).toBe(200);
  });

  it(operation('PUT', '/api/settings/profile/update'), async () => {
    const response = await a.manager.put<{ user: { email: string } }>('/api/settings/profile/update', { firstName: 'Renamed', email: b.adminEmail, companyId: b.companyId }, { headers: smuggle() });
    expect(response.body.user.email).toBe(a.managerEmail);
    const bAdmin = await b.admin.get<{ user: { firstName: string } }>('/api/auth/session');
    expect(bAdmin.body.user.firstName).toBe('BAdmin');
  });

  it(operation('POST', '/api/auth/invite'), async () => {
    // Inviting B's manager is an invitation into A, which only they can accept; B is unchanged.
    const before = await membersOf(b);
    const response = await a.admin.post('/api/auth/invite', { email: b.managerEmail, role: 'admin', companyId: b.companyId }, { headers: smuggle() });
    expect(response.status).toBe(200);
    const mail = await stack.mailTo(b.managerEmail, 2);
    expect(mail.subject).toContain("AAdmin Tenant's company");
    expect(await membersOf(b)).toEqual(before);
  });

  it(operation('GET', '/api/auth/accept-invite'), async () => {
    // The token in the link is the only credential, and only the invited address received it: a
    // guessed or foreign token gets the same refusal as an unknown one.
    const response = await a.admin.get(`/api/auth/accept-invite?token=${'B'.repeat(43)}`, { headers: smuggle() });
    expect(response.status).toBe(400);
    expect(await membersOf(b)).toHaveLength(2);
  });

  it(operation('GET', '/api/billing/subscription'), async () => {
    // B's usage: the tokens published above and those its two uploads consumed when scored.
    const scoredTokens = async (path: string) =>
      waitFor(`${path} to be scored`, async () => (await b.admin.get<{ evaluation: { insightTokens: number } | null }>(path)).body.evaluation?.insightTokens, 60_000);
    const consumed = (await scoredTokens(`/api/calls/summary/${callOfB.activityId}`)) + (await scoredTokens(`/api/meetings/summary/${meetingOfB.activityId}`));
    await waitFor('B’s usage to be recorded', async () => {
      const body = (await b.admin.get<{ usage: { total_insight_tokens: number } }>('/api/billing/subscription')).body;
      return body.usage.total_insight_tokens === 4_242 + consumed ? true : undefined;
    });
    const mine = await a.admin.get<{ usage: { total_insight_tokens: number } }>(`/api/billing/subscription?companyId=${b.companyId}`, { headers: smuggle() });
    expect(mine.body.usage.total_insight_tokens).toBe(0);
  });

  it(operation('GET', '/api/billing/plans'), async () => {
    // The public catalogue: the same for everyone, and no tenant data in it.
    const response = await a.admin.get('/api/billing/plans', { headers: smuggle() });
    expect(JSON.stringify(response.body)).not.toContain(b.companyId);
  });

  it(operation('GET', '/api/teams/fetch/'), async () => {
    const listed = await a.admin.get<Array<{ id: string }>>(`/api/teams/fetch/?department=sales&companyId=${b.companyId}`, { headers: smuggle() });
    expect(listed.status).toBe(200);
    expect(listed.body.map((team) => team.id)).not.toContain(teamOfB.id);
  });

  it(`${operation('GET', '/api/teams/{id}')}, ${operation('GET', '/api/teams/{id}/members')}`, async () => {
    expect((await a.admin.get(`/api/teams/${teamOfB.id}?companyId=${b.companyId}`, { headers: smuggle() })).status).toBe(404);
    expect((await a.manager.get(`/api/teams/${teamOfB.id}/members`, { headers: smuggle() })).status).toBe(404);
  });

  it(`${operation('PUT', '/api/teams/save')}, ${operation('DELETE', '/api/teams/{id}')}`, async () => {
    const update = await a.admin.put('/api/teams/save', { team: { ...teamPayload(), id: teamOfB.id, name: 'Taken over' }, isNew: false, members: [], companyId: b.companyId }, { headers: smuggle() });
    expect(update.status).toBe(404);
    expect((await a.admin.delete(`/api/teams/${teamOfB.id}`, { headers: smuggle() })).status).toBe(404);
    const own = await b.admin.get<{ team: { name: string; version: number } }>(`/api/teams/${teamOfB.id}`);
    expect(own.body.team).toMatchObject({ name: teamOfB.name, version: teamOfB.version });
  });

  it(operation('POST', '/api/teams/ai-suggestion'), async () => {
    // Works from what it is sent alone: nothing of B's to find in it.
    const response = await a.manager.post<{ suggestion: string }>('/api/teams/ai-suggestion', { criterionName: 'Greeting', companyId: b.companyId }, { headers: smuggle() });
    expect(response.status).toBe(200);
    expect(response.body.suggestion).not.toContain(teamOfB.name);
  });

  it(`${operation('POST', '/api/calls/transcribe/text')}, ${operation('POST', '/api/calls/transcribe/audio')}, ${operation('POST', '/api/meetings/upload')}`, async () => {
    // B's team is not A's to upload into, whatever A claims to be.
    const before = await activitiesOfB();
    const text = await a.admin.post('/api/calls/transcribe/text', { fileName: 'x.txt', content: 'A: hi', teamId: teamOfB.id, representative: representativeOfB, companyId: b.companyId }, { headers: smuggle() });
    expect(text.status).toBe(400);
    expect(text.body).toMatchObject({ error: 'The selected team was not found in your company. Please select a team.' });
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('RIFF')]), 'x.wav');
    form.append('teamId', teamOfB.id);
    form.append('representative', representativeOfB);
    form.append('companyId', b.companyId);
    expect((await a.admin.postForm('/api/calls/transcribe/audio', form, { headers: smuggle() })).status).toBe(400);
    const meeting = await a.manager.post('/api/meetings/upload', { meetingName: 'x.txt', content: 'A: hi', teamId: teamOfB.id, repEmail: representativeOfB }, { headers: smuggle() });
    expect(meeting.status).toBe(400);
    expect(await activitiesOfB()).toBe(before);
  });

  it(`${operation('GET', '/api/queue/job/{id}')}, ${operation('GET', '/api/meetings/upload-status/{jobId}')}`, async () => {
    expect((await a.admin.get(`/api/queue/job/${callOfB.jobId}?companyId=${b.companyId}`, { headers: smuggle() })).status).toBe(404);
    expect((await a.manager.get(`/api/meetings/upload-status/${meetingOfB.jobId}`, { headers: smuggle() })).status).toBe(404);
    expect((await b.admin.get(`/api/queue/job/${callOfB.jobId}`)).status).toBe(200);
  });

  it(`${operation('DELETE', '/api/calls/{id}')}, ${operation('DELETE', '/api/meetings/{id}')}`, async () => {
    const before = await activitiesOfB();
    expect((await a.admin.delete(`/api/calls/${callOfB.activityId}?companyId=${b.companyId}`, { headers: smuggle() })).status).toBe(404);
    expect((await a.manager.delete(`/api/meetings/${meetingOfB.activityId}`, { headers: smuggle() })).status).toBe(404);
    expect(await activitiesOfB()).toBe(before);
    expect((await b.admin.get(`/api/meetings/upload-status/${meetingOfB.jobId}`)).status).toBe(200);
  });

  it(`${operation('GET', '/api/calls/summary/{callId}')}, ${operation('GET', '/api/meetings/summary/{meetingId}')}`, async () => {
    // B reads its own once transcribed; A gets B's ids answered as unknown, whatever it claims.
    await waitFor('B’s call to be transcribed', async () => ((await b.admin.get(`/api/calls/summary/${callOfB.activityId}`)).status === 200 ? true : undefined));
    await waitFor('B’s meeting to be transcribed', async () => ((await b.manager.get(`/api/meetings/summary/${meetingOfB.activityId}`)).status === 200 ? true : undefined));
    const call = await a.admin.get(`/api/calls/summary/${callOfB.activityId}?companyId=${b.companyId}`, { headers: smuggle() });
    expect(call.status).toBe(404);
    expect(call.body).toEqual({ error: `Call ${callOfB.activityId} not found.`, message: `Call ${callOfB.activityId} not found.` });
    expect(JSON.stringify(call.body)).not.toContain('Hello from B');
    const meeting = await a.manager.get(`/api/meetings/summary/${meetingOfB.activityId}`, { headers: smuggle() });
    expect(meeting.status).toBe(404);
    expect(JSON.stringify(meeting.body)).not.toContain('Minutes of B');
  });

  it(`${operation('GET', '/api/calls/')}, ${operation('GET', '/api/meetings')}, ${operation('GET', '/api/calls/{id}/recording')}`, async () => {
    // B sees its own rows once analytics has read them; A, naming B's team and ids, sees none.
    await waitFor('B’s call in B’s list', async () => ((await b.admin.get<{ data: unknown[] }>('/api/calls/')).body.data.length > 0 ? true : undefined));
    await waitFor('B’s meeting in B’s list', async () => ((await b.admin.get<{ data: unknown[] }>('/api/meetings')).body.data.length > 0 ? true : undefined));
    const calls = await a.admin.get<{ data: unknown[] }>(`/api/calls/?teamId=${teamOfB.id}&callIds=${callOfB.activityId}&companyId=${b.companyId}`, { headers: smuggle() });
    expect(calls.status).toBe(200);
    expect(calls.body.data).toEqual([]);
    const meetings = await a.manager.get<{ data: unknown[] }>(`/api/meetings?teamIds=${teamOfB.id}&meetingIds=${meetingOfB.activityId}`, { headers: smuggle() });
    expect(meetings.body.data).toEqual([]);
    expect((await a.admin.get(`/api/calls/${callOfB.activityId}/recording`, { headers: smuggle() })).status).toBe(404);
  });

  it(
    [
      operation('GET', '/api/dashboard/leaderboard'),
      operation('GET', '/api/dashboard/metrics'),
      operation('GET', '/api/dashboard/performance'),
      operation('GET', '/api/dashboard/analytics'),
      operation('GET', '/api/dashboard/recommendations'),
      operation('GET', '/api/dashboard/representatives/{email}'),
    ].join(', '),
    async () => {
      // B's own dashboard counts its call; A, naming B's team, representative and company, counts nothing of B's.
      const teamOfBQuery = `teamIds=${teamOfB.id}&representatives=${encodeURIComponent(representativeOfB)}&companyId=${b.companyId}`;
      await waitFor('B’s call on B’s leaderboard', async () => ((await b.admin.get<unknown[]>(`/api/dashboard/leaderboard?teamIds=${teamOfB.id}`)).body.length > 0 ? true : undefined));
      const leaderboard = await a.admin.get<unknown[]>(`/api/dashboard/leaderboard?${teamOfBQuery}`, { headers: smuggle() });
      expect(leaderboard).toMatchObject({ status: 200, body: [] });
      const metrics = await a.manager.get<{ current: { avgActivitiesPerRep: number } }>(`/api/dashboard/metrics?${teamOfBQuery}`, { headers: smuggle() });
      expect(metrics.body.current.avgActivitiesPerRep).toBe(0);
      for (const path of ['performance', 'analytics']) {
        // A series for the team id A named (its own name for it unknown), with nothing in it.
        const answer = await a.admin.get<{ datasets?: Array<{ label: string; data: unknown[] }>; rows?: unknown[] }>(`/api/dashboard/${path}?${teamOfBQuery}&groupBy=day&metrics=total_calls`, {
          headers: smuggle(),
        });
        expect(answer.status).toBe(200);
        expect(JSON.stringify(answer.body)).not.toContain(teamOfB.name);
        expect(answer.body.rows ?? answer.body.datasets?.flatMap((dataset) => dataset.data)).toEqual([]);
      }
      const groups = [{ id: 'g', name: 'B', selectedMode: 'team', selectedTeams: [teamOfB.id], selectedMembers: [], fromDate: '2020-01-01', toDate: '2030-12-31' }];
      const recommendations = await a.admin.get<Array<{ teams: Array<{ totalCalls: number; members: unknown[] }> }>>(
        `/api/dashboard/recommendations?filterGroups=${encodeURIComponent(JSON.stringify(groups))}&companyId=${b.companyId}`,
        { headers: smuggle() },
      );
      expect(recommendations.body[0]!.teams).toEqual([expect.objectContaining({ totalCalls: 0, members: [] })]);
      expect(JSON.stringify(recommendations.body)).not.toContain(representativeOfB);
      expect((await a.admin.get(`/api/dashboard/representatives/${encodeURIComponent(representativeOfB)}`, { headers: smuggle() })).status).toBe(404);
    },
  );

  it(`${operation('POST', '/api/calls/share/{id}')}, ${operation('POST', '/api/meetings/share/{id}')}, ${operation('POST', '/api/calls/feedback/{id}')}, ${operation('POST', '/api/meetings/feedback/{id}')}, ${operation('GET', '/api/feedback')}`, async () => {
    const outsider = uniqueEmail('outsider');
    expect((await a.admin.post(`/api/calls/share/${callOfB.activityId}`, { email: outsider, companyId: b.companyId }, { headers: smuggle() })).status).toBe(404);
    expect((await a.manager.post(`/api/meetings/share/${meetingOfB.activityId}`, { email: outsider }, { headers: smuggle() })).status).toBe(404);
    expect(stack.mailCount(outsider)).toBe(0);
    expect((await a.admin.post(`/api/calls/feedback/${callOfB.activityId}`, { description: 'Not yours.' }, { headers: smuggle() })).status).toBe(404);
    expect((await a.manager.post(`/api/meetings/feedback/${meetingOfB.activityId}`, { description: 'Not yours.' }, { headers: smuggle() })).status).toBe(404);
    expect((await b.manager.post(`/api/meetings/feedback/${meetingOfB.activityId}`, { description: 'B’s own report.' })).status).toBe(200);
    const reportsOfA = await a.admin.get<{ data: unknown[] }>(`/api/feedback?companyId=${b.companyId}`, { headers: smuggle() });
    expect(reportsOfA.status).toBe(200);
    expect(reportsOfA.body.data).toEqual([]);
    expect((await b.manager.get('/api/feedback')).status).toBe(403);
    expect((await b.admin.get<{ data: Array<{ description: string }> }>('/api/feedback')).body.data.map((report) => report.description)).toEqual(['B’s own report.']);
  });

  it(
    [
      operation('GET', '/api/integrations'),
      operation('POST', '/api/integrations/close/connect'),
      operation('PUT', '/api/integrations/close/settings'),
      operation('GET', '/api/integrations/close/lead-statuses'),
      operation('DELETE', '/api/integrations/close/disconnect'),
      operation('POST', '/api/integrations/close/sync'),
      operation('POST', '/api/integrations/requests'),
    ].join(', '),
    async () => {
      type Listed = Array<{ id: string; connection: { status: string; by: { email: string } | null; settings: { autoSync: boolean } | null; sync?: { running: boolean } } }>;
      const closeOf = async (tenantOf: Tenant) => (await tenantOf.admin.get<Listed>('/api/integrations')).body.find((integration) => integration.id === 'close-crm')!.connection;
      expect((await b.admin.post('/api/integrations/close/connect', { apiKey: STANDIN_SEED.apiKey })).status).toBe(200);
      expect((await b.admin.put('/api/integrations/close/settings', { autoSync: true })).status).toBe(200);

      const listed = await a.admin.get<Listed>(`/api/integrations?companyId=${b.companyId}`, { headers: smuggle() });
      expect(listed.body.find((integration) => integration.id === 'close-crm')!.connection).toMatchObject({ status: 'not_connected', by: null, settings: null });
      expect((await a.admin.put('/api/integrations/close/settings', { autoSync: false }, { headers: smuggle() })).status).toBeGreaterThanOrEqual(400);
      expect((await a.admin.get('/api/integrations/close/lead-statuses', { headers: smuggle() })).status).toBeGreaterThanOrEqual(400);
      expect((await a.admin.delete('/api/integrations/close/disconnect', { headers: smuggle() })).status).toBe(200);
      // A, not connected, cannot start a sync of B's connection.
      expect((await a.admin.post('/api/integrations/close/sync', { companyId: b.companyId }, { headers: smuggle() })).status).toBe(409);
      // A connecting its own Close changes nothing of B's.
      expect((await a.manager.post('/api/integrations/close/connect', { apiKey: STANDIN_SEED.apiKey }, { headers: smuggle() })).status).toBe(200);
      expect(await closeOf(b)).toMatchObject({ status: 'connected', by: { email: b.adminEmail }, settings: { autoSync: true } });
      expect(await closeOf(a)).toMatchObject({ status: 'connected', by: { email: a.managerEmail }, settings: { autoSync: false } });
      // A request is A's own, whatever it names; nothing of it reaches B's data.
      const asked = await a.admin.post<{ requestId: string }>('/api/integrations/requests', { integrationName: 'Salesforce', details: 'for B?', companyId: b.companyId }, { headers: smuggle() });
      expect(asked.status).toBe(200);
      const [stored] = await stack.runtime('integration').database.db.select().from(integrationRequests).where(eq(integrationRequests.id, asked.body.requestId));
      expect(stored).toMatchObject({ companyId: a.companyId, requestedBy: { email: a.adminEmail } });
    },
  );

  it(
    [
      operation('GET', '/api/integrations/hubspot/oauth'),
      operation('GET', '/api/integrations/hubspot/callback'),
      operation('PUT', '/api/integrations/hubspot/settings'),
      operation('POST', '/api/integrations/hubspot/sync'),
      operation('DELETE', '/api/integrations/hubspot/disconnect'),
    ].join(', '),
    async () => {
      type Listed = Array<{ id: string; connection: { status: string; by: { email: string } | null; settings: { createTasks: boolean } | null } }>;
      const hubspotOf = async (tenantOf: Tenant) => (await tenantOf.admin.get<Listed>('/api/integrations')).body.find((integration) => integration.id === 'hubspot-crm')!.connection;
      /** HubSpot's consent page followed as the browser would: the callback address it sends the browser back to. */
      const consentFor = async (tenantOf: Tenant) => {
        const started = await tenantOf.admin.get<{ url: string }>('/api/integrations/hubspot/oauth', { headers: smuggle() });
        expect(started.status).toBe(200);
        const back = new URL((await fetch(started.body.url, { redirect: 'manual' })).headers.get('location')!);
        return `${back.pathname}${back.search}`;
      };
      const outcome = (response: { status: number; headers: Headers }) => {
        expect(response.status).toBe(302);
        return response.headers.get('location')!;
      };

      // B connects HubSpot through its own consent.
      expect(outcome(await b.admin.get(await consentFor(b), { keepRedirects: true }))).toBe('/hubspot-oauth-success');
      expect((await b.admin.put('/api/integrations/hubspot/settings', { createTasks: true })).status).toBe(200);

      // A's consent brought back in B's session is refused, and used up: it cannot connect A either.
      const aCallback = await consentFor(a);
      const foreign = outcome(await b.admin.get(aCallback, { keepRedirects: true }));
      expect(foreign).toMatch(/^\/hubspot-oauth-failed\?reason=/);
      expect(decodeURIComponent(foreign.split('reason=')[1]!)).toBe('This HubSpot sign-in was started in another session. Start again from the integrations screen.');
      expect(outcome(await a.admin.get(aCallback, { keepRedirects: true }))).toMatch(/^\/hubspot-oauth-failed/);
      // Signed out, the callback connects nothing.
      expect(outcome(await stack.browser().get(await consentFor(a), { keepRedirects: true }))).toMatch(/^\/hubspot-oauth-failed/);
      expect(await hubspotOf(a)).toMatchObject({ status: 'not_connected' });
      expect(await hubspotOf(b)).toMatchObject({ status: 'connected', by: { email: b.adminEmail }, settings: { createTasks: true } });

      // A's calls, whatever they name, act on A alone.
      expect((await a.admin.put('/api/integrations/hubspot/settings', { createTasks: false, companyId: b.companyId }, { headers: smuggle() })).status).toBe(409);
      expect((await a.admin.post('/api/integrations/hubspot/sync', { companyId: b.companyId }, { headers: smuggle() })).status).toBe(409);
      expect((await a.admin.delete('/api/integrations/hubspot/disconnect', { headers: smuggle() })).status).toBe(200);
      expect(await hubspotOf(b)).toMatchObject({ status: 'connected', settings: { createTasks: true } });
    },
  );

  it(
    [
      operation('POST', '/api/integrations/google-workspace/state'),
      operation('POST', '/api/integrations/google-workspace/connect'),
      operation('POST', '/api/integrations/google-workspace/reconnect'),
      operation('PUT', '/api/integrations/google-workspace/settings'),
      operation('GET', '/api/integrations/google-workspace/folders'),
      operation('POST', '/api/integrations/google-workspace/sync'),
      operation('DELETE', '/api/integrations/google-workspace/disconnect'),
    ].join(', '),
    async () => {
      type Listed = Array<{ id: string; connection: { status: string; by: { email: string } | null; settings: { selectedFolder: { id: string } | null } | null } }>;
      // Each sign-in carries a state the signing-in session asked for (POST …/state), as the web app's does.
      const signedIn = async (client: Tenant['admin'], body: Record<string, unknown>) => ({ ...body, state: (await client.post<{ state: string }>('/api/integrations/google-workspace/state', {})).body.state });
      const workspaceOf = async (tenantOf: Tenant) => (await tenantOf.admin.get<Listed>('/api/integrations')).body.find((integration) => integration.id === 'google-workspace')!.connection;
      expect((await b.admin.post('/api/integrations/google-workspace/connect', await signedIn(b.admin, { code: google.consentCode() }))).status).toBe(200);
      expect((await b.admin.put('/api/integrations/google-workspace/settings', { selectedFolderId: 'fold_meet', selectedFolderName: 'Meet Recordings' })).status).toBe(200);

      // A, not connected, reaches nothing of B's connection, whatever it names.
      expect((await a.admin.get('/api/integrations/google-workspace/folders', { headers: smuggle() })).status).toBe(409);
      expect((await a.admin.put('/api/integrations/google-workspace/settings', { selectedFolderId: '', companyId: b.companyId }, { headers: smuggle() })).status).toBe(409);
      expect((await a.admin.post('/api/integrations/google-workspace/sync', { companyId: b.companyId }, { headers: smuggle() })).status).toBe(409);
      expect((await a.admin.delete('/api/integrations/google-workspace/disconnect', { headers: smuggle() })).status).toBe(200);
      // A's own connect and reconnect make A's connection; B's keeps its folder.
      expect((await a.manager.post('/api/integrations/google-workspace/connect', await signedIn(a.manager, { code: google.consentCode(), companyId: b.companyId }), { headers: smuggle() })).status).toBe(200);
      const reconnected = await a.manager.post<{ folderStatus: { exists: boolean } }>('/api/integrations/google-workspace/reconnect', await signedIn(a.manager, { code: google.consentCode() }), { headers: smuggle() });
      expect(reconnected.status).toBe(200);
      expect(await workspaceOf(a)).toMatchObject({ status: 'connected', by: { email: a.managerEmail }, settings: { selectedFolder: null } });
      expect(await workspaceOf(b)).toMatchObject({ status: 'connected', by: { email: b.adminEmail }, settings: { selectedFolder: { id: 'fold_meet' } } });
      // A code is good once: B's cannot be replayed by A.
      const code = google.consentCode();
      expect((await b.admin.post('/api/integrations/google-workspace/reconnect', await signedIn(b.admin, { code }))).status).toBe(200);
      expect((await a.admin.post('/api/integrations/google-workspace/connect', await signedIn(a.admin, { code }), { headers: smuggle() })).status).toBe(400);
      // A state is the asking session's: B's, brought by A, is refused (and used up), without one nothing connects.
      const bState = await signedIn(b.admin, { code: google.consentCode() });
      expect((await a.admin.post('/api/integrations/google-workspace/connect', bState, { headers: smuggle() })).status).toBe(409);
      expect((await b.admin.post('/api/integrations/google-workspace/connect', bState)).status).toBe(409);
      expect((await a.admin.post('/api/integrations/google-workspace/connect', { code: google.consentCode() })).status).toBe(409);
    },
  );

  it(operation('POST', '/api/auth/logout'), async () => {
    const outsider = await stack.signUpVerified();
    await outsider.browser.post('/api/auth/logout', undefined, { headers: smuggle() });
    expect((await b.admin.get('/api/auth/session')).status).toBe(200);
    expect((await outsider.browser.get('/api/auth/session')).status).toBe(401);
  });

  it(operation('GET', '/api/csrf-token'), async () => {
    // A token is bound to the browser's own cookie: B's browser cannot use A's.
    const token = await a.admin.fetchCsrfToken();
    const response = await b.admin.put('/api/settings/profile/update', { firstName: 'X' }, { withoutCsrf: true, headers: { 'x-csrf-token': token } });
    expect(response.status).toBe(403);
  });

  it(`${operation('POST', '/api/auth/login')}, ${operation('POST', '/api/auth/signup')}, ${operation('POST', '/api/auth/verify-email')}, ${operation('POST', '/api/auth/google-signup')}`, async () => {
    // Signing in starts a session for the person who proved who they are, whatever else is sent.
    const login = await stack.browser().post<{ company: { id: string } }>('/api/auth/login', { email: a.adminEmail, password: 'analytical engine 1843', companyId: b.companyId }, { headers: smuggle() });
    expect(login.body.company.id).toBe(a.companyId);
    const signup = await stack.browser().post('/api/auth/signup', { firstName: 'X', lastName: 'Y', email: b.adminEmail, password: 'someone elses 123', companyId: b.companyId });
    expect(signup.status).toBe(200);
    expect((await stack.browser().post('/api/auth/login', { email: b.adminEmail, password: 'someone elses 123' })).status).toBe(401);
    expect((await stack.browser().post('/api/auth/verify-email', { token: 'C'.repeat(43), companyId: b.companyId })).status).toBe(400);
    // Google is configured in this stack (for Google Workspace): a token Google did not sign is refused.
    expect((await stack.browser().post('/api/auth/google-signup', { email: b.adminEmail, googleId: '1', idToken: 'x.y.z' })).status).toBe(401);
  });

  it(`${operation('GET', '/api/health')}, ${operation('GET', '/api/web-config')}, ${operation('POST', '/api/diagnostics/probes')}, ${operation('GET', '/api/diagnostics/probes/{service}/{probeId}')}`, async () => {
    // Health and the web config carry no tenant data (the same answer for everyone); diagnostics
    // are for operators with their own token, not for users.
    const health = await a.admin.get('/api/health');
    expect(JSON.stringify(health.body)).not.toContain(b.companyId);
    const [asA, asNobody] = await Promise.all([a.admin.get('/api/web-config'), stack.browser().get('/api/web-config')]);
    expect(asA.body).toEqual(asNobody.body);
    expect((await a.admin.post('/api/diagnostics/probes', { service: 'identity' })).status).toBe(404);
    expect((await a.admin.get('/api/diagnostics/probes/identity/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('answers 401 on every endpoint that needs a user when nobody is signed in', async () => {
    const anonymous = stack.browser();
    for (const [method, path] of [
      ['GET', '/api/auth/session'],
      ['GET', '/api/company'],
      ['GET', '/api/settings/members'],
      ['PUT', `/api/settings/members/${b.adminEmail}`],
      ['DELETE', `/api/settings/members/${b.adminEmail}`],
      ['PUT', '/api/settings/profile/update'],
      ['POST', '/api/auth/invite'],
      ['GET', '/api/billing/subscription'],
      ['GET', '/api/teams/fetch/'],
      ['GET', `/api/teams/${teamOfB.id}`],
      ['GET', `/api/teams/${teamOfB.id}/members`],
      ['PUT', '/api/teams/save'],
      ['DELETE', `/api/teams/${teamOfB.id}`],
      ['POST', '/api/teams/ai-suggestion'],
      ['POST', '/api/calls/transcribe/text'],
      ['POST', '/api/calls/transcribe/audio'],
      ['POST', '/api/meetings/upload'],
      ['GET', `/api/queue/job/${callOfB.jobId}`],
      ['GET', `/api/meetings/upload-status/${meetingOfB.jobId}`],
      ['DELETE', `/api/calls/${callOfB.activityId}`],
      ['DELETE', `/api/meetings/${meetingOfB.activityId}`],
      ['GET', `/api/calls/summary/${callOfB.activityId}`],
      ['GET', `/api/meetings/summary/${meetingOfB.activityId}`],
      ['GET', '/api/calls/'],
      ['GET', '/api/meetings'],
      ['GET', `/api/calls/${callOfB.activityId}/recording`],
      ['POST', `/api/calls/share/${callOfB.activityId}`],
      ['POST', `/api/meetings/share/${meetingOfB.activityId}`],
      ['POST', `/api/calls/feedback/${callOfB.activityId}`],
      ['POST', `/api/meetings/feedback/${meetingOfB.activityId}`],
      ['GET', '/api/feedback'],
      ['GET', '/api/dashboard/leaderboard'],
      ['GET', '/api/dashboard/metrics'],
      ['GET', '/api/dashboard/performance'],
      ['GET', '/api/dashboard/analytics'],
      ['GET', '/api/dashboard/recommendations?filterGroups=[]'],
      ['GET', `/api/dashboard/representatives/${encodeURIComponent(representativeOfB)}`],
      ['GET', '/api/integrations'],
      ['POST', '/api/integrations/close/connect'],
      ['PUT', '/api/integrations/close/settings'],
      ['GET', '/api/integrations/close/lead-statuses'],
      ['DELETE', '/api/integrations/close/disconnect'],
      ['POST', '/api/integrations/close/sync'],
      ['POST', '/api/integrations/requests'],
      ['GET', '/api/integrations/hubspot/oauth'],
      ['PUT', '/api/integrations/hubspot/settings'],
      ['POST', '/api/integrations/hubspot/sync'],
      ['DELETE', '/api/integrations/hubspot/disconnect'],
      ['POST', '/api/integrations/google-workspace/state'],
      ['POST', '/api/integrations/google-workspace/connect'],
      ['POST', '/api/integrations/google-workspace/reconnect'],
      ['PUT', '/api/integrations/google-workspace/settings'],
      ['GET', '/api/integrations/google-workspace/folders'],
      ['POST', '/api/integrations/google-workspace/sync'],
      ['DELETE', '/api/integrations/google-workspace/disconnect'],
    ] as const) {
      const response = await anonymous.request(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body).toMatchObject({ error: 'Please sign in to continue.' });
    }
  });
});

describe('identity itself', () => {
  it('refuses a call whose user is not a member of the company it names, even from inside the network', async () => {
    const accounts = createClient(AccountsServiceClient, stack.services.get('identity').address);
    try {
      await expect(accounts.listMembers({}, { companyId: b.companyId, userId: a.adminId })).rejects.toMatchObject({
        kind: 'permission-denied',
        message: 'You are no longer a member of this company. Please sign in again.',
      });
      await expect(accounts.listMembers({}, { userId: a.adminId })).rejects.toMatchObject({ kind: 'unauthenticated' });
      const own = await accounts.listMembers({}, { companyId: a.companyId, userId: a.adminId });
      expect(own.members.map((m) => m.email).sort()).toEqual([a.adminEmail, a.managerEmail].sort());
    } finally {
      accounts.close();
    }
  });
});

describe('coverage', () => {
  it('has a case for every operation of the OpenAPI document', () => {
    const document = JSON.parse(readFileSync(`${repoRoot}/gateway/openapi.json`, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(operations.filter((op) => !covered.has(op))).toEqual([]);
  });
});
