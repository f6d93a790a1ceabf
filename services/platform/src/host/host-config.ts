import Type, { type Static } from 'typebox';
import { ConfigError, Port, loadConfig, splitList } from '../config.js';

/**
 * Settings every Parlance process shares. Standalone and distributed differ only here: which
 * database driver and bus adapter to use, and where the other services' gRPC servers are.
 */
export const HostConfigSchema = Type.Object({
  PARLANCE_MODE: Type.Union([Type.Literal('standalone'), Type.Literal('distributed')], {
    default: 'standalone',
    description: 'standalone: one process, PGlite, in-memory bus; distributed: PostgreSQL and Kafka',
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info', description: 'pino log level' },
  ),
  ADMIN_HOST: Type.String({ default: '127.0.0.1', description: 'interface for /healthz, /readyz and /metrics' }),
  ADMIN_PORT: Port('port for /healthz, /readyz and /metrics (0 picks a free port)', 9400),
  GRPC_HOST: Type.String({ default: '127.0.0.1', description: 'interface the gRPC server binds' }),
  GRPC_PORT: Port('port of this process’s gRPC server', 50051),
  BUS_ADAPTER: Type.Optional(
    Type.Union([Type.Literal('memory'), Type.Literal('kafka')], {
      description: 'event bus; defaults to memory when standalone, kafka when distributed',
    }),
  ),
  KAFKA_BROKERS: Type.Optional(Type.String({ minLength: 1, description: 'comma-separated host:port list' })),
  KAFKA_CLIENT_ID: Type.String({ default: 'parlance', description: 'Kafka client id of this process' }),
  DATABASE_DRIVER: Type.Optional(
    Type.Union([Type.Literal('pglite'), Type.Literal('postgres')], {
      description: 'defaults to pglite when standalone, postgres when distributed',
    }),
  ),
  DATABASE_URL: Type.Optional(
    Type.String({ pattern: '^postgres(ql)?://', description: 'PostgreSQL connection URL (postgres driver)' }),
  ),
  DATA_DIR: Type.String({ default: './.data', description: 'where standalone keeps its PGlite database' }),
  OTEL_TRACES_EXPORTER: Type.Union([Type.Literal('none'), Type.Literal('console'), Type.Literal('otlp')], {
    default: 'none',
    description: 'where spans go: none (trace ids in logs only), console, or otlp',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(
    Type.String({ pattern: '^https?://', description: 'OTLP/HTTP receiver base URL, e.g. http://collector:4318' }),
  ),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'connections per service pool (a service has a second for its prepared reads, opened only when used: analytics’ lists)' }),
});

export type RawHostConfig = Static<typeof HostConfigSchema>;

export interface HostConfig extends RawHostConfig {
  bus: { adapter: 'memory' } | { adapter: 'kafka'; brokers: string[]; clientId: string };
  database: { driver: 'pglite'; dataDir: string } | { driver: 'postgres'; url: string; poolSize: number };
}

/** Loads and cross-checks the shared settings; throws ConfigError naming each bad variable. */
export function loadHostConfig(env: NodeJS.ProcessEnv = process.env): HostConfig {
  const raw = loadConfig(HostConfigSchema, env);
  const distributed = raw.PARLANCE_MODE === 'distributed';
  const problems: string[] = [];

  const busAdapter = raw.BUS_ADAPTER ?? (distributed ? 'kafka' : 'memory');
  let bus: HostConfig['bus'] = { adapter: 'memory' };
  if (busAdapter === 'kafka') {
    const brokers = raw.KAFKA_BROKERS ? splitList(raw.KAFKA_BROKERS) : [];
    if (brokers.length === 0) problems.push('KAFKA_BROKERS is required when BUS_ADAPTER is kafka');
    else if (!brokers.every((broker) => /^[^:\s]+:\d+$/.test(broker))) {
      problems.push(`KAFKA_BROKERS must be host:port pairs separated by commas (got ${JSON.stringify(raw.KAFKA_BROKERS)})`);
    }
    bus = { adapter: 'kafka', brokers, clientId: raw.KAFKA_CLIENT_ID };
  }

  const driver = raw.DATABASE_DRIVER ?? (distributed ? 'postgres' : 'pglite');
  let database: HostConfig['database'] = { driver: 'pglite', dataDir: raw.DATA_DIR };
  if (driver === 'postgres') {
    if (!raw.DATABASE_URL) problems.push('DATABASE_URL is required when DATABASE_DRIVER is postgres');
    database = { driver: 'postgres', url: raw.DATABASE_URL ?? '', poolSize: raw.DATABASE_POOL_SIZE };
  }

  if (raw.OTEL_TRACES_EXPORTER === 'otlp' && !raw.OTEL_EXPORTER_OTLP_ENDPOINT) {
    problems.push('OTEL_EXPORTER_OTLP_ENDPOINT is required when OTEL_TRACES_EXPORTER is otlp');
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return { ...raw, bus, database };
}

/**
 * Where to reach a service's gRPC server: `<SERVICE>_GRPC_ADDR`. Standalone, it defaults to this
 * process's own server (every service runs in it); distributed, it must be set, since falling
 * back to this process would quietly call a server that is not there.
 */
export function serviceAddress(service: string, config: HostConfig, env: NodeJS.ProcessEnv = process.env): string {
  const variable = `${service.toUpperCase()}_GRPC_ADDR`;
  const value = env[variable];
  if (value === undefined || value === '') {
    if (config.PARLANCE_MODE === 'distributed') throw new ConfigError([`${variable} is required in distributed mode (host:port of the ${service} service)`]);
    if (config.GRPC_PORT === 0) throw new ConfigError([`${variable} is required when GRPC_PORT is 0 (the port this process binds is not known in advance)`]);
    return `127.0.0.1:${config.GRPC_PORT}`;
  }
  if (!/^[^:\s]+:\d+$/.test(value)) throw new ConfigError([`${variable} must be host:port (got ${JSON.stringify(value)})`]);
  return value;
}
