import {
  Kafka,
  logLevel,
  Partitioners,
  type Admin,
  type Consumer,
  type EachBatchPayload,
  type IHeaders,
  type KafkaMessage,
  type logCreator,
  type Message,
  type Producer,
  type RetryOptions,
} from 'kafkajs';
import type { Logger } from '../logger.js';
import { deadLetterTopic, type BusMessage, type DeliveredMessage, type EventBus, type SubscribeOptions, type Subscription } from './event-bus.js';
import { backoffDelay, deadLetterHeaders, errorMessage, retryPolicy, type RetryPolicy } from './delivery.js';

/**
 * The event bus on Apache Kafka (kafkajs).
 *
 * Publishing: idempotent producers (acks from all in-sync replicas). Concurrent `publish` calls
 * are coalesced: the first waits `lingerMs`, and whatever arrives while a request is in flight
 * goes out in the next one, so many small publishes become few large produce requests. Keys are
 * spread over `producer.lanes` producers (2 by default); a key always takes the same lane and a
 * lane sends its requests one at a time in queue order, so per-key order holds across calls,
 * while one lane encodes (kafkajs is CPU-bound there) as the broker works on another's request.
 *
 * Consuming: one kafkajs consumer per subscription. Partitions are processed concurrently,
 * messages of one partition strictly in order. An offset is resolved (and later committed) only
 * after the handler succeeded or the message was dead-lettered, so a crash or a stop mid-way
 * redelivers what was not finished: at-least-once.
 */
export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  /** kafkajs' own log lines go here; without it they go to kafkajs' console logger. */
  logger?: Logger;
  /** Lowest kafkajs log level passed on; default 'error'. */
  kafkaLogLevel?: 'nothing' | 'error' | 'warn' | 'info' | 'debug';
  /** Partitions of the topics `ensureTopics` creates; default 6. */
  numPartitions?: number;
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** kafkajs retry policy for the connections (producer, consumers, admin). */
  retry?: RetryOptions;
  producer?: {
    /**
     * Idempotent producers the keys are spread over (a key always uses the same one, so its
     * order holds); more than one lets encoding overlap the broker's work. Default 2.
     */
    lanes?: number;
    /** How long the first publish of an idle producer waits for others to join it; default 2 ms. */
    lingerMs?: number;
    /**
     * Upper bound of one produce request, in bytes of keys, values and headers. Kept under the
     * broker's message.max.bytes (1 MiB by default), which applies per partition batch.
     * Default 900 000.
     */
    maxRequestBytes?: number;
  };
  consumer?: {
    /** Default 30 000 ms (kafkajs' default). */
    sessionTimeout?: number;
    /** Default 60 000 ms. */
    rebalanceTimeout?: number;
    /** Default 3 000 ms. */
    heartbeatInterval?: number;
    /** Longest a fetch waits for data; also bounds how long `stop()` waits for an idle fetch. Default 1 000 ms. */
    maxWaitTimeInMs?: number;
    /** Partitions handled at the same time by one subscription; default 6. */
    partitionsConsumedConcurrently?: number;
    /** Commit resolved offsets at least this often during long batches; default 1 000 ms. */
    autoCommitIntervalMs?: number;
  };
}

const KAFKA_LOG_LEVELS = {
  nothing: logLevel.NOTHING,
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  info: logLevel.INFO,
  debug: logLevel.DEBUG,
} as const;

/** kafkajs log entries as pino lines, with kafkajs' namespace (Consumer, Producer, ...) kept. */
export function pinoLogCreator(logger: Logger): logCreator {
  const log = logger.child({ component: 'kafkajs' });
  return () =>
    ({ namespace, level, log: entry }) => {
      const { message, timestamp: _timestamp, logger: _logger, ...extra } = entry;
      const fields = { namespace, ...extra };
      // kafkajs logs every error response of a connection as an error, including retriable ones
      // it then retries (e.g. NOT_LEADER right after a topic is created). A real failure surfaces
      // where it matters: a rejected publish, a crashed consumer.
      const retried = namespace === 'Connection' && level === logLevel.ERROR;
      if (level === logLevel.ERROR && !retried) log.error(fields, message);
      else if (retried) log.warn(fields, message);
      else if (level === logLevel.WARN) log.warn(fields, message);
      else if (level === logLevel.INFO) log.info(fields, message);
      else log.debug(fields, message);
    };
}

const toHeaders = (headers: Record<string, string> | undefined): IHeaders | undefined => headers;

function fromHeaders(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  if (!headers) return result;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) result[name] = last.toString();
  }
  return result;
}

const asBytes = (value: Buffer | null): Uint8Array =>
  value ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength) : new Uint8Array(0);

/** Sizes used to cut produce requests; an estimate of the record's size on the wire. */
function recordBytes(message: BusMessage): number {
  let bytes = 64 + message.key.length + message.value.byteLength;
  if (message.headers) {
    for (const [name, value] of Object.entries(message.headers)) bytes += name.length + value.length + 8;
  }
  return bytes;
}

interface Ticket {
  remaining: number;
  failed: boolean;
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Queued {
  topic: string;
  message: Message;
  bytes: number;
  ticket: Ticket;
}

/** A stable, cheap hash of a key, to pick its lane. */
function laneOf(key: string, lanes: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % lanes;
}

/**
 * One idempotent producer and its queue. Requests go out one at a time, in queue order, so
 * messages of one key (always on the same lane) keep their order; whatever is queued while a
 * request is in flight goes out together in the next one.
 */
class ProducerLane {
  private queue: Queued[] = [];
  private head = 0;
  private running: Promise<void> | undefined;
  private lingerTimer: NodeJS.Timeout | undefined;
  private producerReady: Promise<Producer> | undefined;

  constructor(
    private readonly createProducer: () => Producer,
    private readonly lingerMs: number,
    private readonly maxRequestBytes: number,
  ) {}

  enqueue(item: Queued): void {
    this.queue.push(item);
  }

  schedule(): void {
    if (this.running || this.lingerTimer) return;
    this.lingerTimer = setTimeout(() => {
      this.lingerTimer = undefined;
      this.running = this.run();
    }, this.lingerMs);
  }

  /** Resolves when everything queued so far has been sent (or failed). */
  async drain(): Promise<void> {
    while (this.running || this.lingerTimer) {
      if (this.lingerTimer) {
        clearTimeout(this.lingerTimer);
        this.lingerTimer = undefined;
        this.running = this.run();
      }
      await this.running;
    }
  }

  async disconnect(): Promise<void> {
    const ready = this.producerReady;
    this.producerReady = undefined;
    await ready?.then((producer) => producer.disconnect()).catch(() => undefined);
  }

  private producer(): Promise<Producer> {
    this.producerReady ??= (async () => {
      const producer = this.createProducer();
      await producer.connect();
      return producer;
    })().catch((error: unknown) => {
      this.producerReady = undefined;
      throw error;
    });
    return this.producerReady;
  }

  private async run(): Promise<void> {
    try {
      for (;;) {
        const chunk = this.take();
        if (chunk.length === 0) return;
        await this.send(chunk);
      }
    } finally {
      this.running = undefined;
    }
  }

  private take(): Queued[] {
    const chunk: Queued[] = [];
    let bytes = 0;
    while (this.head < this.queue.length) {
      const next = this.queue[this.head]!;
      if (next.ticket.failed) {
        this.head++;
        continue;
      }
      if (chunk.length > 0 && bytes + next.bytes > this.maxRequestBytes) break;
      chunk.push(next);
      bytes += next.bytes;
      this.head++;
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 50_000) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return chunk;
  }

  private async send(chunk: Queued[]): Promise<void> {
    const byTopic = new Map<string, Message[]>();
    for (const { topic, message } of chunk) {
      let messages = byTopic.get(topic);
      if (!messages) byTopic.set(topic, (messages = []));
      messages.push(message);
    }
    try {
      const producer = await this.producer();
      await producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
      });
    } catch (error) {
      for (const { ticket } of chunk) {
        if (ticket.failed) continue;
        ticket.failed = true;
        ticket.reject(error);
      }
      return;
    }
    for (const { ticket } of chunk) {
      if (ticket.failed) continue;
      if (--ticket.remaining === 0) ticket.resolve();
    }
  }
}

/**
 * Coalesces concurrent publishes into few produce requests. Keys are spread over a few lanes,
 * each with its own idempotent producer, so one lane encodes its next request while the
 * broker works on another's (kafkajs sends one idempotent producer's requests one by one).
 */
class CoalescingPublisher {
  private readonly lanes: ProducerLane[];

  constructor(createProducer: () => Producer, lanes: number, lingerMs: number, maxRequestBytes: number) {
    if (!Number.isInteger(lanes) || lanes < 1) throw new Error(`producer lanes must be a positive integer, got ${lanes}`);
    this.lanes = Array.from({ length: lanes }, () => new ProducerLane(createProducer, lingerMs, maxRequestBytes));
  }

  publish(messages: BusMessage[]): Promise<void> {
    if (messages.length === 0) return Promise.resolve();
    for (const message of messages) {
      if (!message.topic) return Promise.reject(new Error('a bus message needs a topic'));
      if (typeof message.key !== 'string') {
        return Promise.reject(new Error(`a bus message needs a string key (topic ${message.topic})`));
      }
    }
    return new Promise<void>((resolve, reject) => {
      const ticket: Ticket = { remaining: messages.length, failed: false, resolve, reject };
      const touched = new Set<ProducerLane>();
      for (const message of messages) {
        const lane = this.lanes[this.lanes.length === 1 ? 0 : laneOf(message.key, this.lanes.length)]!;
        lane.enqueue({
          topic: message.topic,
          // Copied now: the caller may reuse its buffer before the request is encoded.
          message: { key: message.key, value: Buffer.from(message.value), headers: toHeaders(message.headers) },
          bytes: recordBytes(message),
          ticket,
        });
        touched.add(lane);
      }
      for (const lane of touched) lane.schedule();
    });
  }

  async drain(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.drain()));
  }

  async disconnect(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.disconnect()));
  }
}

/** How often a busy partition's loop offers kafkajs a heartbeat and an interval commit. */
const HOUSEKEEPING_INTERVAL_MS = 100;

interface ConsumerSettings {
  sessionTimeout: number;
  rebalanceTimeout: number;
  heartbeatInterval: number;
  maxWaitTimeInMs: number;
  partitionsConsumedConcurrently: number;
  autoCommitIntervalMs: number;
}

class KafkaSubscription implements Subscription {
  private stopping = false;
  private stopped: Promise<void> | undefined;
  private readonly wakeOnStop = new Set<() => void>();

  constructor(
    private readonly bus: KafkaBus,
    private readonly consumer: Consumer,
    private readonly options: SubscribeOptions,
    private readonly policy: RetryPolicy,
    private readonly settings: ConsumerSettings,
  ) {}

  async start(): Promise<void> {
    const { consumer } = this;
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      this.bus.logger?.error({ group: this.options.group, error: payload.error.message, restart: payload.restart }, 'kafka consumer crashed');
    });
    await consumer.connect();
    await consumer.subscribe({ topics: this.options.topics, fromBeginning: this.options.fromBeginning ?? true });
    // Resolves once the consumer has joined the group and received its partitions.
    await consumer.run({
      autoCommit: true,
      autoCommitInterval: this.settings.autoCommitIntervalMs,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.settings.partitionsConsumedConcurrently,
      eachBatch: (payload) => this.handleBatch(payload),
    });
  }

  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping = true;
      for (const wake of this.wakeOnStop) wake();
      this.wakeOnStop.clear();
      // kafkajs stops fetching, waits for the batches being handled (each ends after its
      // in-flight message), commits the resolved offsets and leaves the group.
      await this.consumer.disconnect();
      this.bus.forget(this);
    })();
    return this.stopped;
  }

  private async handleBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary } = payload;
    const active = () => !this.stopping && payload.isRunning() && !payload.isStale();
    // A slow handler must not cost the group membership: keep heartbeating while it runs.
    // A failure here (a rebalance) is seen again by the heartbeat after the message, which
    // lets kafkajs rejoin.
    const keepAlive = setInterval(() => heartbeat().catch(() => undefined), this.settings.heartbeatInterval);
    // Heartbeats and interval commits are rate-limited by kafkajs too; checking the clock here
    // first saves a few promises per message on busy partitions.
    let lastHousekeeping = Date.now();
    // The offset of the last finished message, resolved lazily (resolving is not free).
    let finished: string | undefined;
    try {
      for (const message of batch.messages) {
        if (!active()) return;
        const done = await this.deliver(batch.topic, batch.partition, message, payload, active);
        if (!done) return;
        finished = message.offset;
        const now = Date.now();
        if (now - lastHousekeeping >= HOUSEKEEPING_INTERVAL_MS) {
          lastHousekeeping = now;
          resolveOffset(finished);
          await heartbeat();
          await commitOffsetsIfNecessary();
        }
      }
    } finally {
      clearInterval(keepAlive);
      // Also on a stop or a rebalance: what was finished gets committed, nothing after it.
      if (finished !== undefined) resolveOffset(finished);
    }
  }

  /** True when the message is finished with (handled or dead-lettered); false when it is left for redelivery. */
  private async deliver(
    topic: string,
    partition: number,
    message: KafkaMessage,
    payload: EachBatchPayload,
    active: () => boolean,
  ): Promise<boolean> {
    const key = message.key ? message.key.toString() : '';
    const headers = fromHeaders(message.headers);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.options.handler({
          topic,
          key,
          value: asBytes(message.value),
          headers: { ...headers },
          partition,
          offset: message.offset,
          attempt,
        } satisfies DeliveredMessage);
        return true;
      } catch (error) {
        const reason = errorMessage(error);
        const where = { group: this.options.group, topic, partition, offset: message.offset };
        if (attempt >= this.policy.maxAttempts) {
          this.bus.logger?.error({ ...where, attempts: attempt, error: reason }, 'handler failed on every attempt; dead-lettering');
          return this.deadLetter(
            { topic: deadLetterTopic(topic), key, value: asBytes(message.value), headers: deadLetterHeaders(headers, topic, attempt, reason) },
            payload,
            active,
          );
        }
        if (!active()) return false;
        const delay = backoffDelay(attempt, this.policy);
        this.bus.logger?.warn({ ...where, attempt, delayMs: delay, error: reason }, 'handler failed; retrying');
        await this.sleep(delay, payload.heartbeat);
        if (!active()) return false;
      }
    }
  }

  /** Publishes to the dead-letter topic, retrying until it is accepted or the subscription stops. */
  private async deadLetter(message: BusMessage, payload: EachBatchPayload, active: () => boolean): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.bus.publishDeadLetter(message);
        return true;
      } catch (error) {
        if (!active()) return false;
        const delay = backoffDelay(attempt, this.policy);
        this.bus.logger?.error({ topic: message.topic, attempt, delayMs: delay, error: errorMessage(error) }, 'dead-letter publish failed; retrying');
        await this.sleep(delay, payload.heartbeat);
        if (!active()) return false;
      }
    }
  }

  /** Waits `ms`, heartbeating meanwhile; returns early when the subscription stops. */
  private async sleep(ms: number, heartbeat: () => Promise<void>): Promise<void> {
    const until = Date.now() + ms;
    while (!this.stopping) {
      const left = until - Date.now();
      if (left <= 0) return;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.wakeOnStop.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(left, this.settings.heartbeatInterval));
        this.wakeOnStop.add(wake);
      });
      await heartbeat();
    }
  }
}

class KafkaBus implements EventBus {
  private readonly kafka: Kafka;
  private readonly publisher: CoalescingPublisher;
  private readonly subscriptions = new Set<KafkaSubscription>();
  private readonly knownTopics = new Set<string>();
  private adminReady: Promise<Admin> | undefined;
  private readonly settings: ConsumerSettings;
  private closed = false;

  constructor(private readonly options: KafkaBusOptions) {
    if (options.brokers.length === 0) throw new Error('the kafka bus needs at least one broker');
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      logLevel: KAFKA_LOG_LEVELS[options.kafkaLogLevel ?? 'error'],
      ...(options.logger ? { logCreator: pinoLogCreator(options.logger) } : {}),
      ...(options.connectionTimeoutMs ? { connectionTimeout: options.connectionTimeoutMs } : {}),
      ...(options.requestTimeoutMs ? { requestTimeout: options.requestTimeoutMs } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
    });
    const consumer = options.consumer ?? {};
    this.settings = {
      sessionTimeout: consumer.sessionTimeout ?? 30_000,
      rebalanceTimeout: consumer.rebalanceTimeout ?? 60_000,
      heartbeatInterval: consumer.heartbeatInterval ?? 3_000,
      maxWaitTimeInMs: consumer.maxWaitTimeInMs ?? 1_000,
      partitionsConsumedConcurrently: consumer.partitionsConsumedConcurrently ?? 6,
      autoCommitIntervalMs: consumer.autoCommitIntervalMs ?? 1_000,
    };
    this.publisher = new CoalescingPublisher(
      () =>
        this.kafka.producer({
          createPartitioner: Partitioners.DefaultPartitioner,
          idempotent: true,
          maxInFlightRequests: 5,
          allowAutoTopicCreation: true,
        }),
      options.producer?.lanes ?? 2,
      options.producer?.lingerMs ?? 2,
      options.producer?.maxRequestBytes ?? 900_000,
    );
  }

  get logger(): Logger | undefined {
    return this.options.logger;
  }

  publish(messages: BusMessage[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the event bus is closed'));
    return this.publisher.publish(messages);
  }

  /** Dead-letters go out even while `close()` drains the subscriptions. */
  publishDeadLetter(message: BusMessage): Promise<void> {
    return this.publisher.publish([message]);
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error('the event bus is closed');
    if (options.topics.length === 0) throw new Error(`subscription of group ${options.group} names no topics`);
    const policy = retryPolicy(options);
    const topics = [...new Set(options.topics)];
    // Subscribing to a topic that does not exist yet must work, and dead-lettering must not
    // wait for a topic to be created while the partition is blocked.
    await this.ensureTopics([...topics, ...topics.map(deadLetterTopic)]);
    const consumer = this.kafka.consumer({
      groupId: options.group,
      sessionTimeout: this.settings.sessionTimeout,
      rebalanceTimeout: this.settings.rebalanceTimeout,
      heartbeatInterval: this.settings.heartbeatInterval,
      maxWaitTimeInMs: this.settings.maxWaitTimeInMs,
      allowAutoTopicCreation: false,
    });
    const subscription = new KafkaSubscription(this, consumer, { ...options, topics }, policy, this.settings);
    this.subscriptions.add(subscription);
    try {
      await subscription.start();
    } catch (error) {
      await subscription.stop().catch(() => undefined);
      throw error;
    }
    return subscription;
  }

  async ensureTopics(topics: string[]): Promise<void> {
    const wanted = [...new Set(topics)].filter((topic) => !this.knownTopics.has(topic));
    if (wanted.length === 0) return;
    const admin = await this.admin();
    const existing = new Set(await admin.listTopics());
    const missing = wanted.filter((topic) => !existing.has(topic));
    if (missing.length > 0) {
      // Resolves false (no throw) when another client created them first. Right after creation
      // a KRaft broker can still answer metadata with "does not host this topic-partition",
      // which kafkajs' own wait does not retry; waitForLeaders below does.
      await admin
        .createTopics({ topics: missing.map((topic) => ({ topic, numPartitions: this.options.numPartitions ?? 6 })) })
        .catch((error: unknown) => {
          if (!(error as { retriable?: boolean }).retriable) throw error;
        });
      await waitForLeaders(admin, missing);
    }
    for (const topic of wanted) this.knownTopics.add(topic);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.publisher.drain();
    const admin = this.adminReady;
    this.adminReady = undefined;
    await Promise.all([this.publisher.disconnect(), admin?.then((a) => a.disconnect()).catch(() => undefined)]);
  }

  forget(subscription: KafkaSubscription): void {
    this.subscriptions.delete(subscription);
  }

  private admin(): Promise<Admin> {
    this.adminReady ??= (async () => {
      const admin = this.kafka.admin();
      await admin.connect();
      return admin;
    })().catch((error: unknown) => {
      this.adminReady = undefined;
      throw error;
    });
    return this.adminReady;
  }
}

export function createKafkaBus(options: KafkaBusOptions): EventBus {
  return new KafkaBus(options);
}

/** Waits until every partition of `topics` has a leader, retrying transient metadata errors. */
async function waitForLeaders(admin: Admin, topics: string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 50; ; delay = Math.min(delay * 2, 1_000)) {
    try {
      const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
      const led = metadata.every((topic) => topic.partitions.length > 0 && topic.partitions.every((partition) => partition.leader >= 0));
      if (led) return;
    } catch (error) {
      if (!(error as { retriable?: boolean }).retriable) throw error;
      if (Date.now() + delay > deadline) throw error;
    }
    if (Date.now() + delay > deadline) throw new Error(`Topics ${topics.join(', ')} have no leader after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
