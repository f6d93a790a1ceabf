/** Writing a checked team, shared by the team editor's save and the demo company's teams. */
import { notFound } from '@parlance/platform/errors';
import type { Executor } from '@parlance/platform/db/database';
import { findTeam, insertTeam, listTeamMembers, replaceTeam, replaceTeamMembers, teamState, type StoredTeam } from './db/teams.repository.js';
import { reviewThresholdAfterSave, TEAM_MESSAGES, type CheckedTeam, type TeamMember } from './domain/teams.js';
import { publishTeamChanged } from './events/publishers.js';

/**
 * Creates or replaces the team inside `tx`, with its `identity.team-changed.v1` event. A create
 * whose id the company already has (a retried or repeated save of the same new team) updates that
 * team: the same team is never created twice. Members undefined keeps the ones the team has, and
 * a review threshold undefined the one it has (a new team gets the default).
 */
export async function writeTeam(
  tx: Executor,
  companyId: string,
  teamId: string,
  checked: { team: CheckedTeam; members: TeamMember[] | undefined },
  options: { isNew: boolean },
  now: Date,
): Promise<{ team: StoredTeam; members: TeamMember[]; created: boolean }> {
  const chosen = checked.team.reviewThreshold;
  const created = options.isNew && (await insertTeam(tx, companyId, teamId, { ...checked.team, reviewThreshold: reviewThresholdAfterSave(chosen, undefined) }, now));
  if (!created) {
    const current = await teamState(tx, companyId, teamId, { lock: true });
    if (!current) throw notFound(TEAM_MESSAGES.notFound, { teamId });
    if (current.deletedAt) throw notFound(TEAM_MESSAGES.deleted, { teamId });
    await replaceTeam(tx, companyId, teamId, { ...checked.team, reviewThreshold: reviewThresholdAfterSave(chosen, current.reviewThreshold) }, now);
  }
  if (checked.members) await replaceTeamMembers(tx, companyId, teamId, checked.members);
  const team = (await findTeam(tx, companyId, teamId))!;
  const members = await listTeamMembers(tx, companyId, teamId);
  await publishTeamChanged(tx, companyId, team, members);
  return { team, members, created };
}
