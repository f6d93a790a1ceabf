/**
 * The database handle every service opens: one Drizzle API over two drivers.
 *
 * - `postgres` (distributed mode): a node-postgres pool against a real PostgreSQL server.
 * - `pglite` (standalone mode): PGlite, real Postgres compiled to WebAssembly, in process.
 *
 * Each service owns one Postgres schema (`identity`, `scoring`, ...). The handle creates it when
 * missing. **Tables are schema-qualified in Drizzle** (`pgSchema('identity').table(...)`), so
 * every query names its schema and `search_path` does not decide where data goes. That matters
 * in standalone mode, where all services share ONE PGlite instance (PGlite is a single
 * connection, and one data dir can be opened once per process): a per-service `search_path`
 * could not hold on a shared connection. On Postgres the pool still sets `search_path` to the
 * service's schema on every connection, as a safety net for hand-written SQL; on PGlite it is
 * left at the default, so unqualified raw SQL is a bug that shows up in standalone mode.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { getTableConfig, PgDialect, type PgDatabase, type PgQueryResultHKT, type PgTable, type PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import pg from 'pg';

export type DatabaseConfig =
  | { driver: 'postgres'; url: string; schema: string; poolSize?: number; applicationName?: string }
  | { driver: 'pglite'; dataDir: string | 'memory'; schema: string };

export type Driver = DatabaseConfig['driver'];

/** The Drizzle database: the same type, and the same query code, on both drivers. */
export type Database<TTables extends Record<string, unknown> = Record<string, never>> = PgDatabase<
  PgQueryResultHKT,
  TTables
>;

/** An open transaction, as handed to `db.transaction(async (tx) => ...)`. */
export type Transaction<TTables extends Record<string, unknown> = Record<string, never>> = PgTransaction<
  PgQueryResultHKT,
  TTables,
  ExtractTablesWithRelations<TTables>
>;

/**
 * Anything that runs queries: a database or an open transaction, with any table set. Plumbing
 * (outbox, inbox) takes this so it works inside the caller's transaction whatever its schema.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Executor = PgDatabase<PgQueryResultHKT, any, any>;

export interface DatabaseHandle<TTables extends Record<string, unknown> = Record<string, never>> {
  readonly db: Database<TTables>;
  /**
   * For the reads a service sends again and again in a few shapes (`queryRowsPrepared`): on
   * Postgres, connections of their own (as many as `db` may open) that plan a prepared statement
   * once and keep that plan whatever its values (plan_cache_mode = force_generic_plan). `db`'s
   * connections leave Postgres to plan each statement for its values, which the rest of a
   * service's queries are written for. On PGlite, `db`.
   */
  readonly preparedReads: Executor;
  /** The Postgres schema this service owns. */
  readonly schema: string;
  readonly driver: Driver;
  /**
   * Runs `fn` while holding an exclusive lock named `name`, on a connection of its own.
   * Postgres: a session-level `pg_advisory_lock`, so it excludes other processes too and is
   * released if this process dies. PGlite: an in-process mutex (one process owns the data dir).
   */
  withExclusiveLock<T>(name: string, fn: (db: Executor) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` for each NOTIFY on `channel` (`pg_notify(channel, payload)`). Postgres uses
   * a dedicated client that reconnects after errors; PGlite its built-in listen. Resolves to an
   * unsubscribe function. Notifications are a wake-up hint only: they can be lost on reconnect.
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schema names are interpolated into connection options, so only plain identifiers pass. */
export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema) || schema.startsWith('pg_')) {
    throw new Error(`database schema "${schema}" must be a lower-case identifier (a-z, 0-9, _), not starting with pg_`);
  }
}

export async function openDatabase<TTables extends Record<string, unknown> = Record<string, never>>(
  config: DatabaseConfig & { tables?: TTables },
): Promise<DatabaseHandle<TTables>> {
  assertSchemaName(config.schema);
  return config.driver === 'postgres' ? openPostgres(config) : openPglite(config);
}

// ---------------------------------------------------------------------------------------------
// Postgres

async function openPostgres<TTables extends Record<string, unknown>>(
  config: Extract<DatabaseConfig, { driver: 'postgres' }> & { tables?: TTables },
): Promise<DatabaseHandle<TTables>> {
  const { schema, url } = config;
  const connection: pg.ClientConfig = {
    connectionString: url,
    // Every pooled connection starts with the service's schema first on its search_path.
    options: `-c search_path=${schema},public`,
    application_name: config.applicationName ?? `parlance-${schema}`,
  };
  const max = config.poolSize ?? 10;
  const pool = new pg.Pool({ ...connection, max });
  const preparedReadsPool = new pg.Pool({ ...connection, options: `${connection.options} -c plan_cache_mode=force_generic_plan`, max });
  // An idle client that loses its server (restart, network) emits here; without a listener the
  // process would crash. The pool discards the client and opens a fresh one on next use.
  pool.on('error', () => {});
  preparedReadsPool.on('error', () => {});
  const db = drizzlePg({ client: pool, ...(config.tables ? { schema: config.tables } : {}) });
  try {
    await createSchema(db, schema);
  } catch (error) {
    await Promise.all([pool.end().catch(() => {}), preparedReadsPool.end().catch(() => {})]);
    throw error;
  }
  const listeners = new Set<PgListener>();
  let closed = false;

  return {
    db,
    preparedReads: drizzlePg({ client: preparedReadsPool }),
    schema,
    driver: 'postgres',
    async withExclusiveLock(name, fn) {
      const client = await pool.connect();
      let broken: unknown;
      try {
        await client.query('select pg_advisory_lock(hashtext($1), hashtext($2))', ['parlance', name]);
        try {
          return await fn(drizzlePg({ client }));
        } finally {
          await client.query('select pg_advisory_unlock(hashtext($1), hashtext($2))', ['parlance', name]).catch((error: unknown) => {
            broken = error;
          });
        }
      } finally {
        // A connection whose unlock failed may still hold the lock: destroy it, never reuse it.
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
    async listen(channel, onNotify) {
      const listener = new PgListener(connection, channel, onNotify);
      listeners.add(listener);
      await listener.start();
      return async () => {
        listeners.delete(listener);
        await listener.stop();
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...listeners].map((l) => l.stop()));
      listeners.clear();
      await Promise.all([pool.end(), preparedReadsPool.end()]);
    },
  };
}

/** LISTEN on a client of its own (a pooled one would be handed to other queries). */
class PgListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly channel: string,
    private readonly onNotify: (payload: string) => void,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client(this.connection);
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.onNotify(message.payload ?? '');
    });
    client.on('error', () => this.reconnectLater(client));
    client.on('end', () => this.reconnectLater(client));
    await client.connect();
    await client.query(`listen ${quoteIdentifier(this.channel)}`);
  }

  private reconnectLater(client: pg.Client): void {
    if (this.stopped || this.client !== client || this.retry) return;
    this.client = undefined;
    client.end().catch(() => {});
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.stopped) return;
      this.start().catch(() => this.client && this.reconnectLater(this.client));
    }, 1000);
    this.retry.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------
// PGlite

/**
 * PostgreSQL's autovacuum is a background process, which PGlite (one backend in this process) does
 * not run: the dead versions that updates and deletes leave stay in a table and its indexes until
 * someone vacuums. The outbox relay's read of unpublished rows was measured visiting them (a
 * leased work queue's claim was not), so the relay vacuums its outbox itself, every this many rows.
 */
export const PGLITE_VACUUM_EVERY = 200;

/** `VACUUM <schema>.<table>`: run outside any transaction. */
export function vacuumStatement(table: PgTable): SQL {
  const { schema, name } = getTableConfig(table);
  return sql.raw(`VACUUM ${quoteIdentifier(schema ?? 'public')}.${quoteIdentifier(name)}`);
}

interface SharedPglite {
  pglite: Promise<PGlite>;
  users: number;
}

const registry = new Map<string, SharedPglite>();

const registryKey = (dataDir: string) => (dataDir === 'memory' ? 'memory' : path.resolve(dataDir));

/**
 * The one PGlite instance for `dataDir` in this process (`'memory'` names one shared in-memory
 * database). Every service of the standalone host that opens the same dataDir shares it; the
 * instance closes when the last handle using it closes. Pair each call with
 * `releaseSharedPglite(dataDir)` (a handle's `close()` does that for you).
 */
export function sharedPglite(dataDir: string | 'memory'): Promise<PGlite> {
  const key = registryKey(dataDir);
  let entry = registry.get(key);
  if (!entry) {
    const pglite = PGlite.create(key === 'memory' ? undefined : key);
    entry = { pglite, users: 0 };
    registry.set(key, entry);
    // A failed open must not poison the registry for the next attempt.
    pglite.catch(() => registry.get(key) === entry && registry.delete(key));
  }
  entry.users += 1;
  return entry.pglite;
}

/** Gives back one `sharedPglite` reference; the last one closes the instance. */
export async function releaseSharedPglite(dataDir: string): Promise<void> {
  const key = registryKey(dataDir);
  const entry = registry.get(key);
  if (!entry) return;
  entry.users -= 1;
  if (entry.users > 0) return;
  registry.delete(key);
  await (await entry.pglite).close();
}

/** In-process named locks: a promise chain per name. */
const localLocks = new Map<string, Promise<unknown>>();

async function withLocalLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const previous = localLocks.get(name) ?? Promise.resolve();
  const run = previous.catch(() => {}).then(fn);
  const tail = run.catch(() => {});
  localLocks.set(name, tail);
  try {
    return await run;
  } finally {
    if (localLocks.get(name) === tail) localLocks.delete(name);
  }
}

async function openPglite<TTables extends Record<string, unknown>>(
  config: Extract<DatabaseConfig, { driver: 'pglite' }> & { tables?: TTables },
): Promise<DatabaseHandle<TTables>> {
  const { schema, dataDir } = config;
  let pglite: PGlite;
  try {
    pglite = await sharedPglite(dataDir);
  } catch (error) {
    await releaseSharedPglite(dataDir);
    throw error;
  }
  const db = drizzlePglite({ client: pglite, ...(config.tables ? { schema: config.tables } : {}) });
  try {
    await createSchema(db, schema);
  } catch (error) {
    await releaseSharedPglite(dataDir);
    throw error;
  }
  const unlisteners = new Set<() => Promise<void>>();
  let closed = false;

  return {
    db,
    preparedReads: db,
    schema,
    driver: 'pglite',
    withExclusiveLock: (name, fn) => withLocalLock(`${registryKey(dataDir)}:${name}`, () => fn(db)),
    async listen(channel, onNotify) {
      const unlisten = await pglite.listen(channel, onNotify);
      const stop = async () => {
        unlisteners.delete(stop);
        await unlisten();
      };
      unlisteners.add(stop);
      return stop;
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...unlisteners].map((stop) => stop().catch(() => {})));
      await releaseSharedPglite(dataDir);
    },
  };
}

// ---------------------------------------------------------------------------------------------

async function createSchema(db: Database<Record<string, unknown>>, schema: string): Promise<void> {
  try {
    await db.execute(sql`create schema if not exists ${sql.identifier(schema)}`);
  } catch (error) {
    // Two processes creating the same schema at once: one wins, the other sees a unique
    // violation on pg_namespace. Either way the schema now exists.
    if (!isUniqueViolation(error)) throw error;
  }
}

/**
 * The PostgreSQL error code (SQLSTATE, e.g. 23505) of a failed query, looked for along the
 * `cause` chain: drizzle wraps the driver's error in its own.
 */
export function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown): boolean => sqlState(error) === '23505';

/**
 * Rows of a raw `sql` query. `db.execute` is typed per driver (node-postgres' QueryResult,
 * PGlite's Results); both carry `rows`, which is all shared code needs.
 */
export async function queryRows<T extends Record<string, unknown>>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as { rows: T[] };
  return result.rows;
}

/**
 * Rows of a raw `sql` query a service sends often, in few shapes (such as a list's), as a named
 * prepared statement (named after its text): Postgres parses it once per connection and, on the
 * connections of `preparedReads`, plans it once too, where `queryRows` has it planned on every
 * call — for a statement of CTEs and joins, planning can cost more than running it. PGlite has no
 * named statements; there it is `queryRows`. Values must travel as parameters (arrays as one,
 * `= any(…)`), so that the text is the shape alone; past PREPARED_SHAPES distinct texts, further
 * ones are not prepared, which keeps what each connection holds bounded.
 */
export async function queryRowsPrepared<T extends Record<string, unknown>>(db: Executor, query: SQL): Promise<T[]> {
  const { sql: text, params } = DIALECT.sqlToQuery(query);
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < PREPARED_SHAPES) {
    name = `parlance_${createHash('sha1').update(text).digest('hex')}`;
    preparedNames.set(text, name);
  }
  const result = (await db._.session.prepareQuery({ sql: text, params }, undefined, name, false).execute()) as { rows: T[] };
  return result.rows;
}

const PREPARED_SHAPES = 200;
const preparedNames = new Map<string, string>();
const DIALECT = new PgDialect();

export const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;
