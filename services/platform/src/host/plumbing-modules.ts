import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createBus } from '../bus/create-bus.js';
import type { EventBus } from '../bus/event-bus.js';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
import { createGrpcServer, type GrpcServer } from '../grpc/grpc-server.js';
import { createHealthService, type Health } from '../grpc/health.js';
import { ProbeDirectory } from '../probe/probe.js';
import type { HostConfig } from './host-config.js';
import type { ModuleDefinition } from './module.js';

/** Opens the database of one service: its own schema, on the driver the config chose. */
export type DatabaseFactory = (schema: string) => Promise<DatabaseHandle<Record<string, unknown>>>;

export interface GrpcPlumbing {
  server: GrpcServer;
  health: Health;
  probes: ProbeDirectory;
  port: number;
}

export const BUS_MODULE = 'bus';
export const DATABASE_MODULE = 'database';
export const GRPC_SERVER_MODULE = 'grpc-server';

/** Shared plumbing every service module depends on, built once per process (as in Mimir). */
export function plumbingModules(config: HostConfig): ModuleDefinition[] {
  const bus: ModuleDefinition<EventBus> = {
    name: BUS_MODULE,
    dependencies: [],
    description: `event bus (${config.bus.adapter === 'kafka' ? `Kafka at ${config.bus.brokers.join(',')}` : 'in memory'})`,
    async init({ logger }) {
      // In memory, a message counts as delivered only once handled: the outbox relay must not
      // mark an event published while it could still vanish with the process.
      const settings = config.bus.adapter === 'memory' ? { ...config.bus, acknowledge: 'handled' as const } : config.bus;
      const instance = createBus(settings, logger);
      return { exports: instance, stop: () => instance.close() };
    },
  };

  const database: ModuleDefinition<DatabaseFactory> = {
    name: DATABASE_MODULE,
    dependencies: [],
    description: `database connections (${config.database.driver === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.database.dataDir}`})`,
    async init() {
      const handles: Array<DatabaseHandle<Record<string, unknown>>> = [];
      const settings = config.database;
      const pgliteDir = settings.driver === 'pglite' ? path.join(settings.dataDir, 'pglite') : '';
      if (pgliteDir) await mkdir(pgliteDir, { recursive: true });
      const open: DatabaseFactory = async (schema) => {
        const handle =
          settings.driver === 'postgres'
            ? await openDatabase({ driver: 'postgres', url: settings.url, schema, poolSize: settings.poolSize })
            : await openDatabase({ driver: 'pglite', dataDir: pgliteDir, schema });
        handles.push(handle as DatabaseHandle<Record<string, unknown>>);
        return handle as DatabaseHandle<Record<string, unknown>>;
      };
      return {
        exports: open,
        stop: async () => {
          await Promise.all(handles.map((handle) => handle.close()));
        },
      };
    },
  };

  const grpcServer: ModuleDefinition<GrpcPlumbing> = {
    name: GRPC_SERVER_MODULE,
    dependencies: [],
    description: `gRPC server on ${config.GRPC_HOST}:${config.GRPC_PORT} with the standard health service`,
    async init({ logger }) {
      const server = createGrpcServer({ host: config.GRPC_HOST, port: config.GRPC_PORT, logger });
      const health = createHealthService();
      server.addService(health.definition, health.implementation);
      const probes = new ProbeDirectory(server);
      const port = await server.start();
      return {
        exports: { server, health, probes, port },
        // Report NOT_SERVING first so callers stop sending, then let running calls finish.
        quiesce: async () => {
          health.shutdown();
          await server.stop(10_000);
        },
        stop: async () => undefined,
      };
    },
  };

  return [bus, database, grpcServer];
}
