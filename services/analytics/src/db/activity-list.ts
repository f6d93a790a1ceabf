/**
 * The calls and meetings lists: one page, newest first (the id breaks ties), and how many
 * activities match, read in one statement whatever the filters.
 *
 * When a rollup keeps the filters (activity-rollups.ts), the statement adds the total up from the
 * matching activities per UTC day, read from the rollup, with a range's part days at either end
 * counted on the rows; a running sum over those days finds the days the page lies in, and the page
 * is read only from them, skipping just the rows before it there. Otherwise the statement counts
 * the rows and reads the page with OFFSET.
 *
 * One statement, prepared and planned once (`queryRowsPrepared` on the `preparedReads`
 * connections), because under load a list cost mostly per statement, not per row: planning it
 * (more than running it, for these CTEs), building it, a round trip, a pooled connection. At a
 * million calls (bench/activities-list.bench.ts), a team's filtered page cost 2.6 ms of CPU as two
 * statements planned on each call, 1.6 ms as one planned once. So that one plan serves every
 * request of a shape, values travel as parameters and lists of them as one array.
 */
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { queryRowsPrepared, type Executor } from '@parlance/platform/db/database';
import type { ActivityListQuery } from '../domain/list-request.js';
import { activityColumnNames, activityRecordOf, listedActivityOf, type ListedActivity } from './activities.repository.js';
import { activityListConditions } from './activity-filters.js';
import { matchingPerDay, rollupFilter, rollupsReady, type RollupFilter } from './activity-rollups.js';
import { activities } from './schema.js';

export interface ActivityPage {
  rows: ListedActivity[];
  total: number;
}

/** One page of the company's activities that match the query, and how many match. */
export async function listActivities(db: Executor, companyId: string, query: ActivityListQuery): Promise<ActivityPage> {
  const { start, end } = query;
  if (start && end && start >= end) return { rows: [], total: 0 };
  const filter = rollupFilter(query);
  const statement = filter && (await rollupsReady(db)) ? listedThroughRollup(companyId, query, filter) : listedCountingRows(companyId, query);
  // One row at least, carrying the total; with no activity in it when the page is empty.
  const rows = await queryRowsPrepared<Record<string, unknown> & { total: string | number | bigint }>(db, statement);
  return {
    rows: rows.filter((row) => row.id !== null).map((row) => listedActivityOf(activityRecordOf(row, OMITTED_FROM_LIST[query.kind]))),
    total: Number(rows[0]?.total ?? 0),
  };
}

function listedCountingRows(companyId: string, query: ActivityListQuery): SQL {
  const where = activityListConditions(companyId, query);
  const offset = (query.page - 1) * query.limit;
  return sql`select counted.total, page.*
    from (select count(*) as total from ${activities} where ${where}) as counted
    left join lateral (${pageOf(query, where, sql`${offset}`)}) as page on true
    ${PAGE_ORDER}`;
}

/** A page window [start, end) up to this long tests criteria on its rows rather than through their GIN indexes. */
const FEW_DAYS = 7;

/**
 * The list through the rollup: per-day counts, the part days recounted on the rows, and then, as
 * `page_window`, the stretches of time (days or part days) the page's rows lie in, as one range,
 * with how many matching activities come before it.
 */
function listedThroughRollup(companyId: string, query: ActivityListQuery, filter: RollupFilter): SQL {
  const offset = (query.page - 1) * query.limit;
  const { start, end } = query;
  const from = start && midnightOf(start);
  const to = end && nextMidnightFrom(end);
  const perDay = matchingPerDay(companyId, query, filter, { from: from && dateOf(from), to: to && dateOf(to) });
  // The time is the window's (or a part day's), set where each condition is used.
  const untimed = { ...query, start: null, end: null };
  const everyFilterButTime = activityListConditions(companyId, untimed, { criteriaOnRows: true });
  const parts = partDays(start, end);
  // The rollup's days as stretches of time, each part day cut to its part and recounted on the rows.
  const stretches =
    parts.length === 0
      ? sql`stretches as (select ${DAY_START} as start_at, ${DAY_END} as end_at, d.activities from per_day d)`
      : sql`part_counts as (
          select c.day, c.start_at, c.end_at, c.rest,
            (select count(*) from ${activities} where ${everyFilterButTime} and ${activities.occurredAt} >= c.after and ${activities.occurredAt} < c.before) as activities
          from (values ${sql.join(parts.flatMap(partCountRows), sql`, `)}) as c(day, start_at, end_at, rest, after, before)
        ), part_days as (
          select day, start_at, end_at, rest, sum(activities)::bigint as on_rows from part_counts group by day, start_at, end_at, rest
        ), stretches as (
          select coalesce(p.start_at, ${DAY_START}) as start_at, coalesce(p.end_at, ${DAY_END}) as end_at,
            case when p.day is null then d.activities when p.rest then greatest(0, d.activities - p.on_rows) else p.on_rows end as activities
          from per_day d left join part_days p on p.day = d.day
        )`;
  const inWindow = (where: SQL | undefined, length?: SQL) =>
    pageOf(query, sql`${where} and ${activities.occurredAt} >= w.start_at and ${activities.occurredAt} < w.end_at${length ? sql` and ${length}` : sql``}`, sql`${offset} - w.before`);
  const fewDays = sql.raw(`w.end_at - w.start_at <= interval '${FEW_DAYS} days'`);
  const page =
    query.criteria.length === 0
      ? inWindow(everyFilterButTime)
      : // A few days' rows cost less to read than a common criterion's posting list, which covers all time.
        sql`(${inWindow(everyFilterButTime, fewDays)}) union all (${inWindow(activityListConditions(companyId, untimed), sql`not (${fewDays})`)})`;
  return sql`with per_day as (${perDay}), ${stretches},
    counted as (
      select start_at, end_at, activities, (sum(activities) over (order by start_at desc))::bigint - activities as before from stretches where activities > 0
    ),
    page_window as (
      select min(start_at) as start_at, max(end_at) as end_at, min(before) as before from counted
      where before < ${offset + query.limit} and before + activities > ${offset}
    )
    select (select coalesce(sum(activities), 0) from counted) as total, page.*
    from page_window w left join lateral (${page}) as page on w.start_at is not null
    ${PAGE_ORDER}`;
}

/**
 * A day of the range covered only in part, cut to that part (`inside`). Its matching activities
 * are counted on the rows: those inside when that is the smaller half of the day, else the day's
 * count less those in the rest of it (so a range ending at 23:59:59.999, as the web sends it,
 * counts the last millisecond's rows, not the day's).
 */
interface PartDay {
  midnight: Date;
  inside: { start: Date; end: Date };
  rest: boolean;
  /** The ranges [after, before) whose rows are counted. */
  counted: { after: Date; before: Date }[];
}

const DAY_MS = 86_400_000;
const midnightOf = (time: Date) => new Date(Math.floor(time.getTime() / DAY_MS) * DAY_MS);
const nextMidnightFrom = (time: Date) => new Date(Math.ceil(time.getTime() / DAY_MS) * DAY_MS);
const dateOf = (midnight: Date) => midnight.toISOString().slice(0, 10);

/** The first and last days of [start, end), each when the range covers it only in part. */
function partDays(start: Date | null, end: Date | null): PartDay[] {
  const parts: PartDay[] = [];
  const to = end && nextMidnightFrom(end);
  for (const midnight of [start && midnightOf(start), to && new Date(to.getTime() - DAY_MS)]) {
    if (!midnight || parts.some((part) => part.midnight.getTime() === midnight.getTime())) continue;
    const next = new Date(midnight.getTime() + DAY_MS);
    const inside = { start: start && start > midnight ? start : midnight, end: end && end < next ? end : next };
    if (inside.start.getTime() === midnight.getTime() && inside.end.getTime() === next.getTime()) continue;
    const rest = inside.end.getTime() - inside.start.getTime() > DAY_MS / 2;
    const counted = rest
      ? [
          ...(inside.start > midnight ? [{ after: midnight, before: inside.start }] : []),
          ...(inside.end < next ? [{ after: inside.end, before: next }] : []),
        ]
      : [{ after: inside.start, before: inside.end }];
    parts.push({ midnight, inside, rest, counted });
  }
  return parts;
}

/** A part day's `values` rows, one per range counted. */
function partCountRows({ midnight, inside, rest, counted }: PartDay): SQL[] {
  const time = (at: Date) => sql`${at.toISOString()}::timestamptz`;
  return counted.map(
    ({ after, before }) => sql`(${dateOf(midnight)}::date, ${time(inside.start)}, ${time(inside.end)}, ${rest}::boolean, ${time(after)}, ${time(before)})`,
  );
}

/** Midnight UTC starting and ending the rollup's day `d.day`. */
const DAY_START = sql.raw(`(d.day::timestamp at time zone 'UTC')`);
const DAY_END = sql.raw(`((d.day + 1)::timestamp at time zone 'UTC')`);

/**
 * A page of rows as the list shows them. A call's transcript, summary and improvements are read
 * when it is opened, so a calls page leaves them (the largest columns) in the table; no page reads
 * the criterion ids kept for the criteria's indexes (the results say the same).
 */
function pageOf(query: ActivityListQuery, where: SQL | undefined, offset: SQL): SQL {
  return sql`select ${LISTED_COLUMNS[query.kind]} from ${activities} where ${where}
    order by ${activities.occurredAt} desc, ${activities.id} desc limit ${query.limit} offset ${offset}`;
}

const PAGE_ORDER = sql.raw(`order by page.occurred_at desc, page.id desc`);

const { transcript, summary, improvements, passedCriteria, failedCriteria } = getTableColumns(activities);
const INDEXED_ONLY = { [passedCriteria.name]: [], [failedCriteria.name]: [] };
const OMITTED_FROM_LIST = { call: { ...INDEXED_ONLY, [transcript.name]: '', [summary.name]: '', [improvements.name]: [] }, meeting: INDEXED_ONLY } as const;
const LISTED_COLUMNS = { call: activityColumnNames(OMITTED_FROM_LIST.call), meeting: activityColumnNames(OMITTED_FROM_LIST.meeting) };
