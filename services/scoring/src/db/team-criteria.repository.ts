/** scoring's copy of every team's criteria, kept by `identity.team-changed.v1`. */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import type { TeamSnapshot } from '../engines/evaluation-engine.js';
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
        reviewThreshold: sql`excluded.review_threshold`,
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

/** The team as an engine judges against it, as last announced; undefined if never announced. */
export async function findTeamSnapshot(db: Executor, companyId: string, teamId: string): Promise<TeamSnapshot | undefined> {
  const row = await findTeamCriteria(db, companyId, teamId);
  if (!row) return undefined;
  return {
    id: row.teamId,
    version: row.version,
    name: row.name,
    department: row.department,
    criteriaGroups: row.criteriaGroups,
    successPrompt: row.successPrompt,
    callScript: row.callScript,
    reviewThreshold: row.reviewThreshold,
  };
}
