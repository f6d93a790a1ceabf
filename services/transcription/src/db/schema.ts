import { pgSchema } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@parlance/platform/outbox/tables';
import { probeTable } from '@parlance/platform/probe/probe-tables';

/** Everything transcription stores lives in its own Postgres schema; no other service reads it. */
export const transcriptionSchema = pgSchema('transcription');

export const outbox = outboxTable(transcriptionSchema);
export const inbox = inboxTable(transcriptionSchema);
export const probes = probeTable(transcriptionSchema);
