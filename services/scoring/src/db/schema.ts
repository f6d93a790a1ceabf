import { pgSchema } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@parlance/platform/outbox/tables';
import { probeTable } from '@parlance/platform/probe/probe-tables';

/** Everything scoring stores lives in its own Postgres schema; no other service reads it. */
export const scoringSchema = pgSchema('scoring');

export const outbox = outboxTable(scoringSchema);
export const inbox = inboxTable(scoringSchema);
export const probes = probeTable(scoringSchema);
