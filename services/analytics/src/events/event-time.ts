import type { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';

/**
 * When the producer says the event happened. It orders two facts of one kind (a later receipt or
 * transcript replaces an earlier one), so it must come from the event, never from the clock here.
 */
export function eventTime(event: EventEnvelope): Date {
  if (!event.occurredAt) throw new Error(`event ${event.id} (${event.type}) carries no time`);
  return event.occurredAt;
}
