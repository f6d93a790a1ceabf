/**
 * analytics.activities: facts merged in by the consumers, pages read out by the lists. Every
 * query is scoped by the company.
 */
import { and, count, desc, eq, getTableColumns, isNull, lt, sql, type SQL } from 'drizzle-orm';
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
import type { ActivityListQuery } from '../domain/list-request.js';
import { activityListConditions, teamCondition } from './activity-filters.js';
import { applyRollupChanges, countsPerDay, rollupFilter, rollupsReady, type RollupFilter } from './activity-rollups.js';
import { jsonValue } from './jsonb-recordset.js';
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

/**
 * One page of the list, newest first (the id breaks ties), and how many activities match.
 *
 * When a rollup keeps the filters (activity-rollups.ts), the total is added up from the matching
 * activities per UTC day — read from the rollup, with a range's part days at either end counted
 * on the rows — and the page is read only from the days it falls in, skipping just the rows
 * before it there. Otherwise the rows are counted, and the page read with OFFSET.
 */
export async function listActivities(db: Executor, companyId: string, query: ActivityListQuery): Promise<ActivityPage> {
  const offset = (query.page - 1) * query.limit;
  const filter = rollupFilter(query);
  if (!filter || !(await rollupsReady(db))) {
    const where = activityListConditions(companyId, query);
    const [records, total] = await Promise.all([pageOf(db, query.kind, where, offset, query.limit), countRows(db, where)]);
    return { rows: records.map(listedActivityOf), total };
  }
  const stretches = await matchingStretches(db, companyId, query, filter);
  const total = stretches.reduce((sum, stretch) => sum + stretch.activities, 0);
  const window = pageWindow(stretches, offset, query.limit);
  if (!window) return { rows: [], total };
  const where = activityListConditions(companyId, { ...query, start: window.start, end: window.end }, { criteriaOnRows: window.end.getTime() - window.start.getTime() <= FEW_DAYS_MS });
  const records = await pageOf(db, query.kind, where, window.offset, query.limit);
  return { rows: records.map(listedActivityOf), total };
}

/** A stretch of time [start, end) of a list's range and how many of its activities match. */
interface Stretch {
  start: Date;
  end: Date;
  activities: number;
}

const DAY_MS = 86_400_000;
/** A page window up to this long tests criteria on its rows rather than through their GIN indexes. */
const FEW_DAYS_MS = 7 * DAY_MS;
const midnightOf = (time: Date) => new Date(Math.floor(time.getTime() / DAY_MS) * DAY_MS);
const nextMidnightFrom = (time: Date) => new Date(Math.ceil(time.getTime() / DAY_MS) * DAY_MS);
const dateOf = (midnight: Date) => midnight.toISOString().slice(0, 10);

/**
 * The list's range as stretches, newest first, each with its matching activities: the UTC days it
 * touches, from the rollup (days without any left out), where a day the range covers only in part
 * is cut to that part and counted on the rows — the part itself when it is the smaller half of
 * the day, else the day's count less the rest of the day (so a range ending at 23:59:59.999, as
 * the web sends it, counts the last millisecond's rows, not the day's).
 */
async function matchingStretches(db: Executor, companyId: string, query: ActivityListQuery, filter: RollupFilter): Promise<Stretch[]> {
  const { start, end } = query;
  if (start && end && start >= end) return [];
  const from = start && midnightOf(start);
  const to = end && nextMidnightFrom(end);
  // Counted on the rows, in the statement that reads the rollup: the parts of part days.
  const rowCounts: (SQL | undefined)[] = [];
  const between = (after: Date, before: Date) => rowCounts.push(activityListConditions(companyId, { ...query, start: after, end: before }, { criteriaOnRows: true })) - 1;
  const partDays = new Map<number, { inside: { start: Date; end: Date }; rest: boolean; counts: number[] }>();
  for (const midnight of [from, to && new Date(to.getTime() - DAY_MS)]) {
    if (!midnight || partDays.has(midnight.getTime())) continue;
    const next = new Date(midnight.getTime() + DAY_MS);
    const inside = { start: start && start > midnight ? start : midnight, end: end && end < next ? end : next };
    if (inside.start.getTime() === midnight.getTime() && inside.end.getTime() === next.getTime()) continue;
    const rest = inside.end.getTime() - inside.start.getTime() > DAY_MS / 2;
    const counts = rest
      ? [inside.start > midnight ? between(midnight, inside.start) : -1, inside.end < next ? between(inside.end, next) : -1].filter((i) => i >= 0)
      : [between(inside.start, inside.end)];
    partDays.set(midnight.getTime(), { inside, rest, counts });
  }
  const counted = await countsPerDay(db, companyId, query.kind, filter, (teamId) => teamCondition(teamId, companyId, query), { from: from && dateOf(from), to: to && dateOf(to) }, rowCounts);
  return counted.days.flatMap(({ day, activities }): Stretch[] => {
    const midnight = new Date(`${day}T00:00:00Z`);
    const part = partDays.get(midnight.getTime());
    if (!part) return [{ start: midnight, end: new Date(midnight.getTime() + DAY_MS), activities }];
    const onRows = part.counts.reduce((sum, i) => sum + counted.rowCounts[i]!, 0);
    // The rollup and the rows are read in one statement, so from one snapshot: the rest is never above the day's count.
    const inside = part.rest ? Math.max(0, activities - onRows) : onRows;
    return inside > 0 ? [{ ...part.inside, activities: inside }] : [];
  });
}

/**
 * The stretches a page of `limit` rows after `offset` lies in, as one range [start, end), and the
 * rows to skip within it; undefined when the page is past the last row.
 */
export function pageWindow(stretches: readonly Stretch[], offset: number, limit: number): { start: Date; end: Date; offset: number } | undefined {
  let before = 0;
  let first = 0;
  while (first < stretches.length && before + stretches[first]!.activities <= offset) before += stretches[first++]!.activities;
  if (first === stretches.length) return undefined;
  let last = first;
  let through = before + stretches[first]!.activities;
  while (through < offset + limit && last + 1 < stretches.length) through += stretches[++last]!.activities;
  return { start: stretches[last]!.start, end: stretches[first]!.end, offset: offset - before };
}

/**
 * A page of rows as the list shows them. A call's transcript, summary and improvements are read
 * when it is opened, so a calls page leaves them (the largest columns) in the table.
 */
async function pageOf(db: Executor, kind: ActivityKindName, where: SQL | undefined, offset: number, limit: number): Promise<ActivityRecord[]> {
  if (kind !== 'call') return db.select().from(activities).where(where).orderBy(...NEWEST_FIRST).limit(limit).offset(offset);
  const records = await db.select(LISTED_CALL_COLUMNS).from(activities).where(where).orderBy(...NEWEST_FIRST).limit(limit).offset(offset);
  return records.map((record) => ({ ...record, transcript: '', summary: '', improvements: [] }));
}

const NEWEST_FIRST = [desc(activities.occurredAt), desc(activities.id)];
const { transcript: _transcript, summary: _summary, improvements: _improvements, ...LISTED_CALL_COLUMNS } = getTableColumns(activities);

async function countRows(db: Executor, where: SQL | undefined): Promise<number> {
  const [counted] = await db.select({ total: count() }).from(activities).where(where);
  return counted?.total ?? 0;
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

const COLUMN_NAMES = sql.raw(COLUMNS.map(({ column }) => `"${column.name}"`).join(', '));
const COLUMN_DEFINITIONS = sql.raw(COLUMNS.map(({ column, type }) => `"${column.name}" ${type}`).join(', '));

/** `set` of an upsert that writes every column but the key from the row proposed for insertion. */
const EVERY_COLUMN_FROM_EXCLUDED = sql.raw(
  COLUMNS.filter(({ key }) => key !== 'companyId' && key !== 'id')
    .map(({ column }) => `"${column.name}" = excluded."${column.name}"`)
    .join(', '),
);

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
