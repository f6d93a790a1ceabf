/**
 * Only members of a company can read or change its teams: company B's admin tries A's team ids on
 * every team call, and A's manager (not only its admin) works with A's teams.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, type ApiClient } from '../support/api-client.js';
import { startIdentityStack, uniqueEmail, type IdentityStack } from '../support/identity-stack.js';
import { memberPayload, teamPayload, type SavedTeam } from './team-fixtures.js';

let stack: IdentityStack;
let adminA: ApiClient;
let managerA: ApiClient;
let adminB: ApiClient;
let teamOfA: SavedTeam;

async function managerOf(admin: ApiClient): Promise<ApiClient> {
  const email = uniqueEmail('team-manager');
  await admin.post('/api/auth/invite', { email, role: 'manager' });
  const invitation = linkIn((await stack.mailTo(email)).text, '/auth/accept-invite').searchParams.get('token');
  const manager = stack.browser();
  await manager.get(`/api/auth/accept-invite?token=${invitation}`);
  await manager.post('/api/auth/signup', { firstName: 'Managing', lastName: 'Person', email, password: 'teams belong to companies 7' });
  const verification = linkIn((await stack.mailTo(email, 1)).text, '/auth/verify-email').searchParams.get('token');
  expect((await manager.post('/api/auth/verify-email', { token: verification })).status).toBe(200);
  return manager;
}

beforeAll(async () => {
  stack = await startIdentityStack({ withScoring: true });
  adminA = (await stack.signUpVerified({ firstName: 'Alpha', lastName: 'Admin' })).browser;
  adminB = (await stack.signUpVerified({ firstName: 'Bravo', lastName: 'Admin' })).browser;
  managerA = await managerOf(adminA);
  const saved = await managerA.put<{ team: SavedTeam }>('/api/teams/save', { team: teamPayload(), isNew: true, members: [memberPayload()] });
  expect(saved.status).toBe(200);
  teamOfA = saved.body.team;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe("a company's teams are its own", () => {
  it("lets a manager of A create, read and change A's teams", async () => {
    const teams = await managerA.get<SavedTeam[]>('/api/teams/fetch/?department=sales');
    expect(teams.body.map((team) => team.id)).toContain(teamOfA.id);
    const changed = await managerA.put<{ team: SavedTeam }>('/api/teams/save', { team: { ...teamOfA, name: `${teamOfA.name}!` }, isNew: false });
    expect(changed.status).toBe(200);
    teamOfA = changed.body.team;
    expect((await adminA.get<SavedTeam[]>('/api/teams/fetch/')).body.find((team) => team.id === teamOfA.id)?.name).toBe(teamOfA.name);
  });

  it("never lists A's teams to B", async () => {
    for (const path of ['/api/teams/fetch/', '/api/teams/fetch/?department=sales']) {
      const listed = await adminB.get<SavedTeam[]>(path);
      expect(listed.status).toBe(200);
      expect(listed.body.map((team) => team.id)).not.toContain(teamOfA.id);
    }
    const company = await adminB.get<{ teams: Array<{ id: string }> }>('/api/company');
    expect(company.body.teams.map((team) => team.id)).not.toContain(teamOfA.id);
  });

  it("answers B 404 for A's team and its members", async () => {
    expect((await adminB.get(`/api/teams/${teamOfA.id}/members`)).status).toBe(404);
    expect((await adminB.get(`/api/teams/${teamOfA.id}`)).status).toBe(404);
  });

  it("does not let B change or delete A's team, even naming its id", async () => {
    const update = await adminB.put('/api/teams/save', { team: { ...teamOfA, name: 'Taken over' }, isNew: false, members: [] });
    expect(update.status).toBe(404);
    expect((await adminB.delete(`/api/teams/${teamOfA.id}`)).status).toBe(404);

    // A create with A's team id makes B a team of its own; A's stays as it was.
    const created = await adminB.put<{ team: SavedTeam; created: boolean }>('/api/teams/save', { team: { ...teamOfA, name: 'Same id, other company' }, isNew: true, members: [] });
    expect(created.status).toBe(200);
    expect(created.body.created).toBe(true);
    const ofA = await adminA.get<{ team: SavedTeam; members: unknown[] }>(`/api/teams/${teamOfA.id}`);
    expect(ofA.body.team.name).toBe(teamOfA.name);
    expect(ofA.body.team.version).toBe(teamOfA.version);
    expect(ofA.body.members).toHaveLength(1);
    expect((await adminB.get<{ team: SavedTeam }>(`/api/teams/${teamOfA.id}`)).body.team.name).toBe('Same id, other company');
  });
});
