/**
 * The dashboard's figures, summed per team or representative and per bucket from either source:
 * the rollups of the caller's zone (dashboard-rollups.ts) or the activity rows themselves, which
 * answer while a zone is being built and are what the rollups are checked against. Both sources
 * give the same relation — team, representative ('*' for the whole team), period, and the totals'
 * measures — so every figure is computed by the same query over either.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';
import { queryRows, queryRowsPrepared, type DatabaseHandle, type Executor } from '@parlance/platform/db/database';
import type { Counts, Verdicts } from '../domain/dashboard-figures.js';
import { coverOf, epochDay, type DayRange, type Spans } from '../domain/dashboard-request.js';
import { ROW_TOTALS, ROW_VERDICTS, TOTALS_MEASURES, VERDICTS_MEASURES } from './dashboard-rollups.js';
import { LISTED, VERDICTS } from './rollup-changes.js';
import { activities, dashboardTotals, dashboardVerdicts } from './schema.js';

export type FigureSource = 'rollups' | 'rows';
/** The service's connections: `preparedReads` for the rollups' reads, few shapes sent often. */
export type FigureReader = Pick<DatabaseHandle<Record<string, unknown>>, 'db' | 'preparedReads'>;
export type { TotalsColumn };

/** Which activities a figure counts. */
export interface FigureScope {
  companyId: string;
  kind: ActivityKindName;
  zone: string;
  /** null: every team. */
  teamIds: readonly string[] | null;
  /** null: everyone. */
  representatives: readonly string[] | null;
  /**
   * Instead of `representatives`, in a statement read team by team: each team's own, by team id
   * (a team not listed has none). Each team then looks up its few, not every team's.
   */
  representativesByTeam?: Readonly<Record<string, readonly string[]>>;
  range: DayRange;
}

/** Summed per team, or per representative (within their team) — `'*'` when per team. */
export type Level = 'team' | 'representative';

type TotalsColumn = (typeof TOTALS_MEASURES)[number];
type VerdictsColumn = (typeof VERDICTS_MEASURES)[number];
const summed = (columns: readonly string[]) => sql.raw(columns.map((column) => `sum(s.${column})::text as ${column}`).join(', '));

// Field by field: a list reads thousands of these rows, and a generic mapping costs microseconds each.
const totalsOf = (row: Record<string, unknown>): Counts => ({
  activities: Number(row.activities ?? 0),
  successful: Number(row.successful ?? 0),
  unsuccessful: Number(row.unsuccessful ?? 0),
  scored: Number(row.scored ?? 0),
  scoreSum: Number(row.score_sum ?? 0),
  scriptMatched: Number(row.script_matched ?? 0),
  scriptMatchSum: Number(row.script_match_sum ?? 0),
  timed: Number(row.timed ?? 0),
  durationSum: Number(row.duration_sum ?? 0),
});
const verdictsOf = (row: Record<string, unknown>): Verdicts => ({
  passed: Number(row.passed ?? 0),
  failed: Number(row.failed ?? 0),
  passedSuccessful: Number(row.passed_successful ?? 0),
  failedSuccessful: Number(row.failed_successful ?? 0),
  passedUnsuccessful: Number(row.passed_unsuccessful ?? 0),
  failedUnsuccessful: Number(row.failed_unsuccessful ?? 0),
});

/**
 * `1, 2, …` for the grouped columns. Rows come back in their order, so sums over them are added
 * in the same order whichever source they came from (floats) and lists are listed alike.
 */
const positions = (names: readonly string[]) => names.map((_, index) => index + 1).join(', ');

/** How rows are grouped: by team, representative, period bucket and, for verdicts, criterion. */
export interface Grouping {
  team?: boolean;
  representative?: boolean;
  /** A bucket of the period: the day, its Monday, or its month. */
  bucket?: 'day' | 'week' | 'month';
}

const BUCKETS = { day: 's.period', week: `date_trunc('week', s.period)::date`, month: `date_trunc('month', s.period)::date` } as const;

function groupColumns(grouping: Grouping, verdicts: boolean): { select: string[]; names: string[] } {
  const columns: [select: string, name: string][] = [];
  if (grouping.team) columns.push(['s.team_id', 'team_id']);
  if (grouping.representative) columns.push(['s.representative_email', 'representative_email']);
  if (grouping.bucket) columns.push([`to_char(${BUCKETS[grouping.bucket]}, 'YYYY-MM-DD') as bucket`, 'bucket']);
  if (verdicts) columns.push(['s.group_id', 'group_id'], ['s.criterion_id', 'criterion_id']);
  return { select: columns.map(([select]) => select), names: columns.map(([, name]) => name) };
}

export interface GroupedTotals extends Counts {
  teamId: string;
  representativeEmail: string;
  bucket: string;
}

export interface GroupedVerdicts extends Verdicts {
  teamId: string;
  representativeEmail: string;
  bucket: string;
  groupId: string;
  criterionId: string;
}

/**
 * The scope's totals, summed per `grouping`, at `level`, from `source`: every measure, or only
 * those named (and `activities`, always) — a chart of one metric sums two columns, not nine. The
 * others read 0.
 */
export async function groupedTotals(
  database: FigureReader,
  source: FigureSource,
  scope: FigureScope,
  level: Level,
  spans: Spans,
  grouping: Grouping,
  measures: readonly TotalsColumn[] = TOTALS_MEASURES,
): Promise<GroupedTotals[]> {
  const columns = TOTALS_MEASURES.filter((column) => column === 'activities' || measures.includes(column));
  // A team's day cells are one row per team and day already: read as they are, not summed again.
  if (source === 'rollups' && scope.teamIds && level === 'team' && spans === 'days' && grouping.team && grouping.bucket === 'day' && !grouping.representative) {
    return storedTeamDays(database, { ...scope, teamIds: scope.teamIds }, columns);
  }
  const { select, names } = groupColumns(grouping, false);
  const relation = relationOf(source, scope, level, spans, false);
  const rows = await readRows<Record<string, unknown>>(
    database,
    source,
    sql`select ${sql.raw([...select, ''].join(', '))} ${summed(columns)} from (${relation}) s ${names.length > 0 ? sql.raw(`group by ${positions(names)} order by ${positions(names)}`) : sql``}`,
  );
  return rows
    .filter((row) => Number(row.activities ?? 0) !== 0)
    .map((row) => ({ teamId: String(row.team_id ?? ''), representativeEmail: String(row.representative_email ?? ''), bucket: String(row.bucket ?? ''), ...totalsOf(row) }));
}

/** Where each measure sits among a cell's values, after its key (0: not read, so 0): a property each, read thousands of times a request. */
type MeasurePlaces = Readonly<Record<keyof Counts, number>>;

/** The places of `columns`' measures, the first at 1. */
function placesOf(columns: readonly TotalsColumn[]): MeasurePlaces {
  const placeOf = (column: TotalsColumn) => columns.indexOf(column) + 1;
  return {
    activities: placeOf('activities'),
    successful: placeOf('successful'),
    unsuccessful: placeOf('unsuccessful'),
    scored: placeOf('scored'),
    scoreSum: placeOf('score_sum'),
    scriptMatched: placeOf('script_matched'),
    scriptMatchSum: placeOf('script_match_sum'),
    timed: placeOf('timed'),
    durationSum: placeOf('duration_sum'),
  };
}

/** The measure at `place` of the cell whose key is at `at` (place 0: not read, 0). */
const measureAt = (values: readonly unknown[], at: number, place: number): number => (place === 0 ? 0 : (values[at + place] as number));

/**
 * Each team's day cells as stored, team by team (read along the key, in day order, with no sort),
 * as one flat JSON array of numbers per team: each day as its number since 1970-01-01, then
 * `columns`. A quarter of ten teams is 920 cells; a row each, or dates formatted by PostgreSQL,
 * cost more than drawing the chart from them.
 */
async function storedTeamDays(database: FigureReader, scope: FigureScope & { teamIds: readonly string[] }, columns: readonly TotalsColumn[]): Promise<GroupedTotals[]> {
  const cells = sql.raw(`concat_ws(',', s.period - date '1970-01-01', ${columns.map((column) => `s.${column}`).join(', ')})`);
  const rows = await readRows<{ team_id: string; days: string | null }>(
    database,
    'rollups',
    sql`select t.team_id, (select '[' || string_agg(${cells}, ',' order by s.period) || ']' from (${rollupRelation(scope, 'team', 'days', false, sql`t.team_id`)}) s) as days
        from (select distinct unnest(${textArray(scope.teamIds)})) t(team_id) order by 1`,
  );
  const stride = columns.length + 1;
  const place = placesOf(columns);
  // Field by field, into one shape.
  const cellOf = (teamId: string, bucket: string, values: readonly number[], at: number): GroupedTotals => ({
    teamId,
    representativeEmail: '',
    bucket,
    activities: measureAt(values, at, place.activities),
    successful: measureAt(values, at, place.successful),
    unsuccessful: measureAt(values, at, place.unsuccessful),
    scored: measureAt(values, at, place.scored),
    scoreSum: measureAt(values, at, place.scoreSum),
    scriptMatched: measureAt(values, at, place.scriptMatched),
    scriptMatchSum: measureAt(values, at, place.scriptMatchSum),
    timed: measureAt(values, at, place.timed),
    durationSum: measureAt(values, at, place.durationSum),
  });
  // Ten teams share the same days: each is named once.
  const dayNames = new Map<number, string>();
  const totals: GroupedTotals[] = [];
  for (const { team_id: teamId, days } of rows) {
    // null: no cells in the range.
    if (days === null) continue;
    const values = JSON.parse(days) as number[];
    for (let at = 0; at < values.length; at += stride) {
      if (values[at + place.activities] === 0) continue;
      let bucket = dayNames.get(values[at]!);
      if (bucket === undefined) dayNames.set(values[at]!, (bucket = epochDay(values[at]!)));
      totals.push(cellOf(teamId, bucket, values, at));
    }
  }
  return totals;
}

/** The scope's verdicts per criterion (and `grouping`), at `level`, from `source`: every count, or only those named (and passed and failed, always). */
export async function groupedVerdicts(
  database: FigureReader,
  source: FigureSource,
  scope: FigureScope,
  level: Level,
  spans: Spans,
  grouping: Grouping,
  measures: readonly VerdictsColumn[] = VERDICTS_MEASURES,
): Promise<GroupedVerdicts[]> {
  const { select, names } = groupColumns(grouping, true);
  const columns = VERDICTS_MEASURES.filter((column) => column === 'passed' || column === 'failed' || measures.includes(column));
  const relation = relationOf(source, scope, level, spans, true);
  const rows = await readRows<Record<string, unknown>>(
    database,
    source,
    sql`select ${sql.raw(select.join(', '))}, ${summed(columns)} from (${relation}) s group by ${sql.raw(positions(names))} order by ${sql.raw(positions(names))}`,
  );
  return rows
    .filter((row) => Number(row.passed ?? 0) + Number(row.failed ?? 0) !== 0)
    .map((row) => ({
      teamId: String(row.team_id ?? ''),
      representativeEmail: String(row.representative_email ?? ''),
      bucket: String(row.bucket ?? ''),
      groupId: String(row.group_id),
      criterionId: String(row.criterion_id),
      ...verdictsOf(row),
    }));
}

/** A team's criterion, as the caller knows it. */
export interface KnownCriterion {
  teamId: string;
  groupId: string;
  criterionId: string;
}

/**
 * A representative's verdicts per criterion over the scope, flat and in no particular order: a
 * criterion the caller named comes as its position in the caller's list, then passed and failed;
 * any other (one no longer in its team) as its groupId and criterionId, then passed and failed.
 * One array of numbers per representative, not an array and two ids per criterion: a
 * recommendation reads thousands, and their allocation and lookups cost more than the rest.
 */
export type CriterionTallies = readonly (string | number)[];

/** Calls `each` with every criterion of `tallies`, and the caller's own entry for it where `known` names it. */
export function forEachTally<K extends KnownCriterion>(
  tallies: CriterionTallies,
  known: readonly K[],
  each: (criterion: K | undefined, groupId: string, criterionId: string, passed: number, failed: number) => void,
): void {
  for (let at = 0; at < tallies.length; ) {
    const first = tallies[at]!;
    if (typeof first === 'number') {
      const criterion = known[first]!;
      each(criterion, criterion.groupId, criterion.criterionId, tallies[at + 1] as number, tallies[at + 2] as number);
      at += 3;
    } else {
      each(undefined, first, tallies[at + 1] as string, tallies[at + 2] as number, tallies[at + 3] as number);
      at += 4;
    }
  }
}

/** A representative's totals and verdicts in a team over the scope; `'*'`: the whole team's totals (no criteria). */
export interface MemberFigures extends Counts {
  teamId: string;
  representativeEmail: string;
  criteria: CriterionTallies;
}

/** A text expression as a JSON string, escaped by PostgreSQL (analytics keeps whatever ids and e-mails it is sent). */
const jsonText = (text: string) => `to_json(${text})::text`;

/**
 * What a filter group's recommendations read, in one statement: each representative's totals
 * (`measures`, and `activities`) and verdicts per criterion over the scope, team by team, and
 * with `wholeTeams` each team's totals too. A representative's criteria come as one flat JSON
 * array (`CriterionTallies`, naming the criteria of `known` by position), written by
 * concatenation: PostgreSQL's JSON builders cost a third more. Counted team by team, so that the
 * rollups are read along their key, already in the order the sums need, instead of every team's
 * cells being sorted together.
 */
export async function memberFigures(
  database: FigureReader,
  source: FigureSource,
  scope: FigureScope & { teamIds: readonly string[] },
  wholeTeams: boolean,
  measures: readonly TotalsColumn[],
  known: readonly KnownCriterion[],
): Promise<MemberFigures[]> {
  const team = sql`t.team_id`;
  const columns = TOTALS_MEASURES.filter((column) => column === 'activities' || measures.includes(column));
  const members = relationOf(source, scope, 'representative', 'quarters', false, team);
  const totals = wholeTeams ? sql`${members} union all ${relationOf(source, scope, 'team', 'quarters', false, team)}` : members;
  const verdicts = relationOf(source, scope, 'representative', 'quarters', true, team);
  // A range the rollups hold as one cell per key (a whole quarter, month or day) has nothing to
  // sum, and summing still cost a quarter of the statement.
  const single = oneCell(source, scope.range);
  const memberTotals = single
    ? sql`select s.representative_email, ${sql.raw(columns.map((column) => `s.${column}::text as ${column}`).join(', '))} from (${totals}) s`
    : sql`select s.representative_email, ${summed(columns)} from (${totals}) s group by 1`;
  const memberVerdicts = single
    ? verdicts
    : sql`select s.representative_email, s.group_id, s.criterion_id, sum(s.passed) as passed, sum(s.failed) as failed from (${verdicts}) s group by 1, 2, 3`;
  // Positions by team, group and criterion: PostgreSQL finds one in a jsonb object per cell, where
  // a join to a list of them was planned as a scan of the list for every cell.
  const positions: Record<string, Record<string, Record<string, number>>> = {};
  known.forEach(({ teamId, groupId, criterionId }, position) => (((positions[teamId] ??= {})[groupId] ??= {})[criterionId] = position));
  const criterion = sql.raw(`coalesce(k.known -> c.group_id ->> c.criterion_id, ${jsonText('c.group_id')} || ',' || ${jsonText('c.criterion_id')})`);
  const rows = await readRows<Record<string, unknown>>(
    database,
    source,
    sql`select t.team_id, f.members
        from unnest(${textArray(scope.teamIds)}) t(team_id)
        -- The team's criteria, found once for all its cells ('offset 0' keeps it from being inlined into each).
        cross join lateral (select ${JSON.stringify(positions)}::jsonb -> t.team_id as known offset 0) k
        cross join lateral (
          select '[' || string_agg(${sql.raw(
            `'[' || ${jsonText('coalesce(a.representative_email, v.representative_email)')} || ',' || ${columns.map((column) => `coalesce(a.${column}, '0')`).join(` || ',' || `)} || ',' || coalesce(v.criteria, '[]') || ']'`,
          )}, ',') || ']' as members
          from (${memberTotals}) a
          full join (
            select c.representative_email, '[' || string_agg(${criterion} || ',' || c.passed || ',' || c.failed, ',') || ']' as criteria
            from (${memberVerdicts}) c
            where c.passed + c.failed <> 0
            group by 1) v
          on v.representative_email = a.representative_email) f`,
  );
  // A team's representatives come as one JSON array, each as their e-mail, the totals in `columns`
  // order and the criteria: one field for the driver to read a team, not one row per representative.
  const place = placesOf(columns);
  const figures: MemberFigures[] = [];
  for (const { team_id: teamId, members } of rows) {
    // null: no figures in the team.
    if (members === null) continue;
    for (const values of JSON.parse(members as string) as unknown[][]) figures.push(memberFiguresOf(String(teamId), values, place, columns.length + 1));
  }
  return figures;
}

/** A representative's figures from their values: the e-mail first, each measure at its `place`, the tallies at `tallies`. */
function memberFiguresOf(teamId: string, values: readonly unknown[], place: MeasurePlaces, tallies: number): MemberFigures {
  // Field by field, into one shape: a recommendation builds hundreds.
  return {
    teamId,
    representativeEmail: values[0] as string,
    activities: measureAt(values, 0, place.activities),
    successful: measureAt(values, 0, place.successful),
    unsuccessful: measureAt(values, 0, place.unsuccessful),
    scored: measureAt(values, 0, place.scored),
    scoreSum: measureAt(values, 0, place.scoreSum),
    scriptMatched: measureAt(values, 0, place.scriptMatched),
    scriptMatchSum: measureAt(values, 0, place.scriptMatchSum),
    timed: measureAt(values, 0, place.timed),
    durationSum: measureAt(values, 0, place.durationSum),
    criteria: values[tallies] as CriterionTallies,
  };
}

/** Whether the rollups cover `range` with one cell per key: a whole quarter, month or single day. */
function oneCell(source: FigureSource, range: DayRange): boolean {
  const cover = coverOf(range, 'quarters');
  return source === 'rollups' && cover.length === 1 && cover[0]!.from !== null && cover[0]!.from === cover[0]!.to;
}

/**
 * Rows of a figure's query. The rollups' are prepared and planned once per connection (their
 * planning cost as much as running them); the rows' are planned for their values, a range of
 * days deciding how to read a million activities.
 */
function readRows<T extends Record<string, unknown>>(database: FigureReader, source: FigureSource, query: SQL): Promise<T[]> {
  return source === 'rollups' ? queryRowsPrepared<T>(database.preparedReads, query) : queryRows<T>(database.db, query);
}

const textArray = (values: readonly string[]) => sql`${sql.param([...values])}::text[]`;

/** The representatives a relation keeps, as an array: the team's own (`team`, a column) when the scope lists them by team. */
function representativesIn(scope: FigureScope, team: SQL | undefined): SQL | null {
  if (scope.representativesByTeam && team) return sql`array(select jsonb_array_elements_text(${JSON.stringify(scope.representativesByTeam)}::jsonb -> ${team}))`;
  return scope.representatives ? textArray(scope.representatives) : null;
}

/**
 * The relation every figure is summed from: the totals' (or, `verdicts`, the verdicts') cells of
 * the scope, from `source`; of the one team `team` names (a column of an outer query), if given.
 */
function relationOf(source: FigureSource, scope: FigureScope, level: Level, spans: Spans, verdicts: boolean, team?: SQL): SQL {
  return source === 'rollups' ? rollupRelation(scope, level, spans, verdicts, team) : rowRelation(scope, level, verdicts, team);
}

function rollupRelation(scope: FigureScope, level: Level, spans: Spans, verdicts: boolean, team: SQL | undefined): SQL {
  const table = verdicts ? dashboardVerdicts : dashboardTotals;
  const conditions: SQL[] = [sql`company_id = ${scope.companyId}`, sql`zone = ${scope.zone}`, sql`kind = ${scope.kind}`];
  if (team) conditions.push(sql`team_id = ${team}`);
  else if (scope.teamIds) conditions.push(sql`team_id = any(${textArray(scope.teamIds)})`);
  const representatives = level === 'team' ? null : representativesIn(scope, team);
  if (level === 'team') conditions.push(sql`representative_email = '*'`);
  else if (representatives) conditions.push(sql`representative_email = any(${representatives})`);
  else conditions.push(sql`representative_email <> '*'`);
  conditions.push(periodCondition(scope.range, spans));
  const columns = verdicts ? ['team_id', 'representative_email', 'period', 'group_id', 'criterion_id', ...VERDICTS_MEASURES] : ['team_id', 'representative_email', 'period', ...TOTALS_MEASURES];
  return sql`select ${sql.raw(columns.join(', '))} from ${table} where ${sql.join(conditions, sql` and `)}`;
}

function periodCondition(range: DayRange, spans: Spans): SQL {
  // One period is said as such: the planner then knows the cells come in key order after it.
  const between = (from: string | null, to: string | null) =>
    from !== null && from === to ? [sql`period = ${from}::date`] : [from === null ? undefined : sql`period >= ${from}::date`, to === null ? undefined : sql`period <= ${to}::date`];
  const conditions = coverOf(range, spans).map(({ span, from, to }) => {
    const condition = [sql`span = ${span}`, ...between(from, to)].filter((part) => part !== undefined);
    return sql`(${sql.join(condition, sql` and `)})`;
  });
  return conditions.length === 0 ? sql`false` : sql`(${sql.join(conditions, sql` or `)})`;
}

/** The same relation as the rollups', counted from the activity rows (per local day). */
function rowRelation(scope: FigureScope, level: Level, verdicts: boolean, team: SQL | undefined): SQL {
  const conditions: SQL[] = [sql`r.company_id = ${scope.companyId}`, sql`r.kind = ${scope.kind}`, LISTED];
  if (team) conditions.push(sql`r.team_id = ${team}`);
  else if (scope.teamIds) conditions.push(sql`r.team_id = any(${textArray(scope.teamIds)})`);
  const representatives = level === 'representative' ? representativesIn(scope, team) : null;
  if (representatives) conditions.push(sql`r.representative_email = any(${representatives})`);
  conditions.push(...occurredWithin(scope));
  const representative = level === 'team' ? sql.raw(`'*'::text`) : sql.raw('r.representative_email');
  const day = sql`(r.occurred_at at time zone ${scope.zone})::date`;
  if (verdicts) {
    return sql`select r.team_id, ${representative} as representative_email, ${day} as period, v.group_id, v.criterion_id, ${ROW_VERDICTS}
      from ${activities} r ${VERDICTS} where ${sql.join(conditions, sql` and `)} group by 1, 2, 3, 4, 5`;
  }
  return sql`select r.team_id, ${representative} as representative_email, ${day} as period, ${ROW_TOTALS}
    from ${activities} r where ${sql.join(conditions, sql` and `)} group by 1, 2, 3`;
}

/** The rows `r` that occurred on the days of the range, in its zone (from the first day's midnight to the midnight after the last). */
function occurredWithin({ range, zone }: Pick<FigureScope, 'range' | 'zone'>): SQL[] {
  return [
    range.from === null ? undefined : sql`r.occurred_at >= (${range.from}::date::timestamp at time zone ${zone})`,
    range.to === null ? undefined : sql`r.occurred_at < ((${range.to}::date + 1)::timestamp at time zone ${zone})`,
  ].filter((condition) => condition !== undefined);
}

/** The newest activities of a representative that failed a criterion in the range, newest first. */
export async function failedActivityIds(
  db: Executor,
  scope: Omit<FigureScope, 'teamIds' | 'representatives'> & { teamId: string; representative: string },
  criterion: { groupId: string; criterionId: string },
  limit: number,
): Promise<string[]> {
  const verdict = JSON.stringify([{ groupId: criterion.groupId, criterionId: criterion.criterionId, passed: false }]);
  const conditions: SQL[] = [
    sql`r.company_id = ${scope.companyId}`,
    sql`r.kind = ${scope.kind}`,
    LISTED,
    sql`r.team_id = ${scope.teamId}`,
    sql`r.representative_email = ${scope.representative}`,
    sql`r.failed_criteria @> array[${criterion.criterionId}]::text[]`,
    sql`r.results @> ${verdict}::jsonb`,
  ];
  conditions.push(...occurredWithin(scope));
  const rows = await queryRows<{ id: string }>(db, sql`select r.id from ${activities} r where ${sql.join(conditions, sql` and `)} order by r.occurred_at desc, r.id desc limit ${limit}`);
  return rows.map((row) => row.id);
}
