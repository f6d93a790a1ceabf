import { pgSchema } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@parlance/platform/outbox/tables';
import { probeTable } from '@parlance/platform/probe/probe-tables';

/** Everything identity stores lives in its own Postgres schema; no other service reads it. */
export const identitySchema = pgSchema('identity');

export const outbox = outboxTable(identitySchema);
export const inbox = inboxTable(identitySchema);
export const probes = probeTable(identitySchema);
