import { integer, jsonb, pgSchema, timestamp, uuid } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@parlance/platform/outbox/tables';
import { probeTable } from '@parlance/platform/probe/probe-tables';

/** Everything the demo data keeps lives in its own Postgres schema; no other service reads it. */
export const demoSchema = pgSchema('demo');

export const outbox = outboxTable(demoSchema);
export const inbox = inboxTable(demoSchema);
export const probes = probeTable(demoSchema);

/** What a seeding run was asked for, kept so a restart sends exactly the activities not yet sent. */
export interface SeedPlan {
  calls: number;
  meetings: number;
  recordedCalls: number;
  seed: number;
  /** The moment the conversations are dated against, fixed at the first start. */
  now: string;
}

/**
 * One row per company the demo data was sent to: `sent` activities (in sequence order) are stored
 * by ingest; `finishedAt` is set once every one was sent and the pipeline reported on this run's.
 */
export const seedRuns = demoSchema.table('seed_runs', {
  companyId: uuid('company_id').primaryKey(),
  plan: jsonb('plan').$type<SeedPlan>().notNull(),
  sent: integer('sent').notNull().default(0),
  skipped: integer('skipped').notNull().default(0),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});
