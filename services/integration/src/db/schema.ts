import { pgSchema } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@parlance/platform/outbox/tables';
import { probeTable } from '@parlance/platform/probe/probe-tables';

/** Everything integration stores lives in its own Postgres schema; no other service reads it. */
export const integrationSchema = pgSchema('integration');

export const outbox = outboxTable(integrationSchema);
export const inbox = inboxTable(integrationSchema);
export const probes = probeTable(integrationSchema);
