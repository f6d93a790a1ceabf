import { pgSchema } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@parlance/platform/outbox/tables';
import { probeTable } from '@parlance/platform/probe/probe-tables';

/** Everything ingest stores lives in its own Postgres schema; no other service reads it. */
export const ingestSchema = pgSchema('ingest');

export const outbox = outboxTable(ingestSchema);
export const inbox = inboxTable(ingestSchema);
export const probes = probeTable(ingestSchema);
