import { bigint, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@parlance/platform/outbox/tables';
import { probeTable } from '@parlance/platform/probe/probe-tables';
import { leasedWorkQueue, leasedWorkTable } from '@parlance/platform/work/leased-work';
import type { Segment, Speaker } from '@parlance/proto/parlance/transcription/v1/transcription';

/** Everything transcription stores lives in its own Postgres schema; no other service reads it. */
export const transcriptionSchema = pgSchema('transcription');

export const outbox = outboxTable(transcriptionSchema);
export const inbox = inboxTable(transcriptionSchema);
export const probes = probeTable(transcriptionSchema);

/** What transcribing an activity needs to know, as `ingest.activity-received.v1` said it. */
export interface WorkRequest {
  kind: 'call' | 'meeting';
  teamId: string;
  representativeEmail: string;
  representativeName: string;
  fileName: string;
  mediaKind: 'audio' | 'text';
  mediaFormat: string;
  /** The team's members when the activity was received (absent from work queued before they were carried). */
  teamMembers?: { email: string; firstName: string; lastName: string }[];
}

/**
 * Activities waiting to be transcribed, or being transcribed, held by a worker's lease (see
 * `@parlance/platform/work/leased-work`). The row goes when the transcript is stored or the
 * failure announced, in the same transaction.
 */
export const pendingWork = leasedWorkTable(transcriptionSchema, 'pending_work', {
  activityId: uuid('activity_id').primaryKey(),
  jobId: text('job_id').notNull(),
  request: jsonb('request').$type<WorkRequest>().notNull(),
});

export const pendingWorkQueue = leasedWorkQueue(pendingWork, pendingWork.activityId);

/** One transcript per activity: speakers with roles, and segments with their words and times. */
export const transcripts = transcriptionSchema.table('transcripts', {
  activityId: uuid('activity_id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  jobId: text('job_id').notNull(),
  kind: text('kind').$type<WorkRequest['kind']>().notNull(),
  sourceFormat: text('source_format').notNull(),
  engine: text('engine').notNull(),
  durationMs: bigint('duration_ms', { mode: 'number' }).notNull(),
  speakers: jsonb('speakers').$type<Speaker[]>().notNull(),
  segments: jsonb('segments').$type<Segment[]>().notNull(),
  warnings: jsonb('warnings').$type<string[]>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
