/**
 * What the rollups (the lists', activity-rollups.ts; the dashboard's, dashboard-rollups.ts) are
 * counted from: an activity row's columns that cells and measures depend on, the rows a write
 * replaced and wrote as a relation `r` with a `delta` (−1, +1), and the SQL that says which rows
 * count and which verdicts they carry. Both rollups read the same relation, so they can never
 * disagree about a row.
 */
import { sql, type SQL } from 'drizzle-orm';
import { jsonValue } from './jsonb-recordset.js';
import type { Executor } from '@parlance/platform/db/database';
import { activities } from './schema.js';

type ActivityRecord = typeof activities.$inferSelect;
type ActivityRow = typeof activities.$inferInsert;

/** A write's change of one activity: the row it replaced (none for a new activity) and the row it wrote. */
export interface ActivityChange {
  before: ActivityRecord | ActivityRow | undefined;
  after: ActivityRow;
}

/** Every column any rollup counts by. */
export const SOURCE_COLUMNS = [
  'companyId',
  'kind',
  'teamId',
  'representativeEmail',
  'occurredAt',
  'isSuccessful',
  'score',
  'scriptMatch',
  'evaluatedAt',
  'durationSeconds',
  'deletedAt',
  'results',
  'criteriaNeedingReview',
] as const;
export type SourceColumn = (typeof SOURCE_COLUMNS)[number];
type Source = Pick<ActivityRecord, SourceColumn>;

const SOURCE_DEFINITIONS = sql.raw(
  `company_id uuid, kind text, team_id text, representative_email text, occurred_at timestamptz, is_successful boolean, score double precision,
   script_match double precision, evaluated_at timestamptz, duration_seconds integer, deleted_at timestamptz, results jsonb, criteria_needing_review integer,
   delta integer`,
);

/** Whether a row `r` is listed at all: received (so it has a kind, team and time) and not deleted. */
export const LISTED = sql.raw(`r.kind is not null and r.occurred_at is not null and r.deleted_at is null`);

/** Holds writes of activities off until `tx` ends (reads go on), so that no write moves a rollup while it is being built. */
export async function holdActivityWrites(tx: Executor): Promise<void> {
  await tx.execute(sql`lock table ${activities} in share row exclusive mode`);
}

/** One row `v` per distinct verdict of the row `r`'s results (a criterion counts once per group and outcome). */
export const VERDICTS = sql.raw(`cross join lateral (select distinct v."groupId" as group_id, v."criterionId" as criterion_id, v.passed
  from jsonb_to_recordset(r.results) as v("groupId" text, "criterionId" text, passed boolean)
  where v."groupId" is not null and v."criterionId" is not null and v.passed is not null) v`);

/**
 * `r as (…)`: the rows the changes took away (delta −1) and added (+1), leaving out changes that
 * leave every one of `columns` as it was; undefined when none is left. `verdicts` says whether any
 * row carries results (a receipt carries none: most writes move counts only).
 */
export function changedRows(changes: readonly ActivityChange[], columns: readonly SourceColumn[]): { rows: SQL; verdicts: boolean } | undefined {
  const sources: (ReturnType<typeof sourceJson> & { delta: number })[] = [];
  for (const { before, after } of changes) {
    const added = sourceOf(after);
    if (before) {
      const taken = sourceOf(before);
      if (columns.every((column) => sameValue(taken[column], added[column]))) continue;
      sources.push({ ...sourceJson(taken), delta: -1 });
    }
    sources.push({ ...sourceJson(added), delta: 1 });
  }
  if (sources.length === 0) return undefined;
  return {
    rows: sql`r as (select * from jsonb_to_recordset(${JSON.stringify(sources)}::jsonb) as r(${SOURCE_DEFINITIONS}))`,
    verdicts: sources.some((source) => source.results.length > 0),
  };
}

function sourceOf(row: ActivityRecord | ActivityRow): Source {
  return {
    companyId: row.companyId,
    kind: row.kind ?? null,
    teamId: row.teamId ?? '',
    representativeEmail: row.representativeEmail ?? '',
    occurredAt: row.occurredAt ?? null,
    isSuccessful: row.isSuccessful ?? null,
    score: row.score ?? null,
    scriptMatch: row.scriptMatch ?? null,
    evaluatedAt: row.evaluatedAt ?? null,
    durationSeconds: row.durationSeconds ?? 0,
    deletedAt: row.deletedAt ?? null,
    results: row.results ?? [],
    criteriaNeedingReview: row.criteriaNeedingReview ?? 0,
  };
}

function sourceJson(source: Source) {
  return {
    company_id: source.companyId,
    kind: source.kind,
    team_id: source.teamId,
    representative_email: source.representativeEmail,
    occurred_at: source.occurredAt,
    is_successful: source.isSuccessful,
    score: jsonValue(source.score),
    script_match: jsonValue(source.scriptMatch),
    evaluated_at: source.evaluatedAt,
    duration_seconds: source.durationSeconds,
    deleted_at: source.deletedAt,
    results: source.results,
    criteria_needing_review: source.criteriaNeedingReview,
  };
}

function sameValue(x: unknown, y: unknown): boolean {
  if (x instanceof Date || y instanceof Date) return x instanceof Date && y instanceof Date && x.getTime() === y.getTime();
  if (Array.isArray(x) || Array.isArray(y)) return JSON.stringify(x) === JSON.stringify(y);
  return x === y;
}
