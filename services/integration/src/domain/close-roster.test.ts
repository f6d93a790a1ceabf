import { describe, expect, it } from 'vitest';
import { closeRosterChanges, type RosterTeam } from './close-roster.js';

const user = (id: string, email: string, firstName = '', lastName = '') => ({ id, email, firstName, lastName });
const member = (email: string, crmId = '') => ({ firstName: email.split('@')[0]!, lastName: '', email, crmId, target: 3 });

const SUPPORT: RosterTeam = { id: 'team-support', department: 'support', members: [member('ben.ode@example.com')] };
const SALES: RosterTeam = { id: 'team-sales', department: 'sales', members: [member('anna.lee@example.com', 'user_anna')] };

describe('closeRosterChanges', () => {
  it('adds a Close user in no team to the oldest sales team, with their Close id and a target of 0', () => {
    expect(closeRosterChanges([SUPPORT, SALES], [user('user_cleo', 'Cleo.Park@example.com', 'Cleo', 'Park')])).toEqual([
      {
        teamId: 'team-sales',
        members: [...SALES.members, { firstName: 'Cleo', lastName: 'Park', email: 'cleo.park@example.com', crmId: 'user_cleo', target: 0 }],
        added: ['cleo.park@example.com'],
        linked: [],
      },
    ]);
  });

  it('gives a member found by e-mail their Close id, wherever they are, and adds them nowhere else', () => {
    expect(closeRosterChanges([SUPPORT, SALES], [user('user_ben', 'ben.ode@example.com', 'Ben')])).toEqual([
      { teamId: 'team-support', members: [member('ben.ode@example.com', 'user_ben')], added: [], linked: ['ben.ode@example.com'] },
    ]);
  });

  it('changes nothing for members already linked, users without an e-mail, or a company without teams', () => {
    expect(closeRosterChanges([SALES], [user('user_anna', 'anna.changed@example.com'), user('user_x', '  ')])).toEqual([]);
    expect(closeRosterChanges([], [user('user_cleo', 'cleo.park@example.com')])).toEqual([]);
  });

  it('takes the oldest team when there is no sales team, and names a user without a first name by their address', () => {
    const [change] = closeRosterChanges([SUPPORT], [user('user_dee', 'dee@example.com')]);
    expect(change).toMatchObject({ teamId: 'team-support', added: ['dee@example.com'] });
    expect(change!.members.at(-1)).toEqual({ firstName: 'dee', lastName: '', email: 'dee@example.com', crmId: 'user_dee', target: 0 });
  });

  it('leaves a member who is in Close no more where they are', () => {
    expect(closeRosterChanges([SALES], [])).toEqual([]);
  });
});
