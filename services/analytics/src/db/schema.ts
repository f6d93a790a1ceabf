import { sql } from 'drizzle-orm';
import { bigint, boolean, date, doublePrecision, index, integer, jsonb, numeric, pgSchema, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@parlance/platform/outbox/tables';
import { probeTable } from '@parlance/platform/probe/probe-tables';
import type { Improvement } from '@parlance/proto/parlance/scoring/v1/evaluation';
import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';
import type { CriterionResult, MediaName } from '../domain/activity-state.js';
import type { TeamCriterion, TeamMemberState } from '../domain/team-state.js';
import type { Span } from '../domain/dashboard-request.js';

/** Everything analytics stores lives in its own Postgres schema; no other service reads it. */
export const analyticsSchema = pgSchema('analytics');

export const outbox = outboxTable(analyticsSchema);
export const inbox = inboxTable(analyticsSchema);
export const probes = probeTable(analyticsSchema);

/**
 * The calls and meetings the lists show, one row per activity, written only through
 * `mergeActivityFact` (domain/activity-state.ts). A part is present when its time is set
 * (`received_at`, `transcribed_at`, `evaluated_at`); until then its columns hold null or empty
 * values. A deleted activity is a tombstone — only its key and
 * `deleted_at` — until housekeeping forgets it.
 *
 * The list indexes leave tombstones out (`deleted_at is null`, which every list query states), so
 * a count can be answered from an index alone.
 */
export const activities = analyticsSchema.table(
  'activities',
  {
    companyId: uuid('company_id').notNull(),
    id: uuid('id').notNull(),
    // received
    receivedAt: timestamp('received_at', { withTimezone: true }),
    kind: text('kind').$type<ActivityKindName>(),
    teamId: text('team_id').notNull().default(''),
    occurredAt: timestamp('occurred_at', { withTimezone: true }),
    representativeEmail: text('representative_email').notNull().default(''),
    representativeName: text('representative_name').notNull().default(''),
    contactId: text('contact_id').notNull().default(''),
    contactName: text('contact_name').notNull().default(''),
    contactCompany: text('contact_company').notNull().default(''),
    contactRole: text('contact_role').notNull().default(''),
    link: text('link').notNull().default(''),
    title: text('title').notNull().default(''),
    fileName: text('file_name').notNull().default(''),
    media: text('media').$type<MediaName>(),
    // transcribed
    transcribedAt: timestamp('transcribed_at', { withTimezone: true }),
    transcriptDurationSeconds: integer('transcript_duration_seconds').notNull().default(0),
    transcript: text('transcript').notNull().default(''),
    // evaluated
    evaluatedAt: timestamp('evaluated_at', { withTimezone: true }),
    score: doublePrecision('score'),
    scriptMatch: doublePrecision('script_match'),
    isSuccessful: boolean('is_successful'),
    results: jsonb('results').$type<CriterionResult[]>().notNull().default([]),
    /** Criterion ids of the passed and failed results, for GIN-indexed criterion filters. */
    passedCriteria: text('passed_criteria').array().notNull().default([]),
    failedCriteria: text('failed_criteria').array().notNull().default([]),
    summary: text('summary').notNull().default(''),
    improvements: jsonb('improvements').$type<Improvement[]>().notNull().default([]),
    evaluationDurationSeconds: integer('evaluation_duration_seconds').notNull().default(0),
    /**
     * How many verdicts need review (scoring's CriterionVerdict.needs_review), as the summary counts
     * them; 0 until scored, and for activities scored before analytics kept it (migration 0008).
     * No index of its own: see `activityDayCounts.needingReview`.
     */
    criteriaNeedingReview: integer('criteria_needing_review').notNull().default(0),
    // marks
    failedAt: timestamp('failed_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Derived from the parts (`activityDurationSeconds`); 0 while unknown. */
    durationSeconds: integer('duration_seconds').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.companyId, table.id] }),
    // Newest first as the lists order (`desc` is Postgres' `desc nulls first`), by team or across teams.
    index('activities_team_list_idx')
      .on(table.companyId, table.kind, table.teamId, table.occurredAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`deleted_at is null`),
    index('activities_list_idx')
      .on(table.companyId, table.kind, table.occurredAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`deleted_at is null`),
    // Counts a page's total without the heap: few distinct keys, so Postgres stores it deduplicated and small.
    index('activities_count_idx').on(table.companyId, table.kind, table.teamId).where(sql`deleted_at is null`),
    index('activities_passed_criteria_idx').using('gin', table.passedCriteria),
    index('activities_failed_criteria_idx').using('gin', table.failedCriteria),
    index('activities_contact_idx').on(table.companyId, table.contactId),
    index('activities_representative_idx').on(table.companyId, table.representativeEmail),
    index('activities_tombstones_idx').on(table.deletedAt).where(sql`deleted_at is not null`),
  ],
);

/**
 * How many listed activities (received, not deleted) each team has per day, by success and score,
 * so that a list's total and the day its page starts on are read from ~a row per day instead of
 * counted over every activity (activity-rollups.ts). Maintained in the transaction that writes the
 * activity, from the activity's row before and after; rebuilt from the activities when
 * `activity_rollups` says it has not been built yet.
 *
 * `day` is the UTC date of `occurred_at`. `success`: 1 successful, 0 not, -1 unknown. A scored
 * activity's `score_bucket` is 2 × its score when that is a whole number and 2 × floor + 1 when it
 * lies between two, so a comparison with a whole number (≥ 7, ≤ 7, = 7) picks whole buckets.
 */
export const activityDayCounts = analyticsSchema.table(
  'activity_day_counts',
  {
    companyId: uuid('company_id').notNull(),
    kind: text('kind').$type<ActivityKindName>().notNull(),
    teamId: text('team_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    success: smallint('success').notNull(),
    scored: boolean('scored').notNull(),
    scoreBucket: integer('score_bucket').notNull(),
    activities: integer('activities').notNull(),
    /**
     * Of `activities`, those with a criterion that needs review: the "Needs review" filter's total
     * and page days are read from here (a measure, not a key, so no cell more to read or write).
     *
     * Why no index on activities.criteria_needing_review (not even a partial one, `> 0`):
     * - The list finds the days its page lies in from this measure, then reads only those days' rows
     *   on the list indexes, testing the count on each: it never looks for such rows across all time.
     *   At 200,000 calls with one in nine to review (bench/activities-list.bench.ts, needs_review),
     *   a team's quarter cost 1.4 ms one request at a time, as its filtered list does (1.5 ms); its
     *   50th page read 118 rows for its 10.
     * - Such an index would not be small: on real conversations the offline engine leaves most
     *   verdicts below the review threshold (make eval), so nearly every scored activity with several
     *   criteria has one, and `where criteria_needing_review > 0` would hold nearly every row, written
     *   with each.
     * - Lists the rollups cannot answer (ids, contacts, representatives, a duration or script match)
     *   count rows as before, the review count one more test on rows other filters found.
     */
    needingReview: integer('needing_review').notNull().default(0),
  },
  (table) => [primaryKey({ name: 'activity_day_counts_pk', columns: [table.companyId, table.kind, table.teamId, table.day, table.success, table.scored, table.scoreBucket] })],
);

/** The same per day and team for each criterion's verdicts: how many listed activities passed or failed it in that group. */
export const activityDayVerdicts = analyticsSchema.table(
  'activity_day_verdicts',
  {
    companyId: uuid('company_id').notNull(),
    kind: text('kind').$type<ActivityKindName>().notNull(),
    teamId: text('team_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    groupId: text('group_id').notNull(),
    criterionId: text('criterion_id').notNull(),
    passed: boolean('passed').notNull(),
    activities: integer('activities').notNull(),
    /** Of `activities`, those with a criterion (any) that needs review, as in activity_day_counts. */
    needingReview: integer('needing_review').notNull().default(0),
  },
  (table) => [primaryKey({ name: 'activity_day_verdicts_pk', columns: [table.companyId, table.kind, table.teamId, table.groupId, table.criterionId, table.passed, table.day] })],
);

/** One row once the rollups above have been built from every activity; until then the lists count rows. */
export const activityRollups = analyticsSchema.table('activity_rollups', {
  builtAt: timestamp('built_at', { withTimezone: true }).primaryKey(),
});

/**
 * Every team as `identity.team-changed.v1` last said (a higher version replaces a lower one), so
 * that a list filtered by department knows the department's teams, and the dashboard its members'
 * names and daily targets and its criteria's names. Deleted teams stay, marked.
 */
export const teams = analyticsSchema.table(
  'teams',
  {
    companyId: uuid('company_id').notNull(),
    teamId: text('team_id').notNull(),
    name: text('name').notNull(),
    department: text('department').notNull(),
    deleted: boolean('deleted').notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
    members: jsonb('members').$type<TeamMemberState[]>().notNull().default([]),
    criteria: jsonb('criteria').$type<TeamCriterion[]>().notNull().default([]),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.teamId] })],
);

/**
 * The time zones the dashboard's rollups are kept in: a zone is added, and its rollups built from
 * every activity, the first time someone asks in it (dashboard-rollups.ts); from then on every
 * write of an activity moves the rollups of every zone here. `built_at` is null while the build
 * runs: writes move the zone's cells already, requests do not read them yet.
 */
export const dashboardZones = analyticsSchema.table('dashboard_zones', {
  zone: text('zone').primaryKey(),
  builtAt: timestamp('built_at', { withTimezone: true }),
});

/** Where a dashboard cell counts: company, zone, kind, span, team, representative and period. */
const cellKey = () => ({
  companyId: uuid('company_id').notNull(),
  zone: text('zone').notNull(),
  kind: text('kind').$type<ActivityKindName>().notNull(),
  span: text('span').$type<Span>().notNull(),
  teamId: text('team_id').notNull(),
  representativeEmail: text('representative_email').notNull(),
  period: date('period', { mode: 'string' }).notNull(),
});

/** The columns of a dashboard totals cell: its key and its measures. */
const totalsCells = () => ({
  ...cellKey(),
  activities: integer('activities').notNull(),
  successful: integer('successful').notNull(),
  unsuccessful: integer('unsuccessful').notNull(),
  scored: integer('scored').notNull(),
  scoreSum: numeric('score_sum').notNull(),
  scriptMatched: integer('script_matched').notNull(),
  scriptMatchSum: numeric('script_match_sum').notNull(),
  timed: integer('timed').notNull(),
  durationSum: bigint('duration_sum', { mode: 'number' }).notNull(),
});

/** The columns of a dashboard verdicts cell. */
const verdictsCells = () => ({
  ...cellKey(),
  groupId: text('group_id').notNull(),
  criterionId: text('criterion_id').notNull(),
  passed: integer('passed').notNull(),
  failed: integer('failed').notNull(),
  passedSuccessful: integer('passed_successful').notNull(),
  failedSuccessful: integer('failed_successful').notNull(),
  passedUnsuccessful: integer('passed_unsuccessful').notNull(),
  failedUnsuccessful: integer('failed_unsuccessful').notNull(),
});

/**
 * The dashboard's daily, monthly and quarterly totals per team and representative, in each zone of
 * dashboard_zones: `span` 'd' holds a local day (`period` is the day), 'm' a local month and 'q' a
 * local quarter (`period` is its first day). Extended statistics on (span, period), which drizzle
 * cannot declare, are made by migration 0005. `representative_email` '*' holds the whole team.
 * Only listed activities (received, not deleted) count. Sums of scores and script matches are
 * numeric, so that adding and taking away the same values always comes back to the same sum.
 */
export const dashboardTotals = analyticsSchema.table(
  'dashboard_totals',
  totalsCells(),
  (table) => [
    primaryKey({
      name: 'dashboard_totals_pk',
      columns: [table.companyId, table.zone, table.kind, table.span, table.teamId, table.representativeEmail, table.period],
    }),
    // A representative across teams (representative mode, coaching).
    index('dashboard_totals_representative_idx').on(table.companyId, table.zone, table.kind, table.span, table.representativeEmail, table.period),
  ],
);

/**
 * The same per criterion: how many listed activities passed or failed it, of all, of the
 * successful and of the unsuccessful ones (the 'Criteria Success Rate in' selector, §2.10).
 */
export const dashboardVerdicts = analyticsSchema.table(
  'dashboard_verdicts',
  verdictsCells(),
  (table) => [
    primaryKey({
      name: 'dashboard_verdicts_pk',
      columns: [table.companyId, table.zone, table.kind, table.span, table.teamId, table.representativeEmail, table.period, table.groupId, table.criterionId],
    }),
    index('dashboard_verdicts_representative_idx').on(table.companyId, table.zone, table.kind, table.span, table.representativeEmail, table.period),
  ],
);

/**
 * A zone's cells as its build counts them from the rows written before the zone was listed, until
 * they are added to the zone's (dashboard-rollups.ts). Kept apart, so that the cells' tables do not
 * fill with a million rows written once and deleted (reads were a third slower after a build that
 * staged them there). The key makes a second count of the same cell wait, as in the cells' tables.
 */
export const dashboardTotalsStaged = analyticsSchema.table('dashboard_totals_staged', totalsCells(), (table) => [
  primaryKey({
    name: 'dashboard_totals_staged_pk',
    columns: [table.zone, table.companyId, table.kind, table.span, table.teamId, table.representativeEmail, table.period],
  }),
]);

export const dashboardVerdictsStaged = analyticsSchema.table('dashboard_verdicts_staged', verdictsCells(), (table) => [
  primaryKey({
    name: 'dashboard_verdicts_staged_pk',
    columns: [table.zone, table.companyId, table.kind, table.span, table.teamId, table.representativeEmail, table.period, table.groupId, table.criterionId],
  }),
]);

/**
 * Reports people made that an activity's analysis is wrong (the Report Issue dialog), kept for the
 * company's admins. A report outlives its activity: it names the activity as it was when reported.
 */
export const feedback = analyticsSchema.table(
  'feedback',
  {
    id: uuid('id').primaryKey(),
    companyId: uuid('company_id').notNull(),
    activityId: uuid('activity_id').notNull(),
    kind: text('kind').$type<ActivityKindName>().notNull(),
    activityName: text('activity_name').notNull(),
    description: text('description').notNull(),
    reporterEmail: text('reporter_email').notNull(),
    reporterName: text('reporter_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('feedback_company_idx').on(table.companyId, table.createdAt.desc(), table.id.desc())],
);
