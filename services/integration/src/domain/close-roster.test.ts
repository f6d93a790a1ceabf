import { describe, expect, it } from 'vitest';
import { closeRosterChanges, membersWithChange, type RosterTeam } from './close-roster.js';

const user = (id: string, email: string, firstName = '', lastName = '') => ({ id, email, firstName, lastName });
const member = (email: string, crmId = '', lastName = 'Member') => ({ firstName: email.split(/[.@]/u)[0]!, lastName, email, crmId, target: 3 });

const SUPPORT: RosterTeam = { id: 'team-support', department: 'support', members: [member('ben.ode@example.com')] };
const SALES: RosterTeam = { id: 'team-sales', department: 'sales', members: [member('anna.lee@example.com', 'user_anna')] };

describe('closeRosterChanges', () => {
  it('adds a Close user in no team to the oldest sales team, with their Close id and a target of 0', () => {
    expect(closeRosterChanges([SUPPORT, SALES], [user('user_cleo', 'Cleo.Park@example.com', 'Cleo', 'Park')])).toEqual({
      changes: [{ teamId: 'team-sales', added: [{ firstName: 'Cleo', lastName: 'Park', email: 'cleo.park@example.com', crmId: 'user_cleo', target: 0 }], linked: [] }],
      passedOver: [],
    });
  });

  it('gives a member found by e-mail their Close id, wherever they are, and adds them nowhere else', () => {
    expect(closeRosterChanges([SUPPORT, SALES], [user('user_ben', 'BEN.ode@example.com', 'Ben', 'Ode')]).changes).toEqual([
      { teamId: 'team-support', added: [], linked: [{ email: 'ben.ode@example.com', crmId: 'user_ben' }] },
    ]);
  });

  it('changes nothing for members already linked, users without an e-mail, or a company without teams', () => {
    expect(closeRosterChanges([SALES], [user('user_anna', 'anna.changed@example.com', 'Anna', 'Lee'), user('user_x', '  ', 'No', 'Address')])).toEqual({ changes: [], passedOver: [] });
    expect(closeRosterChanges([], [user('user_cleo', 'cleo.park@example.com', 'Cleo', 'Park')])).toEqual({ changes: [], passedOver: [] });
  });

  it('takes the oldest team when there is no sales team, and names a user without a first name by their address', () => {
    const { changes } = closeRosterChanges([SUPPORT], [user('user_dee', 'dee@example.com', '', 'Walsh')]);
    expect(changes).toEqual([{ teamId: 'team-support', added: [{ firstName: 'dee', lastName: 'Walsh', email: 'dee@example.com', crmId: 'user_dee', target: 0 }], linked: [] }]);
  });

  it('passes over, with the reason, a user the team editor would refuse, and still adds the others', () => {
    const { changes, passedOver } = closeRosterChanges(
      [{ ...SALES, members: [{ ...member('anna.lee@example.com', 'user_anna'), firstName: 'Anna', lastName: 'Lee' }] }],
      [
        user('user_dee', 'dee@example.com', 'Dee'),
        user('user_x', 'x@example.com', 'X', 'Ray'),
        user('user_bad', 'not-an-address', 'Bad', 'Address'),
        user('user_twin', 'anna.twin@example.com', 'anna', 'LEE'),
        user('user_cleo', 'cleo.park@example.com', 'Cleo', 'Park'),
        user('user_cleo2', 'cleo.other@example.com', 'Cleo', 'Park'),
      ],
    );
    expect(passedOver).toEqual([
      { userId: 'user_dee', email: 'dee@example.com', reason: 'Close gives no last name, and a team member needs one' },
      { userId: 'user_x', email: 'x@example.com', reason: "each part of a team member's name must be 2 to 100 characters" },
      { userId: 'user_bad', email: 'not-an-address', reason: 'the Close user has no valid e-mail address' },
      { userId: 'user_twin', email: 'anna.twin@example.com', reason: 'the team already has a member named anna LEE' },
      { userId: 'user_cleo2', email: 'cleo.other@example.com', reason: 'the team already has a member named Cleo Park' },
    ]);
    expect(changes[0]!.added.map((added) => added.email)).toEqual(['cleo.park@example.com']);
  });

  it('stops adding at the team editor’s 1,000 members', () => {
    const full: RosterTeam = { id: 'team-sales', department: 'sales', members: Array.from({ length: 999 }, (_, index) => member(`m${index}@example.com`, '', `Last${index}`)) };
    const { changes, passedOver } = closeRosterChanges([full], [user('u1', 'one@example.com', 'One', 'First'), user('u2', 'two@example.com', 'Two', 'Second')]);
    expect(changes[0]!.added.map((added) => added.email)).toEqual(['one@example.com']);
    expect(passedOver).toEqual([{ userId: 'u2', email: 'two@example.com', reason: 'the team already has 1,000 members' }]);
  });

  it('leaves a member who is in Close no more where they are', () => {
    expect(closeRosterChanges([SALES], [])).toEqual({ changes: [], passedOver: [] });
  });
});

describe('membersWithChange', () => {
  const change = {
    teamId: 'team-sales',
    added: [{ firstName: 'Cleo', lastName: 'Park', email: 'cleo.park@example.com', crmId: 'user_cleo', target: 0 }],
    linked: [{ email: 'Ben.Ode@example.com', crmId: 'user_ben' }],
  };

  it('links and adds on the members as they are now, keeping everyone else', () => {
    const members = [member('anna.lee@example.com', 'user_anna'), member('ben.ode@example.com')];
    expect(membersWithChange(members, change)).toEqual([members[0], { ...members[1], crmId: 'user_ben' }, change.added[0]]);
  });

  it('keeps what a manager did meanwhile: a member linked to another id, or the newcomer already added', () => {
    const members = [member('ben.ode@example.com', 'user_other'), { ...change.added[0]!, target: 5 }];
    expect(membersWithChange(members, change)).toEqual(members);
  });
});
