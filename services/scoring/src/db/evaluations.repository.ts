/**
 * Stored evaluations, and the activities deleted before or while they were evaluated. Every query
 * is scoped by the company.
 */
import { and, eq, lt } from 'drizzle-orm';
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

/** Stores the evaluation; false when the activity already has one (nothing changes then). */
export async function saveEvaluation(tx: Executor, stored: StoredEvaluation): Promise<boolean> {
  const { evaluation } = stored;
  const inserted = await tx
    .insert(evaluations)
    .values({
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
    })
    .onConflictDoNothing()
    .returning({ activityId: evaluations.activityId });
  return inserted.length > 0;
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
