/**
 * The team calls end to end (spec part 1 §3–§5, §7): the gateway over real HTTP, identity and
 * scoring on PostgreSQL and Kafka. Saves, lists by department, members and their targets,
 * duplicates, deletes, the server's validation sentences, the team-changed event reaching scoring,
 * and the offline AI suggestion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '@parlance/platform/db/database';
import { findTeamCriteria } from '@parlance/scoring/db/team-criteria.repository';
import { weightedScore } from '@parlance/scoring/domain/score';
import { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';
import { TeamChanged } from '@parlance/proto/parlance/identity/v1/events';
import type { ApiClient } from '../support/api-client.js';
import { closeIdentitySql, identitySql } from '../support/identity-db.js';
import { startIdentityStack, type IdentityStack } from '../support/identity-stack.js';
import { waitFor } from '../support/wait-for.js';
import { duplicateOf, memberPayload, teamPayload, type MemberJson, type SavedTeam, type TeamJson } from './team-fixtures.js';

interface SaveResponse {
  success: true;
  team: SavedTeam;
  members: MemberJson[];
  created: boolean;
}

let stack: IdentityStack;
let admin: ApiClient;
let companyId: string;

beforeAll(async () => {
  stack = await startIdentityStack({ withScoring: true });
  ({ browser: admin, companyId } = await stack.signUpVerified({ firstName: 'Teamlead', lastName: 'Tester' }));
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await closeIdentitySql();
});

async function save(body: { team: TeamJson; isNew: boolean; members?: MemberJson[] }, client = admin): Promise<SaveResponse> {
  const response = await client.put<SaveResponse>('/api/teams/save', body);
  if (response.status !== 200) throw new Error(`save answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

const listed = async (query = '') => (await admin.get<SavedTeam[]>(`/api/teams/fetch/${query}`)).body;

describe('saving and reading teams', () => {
  it("creates a team sent as 'new', with the spec's fields, and lists it only in its department", async () => {
    const payload = teamPayload({ department: 'hr', crm_id: 'crm-77' });
    const saved = await save({ team: payload, isNew: true, members: [memberPayload()] });
    expect(saved.created).toBe(true);
    expect(saved.team.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(saved.team).toMatchObject({
      name: payload.name,
      department: 'hr',
      success_criteria: payload.success_criteria,
      call_script: payload.call_script,
      crm_id: 'crm-77',
      version: 1,
    });
    expect(saved.team.criteria_group.map((group) => group.criteria.map((criterion) => criterion.weight))).toEqual([[3, 4.5], [2.5]]);
    expect(saved.team.criteria_group[0]!.id).toBe(payload.criteria_group[0]!.id);

    expect((await listed('?department=hr')).map((team) => team.id)).toContain(saved.team.id);
    expect((await listed('?department=sales')).map((team) => team.id)).not.toContain(saved.team.id);
    expect((await listed()).map((team) => team.id)).toContain(saved.team.id);
    const fetched = (await listed('?department=hr')).find((team) => team.id === saved.team.id);
    expect(fetched).toEqual(saved.team);
  });

  it('refuses a department the company does not have when listing', async () => {
    const response = await admin.get('/api/teams/fetch/?department=legal');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'The department "legal" is not one of your company\'s departments' });
  });

  it("keeps the team's members list in step with the members' e-mails, and reads an empty target as 0", async () => {
    const first = memberPayload({ target: '' });
    const second = memberPayload({ first_name: 'Alan', target: '7' });
    const saved = await save({ team: teamPayload({ members: ['stale@example.com'] }), isNew: true, members: [first, second] });
    expect(saved.team.members).toEqual([first.email, second.email]);

    const members = await admin.get<MemberJson[]>(`/api/teams/${saved.team.id}/members`);
    expect(members.status).toBe(200);
    expect(members.body).toEqual([
      { ...first, target: 0 },
      { ...second, target: 7 },
    ]);

    // Editing a member's e-mail changes the team's list with it.
    const renamed = { ...second, email: `renamed.${second.email}` };
    const again = await save({ team: { ...saved.team, members: saved.team.members }, isNew: false, members: [first, renamed] });
    expect(again.team.members).toEqual([first.email, renamed.email]);
    expect(again.team.version).toBe(2);

    const one = await admin.get<{ team: SavedTeam; members: MemberJson[] }>(`/api/teams/${saved.team.id}`);
    expect(one.body.team.members).toEqual([first.email, renamed.email]);
    expect(one.body.members.map((member) => member.email)).toEqual([first.email, renamed.email]);
  });

  it('keeps the members when a save sends no member list, and replaces the criteria', async () => {
    const member = memberPayload();
    const saved = await save({ team: teamPayload(), isNew: true, members: [member] });
    const changed = { ...saved.team, criteria_group: [{ id: 'only', name: 'Everything', criteria: [{ id: 'all', name: 'All of it', prompt: 'The representative does all of it.', weight: '10' }] }] };
    const updated = await save({ team: changed, isNew: false });
    expect(updated.team.members).toEqual([member.email]);
    expect(updated.team.criteria_group).toEqual([{ id: 'only', name: 'Everything', criteria: [{ id: 'all', name: 'All of it', prompt: 'The representative does all of it.', weight: 10 }] }]);
  });

  it('answers 404 for a team the company does not have', async () => {
    const unknown = await admin.put('/api/teams/save', { team: teamPayload({ id: 'no-such-team' }), isNew: false, members: [] });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'Team not found' });
    expect((await admin.get('/api/teams/no-such-team/members')).status).toBe(404);
    expect((await admin.get('/api/teams/no-such-team')).status).toBe(404);
  });

  it('gives the company object its teams in the short form', async () => {
    const saved = await save({ team: teamPayload(), isNew: true, members: [memberPayload()] });
    const company = await admin.get<{ id: string; teams: Array<{ id: string; name: string; members: string[]; criteria_group: unknown[] }> }>('/api/company');
    const team = company.body.teams.find((candidate) => candidate.id === saved.team.id);
    expect(team).toEqual({
      id: saved.team.id,
      name: saved.team.name,
      department: 'sales',
      members: saved.team.members,
      criteria_group: saved.team.criteria_group.map((group) => ({ id: group.id, name: group.name, criteria: group.criteria.map(({ id, name }) => ({ id, name })) })),
    });
  });
});

/** Spec part 1 §5, "Team save errors returned by the server": one save per sentence. */
describe('the server refuses a bad team with the spec’s sentence', () => {
  const cases: Array<[string, (team: TeamJson, members: MemberJson[]) => unknown]> = [
    ['Please enter a name for criterion #2 in criteria group #1', (team) => (team.criteria_group[0]!.criteria[1]!.name = '')],
    ['Please enter a description for criterion #1 in criteria group #2', (team) => (team.criteria_group[1]!.criteria[0]!.prompt = '  ')],
    ['Please enter a name for criteria group #2', (team) => (team.criteria_group[1]!.name = '')],
    ['Weight for criterion #1 in criteria group #1 must be at least 0', (team) => (team.criteria_group[0]!.criteria[0]!.weight = -1)],
    ['Weight for criterion #1 in criteria group #2 must not exceed 10', (team) => (team.criteria_group[1]!.criteria[0]!.weight = '10,1')],
    ['Please enter a valid weight (0-10) for criterion #2 in criteria group #1', (team) => (team.criteria_group[0]!.criteria[1]!.weight = 'four')],
    ['Please enter a valid weight (0-10) for criterion #1 in criteria group #1', (team) => (team.criteria_group[0]!.criteria[0]!.weight = null)],
    ['Please enter a team name', (team) => (team.name = '')],
    ['Please select a department', (team) => (team.department = '')],
    ['Please enter success criteria description', (team) => (team.success_criteria.prompt = '')],
    ['Please enter a call script', (team) => (team.call_script = null)],
    ['Please enter a valid email for team member #2', (_team, members) => (members[1]!.email = 'not-an-email')],
    ['Please enter a first name for team member #1', (_team, members) => (members[0]!.first_name = '')],
    ['Please enter a last name for team member #2', (_team, members) => (members[1]!.last_name = '')],
    ['Please enter a valid target for team member #1', (_team, members) => (members[0]!.target = -3)],
    ['Please check the information for team member #2', (_team, members) => (members[1]!.crm_id = 'c'.repeat(201))],
    ['Please add at least one criteria group', (team) => (team.criteria_group = [])],
    ['Please add at least one criterion to criteria group #1', (team) => (team.criteria_group[0]!.criteria = [])],
    ['Team name is too short', (team) => (team.name = 'X')],
    ['Criterion name or description is too short', (team) => (team.criteria_group[0]!.criteria[0]!.prompt = 'Greet.')],
    ['Team member name is too short', (_team, members) => (members[0]!.last_name = 'H')],
    ['Team name must not exceed 100 characters', (team) => (team.name = 'n'.repeat(101))],
    ['Criterion descriptions must not exceed 500 characters.', (team) => (team.criteria_group[0]!.criteria[0]!.prompt = 'p'.repeat(501))],
    ['Call script must not exceed 10,000 characters', (team) => (team.call_script = 'w'.repeat(10_001))],
    ['Criterion names must not exceed 100 characters.', (team) => (team.criteria_group[0]!.criteria[0]!.name = 'c'.repeat(101))],
    ['Each team member name must be between 2 and 100 characters.', (_team, members) => (members[0]!.first_name = 'f'.repeat(101))],
    ['Team member names must be unique.', (_team, members) => Object.assign(members[1]!, { first_name: members[0]!.first_name, last_name: members[0]!.last_name })],
    ['Total criteria weight must equal 10.', (team) => (team.criteria_group[1]!.criteria[0]!.weight = '2,4')],
    ['Review threshold must be between 50% and 95%', (team) => (team.review_threshold = 0.99)],
    ['Review threshold must be between 50% and 95%', (team) => (team.review_threshold = 0.45)],
  ];

  it.each(cases)('%s', async (message, spoil) => {
    const team = teamPayload();
    const members = [memberPayload(), memberPayload({ first_name: 'Alan' })];
    spoil(team, members);
    const before = (await listed()).length;
    const response = await admin.put('/api/teams/save', { team, isNew: true, members });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: message, message });
    expect((await listed()).length).toBe(before);
  });
});

describe('a team’s review threshold', () => {
  const fetched = async (teamId: string) => (await admin.get<{ team: SavedTeam }>(`/api/teams/${teamId}`)).body.team;

  it('is 0.7 for a new team that chose none, and what it chose otherwise', async () => {
    const unchosen = await save({ team: teamPayload(), isNew: true, members: [] });
    expect(unchosen.team.review_threshold).toBe(0.7);
    expect((await fetched(unchosen.team.id)).review_threshold).toBe(0.7);

    const chosen = await save({ team: teamPayload({ review_threshold: 0.85 }), isNew: true, members: [] });
    expect(chosen.team.review_threshold).toBe(0.85);
    expect((await fetched(chosen.team.id)).review_threshold).toBe(0.85);
    expect((await listed('?department=sales')).find((team) => team.id === chosen.team.id)?.review_threshold).toBe(0.85);
  });

  it('is kept by a save that sends none, changed by one that does, and reaches scoring with the team', async () => {
    const saved = await save({ team: teamPayload({ review_threshold: 0.85 }), isNew: true, members: [] });
    const { review_threshold: _dropped, ...withoutThreshold } = saved.team;
    expect((await save({ team: withoutThreshold, isNew: false })).team).toMatchObject({ version: 2, review_threshold: 0.85 });
    expect((await save({ team: { ...saved.team, review_threshold: null }, isNew: false })).team).toMatchObject({ version: 3, review_threshold: 0.85 });
    expect((await save({ team: { ...saved.team, review_threshold: 0.5 }, isNew: false })).team).toMatchObject({ version: 4, review_threshold: 0.5 });
    expect((await fetched(saved.team.id)).review_threshold).toBe(0.5);

    const scoringDb = stack.runtime('scoring').database.db as Executor;
    const held = await waitFor('scoring to hold version 4', async () => {
      const team = await findTeamCriteria(scoringDb, companyId, saved.team.id);
      return team?.version === 4 ? team : undefined;
    });
    expect(held.reviewThreshold).toBe(0.5);
  });

  it('refuses a value out of range, leaving the team as it was', async () => {
    const saved = await save({ team: teamPayload({ review_threshold: 0.8 }), isNew: true, members: [] });
    for (const review_threshold of [0.96, 0.3, 0, 70]) {
      const response = await admin.put('/api/teams/save', { team: { ...saved.team, review_threshold }, isNew: false });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: 'Review threshold must be between 50% and 95%' });
    }
    const notANumber = await admin.put('/api/teams/save', { team: { ...saved.team, review_threshold: 'high' }, isNew: false });
    expect(notANumber.status).toBe(400);
    expect(await fetched(saved.team.id)).toMatchObject({ version: 1, review_threshold: 0.8 });
  });
});

describe('duplicating a team', () => {
  it("saves the spec's copy as a new team with new ids and no members, once however often it is sent", async () => {
    const original = await save({ team: teamPayload({ review_threshold: 0.9 }), isNew: true, members: [memberPayload()] });
    const copy = duplicateOf(original.team);
    const [first, second] = await Promise.all([save({ team: copy, isNew: true, members: [] }), save({ team: copy, isNew: true, members: [] })]);
    expect([first.created, second.created].sort()).toEqual([false, true]);
    const third = await save({ team: copy, isNew: true, members: [] });
    expect(third.created).toBe(false);

    const copies = (await listed('?department=sales')).filter((team) => team.name === `${original.team.name} (copy)`);
    expect(copies).toHaveLength(1);
    const saved = copies[0]!;
    expect(saved.id).toBe(copy.id);
    expect(saved.members).toEqual([]);
    expect(saved.review_threshold).toBe(0.9);
    expect(saved.criteria_group.map((group) => group.id)).not.toContain(original.team.criteria_group[0]!.id);
    expect(saved.criteria_group.map((group) => group.criteria.map((c) => [c.name, c.prompt, c.weight]))).toEqual(
      original.team.criteria_group.map((group) => group.criteria.map((c) => [c.name, c.prompt, c.weight])),
    );
    expect((await admin.get<MemberJson[]>(`/api/teams/${copy.id}/members`)).body).toEqual([]);
    // The original is untouched.
    expect((await admin.get<MemberJson[]>(`/api/teams/${original.team.id}/members`)).body).toHaveLength(1);
  });
});

describe('deleting a team', () => {
  it('takes it out of every list but keeps it, marked deleted, for the history of its activities', async () => {
    const saved = await save({ team: teamPayload(), isNew: true, members: [memberPayload()] });
    const scoringDb = stack.runtime('scoring').database.db as Executor;
    await waitFor('scoring to learn the team', async () => (await findTeamCriteria(scoringDb, companyId, saved.team.id)) ?? undefined);

    const removed = await admin.delete<{ success: boolean }>(`/api/teams/${saved.team.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true });

    expect((await listed()).map((team) => team.id)).not.toContain(saved.team.id);
    expect((await admin.get<{ teams: Array<{ id: string }> }>('/api/company')).body.teams.map((team) => team.id)).not.toContain(saved.team.id);
    expect((await admin.get(`/api/teams/${saved.team.id}/members`)).status).toBe(404);
    expect((await admin.delete(`/api/teams/${saved.team.id}`)).status).toBe(404);
    const resaved = await admin.put('/api/teams/save', { team: saved.team, isNew: true, members: [] });
    expect(resaved.status).toBe(404);
    expect(resaved.body).toMatchObject({ error: 'This team has been deleted' });

    const [row] = await identitySql<{ deleted_at: Date | null; criteria: string }>(
      'select t.deleted_at, (select count(*) from identity.criteria c where c.company_id = t.company_id and c.team_id = t.id) as criteria from identity.teams t where t.company_id = $1 and t.id = $2',
      [companyId, saved.team.id],
    );
    expect(row?.deleted_at).toBeInstanceOf(Date);
    expect(Number(row?.criteria)).toBe(3);

    // Scoring keeps the criteria its past evaluations were made against, marked deleted.
    const scoring = await waitFor('scoring to learn of the deletion', async () => {
      const team = await findTeamCriteria(scoringDb, companyId, saved.team.id);
      return team?.deletedAt ? team : undefined;
    });
    expect(scoring.criteriaGroups.flatMap((group) => group.criteria.map((criterion) => criterion.name))).toEqual(['Greeting', 'Needs discovery', 'Next steps']);
  });
});

describe('identity.team-changed', () => {
  it('carries the whole team to scoring, and the next score uses a changed weight', async () => {
    const saved = await save({ team: teamPayload(), isNew: true, members: [memberPayload()] });
    const scoringDb = stack.runtime('scoring').database.db as Executor;
    const [opening, closing] = saved.team.criteria_group;
    // The same evaluation outcome each time: the greeting passed, the rest failed.
    const verdicts = [
      { groupId: opening!.id, criterionId: opening!.criteria[0]!.id, passed: true },
      { groupId: opening!.id, criterionId: opening!.criteria[1]!.id, passed: false },
      { groupId: closing!.id, criterionId: closing!.criteria[0]!.id, passed: false },
    ];
    const known = await waitFor('scoring to hold version 1', async () => {
      const team = await findTeamCriteria(scoringDb, companyId, saved.team.id);
      return team?.version === 1 ? team : undefined;
    });
    expect(known).toMatchObject({ name: saved.team.name, successPrompt: saved.team.success_criteria.prompt, callScript: saved.team.call_script });
    expect(known.criteriaGroups).toEqual(saved.team.criteria_group);
    expect(weightedScore(known.criteriaGroups, verdicts)).toBe(3);

    const reweighted = structuredClone(saved.team);
    reweighted.criteria_group[0]!.criteria[0]!.weight = '5,5';
    reweighted.criteria_group[0]!.criteria[1]!.weight = 2;
    const updated = await save({ team: reweighted, isNew: false });
    expect(updated.team.version).toBe(2);

    const current = await waitFor('scoring to hold version 2', async () => {
      const team = await findTeamCriteria(scoringDb, companyId, saved.team.id);
      return team?.version === 2 ? team : undefined;
    });
    expect(weightedScore(current.criteriaGroups, verdicts)).toBe(5.5);
  });
});

describe('the identity.team-changed.v1 events', () => {
  it('are written with every save and delete, each with the whole team, its members and targets, and a rising version', async () => {
    const member = memberPayload({ target: 6 });
    const saved = await save({ team: teamPayload(), isNew: true, members: [member] });
    await save({ team: { ...saved.team, name: `${saved.team.name} renamed` }, isNew: false });
    expect((await admin.delete(`/api/teams/${saved.team.id}`)).status).toBe(200);

    const rows = await identitySql<{ payload: Buffer }>("select payload from identity.outbox where topic = 'identity.team-changed.v1' and key = $1 order by id", [companyId]);
    const events = rows
      .map((row) => EventEnvelope.decode(row.payload))
      .map((envelope) => ({ envelope, change: TeamChanged.decode(envelope.payload) }))
      .filter(({ change }) => change.team?.id === saved.team.id);
    expect(events.map(({ change }) => [change.team?.version, change.deleted])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    for (const { envelope, change } of events) {
      expect(envelope).toMatchObject({ type: 'identity.team-changed.v1', companyId, producer: 'identity' });
      expect(change.team?.criteriaGroups).toEqual(saved.team.criteria_group);
      expect(change.team?.successPrompt).toBe(saved.team.success_criteria.prompt);
      expect(change.team?.callScript).toBe(saved.team.call_script);
      expect(change.team?.reviewThreshold).toBe(0.7);
      expect(change.members).toEqual([{ firstName: member.first_name, lastName: member.last_name, email: member.email, crmId: '', target: 6 }]);
    }
    expect(events[1]!.change.team?.name).toBe(`${saved.team.name} renamed`);
  });
});

describe('AI suggestion (offline engine)', () => {
  it('needs a criterion name', async () => {
    for (const body of [{ criterionName: '', criterionDescription: 'Say hello' }, { criterionDescription: 'Say hello' }, {}]) {
      const response = await admin.post('/api/teams/ai-suggestion', body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: 'Please enter a criterion name to get an AI suggestion' });
    }
  });

  it('turns a criterion name into a checkable prompt with pass and fail conditions', async () => {
    const response = await admin.post<{ success: boolean; suggestion: string; source: string }>('/api/teams/ai-suggestion', {
      criterionName: 'Handles price objections',
      criterionDescription: 'When the customer says "too expensive"',
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.source).toBe('offline');
    expect(response.body.suggestion.length).toBeLessThanOrEqual(500);
    expect(response.body.suggestion).toMatch(/pass/i);
    expect(response.body.suggestion).toMatch(/fail/i);
    expect(response.body.suggestion).toContain('too expensive');
  });
});
