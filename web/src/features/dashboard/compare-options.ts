/**
 * What the dashboard's Compare selector offers (spec part 2 §2.9): the teams of the current
 * department in team mode, their members in representative mode.
 */
import type { TeamMember } from '../../lib/api/gateway-api.generated';
import type { DashboardMode } from './metrics';

export interface TeamOption {
  id: string;
  name: string;
}

export interface RepresentativeOption {
  email: string;
  /** First and last name; the e-mail when the team does not name them. */
  name: string;
  /** The department's teams they belong to. */
  teamIds: string[];
}

export interface CompareOptions {
  teams: TeamOption[];
  representatives: RepresentativeOption[];
}

const byName = new Intl.Collator('en-US', { sensitivity: 'base' });

/**
 * The members of the teams as one list: someone in two teams is one representative of both
 * teams. E-mails are compared without case, as the API does.
 */
export function mergeRepresentatives(teamMembers: readonly { teamId: string; members: readonly TeamMember[] }[]): RepresentativeOption[] {
  const found = new Map<string, RepresentativeOption>();
  for (const { teamId, members } of teamMembers) {
    for (const member of members) {
      const key = member.email.trim().toLowerCase();
      if (!key) continue;
      const known = found.get(key);
      if (known) {
        if (!known.teamIds.includes(teamId)) known.teamIds.push(teamId);
        continue;
      }
      const name = `${member.first_name} ${member.last_name}`.trim() || member.email;
      found.set(key, { email: member.email.trim(), name, teamIds: [teamId] });
    }
  }
  return [...found.values()].sort((a, b) => byName.compare(a.name, b.name) || byName.compare(a.email, b.email));
}

/** The options of a mode as id and name. */
export function optionsOf(mode: DashboardMode, options: CompareOptions): { id: string; name: string }[] {
  return mode === 'team' ? options.teams : options.representatives.map((representative) => ({ id: representative.email, name: representative.name }));
}

/**
 * What the Compare button says: 'All teams' when none is chosen (the whole department is
 * compared), the one chosen by name, else '2 of 5 representatives'.
 */
export function compareSummary(mode: DashboardMode, compared: readonly string[], options: CompareOptions): string {
  const noun = mode === 'team' ? 'teams' : 'representatives';
  const offered = optionsOf(mode, options);
  if (compared.length === 0) return `All ${noun}`;
  if (compared.length === 1) return offered.find((option) => option.id === compared[0])?.name ?? compared[0]!;
  return `${compared.length} of ${Math.max(offered.length, compared.length)} ${noun}`;
}
