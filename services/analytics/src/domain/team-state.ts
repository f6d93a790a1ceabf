/**
 * What analytics keeps of a team: which department it is in (the lists' department filter), its
 * members with their names and daily targets, and its criteria's names (the dashboard). Every
 * `identity.team-changed.v1` carries the whole team with a version that goes up by one per change,
 * so a newer version replaces an older one and never the reverse.
 */
import type { TeamChanged } from '@parlance/proto/parlance/identity/v1/events';

export interface TeamMemberState {
  /** Lower-case. */
  email: string;
  firstName: string;
  lastName: string;
  /** Successful activities a day. */
  target: number;
}

export interface TeamCriterion {
  groupId: string;
  criterionId: string;
  name: string;
}

export interface TeamState {
  teamId: string;
  name: string;
  department: string;
  deleted: boolean;
  version: number;
  members: TeamMemberState[];
  criteria: TeamCriterion[];
}

export function teamStateOf(changed: TeamChanged): TeamState {
  const { team } = changed;
  if (!team?.id) throw new Error('a team change carries no team');
  return {
    teamId: team.id,
    name: team.name,
    department: team.department,
    deleted: changed.deleted,
    version: team.version,
    members: changed.members.map((member) => ({ email: member.email.toLowerCase(), firstName: member.firstName, lastName: member.lastName, target: Math.max(0, member.target) })),
    criteria: team.criteriaGroups.flatMap((group) => group.criteria.map((criterion) => ({ groupId: group.id, criterionId: criterion.id, name: criterion.name }))),
  };
}

/** The held team unless the incoming one has a higher version (a redelivery changes nothing). */
export function mergeTeamChange(held: TeamState | undefined, incoming: TeamState): TeamState {
  return held === undefined || incoming.version > held.version ? incoming : held;
}
