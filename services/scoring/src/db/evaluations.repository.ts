/**
 * Stored evaluations, and the activities deleted before or while they were evaluated. Every query
 * is scoped by the company.
 */
import { and, asc, count, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { isUuid } from '@parlance/platform/db/uuid';
import { Evaluation } from '@parlance/proto/parlance/scoring/v1/evaluation';
import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';
import { deletedActivities, evaluations } from './schema.js';

export interface StoredEvaluation {
  companyId: string;
  jobId: string;
  kind: ActivityKindName;
  evaluation: Evaluation;
}

/**
 * Stores the evaluation; false when the activity already has one (nothing changes then), unless
 * `replace` (a re-score), when the new one takes its place.
 */
export async function saveEvaluation(tx: Executor, stored: StoredEvaluation, replace = false): Promise<boolean> {
  const { evaluation } = stored;
  const row = {
    activityId: evaluation.activityId,
    companyId: stored.companyId,
    kind: stored.kind,
    teamId: evaluation.teamId,
    teamVersion: evaluation.teamVersion,
    jobId: stored.jobId,
    representativeEmail: evaluation.representativeEmail,
    engine: evaluation.engine,
    score: evaluation.score,
    scriptMatch: evaluation.scriptMatch ?? null,
    isSuccessful: evaluation.isSuccessful ?? null,
    evaluation: Evaluation.toJSON(evaluation),
    insightTokens: evaluation.insightTokens,
    evaluatedAt: evaluation.evaluatedAt ?? new Date(),
  };
  const insert = tx.insert(evaluations).values(row);
  const { activityId: _key, ...replacement } = row;
  const written = await (replace ? insert.onConflictDoUpdate({ target: evaluations.activityId, set: replacement }) : insert.onConflictDoNothing()).returning({
    activityId: evaluations.activityId,
  });
  return written.length > 0;
}

export interface OutdatedEvaluation {
  companyId: string;
  activityId: string;
  jobId: string;
  kind: ActivityKindName;
  teamId: string;
  representativeEmail: string;
}

/** Evaluations by any of `engines`, across companies, in activity order after `after`, at most `limit`. */
export async function findEvaluationsByEngines(db: Executor, engines: readonly string[], after: string | undefined, limit: number): Promise<OutdatedEvaluation[]> {
  const rows = await db
    .select({
      companyId: evaluations.companyId,
      activityId: evaluations.activityId,
      jobId: evaluations.jobId,
      kind: evaluations.kind,
      teamId: evaluations.teamId,
      representativeEmail: evaluations.representativeEmail,
    })
    .from(evaluations)
    .where(and(inArray(evaluations.engine, [...engines]), after ? gt(evaluations.activityId, after) : undefined))
    .orderBy(asc(evaluations.activityId))
    .limit(limit);
  return rows;
}

/** How many evaluations are by any of `engines`, across companies. */
export async function countEvaluationsByEngines(db: Executor, engines: readonly string[]): Promise<number> {
  const [row] = await db.select({ count: count() }).from(evaluations).where(inArray(evaluations.engine, [...engines]));
  return row?.count ?? 0;
}

/** The company's evaluation of the activity. */
export async function findEvaluation(db: Executor, companyId: string, activityId: string): Promise<Evaluation | undefined> {
  if (!isUuid(activityId)) return undefined;
  const [row] = await db
    .select({ evaluation: evaluations.evaluation })
    .from(evaluations)
    .where(and(eq(evaluations.companyId, companyId), eq(evaluations.activityId, activityId)));
  return row ? Evaluation.fromJSON(row.evaluation) : undefined;
}

export async function hasEvaluation(db: Executor, companyId: string, activityId: string): Promise<boolean> {
  const [row] = await db
    .select({ activityId: evaluations.activityId })
    .from(evaluations)
    .where(and(eq(evaluations.companyId, companyId), eq(evaluations.activityId, activityId)));
  return row !== undefined;
}

export async function deleteEvaluation(tx: Executor, companyId: string, activityId: string): Promise<void> {
  await tx.delete(evaluations).where(and(eq(evaluations.companyId, companyId), eq(evaluations.activityId, activityId)));
}

/** Remembers that the activity was deleted, so that nothing is stored for it later. */
export async function recordDeletion(tx: Executor, companyId: string, activityId: string): Promise<void> {
  await tx.insert(deletedActivities).values({ companyId, activityId }).onConflictDoNothing();
}

export async function wasDeleted(db: Executor, companyId: string, activityId: string): Promise<boolean> {
  const [row] = await db
    .select({ activityId: deletedActivities.activityId })
    .from(deletedActivities)
    .where(and(eq(deletedActivities.companyId, companyId), eq(deletedActivities.activityId, activityId)));
  return row !== undefined;
}

/** Forgets deletions older than `before` (housekeeping, across companies). */
export async function purgeDeletions(db: Executor, before: Date): Promise<void> {
  await db.delete(deletedActivities).where(lt(deletedActivities.deletedAt, before));
}
