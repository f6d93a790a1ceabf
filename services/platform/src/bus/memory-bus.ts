import type { Logger } from '../logger.js';
import { backoffDelay, deadLetterHeaders, errorMessage, retryPolicy, type RetryPolicy } from './delivery.js';
import {
  deadLetterTopic,
  type BusMessage,
  type DeliveredMessage,
  type EventBus,
  type MessageHandler,
  type SubscribeOptions,
  type Subscription,
} from './event-bus.js';

/**
 * The in-process event bus for standalone mode. It keeps Kafka's semantics rather than being a
 * plain event emitter, so code that works on it works on Kafka too:
 * - a topic is split into partitions by a hash of the key (Kafka's murmur2, so a key lands on
 *   the same partition number as with kafkajs' default partitioner and the same count);
 * - each consumer group has its own committed offset per partition, so every group gets every
 *   message, and a partition is handled by one member of a group at a time;
 * - within a partition delivery is sequential (order per key), partitions proceed concurrently;
 * - a failing handler is retried with exponential backoff, then the message is dead-lettered;
 * - an offset is committed only after the handler succeeded or the message was dead-lettered,
 *   so a subscription stopped mid-way leaves the message for the next member of the group.
 * Messages live in memory only. Retention is bounded like a Kafka topic's size-based retention,
 * except that nothing a group has yet to handle is ever dropped.
 *
 * Memory does not survive a crash, so "durably accepted" can only mean "handled": with
 * `acknowledge: 'handled'` (what the standalone host uses) `publish` resolves once every group
 * subscribed to the topic has handled or dead-lettered the messages. The outbox relay marks rows
 * published only then, so an event in memory when the process dies is published again at the
 * next start and the consumers' inbox drops what they had already applied.
 */
export interface MemoryBusOptions {
  /** Partitions per topic; default 6, like the Kafka topics `ensureTopics` creates. */
  partitions?: number;
  /**
   * Messages kept per partition once every group reading the topic is past them (or, on a
   * topic nobody reads, the newest ones), for groups that subscribe later. Messages a group
   * has not handled yet are never dropped. Default 10 000.
   */
  retainedMessagesPerPartition?: number;
  /**
   * When `publish` resolves: once the messages are appended (default, like a broker ack), or
   * once every group with a running subscription to the topic has finished with them.
   */
  acknowledge?: 'appended' | 'handled';
  logger?: Logger;
}

export const DEFAULT_PARTITIONS = 6;
export const DEFAULT_RETAINED_MESSAGES = 10_000;
/** Retention drops messages in chunks of at least this many. */
const TRIM_CHUNK = 1_024;

interface StoredMessage {
  key: string;
  value: Uint8Array;
  headers: Record<string, string>;
}

interface PartitionLog {
  /** Offset of messages[0]; earlier ones were dropped by retention. */
  base: number;
  messages: StoredMessage[];
}

interface TopicLog {
  partitions: PartitionLog[];
  /** Woken whenever a message is appended to any partition of the topic. */
  waiters: Set<() => void>;
}

interface Group {
  /** Next offset to deliver, per `topic#partition`. Absent: the group has no offset yet. */
  committed: Map<string, number>;
  /** Which member currently owns `topic#partition`. */
  owners: Map<string, Member>;
  members: Set<Member>;
}

const partitionKey = (topic: string, partition: number) => `${topic}#${partition}`;

/** Kafka's murmur2 (32-bit), as used by the Java client and kafkajs' DefaultPartitioner. */
export function murmur2(data: Uint8Array): number {
  const m = 0x5bd1e995;
  const length = data.length;
  let h = 0x9747b28c ^ length;
  const length4 = length >>> 2;
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k = data[i4]! | (data[i4 + 1]! << 8) | (data[i4 + 2]! << 16) | (data[i4 + 3]! << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  const tail = length & ~3;
  const rest = length % 4;
  if (rest === 3) h ^= data[tail + 2]! << 16;
  if (rest >= 2) h ^= data[tail + 1]! << 8;
  if (rest >= 1) {
    h ^= data[tail]!;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

const encoder = new TextEncoder();

/** The partition Kafka's default partitioner picks for a non-empty key. */
export function partitionFor(key: string, partitions: number): number {
  return (murmur2(encoder.encode(key)) & 0x7fffffff) % partitions;
}

class Member {
  stopping = false;
  /** Resolves `sleep` and data waits early when the member stops. */
  private readonly wakeOnStop = new Set<() => void>();
  private readonly workers = new Map<string, Promise<void>>();

  constructor(
    readonly bus: MemoryBus,
    readonly group: Group,
    readonly topics: string[],
    readonly handler: MessageHandler,
    readonly policy: RetryPolicy,
    readonly fromBeginning: boolean,
  ) {}

  /** Takes every partition of its topics that no other member of the group owns. */
  claimFreePartitions(): void {
    if (this.stopping) return;
    for (const topic of this.topics) {
      const log = this.bus.topicLog(topic);
      for (let partition = 0; partition < log.partitions.length; partition++) {
        const id = partitionKey(topic, partition);
        if (this.group.owners.has(id)) continue;
        this.group.owners.set(id, this);
        if (!this.group.committed.has(id)) {
          const stored = log.partitions[partition]!;
          this.group.committed.set(id, this.fromBeginning ? stored.base : stored.base + stored.messages.length);
        }
        this.workers.set(id, this.consume(topic, partition, log));
      }
    }
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    // A stopping member no longer holds up publishers waiting for its group.
    this.bus.membershipChanged();
    for (const wake of this.wakeOnStop) wake();
    this.wakeOnStop.clear();
    await Promise.all(this.workers.values());
    this.group.members.delete(this);
    for (const [id, owner] of this.group.owners) {
      if (owner === this) this.group.owners.delete(id);
    }
    // Like a rebalance: the partitions this member held go to the members still running.
    for (const member of this.group.members) member.claimFreePartitions();
    this.bus.membershipChanged();
  }

  private async consume(topic: string, partition: number, log: TopicLog): Promise<void> {
    const id = partitionKey(topic, partition);
    const stored = log.partitions[partition]!;
    while (!this.stopping) {
      const offset = this.group.committed.get(id)!;
      const message = stored.messages[offset - stored.base];
      if (!message) {
        await this.waitFor(log.waiters);
        continue;
      }
      const done = await this.deliver(topic, partition, offset, message);
      if (!done) return;
      this.group.committed.set(id, offset + 1);
      this.bus.committed(id);
    }
  }

  /** True when the message is finished with (handled or dead-lettered); false when stopped first. */
  private async deliver(topic: string, partition: number, offset: number, message: StoredMessage): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.handler({
          topic,
          key: message.key,
          value: message.value.slice(),
          headers: { ...message.headers },
          partition,
          offset: String(offset),
          attempt,
        } satisfies DeliveredMessage);
        return true;
      } catch (error) {
        const reason = errorMessage(error);
        if (attempt >= this.policy.maxAttempts) {
          this.bus.logger?.error(
            { topic, partition, offset, attempts: attempt, error: reason },
            'handler failed on every attempt; message dead-lettered',
          );
          this.bus.append(deadLetterTopic(topic), message.key, message.value, deadLetterHeaders(message.headers, topic, attempt, reason));
          return true;
        }
        if (this.stopping) return false;
        const delay = backoffDelay(attempt, this.policy);
        this.bus.logger?.warn({ topic, partition, offset, attempt, delayMs: delay, error: reason }, 'handler failed; retrying');
        await this.sleep(delay);
        if (this.stopping) return false;
      }
    }
  }

  private waitFor(waiters: Set<() => void>): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        waiters.delete(wake);
        this.wakeOnStop.delete(wake);
        resolve();
      };
      waiters.add(wake);
      this.wakeOnStop.add(wake);
    });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakeOnStop.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakeOnStop.add(wake);
    });
  }
}

interface HandledWaiter {
  topic: string;
  offset: number;
  resolve: () => void;
}

class MemoryBus implements EventBus {
  private readonly topics = new Map<string, TopicLog>();
  private readonly groups = new Map<string, Group>();
  /** Publishers waiting for their messages to be handled, per `topic#partition`, in offset order. */
  private readonly handledWaiters = new Map<string, HandledWaiter[]>();
  private closed = false;

  constructor(
    readonly partitions: number,
    readonly retained: number,
    readonly acknowledge: 'appended' | 'handled',
    readonly logger: Logger | undefined,
  ) {}

  /** Whether every group with a running member on `topic` has committed past `offset`. */
  private handled(id: string, topic: string, offset: number): boolean {
    for (const group of this.groups.values()) {
      const reading = [...group.members].some((member) => !member.stopping && member.topics.includes(topic));
      if (reading && (group.committed.get(id) ?? 0) <= offset) return false;
    }
    return true;
  }

  private releaseHandled(id: string): void {
    const waiters = this.handledWaiters.get(id);
    if (!waiters) return;
    // Offsets only grow, so the handled waiters are a prefix of the list.
    let released = 0;
    while (released < waiters.length && this.handled(id, waiters[released]!.topic, waiters[released]!.offset)) {
      waiters[released]!.resolve();
      released++;
    }
    waiters.splice(0, released);
    if (waiters.length === 0) this.handledWaiters.delete(id);
  }

  committed(id: string): void {
    if (this.handledWaiters.size > 0) this.releaseHandled(id);
  }

  /** A group lost or gained a member: waits may now be satisfied (a group stopped reading). */
  membershipChanged(): void {
    for (const id of [...this.handledWaiters.keys()]) this.releaseHandled(id);
  }

  private waitUntilHandled(topic: string, partition: number, offset: number): Promise<void> {
    const id = partitionKey(topic, partition);
    if (this.handled(id, topic, offset)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiters = this.handledWaiters.get(id) ?? [];
      waiters.push({ topic, offset, resolve });
      this.handledWaiters.set(id, waiters);
    });
  }

  topicLog(topic: string): TopicLog {
    let log = this.topics.get(topic);
    if (!log) {
      log = { partitions: Array.from({ length: this.partitions }, () => ({ base: 0, messages: [] })), waiters: new Set() };
      this.topics.set(topic, log);
    }
    return log;
  }

  /** Appends a message and returns where it went. */
  append(topic: string, key: string, value: Uint8Array, headers: Record<string, string>): { partition: number; offset: number } {
    const log = this.topicLog(topic);
    const partition = partitionFor(key, this.partitions);
    const stored = log.partitions[partition]!;
    stored.messages.push({ key, value: value.slice(), headers: { ...headers } });
    const offset = stored.base + stored.messages.length - 1;
    if (stored.messages.length >= this.retained + TRIM_CHUNK) this.trim(topic, partition, stored);
    const waiters = [...log.waiters];
    log.waiters.clear();
    for (const wake of waiters) wake();
    return { partition, offset };
  }

  /** Drops what every group reading the partition has handled, beyond the retained tail. */
  private trim(topic: string, partition: number, stored: PartitionLog): void {
    const id = partitionKey(topic, partition);
    let upTo = stored.base + stored.messages.length - this.retained;
    for (const group of this.groups.values()) {
      const committed = group.committed.get(id);
      if (committed !== undefined) upTo = Math.min(upTo, committed);
    }
    // Cut in chunks, so a lagging group does not make every append splice the array.
    if (upTo - stored.base < TRIM_CHUNK) return;
    stored.messages.splice(0, upTo - stored.base);
    stored.base = upTo;
  }

  async publish(messages: BusMessage[]): Promise<void> {
    this.assertOpen();
    for (const message of messages) {
      if (!message.topic) throw new Error('a bus message needs a topic');
      if (typeof message.key !== 'string') throw new Error(`a bus message needs a string key (topic ${message.topic})`);
    }
    const placed = messages.map((message) => ({
      topic: message.topic,
      ...this.append(message.topic, message.key, message.value, message.headers ?? {}),
    }));
    if (this.acknowledge === 'handled') {
      await Promise.all(placed.map(({ topic, partition, offset }) => this.waitUntilHandled(topic, partition, offset)));
    }
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.assertOpen();
    if (options.topics.length === 0) throw new Error(`subscription of group ${options.group} names no topics`);
    const policy = retryPolicy(options);
    let group = this.groups.get(options.group);
    if (!group) {
      group = { committed: new Map(), owners: new Map(), members: new Set() };
      this.groups.set(options.group, group);
    }
    const member = new Member(this, group, [...new Set(options.topics)], options.handler, policy, options.fromBeginning ?? true);
    group.members.add(member);
    member.claimFreePartitions();
    return { stop: () => member.stop() };
  }

  async ensureTopics(topics: string[]): Promise<void> {
    for (const topic of topics) this.topicLog(topic);
  }

  async close(): Promise<void> {
    this.closed = true;
    const members = [...this.groups.values()].flatMap((group) => [...group.members]);
    await Promise.all(members.map((member) => member.stop()));
    this.membershipChanged();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the event bus is closed');
  }
}

export function createMemoryBus(options: MemoryBusOptions = {}): EventBus {
  const partitions = options.partitions ?? DEFAULT_PARTITIONS;
  if (!Number.isInteger(partitions) || partitions < 1) throw new Error(`partitions must be a positive integer, got ${partitions}`);
  const retained = options.retainedMessagesPerPartition ?? DEFAULT_RETAINED_MESSAGES;
  if (!Number.isInteger(retained) || retained < 0) throw new Error(`retainedMessagesPerPartition must be a whole number, got ${retained}`);
  return new MemoryBus(partitions, retained, options.acknowledge ?? 'appended', options.logger);
}
