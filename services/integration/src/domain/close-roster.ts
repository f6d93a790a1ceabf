/**
 * Close's syncUsersAndTeams (spec part 2 §2.12): the users of the Close organization become
 * members of the company's teams, so their calls have a representative. Pure: the sync
 * (sync/close-sync.ts) reads the teams and saves them through identity.
 *
 * - A Close user who is already a member somewhere (by crm_id, or by e-mail) stays where they
 *   are; a member found by e-mail whose crm_id is empty gets the Close user's id, so later calls
 *   are found by it even if the e-mail changes.
 * - A Close user in no team joins the team their calls would go to: the oldest sales team (Close
 *   is a sales CRM), else the oldest team, with a daily target of 0 for a manager to set.
 * - Nothing is removed: a person who left Close keeps their past calls and their place.
 * - A company without teams gets none: a team needs criteria only a manager can write.
 */
import type { CloseUser } from '../vendors/close-client.js';

export interface RosterMember {
  firstName: string;
  lastName: string;
  email: string;
  crmId: string;
  target: number;
}

export interface RosterTeam {
  id: string;
  department: string;
  members: RosterMember[];
}

/** A team whose members change: its members as they should be. */
export interface RosterChange {
  teamId: string;
  members: RosterMember[];
  /** E-mails of the Close users added, and of the members given their Close id. */
  added: string[];
  linked: string[];
}

/** Teams are given oldest first (as identity lists them). */
export function closeRosterChanges(teams: readonly RosterTeam[], users: readonly CloseUser[]): RosterChange[] {
  if (teams.length === 0) return [];
  const home = teams.find((team) => team.department === 'sales') ?? teams[0]!;
  const byTeam = new Map(teams.map((team) => [team.id, { team, members: team.members.map((member) => ({ ...member })), added: [] as string[], linked: [] as string[] }]));

  for (const user of users) {
    const email = user.email.trim().toLowerCase();
    if (email === '') continue;
    const knownById = teams.some((team) => team.members.some((member) => member.crmId === user.id));
    if (knownById) continue;
    let member = false;
    for (const entry of byTeam.values()) {
      for (const candidate of entry.members) {
        if (candidate.email.toLowerCase() !== email) continue;
        member = true;
        if (candidate.crmId === '') {
          candidate.crmId = user.id;
          entry.linked.push(email);
        }
      }
    }
    if (member) continue;
    const entry = byTeam.get(home.id)!;
    entry.members.push({ firstName: user.firstName || email.split('@')[0]!, lastName: user.lastName, email, crmId: user.id, target: 0 });
    entry.added.push(email);
  }

  return [...byTeam.values()]
    .filter((entry) => entry.added.length > 0 || entry.linked.length > 0)
    .map((entry) => ({ teamId: entry.team.id, members: entry.members, added: entry.added, linked: entry.linked }));
}
