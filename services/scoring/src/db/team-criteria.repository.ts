/** scoring's copy of every team's criteria, kept by `identity.team-changed.v1`. */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { teamCriteria } from './schema.js';

export type TeamCriteria = typeof teamCriteria.$inferSelect;

/** Stores the team as the event says, unless a newer version is already held. */
export async function applyTeamCriteria(tx: Executor, team: TeamCriteria): Promise<void> {
  await tx
    .insert(teamCriteria)
    .values(team)
    .onConflictDoUpdate({
      target: [teamCriteria.companyId, teamCriteria.teamId],
      set: {
        version: sql`excluded.version`,
        name: sql`excluded.name`,
        department: sql`excluded.department`,
        criteriaGroups: sql`excluded.criteria_groups`,
        successPrompt: sql`excluded.success_prompt`,
        callScript: sql`excluded.call_script`,
        deletedAt: sql`excluded.deleted_at`,
        updatedAt: sql`excluded.updated_at`,
      },
      setWhere: lt(teamCriteria.version, sql`excluded.version`),
    });
}

/** The team's criteria as last announced, deleted teams included; undefined if never announced. */
export async function findTeamCriteria(db: Executor, companyId: string, teamId: string): Promise<TeamCriteria | undefined> {
  const [row] = await db
    .select()
    .from(teamCriteria)
    .where(and(eq(teamCriteria.companyId, companyId), eq(teamCriteria.teamId, teamId)))
    .limit(1);
  return row;
}
