import { bigint, boolean, doublePrecision, index, jsonb, pgSchema, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@parlance/platform/outbox/tables';
import { probeTable } from '@parlance/platform/probe/probe-tables';
import { leasedWorkQueue, leasedWorkTable } from '@parlance/platform/work/leased-work';
import type { CriteriaGroup } from '@parlance/proto/parlance/identity/v1/teams';
import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';
import type { TeamSnapshot } from '../engines/evaluation-engine.js';

/** A team snapshot as queued: one queued before teams had a review threshold has none (read it as the default). */
export type QueuedTeamSnapshot = Omit<TeamSnapshot, 'reviewThreshold'> & { reviewThreshold?: number };

/** Everything scoring stores lives in its own Postgres schema; no other service reads it. */
export const scoringSchema = pgSchema('scoring');

export const outbox = outboxTable(scoringSchema);
export const inbox = inboxTable(scoringSchema);
export const probes = probeTable(scoringSchema);

/**
 * The criteria every team is scored against, as `identity.team-changed.v1` last said (a higher
 * version replaces a lower one, never the reverse). A deleted team stays, marked, so activities
 * scored against it still name their criteria.
 */
export const teamCriteria = scoringSchema.table(
  'team_criteria',
  {
    companyId: uuid('company_id').notNull(),
    teamId: text('team_id').notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
    name: text('name').notNull(),
    department: text('department').notNull(),
    criteriaGroups: jsonb('criteria_groups').$type<CriteriaGroup[]>().notNull(),
    successPrompt: text('success_prompt').notNull(),
    callScript: text('call_script').notNull(),
    /** Below this confidence a verdict needs review; teams held before it was a setting have 0.7. */
    reviewThreshold: doublePrecision('review_threshold').notNull().default(0.7),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.teamId] })],
);

/**
 * Activities waiting to be evaluated, or being evaluated, held by a worker's lease (see
 * `@parlance/platform/work/leased-work`). Each row carries what the evaluation needs as
 * `transcription.transcript-ready.v1` said it, and the team's criteria as scoring held them when
 * that event was consumed (null when scoring did not know the team yet: the worker looks again).
 * The row goes in the transaction that stores the evaluation or announces the failure.
 */
export const pendingEvaluations = leasedWorkTable(scoringSchema, 'pending_evaluations', {
  activityId: uuid('activity_id').primaryKey(),
  jobId: text('job_id').notNull(),
  kind: text('kind').$type<ActivityKindName>().notNull(),
  teamId: text('team_id').notNull(),
  representativeEmail: text('representative_email').notNull(),
  representativeName: text('representative_name').notNull(),
  /** `Transcript.toJSON`. */
  transcript: jsonb('transcript').$type<unknown>().notNull(),
  team: jsonb('team').$type<QueuedTeamSnapshot>(),
  /** Scored before, by an engine since superseded: the new evaluation replaces the stored one (pipeline/rescore.ts). */
  rescore: boolean('rescore').notNull().default(false),
});

export const pendingEvaluationsQueue = leasedWorkQueue(pendingEvaluations, pendingEvaluations.activityId);

/**
 * One evaluation per activity. The whole evaluation is kept as the contract's JSON
 * (`Evaluation.toJSON`); the columns beside it are what lists and filters will need.
 */
export const evaluations = scoringSchema.table(
  'evaluations',
  {
    activityId: uuid('activity_id').primaryKey(),
    companyId: uuid('company_id').notNull(),
    kind: text('kind').$type<ActivityKindName>().notNull(),
    teamId: text('team_id').notNull(),
    teamVersion: bigint('team_version', { mode: 'number' }).notNull(),
    jobId: text('job_id').notNull(),
    representativeEmail: text('representative_email').notNull(),
    engine: text('engine').notNull(),
    score: doublePrecision('score').notNull(),
    /** Null when the team has no call script. */
    scriptMatch: doublePrecision('script_match'),
    /** Null (N/A) when the team has no success prompt. */
    isSuccessful: boolean('is_successful'),
    evaluation: jsonb('evaluation').$type<unknown>().notNull(),
    insightTokens: bigint('insight_tokens', { mode: 'number' }).notNull(),
    evaluatedAt: timestamp('evaluated_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('evaluations_company_team_idx').on(table.companyId, table.teamId, table.evaluatedAt)],
);

/**
 * Activities deleted (`ingest.activity-deleted.v1`), so that a transcript-ready event arriving
 * after the deletion (another topic, no order between them) stores nothing. Kept as long as the
 * inbox keeps event ids.
 */
export const deletedActivities = scoringSchema.table(
  'deleted_activities',
  {
    companyId: uuid('company_id').notNull(),
    activityId: uuid('activity_id').notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.activityId] }), index('deleted_activities_deleted_at_idx').on(table.deletedAt)],
);
