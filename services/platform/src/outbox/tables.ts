/**
 * The outbox and inbox tables. They belong to the service that uses them: each service adds
 *
 *   export const scoring = pgSchema('scoring');
 *   export const outbox = outboxTable(scoring);
 *   export const inbox = inboxTable(scoring);
 *
 * to its own `src/db/schema.ts`, so drizzle-kit generates them into that service's migrations.
 */
import { sql } from 'drizzle-orm';
import { bigint, customType, index, jsonb, primaryKey, text, timestamp, uuid, type PgSchema } from 'drizzle-orm/pg-core';

/** `bytea` as a Uint8Array (node-postgres returns a Buffer, which is one). */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  // node-postgres turns a Buffer into a bytea parameter; a bare Uint8Array is wrapped without a copy.
  toDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
  fromDriver: (value) => value,
});

export function outboxTable(schema: PgSchema, name = 'outbox') {
  return schema.table(
    name,
    {
      /** Publication order: the relay publishes in id order. */
      id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
      /** Travels as the `event-id` header; consumers deduplicate on it. */
      eventId: uuid('event_id').notNull().unique(),
      topic: text('topic').notNull(),
      /** Partition key (the company id for domain events). */
      key: text('key').notNull(),
      payload: bytea('payload').notNull(),
      headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
      createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
      publishedAt: timestamp('published_at', { withTimezone: true }),
    },
    (t) => [
      // What the relay scans: only the unpublished rows, in id order.
      index(`${name}_unpublished_idx`).on(t.id).where(sql`published_at is null`),
      // What the retention purge scans.
      index(`${name}_published_at_idx`).on(t.publishedAt),
    ],
  );
}

export function inboxTable(schema: PgSchema, name = 'inbox') {
  return schema.table(
    name,
    {
      /** The consumer (handler) name: one event may be applied once by each consumer. */
      consumer: text('consumer').notNull(),
      eventId: uuid('event_id').notNull(),
      appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [primaryKey({ columns: [t.consumer, t.eventId] }), index(`${name}_applied_at_idx`).on(t.appliedAt)],
  );
}

export type OutboxTable = ReturnType<typeof outboxTable>;
export type InboxTable = ReturnType<typeof inboxTable>;
