import { text, timestamp, uuid, type PgSchema } from 'drizzle-orm/pg-core';

/**
 * Pipeline probes a service sent and received. A probe proves, end to end, that the service's
 * gRPC server, database, outbox relay, bus and consumer all work and that trace context travels
 * with the event. Each service adds `probes = probeTable(itsSchema)` to its own schema.ts.
 */
export function probeTable(schema: PgSchema) {
  return schema.table('probes', {
    id: uuid('id').primaryKey(),
    note: text('note').notNull().default(''),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    sentTraceId: text('sent_trace_id').notNull().default(''),
    receivedAt: timestamp('received_at', { withTimezone: true }),
    receivedTraceId: text('received_trace_id'),
  });
}

export type ProbeTable = ReturnType<typeof probeTable>;
