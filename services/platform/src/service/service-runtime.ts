import type { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';
import type { DeliveredMessage, EventBus, Subscription } from '../bus/event-bus.js';
import type { DatabaseHandle, Transaction } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { readEnvelope } from '../events/event-envelope.js';
import type { ServiceDefinitionLike, ServiceImplementation } from '../grpc/grpc-server.js';
import type { ModuleContext, ModuleDefinition, RunningModule } from '../host/module.js';
import {
  BUS_MODULE,
  DATABASE_MODULE,
  GRPC_SERVER_MODULE,
  type DatabaseFactory,
  type GrpcPlumbing,
} from '../host/plumbing-modules.js';
import type { Logger } from '../logger.js';
import { eventsConsumed } from '../metrics.js';
import { idempotentHandler, purgeInbox } from '../outbox/inbox.js';
import { startOutboxRelay, type OutboxRelay } from '../outbox/relay.js';
import type { InboxTable, OutboxTable } from '../outbox/tables.js';
import { purgeProbes, startProbe, type ProbeTable } from '../probe/probe.js';
import { extractTraceContext, inSpan, SpanKind } from '../telemetry.js';

const HOUR_MS = 60 * 60 * 1000;
const HOUSEKEEPING_INTERVAL_MS = HOUR_MS;
/** How long the inbox remembers the ids of events handled, to drop redeliveries. */
export const INBOX_RETENTION_MS = 8 * 24 * HOUR_MS;
const PROBE_RETENTION_MS = 24 * HOUR_MS;

/** The plumbing modules a service module depends on. */
export const SERVICE_DEPENDENCIES = [BUS_MODULE, DATABASE_MODULE, GRPC_SERVER_MODULE] as const;

export interface ServiceTables {
  outbox: OutboxTable;
  inbox: InboxTable;
  probes: ProbeTable;
}

export interface ServiceRuntimeOptions {
  /** The service's name: its module, schema, consumer-group prefix and health name. */
  name: string;
  tables: ServiceTables;
  /** The service's drizzle-kit migrations folder. */
  migrationsFolder: string;
}

export interface EventConsumer {
  /** Stable name; with the service it forms the consumer group and the inbox key. */
  consumer: string;
  eventTypes: string[];
  /** The effect, run once per event in the inbox transaction: write everything through `tx`. */
  handle(event: EventEnvelope, tx: Transaction<Record<string, unknown>>, message: DeliveredMessage): Promise<void>;
  maxAttempts?: number;
}

export interface ServiceRuntime {
  readonly name: string;
  readonly database: DatabaseHandle<Record<string, unknown>>;
  readonly bus: EventBus;
  readonly logger: Logger;
  /** Adds a gRPC service to this process's server. */
  serve<D extends ServiceDefinitionLike>(definition: D, implementation: ServiceImplementation<D>): void;
  /** Applies each event of the given types exactly once (inbox), continuing the producer's trace. */
  consume(consumer: EventConsumer): Promise<void>;
  /** Reports the service as serving; call at the end of the module's init. */
  markServing(): void;
  /** The lifecycle the module hands back to the host. */
  lifecycle(extra?: { quiesce?: () => Promise<void>; stop?: () => Promise<void> }): RunningModule<ServiceRuntime>;
}

/**
 * What every service does the same way: open its own schema, apply its migrations, publish its
 * outbox, answer pipeline probes and report health. Business modules build on this and add
 * their gRPC services and consumers.
 */
export async function startServiceRuntime(context: ModuleContext, options: ServiceRuntimeOptions): Promise<ServiceRuntime> {
  const { name, tables } = options;
  const logger = context.logger;
  const bus = context.dependency<EventBus>(BUS_MODULE);
  const grpc = context.dependency<GrpcPlumbing>(GRPC_SERVER_MODULE);
  const database = await context.dependency<DatabaseFactory>(DATABASE_MODULE)(name);

  const { applied } = await migrate(database, { migrationsFolder: options.migrationsFolder });
  if (applied.length > 0) logger.info({ migrations: applied.length }, 'applied migrations');

  const relay: OutboxRelay = await startOutboxRelay({ database, outbox: tables.outbox, bus, logger: logger.child({ part: 'outbox-relay' }) });
  const subscriptions: Subscription[] = [];

  // Inbox rows must outlive any redelivery (Kafka keeps a topic 7 days by default); probes are
  // diagnostics and matter for a day.
  const housekeeping = setInterval(() => {
    const now = Date.now();
    Promise.all([
      purgeInbox(database.db, tables.inbox, new Date(now - INBOX_RETENTION_MS)),
      purgeProbes(database.db, tables.probes, new Date(now - PROBE_RETENTION_MS)),
    ]).catch((error: unknown) => logger.warn({ err: error }, 'housekeeping failed; will try again'));
  }, HOUSEKEEPING_INTERVAL_MS);
  housekeeping.unref();

  const runtime: ServiceRuntime = {
    name,
    database,
    bus,
    logger,
    serve(definition, implementation) {
      grpc.server.addService(definition, implementation);
    },
    async consume(consumer) {
      const consumerName = `${name}.${consumer.consumer}`;
      await bus.ensureTopics(consumer.eventTypes);
      const consumed = eventsConsumed();
      const duplicates = new WeakSet<DeliveredMessage>();
      const applyOnce = idempotentHandler({
        db: database.db,
        inbox: tables.inbox,
        consumer: consumerName,
        handle: (message, tx) => consumer.handle(readEnvelope(message), tx, message),
        onDuplicate: (message, eventId) => {
          duplicates.add(message);
          logger.debug({ eventId, topic: message.topic }, 'skipped an event applied before');
        },
      });
      subscriptions.push(
        await bus.subscribe({
          group: consumerName,
          topics: consumer.eventTypes,
          maxAttempts: consumer.maxAttempts ?? 5,
          handler: (message) =>
            inSpan(
              `consume ${message.topic}`,
              {
                kind: SpanKind.CONSUMER,
                parent: extractTraceContext(message.headers),
                attributes: { 'messaging.destination.name': message.topic, 'messaging.consumer.group.name': consumerName },
              },
              async () => {
                try {
                  await applyOnce(message);
                  const outcome = duplicates.has(message) ? 'duplicate' : 'applied';
                  consumed.inc({ topic: message.topic, group: consumerName, outcome });
                } catch (error) {
                  consumed.inc({ topic: message.topic, group: consumerName, outcome: 'failed attempt' });
                  throw error;
                }
              },
            ),
        }),
      );
    },
    markServing() {
      grpc.health.setStatus(name, 'SERVING');
    },
    lifecycle(extra = {}) {
      return {
        exports: runtime,
        // Every service stops publishing (quiesce) before any stops consuming (stop), so what a
        // relay has handed to the bus is consumed; what consumers write meanwhile stays in the
        // outbox for the next start.
        quiesce: async () => {
          grpc.health.setStatus(name, 'NOT_SERVING');
          await extra.quiesce?.();
          await relay.stop();
        },
        stop: async () => {
          clearInterval(housekeeping);
          await Promise.all(subscriptions.map((subscription) => subscription.stop()));
          await extra.stop?.();
        },
        ready: async () => !context.shuttingDown.aborted,
      };
    },
  };

  await startProbe(grpc.probes, runtime, tables);
  return runtime;
}

export interface ServiceModuleOptions extends ServiceRuntimeOptions {
  description: string;
  /** Modules the service needs besides the shared plumbing (e.g. transcription's local speech server). */
  dependencies?: readonly string[];
  /** Adds the service's own gRPC services and consumers; the runtime is serving after it. */
  start?(runtime: ServiceRuntime, context: ModuleContext): Promise<{ quiesce?: () => Promise<void>; stop?: () => Promise<void> } | void>;
}

/** A service as a host module: the shared runtime, then the service's own start. */
export function defineServiceModule(options: ServiceModuleOptions): ModuleDefinition<ServiceRuntime> {
  return {
    name: options.name,
    dependencies: [...SERVICE_DEPENDENCIES, ...(options.dependencies ?? [])],
    description: options.description,
    async init(context) {
      const runtime = await startServiceRuntime(context, options);
      const extra = (await options.start?.(runtime, context)) ?? {};
      runtime.markServing();
      return runtime.lifecycle(extra);
    },
  };
}
