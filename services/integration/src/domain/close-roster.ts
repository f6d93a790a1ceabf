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
 * - A user the team editor would refuse (no last name, a name too short or already in the team,
 *   an address that is not one, a full team) is passed over with the reason, so the others still
 *   join: identity checks a team whole and would refuse them all for one.
 * - Nothing is removed: a person who left Close keeps their past calls and their place.
 * - A company without teams gets none: a team needs criteria only a manager can write.
 */
import { EMAIL_PATTERN, TEAM_LIMITS } from '@parlance/platform/team/team-rules';
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

/** What changes in one team: members to add, and members (by e-mail) to give their Close id. */
export interface RosterChange {
  teamId: string;
  added: RosterMember[];
  linked: { email: string; crmId: string }[];
}

export interface PassedOverUser {
  /** The Close user's id, which the sync logs (an id, not a person's address). */
  userId: string;
  email: string;
  reason: string;
}

const fullName = (member: Pick<RosterMember, 'firstName' | 'lastName'>) => `${member.firstName} ${member.lastName}`.toLowerCase().replace(/\s+/gu, ' ');

/** Teams are given oldest first (as identity lists them). */
export function closeRosterChanges(teams: readonly RosterTeam[], users: readonly CloseUser[]): { changes: RosterChange[]; passedOver: PassedOverUser[] } {
  if (teams.length === 0) return { changes: [], passedOver: [] };
  const home = teams.find((team) => team.department === 'sales') ?? teams[0]!;
  const changes = new Map<string, RosterChange>();
  const changeOf = (teamId: string) => changes.get(teamId) ?? changes.set(teamId, { teamId, added: [], linked: [] }).get(teamId)!;
  const homeNames = new Set(home.members.map(fullName));
  let homeSize = home.members.length;
  const passedOver: PassedOverUser[] = [];

  for (const user of users) {
    const email = user.email.trim().toLowerCase();
    if (email === '') continue;
    if (teams.some((team) => team.members.some((member) => member.crmId === user.id))) continue;
    let member = false;
    for (const team of teams) {
      for (const candidate of team.members) {
        if (candidate.email.toLowerCase() !== email) continue;
        member = true;
        if (candidate.crmId === '') changeOf(team.id).linked.push({ email: candidate.email, crmId: user.id });
      }
    }
    if (member) continue;

    const newcomer = { firstName: user.firstName.trim() || email.split('@')[0]!, lastName: user.lastName.trim(), email, crmId: user.id, target: 0 };
    const refusal = memberRefusal(newcomer, homeNames, homeSize);
    if (refusal) {
      passedOver.push({ userId: user.id, email, reason: refusal });
      continue;
    }
    changeOf(home.id).added.push(newcomer);
    homeNames.add(fullName(newcomer));
    homeSize += 1;
  }
  return { changes: [...changes.values()], passedOver };
}

/** Why the team editor (identity, by the same limits) would refuse `member` in the team, as far as a Close user can break its rules. */
function memberRefusal(member: RosterMember, namesInTeam: ReadonlySet<string>, teamSize: number): string | undefined {
  const { memberNameMin, memberNameMax, memberEmailMax, membersMax } = TEAM_LIMITS;
  if (member.lastName === '') return 'Close gives no last name, and a team member needs one';
  for (const part of [member.firstName, member.lastName]) {
    if (part.length < memberNameMin || part.length > memberNameMax) return `each part of a team member's name must be ${memberNameMin} to ${memberNameMax} characters`;
  }
  if (member.email.length > memberEmailMax || !EMAIL_PATTERN.test(member.email)) return 'the Close user has no valid e-mail address';
  if (namesInTeam.has(fullName(member))) return `the team already has a member named ${member.firstName} ${member.lastName}`;
  if (teamSize >= membersMax) return `the team already has ${membersMax.toLocaleString('en-US')} members`;
  return undefined;
}

/**
 * The team's members with the change made, read again just before saving: a member a manager
 * added or linked meanwhile is kept as they are, and nobody is added twice.
 */
export function membersWithChange(members: readonly RosterMember[], change: RosterChange): RosterMember[] {
  const crmIdFor = new Map(change.linked.map((link) => [link.email.toLowerCase(), link.crmId]));
  const updated = members.map((member) => (member.crmId === '' && crmIdFor.has(member.email.toLowerCase()) ? { ...member, crmId: crmIdFor.get(member.email.toLowerCase())! } : member));
  const present = new Set(members.map((member) => member.email.toLowerCase()));
  return [...updated, ...change.added.filter((member) => !present.has(member.email))];
}
