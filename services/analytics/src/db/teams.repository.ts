/** analytics.teams: each team as identity last announced it. */
import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { mergeTeamChange, type TeamState } from '../domain/team-state.js';
import { teams } from './schema.js';

/**
 * Merges a team change with `mergeTeamChange`: the first announcement inserts the team, a later
 * one is merged under the row's lock.
 */
export async function applyTeamChange(tx: Executor, companyId: string, incoming: TeamState): Promise<void> {
  const inserted = await tx
    .insert(teams)
    .values({ companyId, ...incoming })
    .onConflictDoNothing()
    .returning({ teamId: teams.teamId });
  if (inserted.length > 0) return;
  const key = and(eq(teams.companyId, companyId), eq(teams.teamId, incoming.teamId));
  const [held] = await tx.select().from(teams).where(key).for('update');
  if (!held) throw new Error(`team ${incoming.teamId} disappeared while a change was merged into it`);
  const { companyId: _company, ...heldTeam } = held;
  await tx.update(teams).set(mergeTeamChange(heldTeam, incoming)).where(key);
}

/** The company's teams as held (deleted ones included, marked), by name. */
export async function companyTeams(db: Executor, companyId: string): Promise<TeamState[]> {
  const rows = await db.select().from(teams).where(eq(teams.companyId, companyId)).orderBy(asc(teams.name), asc(teams.teamId));
  return rows.map(({ companyId: _company, ...team }) => team);
}
