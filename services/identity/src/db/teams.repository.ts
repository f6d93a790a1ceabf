/** Teams with their criteria groups, criteria and members; every query is scoped by company. */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import type { CheckedTeam, CriteriaGroup, TeamMember } from '../domain/teams.js';
import { criteria, criteriaGroups, teamMembers, teams } from './schema.js';

/** A checked team with the review threshold it is to have (see reviewThresholdAfterSave). */
export type TeamToStore = CheckedTeam & { reviewThreshold: number };

export interface StoredTeam extends Omit<TeamToStore, 'id'> {
  id: string;
  memberEmails: string[];
  version: number;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

type TeamRow = typeof teams.$inferSelect;

/** The company's teams that are not deleted, oldest first; all departments when none is named. */
export async function listTeams(db: Executor, companyId: string, department?: string): Promise<StoredTeam[]> {
  const rows = await db
    .select()
    .from(teams)
    .where(and(eq(teams.companyId, companyId), isNull(teams.deletedAt), department ? eq(teams.department, department) : undefined))
    .orderBy(asc(teams.createdAt), asc(teams.id));
  return withDetails(db, companyId, rows);
}

/** A team of the company, deleted or not, with its criteria and member e-mails. */
export async function findTeam(db: Executor, companyId: string, teamId: string): Promise<StoredTeam | undefined> {
  const rows = await db
    .select()
    .from(teams)
    .where(and(eq(teams.companyId, companyId), eq(teams.id, teamId)))
    .limit(1);
  const [team] = await withDetails(db, companyId, rows);
  return team;
}

/**
 * Whether the company has the team, whether it is deleted and its review threshold, without
 * loading its details; `lock` holds the team's row until the transaction ends.
 */
export async function teamState(
  db: Executor,
  companyId: string,
  teamId: string,
  options: { lock?: boolean } = {},
): Promise<{ deletedAt: Date | null; reviewThreshold: number } | undefined> {
  const query = db
    .select({ deletedAt: teams.deletedAt, reviewThreshold: teams.reviewThreshold })
    .from(teams)
    .where(and(eq(teams.companyId, companyId), eq(teams.id, teamId)))
    .limit(1);
  const [state] = options.lock ? await query.for('update') : await query;
  return state;
}

export async function listTeamMembers(db: Executor, companyId: string, teamId: string): Promise<TeamMember[]> {
  return db
    .select({
      firstName: teamMembers.firstName,
      lastName: teamMembers.lastName,
      email: teamMembers.email,
      crmId: teamMembers.crmId,
      target: teamMembers.target,
    })
    .from(teamMembers)
    .where(and(eq(teamMembers.companyId, companyId), eq(teamMembers.teamId, teamId)))
    .orderBy(asc(teamMembers.position));
}

/** Creates the team at version 1; false when the company already has a team with this id. */
export async function insertTeam(tx: Executor, companyId: string, id: string, team: TeamToStore, now: Date): Promise<boolean> {
  const inserted = await tx
    .insert(teams)
    .values({ companyId, id, ...teamColumns(team), version: 1, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ id: teams.id });
  if (inserted.length === 0) return false;
  await insertCriteria(tx, companyId, id, team.criteriaGroups);
  return true;
}

/** Replaces the team's fields and criteria (and its members, unless undefined) and bumps its version. */
export async function replaceTeam(tx: Executor, companyId: string, id: string, team: TeamToStore, now: Date): Promise<void> {
  await tx
    .update(teams)
    .set({ ...teamColumns(team), version: sql`${teams.version} + 1`, updatedAt: now })
    .where(and(eq(teams.companyId, companyId), eq(teams.id, id)));
  // Deleting a group deletes its criteria (foreign key cascade).
  await tx.delete(criteriaGroups).where(and(eq(criteriaGroups.companyId, companyId), eq(criteriaGroups.teamId, id)));
  await insertCriteria(tx, companyId, id, team.criteriaGroups);
}

export async function replaceTeamMembers(tx: Executor, companyId: string, teamId: string, members: readonly TeamMember[]): Promise<void> {
  await tx.delete(teamMembers).where(and(eq(teamMembers.companyId, companyId), eq(teamMembers.teamId, teamId)));
  if (members.length === 0) return;
  await tx.insert(teamMembers).values(members.map((member, position) => ({ companyId, teamId, position, ...member })));
}

export async function markTeamDeleted(tx: Executor, companyId: string, teamId: string, now: Date): Promise<void> {
  await tx
    .update(teams)
    .set({ deletedAt: now, updatedAt: now, version: sql`${teams.version} + 1` })
    .where(and(eq(teams.companyId, companyId), eq(teams.id, teamId)));
}

const teamColumns = (team: TeamToStore) => ({
  name: team.name,
  department: team.department,
  successPrompt: team.successPrompt,
  callScript: team.callScript,
  crmId: team.crmId,
  reviewThreshold: team.reviewThreshold,
});

async function insertCriteria(tx: Executor, companyId: string, teamId: string, groups: readonly CriteriaGroup[]): Promise<void> {
  await tx.insert(criteriaGroups).values(groups.map((group, position) => ({ companyId, teamId, id: group.id, position, name: group.name })));
  await tx.insert(criteria).values(
    groups.flatMap((group) =>
      group.criteria.map((criterion, position) => ({ companyId, teamId, groupId: group.id, position, ...criterion })),
    ),
  );
}

/** Team rows with their groups, criteria and member e-mails, in three queries whatever the count. */
async function withDetails(db: Executor, companyId: string, rows: TeamRow[]): Promise<StoredTeam[]> {
  if (rows.length === 0) return [];
  const teamIds = rows.map((row) => row.id);
  // One after another: inside a transaction they share one connection.
  const groupRows = await db
    .select()
    .from(criteriaGroups)
    .where(and(eq(criteriaGroups.companyId, companyId), inArray(criteriaGroups.teamId, teamIds)))
    .orderBy(asc(criteriaGroups.position));
  const criterionRows = await db
    .select()
    .from(criteria)
    .where(and(eq(criteria.companyId, companyId), inArray(criteria.teamId, teamIds)))
    .orderBy(asc(criteria.position));
  const memberRows = await db
    .select({ teamId: teamMembers.teamId, email: teamMembers.email })
    .from(teamMembers)
    .where(and(eq(teamMembers.companyId, companyId), inArray(teamMembers.teamId, teamIds)))
    .orderBy(asc(teamMembers.position));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    department: row.department,
    successPrompt: row.successPrompt,
    callScript: row.callScript,
    crmId: row.crmId,
    reviewThreshold: row.reviewThreshold,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deletedAt: row.deletedAt,
    criteriaGroups: groupRows
      .filter((group) => group.teamId === row.id)
      .map((group) => ({
        id: group.id,
        name: group.name,
        criteria: criterionRows
          .filter((criterion) => criterion.teamId === row.id && criterion.groupId === group.id)
          .map((criterion) => ({ id: criterion.id, name: criterion.name, prompt: criterion.prompt, weight: criterion.weight })),
      })),
    memberEmails: memberRows.filter((member) => member.teamId === row.id).map((member) => member.email),
  }));
}
