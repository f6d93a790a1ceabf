/**
 * The lists' per-day counts (analytics.activity_day_counts and activity_day_verdicts, see
 * schema.ts): kept exact in the transaction that changes an activity, rebuilt once from the
 * activities, and read to answer a list's total and to find the days its page lies in
 * (activity-list.ts).
 *
 * Which cells a row counts in, and in which of a cell's measures (`activities`, and
 * `needing_review` too when a criterion of it needs review), is stated once, in SQL
 * (`CELL_COLUMNS`, `LISTED`, `MEASURES`), and applied both to the whole table (the rebuild) and to
 * the rows a write replaced and wrote (their difference), so the two can never disagree about a row.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '@parlance/platform/db/database';
import type { ActivityListQuery } from '../domain/list-request.js';
import { teamCondition } from './activity-filters.js';
import { applyDashboardChanges } from './dashboard-rollups.js';
import { changedRows, holdActivityWrites, LISTED, VERDICTS, type ActivityChange, type SourceColumn } from './rollup-changes.js';
import { activities, activityDayCounts, activityDayVerdicts, activityRollups } from './schema.js';


/** Beyond this a score is only "very high" or "very low" to the buckets; comparisons that far out count rows instead. */
const SCORE_LIMIT = 2 ** 29;

const DAY_OF_ROW = `(r.occurred_at at time zone 'UTC')::date`;
const DAY = sql.raw(DAY_OF_ROW);
const CELL_COLUMNS = sql.raw(`r.company_id, r.kind, r.team_id, ${DAY_OF_ROW},
  case when r.is_successful then 1 when not r.is_successful then 0 else -1 end,
  r.evaluated_at is not null and r.score is not null,
  case when r.evaluated_at is null or r.score is null then 0
       when r.score = 'NaN'::float8 or r.score >= ${SCORE_LIMIT} then ${2 * SCORE_LIMIT}
       when r.score <= -${SCORE_LIMIT} then -${2 * SCORE_LIMIT}
       when r.score = floor(r.score) then (2 * r.score)::integer
       else (2 * floor(r.score) + 1)::integer end`);
const COUNT_KEY = sql.raw('company_id, kind, team_id, day, success, scored, score_bucket');
const VERDICT_KEY = sql.raw('company_id, kind, team_id, day, group_id, criterion_id, passed');

/** Whether a row `r` counts in a cell's `needing_review` as well as its `activities`: a criterion of it needs review. */
const NEEDS_REVIEW = `r.criteria_needing_review > 0`;
/** A cell's two measures, `activities` and `needing_review`: the rows `r` added up by `weight`. */
const MEASURES = (weight: string) => sql.raw(`${weight}, coalesce(${weight} filter (where ${NEEDS_REVIEW}), 0)`);
/** Whether a write's rows `r` move a cell: either measure (a re-score may move only `needing_review`). */
const MOVED = sql.raw(`sum(r.delta) <> 0 or sum(r.delta) filter (where ${NEEDS_REVIEW}) <> 0`);
/** A cell already there gains both measures of the row proposed for it. */
const ADD_MEASURES = (table: typeof activityDayCounts | typeof activityDayVerdicts) =>
  sql`activities = ${table}.activities + excluded.activities, needing_review = ${table}.needing_review + excluded.needing_review`;

/** The columns a row's cells depend on: a change of others moves no count. */
const CELL_SOURCE_COLUMNS = [
  'companyId',
  'kind',
  'teamId',
  'occurredAt',
  'isSuccessful',
  'score',
  'evaluatedAt',
  'deletedAt',
  'results',
  'criteriaNeedingReview',
] as const satisfies readonly SourceColumn[];

/**
 * Moves the lists' counts and the dashboard's rollups (dashboard-rollups.ts) from the rows a write
 * replaced (`before`, absent for a new activity) to the rows
 * it wrote. Rows whose cells cannot have changed are skipped; cells are written in key order, so
 * writers of the same cells take turns and never wait on each other in a circle.
 */
export async function applyRollupChanges(tx: Executor, changes: readonly ActivityChange[]): Promise<void> {
  await applyListChanges(tx, changes);
  await applyDashboardChanges(tx, changes);
}

async function applyListChanges(tx: Executor, changes: readonly ActivityChange[]): Promise<void> {
  const changed = changedRows(changes, CELL_SOURCE_COLUMNS);
  if (!changed) return;
  const countsChange = sql`
    insert into ${activityDayCounts} (${COUNT_KEY}, activities, needing_review)
    select ${CELL_COLUMNS}, ${MEASURES('sum(r.delta)')} from r where ${LISTED}
    group by 1, 2, 3, 4, 5, 6, 7 having ${MOVED} order by 1, 2, 3, 4, 5, 6, 7
    on conflict (${COUNT_KEY}) do update set ${ADD_MEASURES(activityDayCounts)}`;
  if (!changed.verdicts) {
    await tx.execute(sql`with ${changed.rows} ${countsChange}`);
    return;
  }
  // Both tables in one statement: a statement costs more than its rows on PGlite.
  await tx.execute(sql`
    with ${changed.rows}, counts as (${countsChange})
    insert into ${activityDayVerdicts} (${VERDICT_KEY}, activities, needing_review)
    select r.company_id, r.kind, r.team_id, ${DAY}, v.group_id, v.criterion_id, v.passed, ${MEASURES('sum(r.delta)')} from r ${VERDICTS} where ${LISTED}
    group by 1, 2, 3, 4, 5, 6, 7 having ${MOVED} order by 1, 2, 3, 4, 5, 6, 7
    on conflict (${VERDICT_KEY}) do update set ${ADD_MEASURES(activityDayVerdicts)}`);
}

/**
 * Builds the rollups from every activity, unless they have been built. Writers of activities
 * wait meanwhile (the table is locked against writes, not reads); the lists count rows until then.
 * Run once when the service starts, after its migrations.
 */
export async function ensureActivityRollups(db: Executor): Promise<void> {
  if (await rollupsReady(db)) return;
  await db.transaction(async (tx) => {
    await holdActivityWrites(tx);
    const [built] = await tx.select().from(activityRollups).limit(1);
    if (built) return;
    await tx.delete(activityDayCounts);
    await tx.delete(activityDayVerdicts);
    const rows = sql`${activities} r`;
    // In key order, so that a team's days lie together.
    await tx.execute(
      sql`insert into ${activityDayCounts} (${COUNT_KEY}, activities, needing_review) select ${CELL_COLUMNS}, ${MEASURES('count(*)')} from ${rows} where ${LISTED} group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 4, 5, 6, 7`,
    );
    await tx.execute(
      sql`insert into ${activityDayVerdicts} (${VERDICT_KEY}, activities, needing_review) select r.company_id, r.kind, r.team_id, ${DAY}, v.group_id, v.criterion_id, v.passed, ${MEASURES('count(*)')} from ${rows} ${VERDICTS} where ${LISTED} group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 5, 6, 7, 4`,
    );
    await tx.insert(activityRollups).values({ builtAt: new Date() });
  });
  READY.add(db);
}

const READY = new WeakSet<Executor>();

/** Whether the rollups have been built (remembered once they have: they stay built). */
export async function rollupsReady(db: Executor): Promise<boolean> {
  if (READY.has(db)) return true;
  const [built] = await db.select().from(activityRollups).limit(1);
  if (built) READY.add(db);
  return built !== undefined;
}

export interface RollupFilter {
  table: typeof activityDayCounts | typeof activityDayVerdicts;
  /** Conditions on the table's cells besides company, kind, team and day. */
  conditions: SQL[];
  /** The cells' measure that counts the matching activities: all of them, or those needing review. */
  measure: PgColumn;
}

/** Which rollup counts a list's rows and how; undefined when only counting the rows can (see below). */
export function rollupFilter(query: ActivityListQuery): RollupFilter | undefined {
  const { activityIds, contactIds, representativeEmails, durationSeconds, scriptMatch, score, isSuccessful, criteria, needsReview } = query;
  // Filters no rollup keeps; they are selective (ids, contacts, people) or rare enough to count rows for.
  if (activityIds.length + contactIds.length + representativeEmails.length > 0 || durationSeconds || scriptMatch) return undefined;
  // A score bucket is whole only for comparisons with a whole number.
  if (score && !(Number.isInteger(score.value) && Math.abs(score.value) < SCORE_LIMIT)) return undefined;
  if (criteria.length === 0) {
    const conditions: SQL[] = [];
    if (isSuccessful !== null) conditions.push(sql`${activityDayCounts.success} = ${isSuccessful ? 1 : 0}`);
    if (score) {
      const compare = { lte: sql`<=`, eq: sql`=`, gte: sql`>=` }[score.comparison];
      conditions.push(sql`${activityDayCounts.scored}`, sql`${activityDayCounts.scoreBucket} ${compare} ${2 * score.value}`);
    }
    return { table: activityDayCounts, conditions, measure: needsReview ? activityDayCounts.needingReview : activityDayCounts.activities };
  }
  // One criterion in a named group, alone: the verdict rollup. More together are counted on the rows.
  const [criterion] = criteria;
  if (criteria.length > 1 || !criterion || criterion.groupId === '' || isSuccessful !== null || score) return undefined;
  return {
    table: activityDayVerdicts,
    conditions: [
      sql`${activityDayVerdicts.groupId} = ${criterion.groupId}`,
      sql`${activityDayVerdicts.criterionId} = ${criterion.criterionId}`,
      sql`${activityDayVerdicts.passed} = ${criterion.passed}`,
    ],
    measure: needsReview ? activityDayVerdicts.needingReview : activityDayVerdicts.activities,
  };
}

/**
 * The query of the activities matching `query` per whole UTC day in [from, to) (dates
 * 'YYYY-MM-DD', either open): `day` (a date) and `activities` (a bigint, the filter's measure),
 * days without any left out. The rollup keeps every filter but the time (`rollupFilter`).
 */
export function matchingPerDay(companyId: string, query: ActivityListQuery, filter: RollupFilter, days: { from: string | null; to: string | null }): SQL {
  const { table, measure } = filter;
  const conditions = [
    sql`${table.companyId} = ${companyId}`,
    sql`${table.kind} = ${query.kind}`,
    teamCondition(table.teamId, companyId, query),
    days.from === null ? undefined : sql`${table.day} >= ${days.from}`,
    days.to === null ? undefined : sql`${table.day} < ${days.to}`,
    ...filter.conditions,
  ].filter((condition) => condition !== undefined);
  return sql`select ${table.day} as day, sum(${measure})::bigint as activities from ${table} where ${sql.join(conditions, sql` and `)} group by ${table.day} having sum(${measure}) > 0`;
}
