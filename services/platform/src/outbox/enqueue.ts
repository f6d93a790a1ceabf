/**
 * Writing events: `enqueue` inserts outbox rows inside the caller's transaction, next to the
 * state change they describe, so both commit or neither does. The relay (relay.ts) publishes
 * them afterwards.
 *
 *   await db.transaction(async (tx) => {
 *     await tx.insert(teams).values(team);
 *     await enqueue(tx, outbox, [{ topic: 'identity.team-changed.v1', key: companyId, payload }]);
 *   });
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/pg-core';
import type { BusMessage } from '../bus/event-bus.js';
import type { Executor } from '../db/database.js';
import type { OutboxTable } from './tables.js';

export interface OutboxMessage {
  /** Defaults to a fresh UUID; pass one to make a retried command produce the same event. */
  eventId?: string;
  topic: string;
  key: string;
  payload: Uint8Array;
  /** Small string metadata (event type, traceparent); `event-id` is added by the relay. */
  headers?: Record<string, string>;
}

/** The header that carries the outbox row's event id to consumers. */
export const EVENT_ID_HEADER = 'event-id';

/** What the relay publishes for an outbox row: its topic, key and payload, its event id in a header. */
export function busMessageFor(message: { eventId: string; topic: string; key: string; payload: Uint8Array; headers: Record<string, string> }): BusMessage {
  return { topic: message.topic, key: message.key, value: message.payload, headers: { ...message.headers, [EVENT_ID_HEADER]: message.eventId } };
}

/** Postgres caps a statement at 65,535 parameters; the outbox insert uses 5 per row. */
const INSERT_CHUNK = 5_000;

/**
 * Inserts the messages into `outbox` using `tx` (pass the open transaction), and sends a
 * NOTIFY that the relay receives when the transaction commits (Postgres folds the repeated
 * notifications of one transaction into one). Returns the event ids in message order.
 */
export async function enqueue(tx: Executor, outbox: OutboxTable, messages: readonly OutboxMessage[]): Promise<string[]> {
  if (messages.length === 0) return [];
  const rows = messages.map((m) => ({
    eventId: m.eventId ?? randomUUID(),
    topic: m.topic,
    key: m.key,
    payload: m.payload,
    headers: m.headers ?? {},
  }));
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await tx.insert(outbox).values(rows.slice(i, i + INSERT_CHUNK));
  }
  await tx.execute(sql`select pg_notify(${outboxChannel(outbox)}, '')`);
  return rows.map((r) => r.eventId);
}

const channels = new WeakMap<OutboxTable, string>();

/** The NOTIFY channel of an outbox table: `outbox_<schema>_<table>`, cut to Postgres's 63 bytes. */
export function outboxChannel(outbox: OutboxTable): string {
  let channel = channels.get(outbox);
  if (!channel) {
    const { schema, name } = getTableConfig(outbox);
    channel = `outbox_${schema ?? 'public'}_${name}`.slice(0, 63);
    channels.set(outbox, channel);
  }
  return channel;
}
