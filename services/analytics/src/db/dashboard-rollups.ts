/**
 * The dashboard's rollups (analytics.dashboard_totals and dashboard_verdicts, see schema.ts): per
 * company, time zone, kind, team and representative (and the whole team), per local day and per
 * local month. Kept exact in the transaction that writes an activity, for every zone in
 * dashboard_zones; a zone's rollups are built from every activity the first time it is asked for.
 *
 * Which cells a row counts in, and what it adds to them, is stated once, in SQL (`CELLS`,
 * `MEASURES`, `VERDICT_MEASURES`), and applied both to the activities table (a build, and the
 * check that recomputes everything) and to the rows a write replaced and wrote (their difference),
 * so the rollups can never disagree with the rows about what a row counts for.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import type { DatabaseHandle, Executor } from '@parlance/platform/db/database';
import { queryRows } from '@parlance/platform/db/database';
import { changedRows, holdActivityWrites, LISTED, SOURCE_COLUMNS, VERDICTS, type ActivityChange } from './rollup-changes.js';
import { activities, dashboardTotals, dashboardTotalsStaged, dashboardVerdicts, dashboardVerdictsStaged, dashboardZones } from './schema.js';

const SCORED = `r.evaluated_at is not null and r.score is not null and r.score not in ('NaN', 'Infinity', '-Infinity')`;
/** The six cells a row counts in, per zone `z`: its day, month and quarter, for its representative and for the whole team. */
const CELLS = sql.raw(`cross join lateral (
    select (r.occurred_at at time zone z.zone)::date as day) local
  cross join lateral (values
    ('d', local.day, r.representative_email), ('d', local.day, '*'),
    ('m', date_trunc('month', local.day)::date, r.representative_email), ('m', date_trunc('month', local.day)::date, '*'),
    ('q', date_trunc('quarter', local.day)::date, r.representative_email), ('q', date_trunc('quarter', local.day)::date, '*')
  ) as cell(span, period, representative_email)`);
const CELL_KEY = `r.company_id, z.zone, r.kind, cell.span, r.team_id, cell.representative_email, cell.period`;
const TOTALS_KEY = sql.raw('company_id, zone, kind, span, team_id, representative_email, period');
const VERDICTS_KEY = sql.raw('company_id, zone, kind, span, team_id, representative_email, period, group_id, criterion_id');

/** What a row adds to its cells, `weight` times (1 for a row, ±1 for a write's difference), one expression per column of `TOTALS_MEASURES`. */
const SCRIPTED = `${SCORED} and r.script_match is not null and r.script_match not in ('NaN', 'Infinity', '-Infinity')`;
const totalsExpressions = (weight: string) => [
  `sum(${weight})::integer`,
  `coalesce(sum(${weight}) filter (where r.is_successful), 0)::integer`,
  `coalesce(sum(${weight}) filter (where not r.is_successful), 0)::integer`,
  `coalesce(sum(${weight}) filter (where ${SCORED}), 0)::integer`,
  `coalesce(sum(${weight} * r.score::numeric) filter (where ${SCORED}), 0)`,
  `coalesce(sum(${weight}) filter (where ${SCRIPTED}), 0)::integer`,
  `coalesce(sum(${weight} * r.script_match::numeric) filter (where ${SCRIPTED}), 0)`,
  `coalesce(sum(${weight}) filter (where r.duration_seconds > 0), 0)::integer`,
  `coalesce(sum(${weight} * r.duration_seconds::bigint) filter (where r.duration_seconds > 0), 0)::bigint`,
];
const measures = (weight: string) => sql.raw(totalsExpressions(weight).join(',\n  '));
export const TOTALS_MEASURES = ['activities', 'successful', 'unsuccessful', 'scored', 'score_sum', 'script_matched', 'script_match_sum', 'timed', 'duration_sum'] as const;
const TOTALS_COLUMNS = sql.raw(TOTALS_MEASURES.join(', '));
const TOTALS_ADD = sql.raw(TOTALS_MEASURES.map((column) => `${column} = t.${column} + excluded.${column}`).join(', '));

/** What the rows `r` grouped together add up to, named as the totals' columns. */
export const ROW_TOTALS = sql.raw(totalsExpressions('1').map((expression, index) => `${expression} as ${TOTALS_MEASURES[index]}`).join(', '));

const verdictExpressions = (weight: string) => [
  `coalesce(sum(${weight}) filter (where v.passed), 0)::integer`,
  `coalesce(sum(${weight}) filter (where not v.passed), 0)::integer`,
  `coalesce(sum(${weight}) filter (where v.passed and r.is_successful), 0)::integer`,
  `coalesce(sum(${weight}) filter (where not v.passed and r.is_successful), 0)::integer`,
  `coalesce(sum(${weight}) filter (where v.passed and not r.is_successful), 0)::integer`,
  `coalesce(sum(${weight}) filter (where not v.passed and not r.is_successful), 0)::integer`,
];
const verdictMeasures = (weight: string) => sql.raw(verdictExpressions(weight).join(',\n  '));
export const VERDICTS_MEASURES = ['passed', 'failed', 'passed_successful', 'failed_successful', 'passed_unsuccessful', 'failed_unsuccessful'] as const;
const VERDICTS_COLUMNS = sql.raw(VERDICTS_MEASURES.join(', '));
const VERDICTS_ADD = sql.raw(VERDICTS_MEASURES.map((column) => `${column} = t.${column} + excluded.${column}`).join(', '));
/** The same for the verdicts `v` of the rows `r`, named as the verdicts' columns. */
export const ROW_VERDICTS = sql.raw(verdictExpressions('1').map((expression, index) => `${expression} as ${VERDICTS_MEASURES[index]}`).join(', '));

/** The columns the dashboard's cells and measures depend on: every one a rollup counts by but the lists' review count. */
const DASHBOARD_SOURCE_COLUMNS = SOURCE_COLUMNS.filter((column) => column !== 'criteriaNeedingReview');

/**
 * Moves the dashboard's rollups, in every listed zone (built or being built), from the rows a
 * write replaced (`before`, absent for a new activity) to the rows it wrote. Cells are written in
 * key order, so that writers of the same cells, and a build's merge, take turns and never wait on
 * each other in a circle. Called by `applyRollupChanges` in the writing transaction, which has
 * written the activities first: the listing of a zone waits for it (see `ensureZoneRollups`).
 */
export async function applyDashboardChanges(tx: Executor, changes: readonly ActivityChange[]): Promise<void> {
  const changed = changedRows(changes, DASHBOARD_SOURCE_COLUMNS);
  if (!changed) return;
  const totals = sql`
    insert into ${dashboardTotals} as t (${TOTALS_KEY}, ${TOTALS_COLUMNS})
    select ${sql.raw(CELL_KEY)}, ${measures('r.delta')} from r cross join ${dashboardZones} z ${CELLS} where ${LISTED}
    group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 4, 5, 6, 7
    on conflict (${TOTALS_KEY}) do update set ${TOTALS_ADD}`;
  if (!changed.verdicts) {
    await tx.execute(sql`with ${changed.rows} ${totals}`);
    return;
  }
  await tx.execute(sql`
    with ${changed.rows}, totals as (${totals})
    insert into ${dashboardVerdicts} as t (${VERDICTS_KEY}, ${VERDICTS_COLUMNS})
    select ${sql.raw(CELL_KEY)}, v.group_id, v.criterion_id, ${verdictMeasures('r.delta')} from r cross join ${dashboardZones} z ${CELLS} ${VERDICTS} where ${LISTED}
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9 order by 1, 2, 3, 4, 5, 6, 7, 8, 9
    on conflict (${VERDICTS_KEY}) do update set ${VERDICTS_ADD}`);
}

const BUILT = new WeakMap<Executor, Set<string>>();
const BUILDING = new WeakMap<Executor, Map<string, Promise<void>>>();

/** Whether the zone's rollups are built (remembered once they are: they stay built). */
export async function zoneReady(db: Executor, zone: string): Promise<boolean> {
  const built = BUILT.get(db) ?? new Set<string>();
  BUILT.set(db, built);
  if (built.has(zone)) return true;
  const [row] = await queryRows<{ zone: string }>(db, sql`select zone from ${dashboardZones} where zone = ${zone} and built_at is not null`);
  if (row) built.add(zone);
  return row !== undefined;
}

/** What a zone's build needs of the database: its connections, which driver, and a lock across processes. */
export type RollupDatabase = Pick<DatabaseHandle<Record<string, unknown>>, 'db' | 'preparedReads' | 'driver' | 'withExclusiveLock'>;

/** Staged cells are added to the zone's this many at a time, each batch its own transaction. */
const MERGE_BATCH = 5_000;

/**
 * Builds the zone's rollups from every activity, unless built, holding writes off only for the
 * moment it takes to list the zone. One build of a zone runs at a time, across processes (an
 * advisory lock); requests in the zone are answered from the rows until it is done.
 *
 * 1. Listed: under a lock on the activities that waits for the writes in flight and holds new ones
 *    off (`share row exclusive`; reads go on), the zone is listed as being built (built_at null)
 *    and the database's snapshot at that instant is exported. Every write from then on moves the
 *    zone's cells, as it does a built zone's.
 * 2. Staged: a transaction reading that snapshot, i.e. exactly the rows written before the zone was
 *    listed, counts their cells into the staged tables, while writes go on.
 * 3. Merged: the staged cells are added to the zone's a batch at a time. Adding commutes, so the
 *    cells come to what the rows before the listing and the writes after it add up to, and a
 *    write waits for one batch at most.
 * 4. Built: built_at is set, and requests read the rollups.
 *
 * On PGlite, whose one connection cannot hold two transactions, 1 and 2 are one transaction
 * (writes wait for it, as they wait for any transaction there). A build that died leaves its zone
 * listed and unbuilt with no one holding its lock: the next one unlists it and starts again.
 */
export function ensureZoneRollups(database: RollupDatabase, zone: string): Promise<void> {
  const { db } = database;
  const building = BUILDING.get(db) ?? new Map<string, Promise<void>>();
  BUILDING.set(db, building);
  const running = building.get(zone);
  if (running) return running;
  const build = (async () => {
    if (await zoneReady(db, zone)) return;
    await database.withExclusiveLock(`dashboard-zone:${zone}`, async () => {
      const [listed] = await queryRows<{ built: boolean }>(db, sql`select built_at is not null as built from ${dashboardZones} where zone = ${zone}`);
      if (listed?.built) return;
      if (listed) {
        // Its build died. Unlisted under the lock, so that no write in flight still moves its cells.
        await db.transaction(async (tx) => {
          await holdActivityWrites(tx);
          await tx.delete(dashboardZones).where(eq(dashboardZones.zone, zone));
        });
      }
      // No write moves the cells of a zone not listed: those left from before go without holding writes off.
      for (const table of [dashboardTotals, dashboardVerdicts, dashboardTotalsStaged, dashboardVerdictsStaged]) await db.delete(table).where(eq(table.zone, zone));
      await (database.driver === 'postgres' ? listAndStage(db, zone) : listAndStageAtOnce(db, zone));
      await mergeStaged(db, zone);
      await db.update(dashboardZones).set({ builtAt: new Date() }).where(eq(dashboardZones.zone, zone));
    });
    BUILT.get(db)?.add(zone);
  })().finally(() => building.delete(zone));
  building.set(zone, build);
  return build;
}

const SNAPSHOT_ID = /^[0-9A-F]+-[0-9A-F]+(-[0-9A-F]+)?$/i;

/** Steps 1 and 2 on PostgreSQL: the listing commits at once, the staging reads the snapshot it exported. */
async function listAndStage(db: Executor, zone: string): Promise<void> {
  await db.transaction(
    async (staging) => {
      await db.transaction(async (listing) => {
        await holdActivityWrites(listing);
        const [exported] = await queryRows<{ snapshot: string }>(listing, sql`select pg_export_snapshot() as snapshot`);
        const snapshot = exported!.snapshot;
        if (!SNAPSHOT_ID.test(snapshot)) throw new Error(`unexpected snapshot id ${snapshot}`);
        // A utility statement takes no parameters; the id was checked above.
        await staging.execute(sql.raw(`set transaction snapshot '${snapshot}'`));
        await listAsBuilding(listing, zone);
      });
      await stageCells(staging, zone);
    },
    { isolationLevel: 'repeatable read' },
  );
}

async function listAndStageAtOnce(db: Executor, zone: string): Promise<void> {
  await db.transaction(async (tx) => {
    await holdActivityWrites(tx);
    await listAsBuilding(tx, zone);
    await stageCells(tx, zone);
  });
}

/** From here on every write of the zone's company moves the zone's cells, while the zone is not yet read. */
async function listAsBuilding(tx: Executor, zone: string): Promise<void> {
  await tx.insert(dashboardZones).values({ zone, builtAt: null });
}

/** Every cell of the zone counted from the rows `tx` sees, into the staged tables. */
async function stageCells(tx: Executor, zone: string): Promise<void> {
  await tx.execute(sql`insert into ${dashboardTotalsStaged} (${TOTALS_KEY}, ${TOTALS_COLUMNS}) ${totalsFromRows(zone)}`);
  await tx.execute(sql`insert into ${dashboardVerdictsStaged} (${VERDICTS_KEY}, ${VERDICTS_COLUMNS}) ${verdictsFromRows(zone)}`);
}

/** Step 3: moves the staged cells into the zone's, adding, a batch per transaction, each in key order as writes take them. */
async function mergeStaged(db: Executor, zone: string): Promise<void> {
  const tables = [
    { staged: dashboardTotalsStaged, cells: dashboardTotals, key: TOTALS_KEY, columns: TOTALS_COLUMNS, add: TOTALS_ADD },
    { staged: dashboardVerdictsStaged, cells: dashboardVerdicts, key: VERDICTS_KEY, columns: VERDICTS_COLUMNS, add: VERDICTS_ADD },
  ];
  for (const { staged, cells, key, columns, add } of tables) {
    for (;;) {
      const moved = await queryRows(
        db,
        sql`with moved as (
              delete from ${staged} where ctid = any(array(select ctid from ${staged} where zone = ${zone} limit ${MERGE_BATCH}))
              returning *)
            insert into ${cells} as t (${key}, ${columns})
            select ${key}, ${columns} from moved order by ${key}
            on conflict (${key}) do update set ${add} returning 1`,
      );
      if (moved.length < MERGE_BATCH) break;
    }
  }
}

/** Every cell of the zone's totals, counted from the activities, in key order. */
function totalsFromRows(zone: string): SQL {
  return sql`select ${sql.raw(CELL_KEY)}, ${measures('1')} from ${activities} r cross join (select ${zone}::text as zone) z ${CELLS} where ${LISTED}
    group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 4, 5, 6, 7`;
}

function verdictsFromRows(zone: string): SQL {
  return sql`select ${sql.raw(CELL_KEY)}, v.group_id, v.criterion_id, ${verdictMeasures('1')} from ${activities} r cross join (select ${zone}::text as zone) z ${CELLS} ${VERDICTS} where ${LISTED}
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9 order by 1, 2, 3, 4, 5, 6, 7, 8, 9`;
}

/**
 * The check: every built zone's rollups (of `companyIds`, or of every company) recomputed from the
 * activities and compared, cell by cell (a cell whose counts are all 0 is the same as no cell).
 * Returns up to 20 differing cells per zone and table, as `zone: held ≠ recomputed`; none when the
 * rollups are exact.
 */
export async function dashboardRollupDifferences(db: Executor, companyIds?: readonly string[]): Promise<string[]> {
  const zones = await queryRows<{ zone: string }>(db, sql`select zone from ${dashboardZones} where built_at is not null order by zone`);
  const differences: string[] = [];
  const ofCompanies = companyIds ? sql`company_id = any(${sql.param([...companyIds])}::uuid[])` : sql`true`;
  const compare = async (zone: string, table: typeof dashboardTotals | typeof dashboardVerdicts, key: SQL, columns: readonly string[], recomputed: SQL) => {
    const held = sql`select * from ${table} where zone = ${zone} and ${ofCompanies} and (${sql.raw(columns.map((column) => `${column} <> 0`).join(' or '))})`;
    const differs = sql.raw(columns.map((column) => `h.${column} is distinct from c.${column}`).join(' or '));
    const rows = await queryRows<{ held: string | null; computed: string | null }>(
      db,
      sql`select case when h is null then null else row_to_json(h)::text end as held, case when c is null then null else row_to_json(c)::text end as computed
          from (${held}) h full join (select * from (${recomputed}) c where ${ofCompanies}) c using (${key}) where ${differs} limit 20`,
    );
    for (const row of rows) differences.push(`${zone}: ${row.held ?? '(none)'} ≠ ${row.computed ?? '(none)'}`);
  };
  for (const { zone } of zones) {
    await compare(zone, dashboardTotals, TOTALS_KEY, TOTALS_MEASURES, sql`select * from (${totalsFromRows(zone)}) as c(${TOTALS_KEY}, ${TOTALS_COLUMNS})`);
    await compare(zone, dashboardVerdicts, VERDICTS_KEY, VERDICTS_MEASURES, sql`select * from (${verdictsFromRows(zone)}) as c(${VERDICTS_KEY}, ${VERDICTS_COLUMNS})`);
  }
  return differences;
}
