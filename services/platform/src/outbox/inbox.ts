/**
 * Idempotent consumers. The bus delivers at least once (a relay crash republishes a batch, a
 * consumer crash before its offset commit redelivers), so a consumer records each event id it
 * has applied in its inbox table IN THE SAME TRANSACTION as the effect: either both commit, or
 * neither does and the redelivery applies it then.
 */
import { lt } from 'drizzle-orm';
import type { DeliveredMessage, MessageHandler } from '../bus/event-bus.js';
import type { Executor, Transaction } from '../db/database.js';
import { EVENT_ID_HEADER } from './enqueue.js';
import type { InboxTable } from './tables.js';

/**
 * In one transaction: records (consumer, eventId) in `inbox`, and runs `effect` only if that
 * row is new. Resolves to true when the effect ran, false when the event was already applied.
 *
 * Two concurrent deliveries of one event (a rebalance can cause that) are safe: the second
 * insert waits on the first transaction's unique key, then finds the row and skips; if the
 * first rolls back, the second applies.
 */
export async function applyOnce(
  db: Executor,
  inbox: InboxTable,
  consumer: string,
  eventId: string,
  effect: (tx: Transaction<Record<string, unknown>>) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx: Transaction<Record<string, unknown>>) => {
    const inserted = await tx
      .insert(inbox)
      .values({ consumer, eventId })
      .onConflictDoNothing({ target: [inbox.consumer, inbox.eventId] })
      .returning({ eventId: inbox.eventId });
    if (inserted.length === 0) return false;
    await effect(tx);
    return true;
  });
}

export class MissingEventIdError extends Error {
  constructor(message: DeliveredMessage) {
    super(`message on ${message.topic} partition ${message.partition} offset ${message.offset} has no "${EVENT_ID_HEADER}" header`);
    this.name = 'MissingEventIdError';
  }
}

export const eventIdFromHeader = (message: DeliveredMessage): string | undefined => message.headers[EVENT_ID_HEADER];

export interface IdempotentHandlerOptions {
  db: Executor;
  inbox: InboxTable;
  /** Inbox key: one name per handler (e.g. `analytics.activity-scored`), stable across deploys. */
  consumer: string;
  /** The effect, run in the inbox transaction; write everything through `tx`. */
  handle: (message: DeliveredMessage, tx: Transaction<Record<string, unknown>>) => Promise<void>;
  /** Where the event id is; default the `event-id` header the outbox relay sets. */
  eventIdOf?: (message: DeliveredMessage) => string | undefined;
  /** Called for a redelivery that was skipped (metrics, logs). */
  onDuplicate?: (message: DeliveredMessage, eventId: string) => void;
}

/**
 * A bus handler that applies each event at most once per consumer. A message with no event id
 * throws, so the bus retries and then dead-letters it; it is never silently dropped.
 */
export function idempotentHandler(options: IdempotentHandlerOptions): MessageHandler {
  const eventIdOf = options.eventIdOf ?? eventIdFromHeader;
  return async (message) => {
    const eventId = eventIdOf(message);
    if (!eventId) throw new MissingEventIdError(message);
    const applied = await applyOnce(options.db, options.inbox, options.consumer, eventId, (tx) => options.handle(message, tx));
    if (!applied) options.onDuplicate?.(message, eventId);
  };
}

/**
 * Deletes inbox rows applied before `olderThan`. Keep them at least as long as the bus can
 * redeliver (the Kafka topic retention), or a late redelivery would be applied again.
 */
export async function purgeInbox(db: Executor, inbox: InboxTable, olderThan: Date): Promise<number> {
  const deleted = await db.delete(inbox).where(lt(inbox.appliedAt, olderThan)).returning({ eventId: inbox.eventId });
  return deleted.length;
}
