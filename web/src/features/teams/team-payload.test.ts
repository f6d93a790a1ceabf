import { describe, expect, it } from 'vitest';
import { editorTeamOf, newTeam, saveTeamArg } from './team-payload';
import type { Team } from '../../lib/api/gateway-api.generated';
import { ada, makeTeam } from './team-test-fixtures';

describe('team payloads', () => {
  it("drops the server's own fields from a team", () => {
    const team = editorTeamOf(makeTeam());
    expect(team).not.toHaveProperty('version');
    expect(team).not.toHaveProperty('created_at');
    expect(team).not.toHaveProperty('updated_at');
    expect(team.criteria_group[1]).toEqual({ id: 'g2', name: 'Closing', criteria: [{ id: 'c3', name: 'Next steps', prompt: 'A next step is agreed.', weight: 4.5 }] });
  });

  it('makes a new team with no groups for the department', () => {
    expect(newTeam('hr')).toEqual({
      id: 'new',
      name: '',
      department: 'hr',
      criteria_group: [],
      success_criteria: { prompt: '' },
      members: [],
      call_script: '',
      crm_id: '',
      review_threshold: 0.7,
    });
  });

  it("keeps the team's review threshold, and gives a team without one the default", () => {
    expect(editorTeamOf(makeTeam({ review_threshold: 0.85 })).review_threshold).toBe(0.85);
    const { review_threshold: _none, ...older } = makeTeam();
    expect(editorTeamOf(older as Team).review_threshold).toBe(0.7);
  });

  it('sends team, isNew and members', () => {
    const arg = saveTeamArg(editorTeamOf(makeTeam()), false, [ada]);
    expect(Object.keys(arg.body)).toEqual(['team', 'isNew', 'members']);
    expect(arg.body.isNew).toBe(false);
    expect(arg.body.members).toEqual([ada]);
  });

  it('sends the review threshold with the team', () => {
    expect(saveTeamArg(editorTeamOf(makeTeam({ review_threshold: 0.6 })), false, []).body.team?.review_threshold).toBe(0.6);
    expect(saveTeamArg(newTeam('sales'), true, []).body.team?.review_threshold).toBe(0.7);
  });

});
