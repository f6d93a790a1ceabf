/**
 * Teams in standalone mode (what `make run` runs): PGlite and the in-memory bus. The demo company
 * starts with its five demo teams, and a saved team reaches scoring through the in-memory bus.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT } from '@parlance/identity/demo-account';
import type { Executor } from '@parlance/platform/db/database';
import { findTeamCriteria } from '@parlance/scoring/db/team-criteria.repository';
import type { ApiClient } from '../support/api-client.js';
import { startIdentityStack, type IdentityStack } from '../support/identity-stack.js';
import { waitFor } from '../support/wait-for.js';
import { memberPayload, teamPayload, type MemberJson, type SavedTeam } from './team-fixtures.js';

let stack: IdentityStack;
let demo: ApiClient;
let companyId: string;

beforeAll(async () => {
  stack = await startIdentityStack({ infrastructure: 'pglite-memory', withScoring: true, env: { MAIL_TRANSPORT: '', IDENTITY_DEMO_ACCOUNT: 'true' } });
  demo = stack.browser();
  const login = await demo.post<{ company: { id: string } }>('/api/auth/login', { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password });
  expect(login.status).toBe(200);
  companyId = login.body.company.id;
}, 90_000);

afterAll(async () => {
  await stack?.stop();
});

describe('standalone teams', () => {
  it('gives the demo company teams in all three departments with members and balanced weights', async () => {
    const sales = (await demo.get<SavedTeam[]>('/api/teams/fetch/?department=sales')).body;
    const support = (await demo.get<SavedTeam[]>('/api/teams/fetch/?department=support')).body;
    const hr = (await demo.get<SavedTeam[]>('/api/teams/fetch/?department=hr')).body;
    expect(sales.map((team) => team.name).sort()).toEqual(['Inbound Sales', 'Outbound Sales']);
    expect(support.map((team) => team.name).sort()).toEqual(['Billing Support', 'Customer Care']);
    expect(hr.map((team) => team.name)).toEqual(['Talent Acquisition']);
    for (const team of [...sales, ...support, ...hr]) {
      const total = team.criteria_group.flatMap((group) => group.criteria).reduce((sum, criterion) => sum + Number(criterion.weight), 0);
      expect(total).toBeCloseTo(10, 9);
    }
    const inbound = sales.find((team) => team.name === 'Inbound Sales')!;
    const members = (await demo.get<MemberJson[]>(`/api/teams/${inbound.id}/members`)).body;
    expect(members.map((member) => `${member.first_name} ${member.last_name}: ${member.target}`)).toEqual(['Maya Okafor: 4', 'Liam Brennan: 3', 'Noah Schmidt: 3']);
  });

  it('saves, reaches scoring through the in-memory bus, and deletes', async () => {
    const saved = await demo.put<{ team: SavedTeam }>('/api/teams/save', { team: teamPayload({ department: 'hr' }), isNew: true, members: [memberPayload()] });
    expect(saved.status).toBe(200);
    const scoringDb = stack.runtime('scoring').database.db as Executor;
    const known = await waitFor('scoring to learn the team', async () => findTeamCriteria(scoringDb, companyId, saved.body.team.id));
    expect(known.criteriaGroups).toEqual(saved.body.team.criteria_group);

    expect((await demo.delete(`/api/teams/${saved.body.team.id}`)).status).toBe(200);
    expect((await demo.get<SavedTeam[]>('/api/teams/fetch/?department=hr')).body.map((team) => team.name)).toEqual(['Talent Acquisition']);
    await waitFor('scoring to learn of the deletion', async () => (await findTeamCriteria(scoringDb, companyId, saved.body.team.id))?.deletedAt ?? undefined);
  });
});
