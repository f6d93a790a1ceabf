import { pgSchema } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@parlance/platform/outbox/tables';
import { probeTable } from '@parlance/platform/probe/probe-tables';

/** Everything analytics stores lives in its own Postgres schema; no other service reads it. */
export const analyticsSchema = pgSchema('analytics');

export const outbox = outboxTable(analyticsSchema);
export const inbox = inboxTable(analyticsSchema);
export const probes = probeTable(analyticsSchema);
