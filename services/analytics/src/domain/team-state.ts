/**
 * What analytics keeps of a team: enough to know which teams a department has, for the lists'
 * department filter. Every `identity.team-changed.v1` carries the whole team with a version that
 * goes up by one per change, so a newer version replaces an older one and never the reverse.
 */
import type { TeamChanged } from '@parlance/proto/parlance/identity/v1/events';

export interface TeamState {
  teamId: string;
  name: string;
  department: string;
  deleted: boolean;
  version: number;
}

export function teamStateOf(changed: TeamChanged): TeamState {
  const { team } = changed;
  if (!team?.id) throw new Error('a team change carries no team');
  return { teamId: team.id, name: team.name, department: team.department, deleted: changed.deleted, version: team.version };
}

/** The held team unless the incoming one has a higher version (a redelivery changes nothing). */
export function mergeTeamChange(held: TeamState | undefined, incoming: TeamState): TeamState {
  return held === undefined || incoming.version > held.version ? incoming : held;
}
