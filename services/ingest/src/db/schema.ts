import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';
import { sql } from 'drizzle-orm';
import { bigint, index, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@parlance/platform/outbox/tables';
import { probeTable } from '@parlance/platform/probe/probe-tables';

/** Everything ingest stores lives in its own Postgres schema; no other service reads it. */
export const ingestSchema = pgSchema('ingest');

export const outbox = outboxTable(ingestSchema);
export const inbox = inboxTable(ingestSchema);
export const probes = probeTable(ingestSchema);

export type MediaKindName = 'audio' | 'text';
export type JobStatus = 'waiting' | 'active' | 'completed' | 'failed';

/** A call or meeting as received, with where its media is stored. Deleting one removes the row. */
export const activities = ingestSchema.table(
  'activities',
  {
    id: uuid('id').primaryKey(),
    companyId: uuid('company_id').notNull(),
    kind: text('kind').$type<ActivityKindName>().notNull(),
    teamId: text('team_id').notNull(),
    representativeEmail: text('representative_email').notNull(),
    representativeName: text('representative_name').notNull(),
    fileName: text('file_name').notNull(),
    title: text('title').notNull(),
    notes: text('notes').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    /** 'upload', or the integration it was imported from. */
    source: text('source').notNull(),
    /** The source's own id for it ('' for uploads): an import is received once per source and id. */
    externalId: text('external_id').notNull().default(''),
    /** Who the representative spoke with, when the source knows (integrations, demo data). */
    contactId: text('contact_id').notNull().default(''),
    contactName: text('contact_name').notNull().default(''),
    contactCompany: text('contact_company').notNull().default(''),
    contactRole: text('contact_role').notNull().default(''),
    link: text('link').notNull().default(''),
    mediaKind: text('media_kind').$type<MediaKindName>().notNull(),
    /** "wav", "mp3", … as told by the content, or "text". */
    mediaFormat: text('media_format').notNull(),
    mediaKey: text('media_key').notNull(),
    mediaBytes: bigint('media_bytes', { mode: 'number' }).notNull(),
    mediaSha256: text('media_sha256').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('activities_company_idx').on(table.companyId, table.occurredAt),
    uniqueIndex('activities_external_id_idx').on(table.companyId, table.source, table.externalId).where(sql`${table.externalId} <> ''`),
  ],
);

/** One per upload: its progress through the pipeline, as the pipeline's events report it. */
export const jobs = ingestSchema.table(
  'jobs',
  {
    id: uuid('id').primaryKey(),
    companyId: uuid('company_id').notNull(),
    activityId: uuid('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<ActivityKindName>().notNull(),
    fileName: text('file_name').notNull(),
    status: text('status').$type<JobStatus>().notNull(),
    failedReason: text('failed_reason').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('jobs_activity_idx').on(table.activityId)],
);
