import { randomUUID } from 'node:crypto';
import { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';
import type { DeliveredMessage } from '../bus/event-bus.js';
import { injectTraceContext } from '../telemetry.js';
import type { OutboxMessage } from '../outbox/enqueue.js';

/** Bus header naming the event type, so a consumer can route without decoding the payload. */
export const EVENT_TYPE_HEADER = 'event-type';

const EVENT_TYPE = /^[a-z]+\.[a-z][a-z0-9-]*\.v[1-9][0-9]*$/;

export interface DomainEvent {
  /** `<service>.<what-happened>.v<N>`; also the topic it is published on. */
  type: string;
  companyId: string;
  producer: string;
  /** The event's own protobuf message, already encoded. */
  payload: Uint8Array;
  occurredAt?: Date;
  id?: string;
}

/**
 * Wraps an event in the envelope every topic carries and prepares it for the outbox. The
 * company id is the key, so one tenant's events stay in order; the active trace context goes
 * into the headers, so the consumer continues the trace that caused the event.
 */
export function outboxMessageFor(event: DomainEvent): OutboxMessage & { eventId: string; headers: Record<string, string> } {
  if (!EVENT_TYPE.test(event.type)) {
    throw new Error(`Event type "${event.type}" must read <service>.<what-happened>.v<N>, e.g. ingest.activity-received.v1`);
  }
  const id = event.id ?? randomUUID();
  const envelope = EventEnvelope.encode({
    id,
    type: event.type,
    companyId: event.companyId,
    producer: event.producer,
    occurredAt: event.occurredAt ?? new Date(),
    payload: Buffer.from(event.payload),
  }).finish();
  return {
    eventId: id,
    topic: event.type,
    key: event.companyId,
    payload: envelope,
    headers: injectTraceContext({ [EVENT_TYPE_HEADER]: event.type }),
  };
}

/** Reads the envelope of a delivered message; throws a readable error for a foreign message. */
export function readEnvelope(message: DeliveredMessage): EventEnvelope {
  try {
    return EventEnvelope.decode(message.value);
  } catch (error) {
    throw new Error(`Message at ${message.topic}/${message.partition}@${message.offset} is not an event envelope: ${(error as Error).message}`);
  }
}
