/**
 * analytics.activities: facts merged in by the consumers, activities read out when opened (the
 * lists' pages are read by activity-list.ts). Every query is scoped by the company.
 */
import { and, eq, getTableColumns, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';
import { queryRows, type Executor } from '@parlance/platform/db/database';
import { isUuid } from '@parlance/platform/db/uuid';
import {
  activityDurationSeconds,
  mergeActivityFact,
  UNKNOWN_ACTIVITY,
  type ActivityFact,
  type ActivityState,
  type ReceivedPart,
} from '../domain/activity-state.js';
import { applyRollupChanges } from './activity-rollups.js';
import { jsonValue } from './jsonb-recordset.js';
import { activities } from './schema.js';

type ActivityRecord = typeof activities.$inferSelect;
type ActivityColumns = Omit<typeof activities.$inferInsert, 'companyId' | 'id'>;

/** A listed activity has always been received: the lists ask for a kind, which the receipt brings. */
export type ListedActivity = ActivityState & { id: string; received: ReceivedPart };

/**
 * Merges one fact into the company's activity with `mergeActivityFact`, the only rule that
 * changes a row. The first fact of an activity inserts it; a later one is merged under the row's
 * lock, so consumers of different topics handling one activity at the same moment take turns and
 * none loses another's part. The lists' rollups move with the row, in the same transaction.
 */
export async function applyActivityFact(tx: Executor, companyId: string, activityId: string, fact: ActivityFact): Promise<void> {
  await applyActivityFacts(tx, [{ companyId, activityId, fact }]);
}

/** A fact about one company's activity, as `applyActivityFacts` takes many at once. */
export interface KeyedActivityFact {
  companyId: string;
  activityId: string;
  fact: ActivityFact;
}

/**
 * Merges many facts at once with the same `mergeActivityFact`, leaving the rows that applying them
 * one by one with `applyActivityFact`, in the same order, would leave (the merge is a fold, so an
 * activity's facts are folded first and written once). Loaders and replays send batches, where a
 * transaction per fact is too slow; the consumers send one fact at a time (`applyActivityFact`).
 *
 * Activities are written in as few statements as their likely state allows. A batch with a
 * receipt is mostly about activities new to the database: they are inserted with one INSERT … ON
 * CONFLICT DO NOTHING, and those that turn out to exist are then locked (FOR UPDATE). A batch of
 * later facts (transcripts, verdicts, deletions) is about activities that exist: they are locked
 * first, and only those missing are inserted. Either way the held rows are merged and written back
 * with one INSERT … ON CONFLICT DO UPDATE, and the rollups follow (activity-rollups.ts). Rows
 * travel as one JSON parameter however many a statement writes, and in key order, so two batches
 * never wait on each other in a circle. Call it inside a transaction, so the locks last until the
 * rows are written.
 */
export async function applyActivityFacts(tx: Executor, facts: readonly KeyedActivityFact[]): Promise<void> {
  const byActivity = new Map<string, KeyedActivityFact[]>();
  for (const keyed of facts) {
    if (!isUuid(keyed.activityId)) continue;
    const key = activityKey(keyed.companyId, keyed.activityId);
    const known = byActivity.get(key);
    if (known) known.push(keyed);
    else byActivity.set(key, [keyed]);
  }
  if (byActivity.size === 0) return;
  const keys = [...byActivity.keys()].sort();
  const fold = (state: ActivityState, key: string) => byActivity.get(key)!.reduce((merged, { fact }) => mergeActivityFact(merged, fact), state);
  const rowOf = (key: string, state: ActivityState): ActivityRow => {
    const { companyId, activityId } = byActivity.get(key)![0]!;
    return { companyId, id: activityId, ...activityColumns(state) };
  };
  const lock = (lockKeys: readonly string[]) => lockActivities(tx, lockKeys.map((key) => byActivity.get(key)![0]!));

  const expectExisting = facts.every(({ fact }) => fact.type !== 'received');
  const held = expectExisting ? await lock(keys) : [];
  const heldKeys = new Set(held.map((record) => activityKey(record.companyId, record.id)));
  const fresh = new Map(keys.filter((key) => !heldKeys.has(key)).map((key) => [key, rowOf(key, fold(UNKNOWN_ACTIVITY, key))]));
  const changes: { before: ActivityRecord | undefined; after: ActivityRow }[] = [];
  if (fresh.size > 0) {
    const inserted = await queryRows<{ company_id: string; id: string }>(
      tx,
      sql`insert into ${activities} ${rowsAsRecordset([...fresh.values()])} on conflict do nothing returning company_id, id`,
    );
    for (const row of inserted) {
      const key = activityKey(row.company_id, row.id);
      changes.push({ before: undefined, after: fresh.get(key)! });
      fresh.delete(key);
    }
    // Left: there all along, or inserted meanwhile by another transaction. Merged like the held ones.
    if (fresh.size > 0) {
      const existing = await lock([...fresh.keys()]);
      if (existing.length < fresh.size) throw new Error(`${fresh.size - existing.length} activities disappeared while facts were merged into them`);
      held.push(...existing);
    }
  }
  if (held.length === 0) {
    await applyRollupChanges(tx, changes);
    return;
  }
  const merged = held.map((record) => {
    const key = activityKey(record.companyId, record.id);
    const after = rowOf(key, fold(activityStateOf(record), key));
    changes.push({ before: record, after });
    return after;
  });
  await tx.execute(sql`insert into ${activities} ${rowsAsRecordset(merged)} on conflict (company_id, id) do update set ${EVERY_COLUMN_FROM_EXCLUDED}`);
  await applyRollupChanges(tx, changes);
}

/** The activities of `keys` that exist, locked (FOR UPDATE) in key order. */
function lockActivities(tx: Executor, keys: readonly { companyId: string; activityId: string }[]): Promise<ActivityRecord[]> {
  const companyIds = keys.map((key) => key.companyId);
  const activityIds = keys.map((key) => key.activityId);
  return tx
    .select()
    .from(activities)
    .where(sql`(${activities.companyId}, ${activities.id}) in (select * from unnest(${sql.param(companyIds)}::uuid[], ${sql.param(activityIds)}::uuid[]))`)
    .orderBy(activities.companyId, activities.id)
    .for('update');
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

/** Postgres writes uuids in lower case, whatever case they came in. */
const activityKey = (companyId: string, activityId: string) => `${companyId}/${activityId}`.toLowerCase();

type ActivityRow = typeof activities.$inferInsert;

/** Every column of activities, in table order, with the SQL type of its values. */
const COLUMNS = Object.entries(getTableColumns(activities)).map(([key, column]) => ({ key: key as keyof ActivityRow, column, type: column.getSQLType() }));

/**
 * `(columns) select … from jsonb_to_recordset(…)`: the rows as one JSON parameter, each row an
 * object keyed by column name, read back with every column's own type (a JSON array becomes a
 * text[], an ISO time a timestamptz).
 */
function rowsAsRecordset(rows: readonly ActivityRow[]): SQL {
  const records = rows.map((row) => Object.fromEntries(COLUMNS.map(({ key, column }) => [column.name, jsonValue(row[key])])));
  return sql`(${COLUMN_NAMES}) select ${COLUMN_NAMES} from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as rows(${COLUMN_DEFINITIONS})`;
}

const COLUMN_NAMES = activityColumnNames();

/** The columns of activities, in table order, as a select or insert lists them, but those named in `leftOut` (by column name). */
export function activityColumnNames(leftOut: Readonly<Record<string, unknown>> = {}): SQL {
  return sql.raw(
    COLUMNS.filter(({ column }) => !(column.name in leftOut))
      .map(({ column }) => `"${column.name}"`)
      .join(', '),
  );
}
const COLUMN_DEFINITIONS = sql.raw(COLUMNS.map(({ column, type }) => `"${column.name}" ${type}`).join(', '));

/** `set` of an upsert that writes every column but the key from the row proposed for insertion. */
const EVERY_COLUMN_FROM_EXCLUDED = sql.raw(
  COLUMNS.filter(({ key }) => key !== 'companyId' && key !== 'id')
    .map(({ column }) => `"${column.name}" = excluded."${column.name}"`)
    .join(', '),
);

export function listedActivityOf(record: ActivityRecord): ListedActivity {
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
    criteriaNeedingReview: evaluated?.criteriaNeedingReview ?? 0,
    summary: evaluated?.summary ?? '',
    improvements: evaluated?.improvements ?? [],
    evaluationDurationSeconds: evaluated?.durationSeconds ?? 0,
    failedAt: state.failedAt,
    deletedAt: state.deletedAt,
    durationSeconds: activityDurationSeconds(state),
  };
}

/**
 * An activity row as a statement of plain SQL returned it (columns by name, as the driver parsed
 * them), read as drizzle reads its selects; `omitted` gives the columns the statement left out.
 */
export function activityRecordOf(row: Record<string, unknown>, omitted: Readonly<Record<string, unknown>> = {}): ActivityRecord {
  const record: Record<string, unknown> = {};
  for (const { key, column } of COLUMNS) {
    const value = column.name in omitted ? omitted[column.name] : row[column.name];
    record[key] = value === null || column.name in omitted ? value : column.mapFromDriverValue(value);
  }
  return record as ActivityRecord;
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
            criteriaNeedingReview: record.criteriaNeedingReview,
            summary: record.summary,
            improvements: record.improvements,
            durationSeconds: record.evaluationDurationSeconds,
          }
        : null,
    failedAt: record.failedAt,
    deletedAt: record.deletedAt,
  };
}
