/** Activities and their jobs. Every query is scoped by the company. */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';
import type { Executor } from '@parlance/platform/db/database';
import { isUuid } from '@parlance/platform/db/uuid';
import { activities, jobs, type JobStatus } from './schema.js';

export type ActivityRow = typeof activities.$inferSelect;
export type JobRow = typeof jobs.$inferSelect;

export async function insertActivityWithJob(tx: Executor, activity: typeof activities.$inferInsert, job: typeof jobs.$inferInsert): Promise<void> {
  await tx.insert(activities).values(activity);
  await tx.insert(jobs).values(job);
}

/** The activity (and its job) a source already sent with this external id. */
export async function findReceived(db: Executor, companyId: string, source: string, externalId: string): Promise<{ activityId: string; jobId: string } | undefined> {
  const [row] = await db
    .select({ activityId: activities.id, jobId: jobs.id })
    .from(activities)
    .innerJoin(jobs, eq(jobs.activityId, activities.id))
    .where(and(eq(activities.companyId, companyId), eq(activities.source, source), eq(activities.externalId, externalId)))
    .limit(1);
  return row;
}

export async function findJob(db: Executor, companyId: string, jobId: string): Promise<JobRow | undefined> {
  if (!isUuid(jobId)) return undefined;
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId)));
  return row;
}

export async function findActivity(db: Executor, companyId: string, activityId: string, kind?: ActivityKindName): Promise<ActivityRow | undefined> {
  if (!isUuid(activityId)) return undefined;
  const [row] = await db
    .select()
    .from(activities)
    .where(and(eq(activities.companyId, companyId), eq(activities.id, activityId), kind ? eq(activities.kind, kind) : undefined));
  return row;
}

/** Removes the activity and (cascading) its jobs; returns the row removed, if there was one. */
export async function deleteActivity(tx: Executor, companyId: string, activityId: string, kind: ActivityKindName): Promise<ActivityRow | undefined> {
  if (!isUuid(activityId)) return undefined;
  const [row] = await tx
    .delete(activities)
    .where(and(eq(activities.companyId, companyId), eq(activities.id, activityId), eq(activities.kind, kind)))
    .returning();
  return row;
}

/**
 * Moves a job forward: waiting, then active, then completed or failed, never back. Events from
 * different topics may arrive in any order (a late "started" after "ready" changes nothing), and
 * a finished job stays finished.
 */
export async function advanceJob(tx: Executor, companyId: string, jobId: string, status: JobStatus, failedReason = ''): Promise<boolean> {
  if (!isUuid(jobId)) return false;
  const earlier: JobStatus[] = status === 'active' ? ['waiting'] : ['waiting', 'active'];
  const updated = await tx
    .update(jobs)
    .set({ status, failedReason, updatedAt: sql`now()` })
    .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId), inArray(jobs.status, earlier)))
    .returning({ id: jobs.id });
  return updated.length > 0;
}
