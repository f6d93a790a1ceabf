/**
 * analytics.activities: facts merged in by the consumers, pages read out by the lists. Every
 * query is scoped by the company.
 */
import { and, count, desc, eq, isNull, lt } from 'drizzle-orm';
import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';
import type { Executor } from '@parlance/platform/db/database';
import { isUuid } from '@parlance/platform/db/uuid';
import {
  activityDurationSeconds,
  mergeActivityFact,
  UNKNOWN_ACTIVITY,
  type ActivityFact,
  type ActivityState,
  type ReceivedPart,
} from '../domain/activity-state.js';
import type { ActivityListQuery } from '../domain/list-request.js';
import { activityListConditions } from './activity-filters.js';
import { activities } from './schema.js';

type ActivityRecord = typeof activities.$inferSelect;
type ActivityColumns = Omit<typeof activities.$inferInsert, 'companyId' | 'id'>;

/** A listed activity has always been received: the lists ask for a kind, which the receipt brings. */
export type ListedActivity = ActivityState & { id: string; received: ReceivedPart };

export interface ActivityPage {
  rows: ListedActivity[];
  total: number;
}

/**
 * Merges one fact into the company's activity with `mergeActivityFact`, the only rule that
 * changes a row. The first fact of an activity inserts it; a later one is merged under the row's
 * lock, so consumers of different topics handling one activity at the same moment take turns and
 * none loses another's part.
 */
export async function applyActivityFact(tx: Executor, companyId: string, activityId: string, fact: ActivityFact): Promise<void> {
  // Ingest's activity ids are UUIDs; anything else names nothing analytics could hold.
  if (!isUuid(activityId)) return;
  const inserted = await tx
    .insert(activities)
    .values({ companyId, id: activityId, ...activityColumns(mergeActivityFact(UNKNOWN_ACTIVITY, fact)) })
    .onConflictDoNothing()
    .returning({ id: activities.id });
  if (inserted.length > 0) return;
  const key = and(eq(activities.companyId, companyId), eq(activities.id, activityId));
  const [held] = await tx.select().from(activities).where(key).for('update');
  if (!held) throw new Error(`activity ${activityId} disappeared while a fact was merged into it`);
  await tx.update(activities).set(activityColumns(mergeActivityFact(activityStateOf(held), fact))).where(key);
}

/** One page of the list, newest first (the id breaks ties), and how many activities match. */
export async function listActivities(db: Executor, companyId: string, query: ActivityListQuery): Promise<ActivityPage> {
  const where = activityListConditions(companyId, query);
  const [records, [counted]] = await Promise.all([
    db
      .select()
      .from(activities)
      .where(where)
      .orderBy(desc(activities.occurredAt), desc(activities.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(activities).where(where),
  ]);
  return { rows: records.map(listedActivityOf), total: counted?.total ?? 0 };
}

/** The company's activity of that kind, as the lists show it; undefined when unknown, deleted or not yet received. */
export async function findActivity(db: Executor, companyId: string, activityId: string, kind: ActivityKindName): Promise<ListedActivity | undefined> {
  if (!isUuid(activityId)) return undefined;
  const [record] = await db
    .select()
    .from(activities)
    .where(and(eq(activities.companyId, companyId), eq(activities.id, activityId), eq(activities.kind, kind), isNull(activities.deletedAt)));
  return record?.receivedAt ? listedActivityOf(record) : undefined;
}

/** Forgets deletions made before `before` (housekeeping, across companies). */
export async function purgeTombstones(db: Executor, before: Date): Promise<void> {
  await db.delete(activities).where(lt(activities.deletedAt, before));
}

function listedActivityOf(record: ActivityRecord): ListedActivity {
  const state = activityStateOf(record);
  if (!state.received) throw new Error(`activity ${record.id} is listed without its receipt`);
  return { ...state, id: record.id, received: state.received };
}

function activityColumns(state: ActivityState): ActivityColumns {
  const { received, transcribed, evaluated } = state;
  return {
    receivedAt: received?.receivedAt ?? null,
    kind: received?.kind ?? null,
    teamId: received?.teamId ?? '',
    occurredAt: received?.occurredAt ?? null,
    representativeEmail: received?.representativeEmail ?? '',
    representativeName: received?.representativeName ?? '',
    contactId: received?.contactId ?? '',
    contactName: received?.contactName ?? '',
    contactCompany: received?.contactCompany ?? '',
    contactRole: received?.contactRole ?? '',
    link: received?.link ?? '',
    title: received?.title ?? '',
    fileName: received?.fileName ?? '',
    media: received?.media ?? null,
    transcribedAt: transcribed?.transcribedAt ?? null,
    transcriptDurationSeconds: transcribed?.durationSeconds ?? 0,
    transcript: transcribed?.transcript ?? '',
    evaluatedAt: evaluated?.evaluatedAt ?? null,
    score: evaluated?.score ?? null,
    scriptMatch: evaluated?.scriptMatch ?? null,
    isSuccessful: evaluated?.isSuccessful ?? null,
    results: evaluated?.results ?? [],
    passedCriteria: evaluated?.results.filter((result) => result.passed).map((result) => result.criterionId) ?? [],
    failedCriteria: evaluated?.results.filter((result) => !result.passed).map((result) => result.criterionId) ?? [],
    summary: evaluated?.summary ?? '',
    improvements: evaluated?.improvements ?? [],
    evaluationDurationSeconds: evaluated?.durationSeconds ?? 0,
    failedAt: state.failedAt,
    deletedAt: state.deletedAt,
    durationSeconds: activityDurationSeconds(state),
  };
}

/** A part is present when its time is (activityColumns writes a part's columns together). */
export function activityStateOf(record: ActivityRecord): ActivityState {
  const { receivedAt, kind, occurredAt, media, transcribedAt, evaluatedAt, score } = record;
  return {
    received:
      receivedAt && kind && occurredAt && media
        ? {
            receivedAt,
            kind,
            teamId: record.teamId,
            occurredAt,
            representativeEmail: record.representativeEmail,
            representativeName: record.representativeName,
            contactId: record.contactId,
            contactName: record.contactName,
            contactCompany: record.contactCompany,
            contactRole: record.contactRole,
            link: record.link,
            title: record.title,
            fileName: record.fileName,
            media,
          }
        : null,
    transcribed: transcribedAt ? { transcribedAt, durationSeconds: record.transcriptDurationSeconds, transcript: record.transcript } : null,
    evaluated:
      evaluatedAt && score !== null
        ? {
            evaluatedAt,
            score,
            scriptMatch: record.scriptMatch,
            isSuccessful: record.isSuccessful,
            results: record.results,
            summary: record.summary,
            improvements: record.improvements,
            durationSeconds: record.evaluationDurationSeconds,
          }
        : null,
    failedAt: record.failedAt,
    deletedAt: record.deletedAt,
  };
}
