import { describe, expect, it } from 'vitest';
import type { TeamMember } from '../../lib/api/gateway-api.generated';
import { compareSummary, mergeRepresentatives, optionsOf, type CompareOptions } from './compare-options';

const member = (email: string, first = '', last = ''): TeamMember => ({ email, first_name: first, last_name: last, crm_id: '', target: 0 });

describe('representatives of the department', () => {
  it('are the members of every team once, by name, with all their teams', () => {
    expect(
      mergeRepresentatives([
        { teamId: 'team-1', members: [member('alan@example.com', 'Alan', 'Turing'), member('ada@example.com', 'Ada', 'Lovelace')] },
        { teamId: 'team-2', members: [member('Alan@Example.com', 'Alan', 'Turing'), member('zed@example.com')] },
      ]),
    ).toEqual([
      { email: 'ada@example.com', name: 'Ada Lovelace', teamIds: ['team-1'] },
      { email: 'alan@example.com', name: 'Alan Turing', teamIds: ['team-1', 'team-2'] },
      // Not named by the team: the e-mail stands for the name.
      { email: 'zed@example.com', name: 'zed@example.com', teamIds: ['team-2'] },
    ]);
  });

  it('are none without teams', () => {
    expect(mergeRepresentatives([])).toEqual([]);
  });
});

describe('compare summary', () => {
  const options: CompareOptions = {
    teams: [
      { id: 'team-1', name: 'Inbound sales' },
      { id: 'team-2', name: 'Outbound sales' },
      { id: 'team-3', name: 'Partners' },
    ],
    representatives: [{ email: 'ada@example.com', name: 'Ada Lovelace', teamIds: ['team-1'] }],
  };

  it('says the whole department, one name, or how many of how many', () => {
    expect(compareSummary('team', [], options)).toBe('All teams');
    expect(compareSummary('team', ['team-2'], options)).toBe('Outbound sales');
    expect(compareSummary('team', ['team-1', 'team-3'], options)).toBe('2 of 3 teams');
    expect(compareSummary('representative', [], options)).toBe('All representatives');
    expect(compareSummary('representative', ['ada@example.com'], options)).toBe('Ada Lovelace');
  });

  it('offers teams or representatives by mode', () => {
    expect(optionsOf('team', options).map((option) => option.id)).toEqual(['team-1', 'team-2', 'team-3']);
    expect(optionsOf('representative', options)).toEqual([{ id: 'ada@example.com', name: 'Ada Lovelace' }]);
  });
});
