/**
 * The event bus: one interface, two adapters (kafka-bus.ts for Apache Kafka, memory-bus.ts in
 * process), one contract suite (test/bus.contract.ts) that both must pass.
 *
 * Guarantees every adapter gives:
 * - at-least-once delivery to each consumer group;
 * - order per key within a topic (the key is the company id for domain events);
 * - a failing handler is retried with exponential backoff, and after `maxAttempts` failures the
 *   message goes to the dead-letter topic `<topic>.dlq` with the failure reason in headers, and
 *   the consumer moves on; nothing is dropped silently.
 */
export interface BusMessage {
  topic: string;
  /** Partition key; messages with one key are delivered in the order they were published. */
  key: string;
  value: Uint8Array;
  /** Trace context (traceparent), event type, and similar small string metadata. */
  headers?: Record<string, string>;
}

export interface DeliveredMessage {
  topic: string;
  key: string;
  value: Uint8Array;
  headers: Record<string, string>;
  partition: number;
  offset: string;
  /** 1 on first delivery to this handler, incremented on each retry. */
  attempt: number;
}

export type MessageHandler = (message: DeliveredMessage) => Promise<void>;

export interface SubscribeOptions {
  /** Consumer group: each group receives every message once (at least once). */
  group: string;
  topics: string[];
  handler: MessageHandler;
  /** Attempts before dead-lettering; default 5. */
  maxAttempts?: number;
  /** First retry delay; doubles each attempt up to `maxBackoffMs`. Default 100 ms. */
  initialBackoffMs?: number;
  /** Longest delay between attempts. Default 30 000 ms. */
  maxBackoffMs?: number;
  /** Start from the earliest retained message when the group has no offset yet. Default true. */
  fromBeginning?: boolean;
}

export interface Subscription {
  /** Stops fetching, waits for in-flight handlers to finish, commits, and leaves the group. */
  stop(): Promise<void>;
}

export interface EventBus {
  /**
   * Resolves when every message is durably accepted by the bus: acks from all in-sync replicas
   * on Kafka; in memory, where nothing is durable, once every reading group has handled it
   * (with `acknowledge: 'handled'`, as the standalone host runs it).
   */
  publish(messages: BusMessage[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /** Creates topics if the adapter needs them up front; harmless when they exist. */
  ensureTopics(topics: string[]): Promise<void>;
  /** Stops every subscription and releases connections. */
  close(): Promise<void>;
}

export const DEAD_LETTER_SUFFIX = '.dlq';
export const FAILURE_REASON_HEADER = 'x-failure-reason';
export const FAILURE_ATTEMPTS_HEADER = 'x-failure-attempts';
export const ORIGINAL_TOPIC_HEADER = 'x-original-topic';

export const deadLetterTopic = (topic: string) => `${topic}${DEAD_LETTER_SUFFIX}`;
