/**
 * Applies a service's drizzle-kit migrations when it starts, on Postgres and PGlite alike.
 *
 * Convention, for every service `<service>`:
 *   - tables are declared in `services/<service>/src/db/schema.ts`, schema-qualified with
 *     `export const <service> = pgSchema('<service>')` and `<service>.table(...)` (see database.ts);
 *   - migrations live in `services/<service>/src/db/migrations/`, generated (never hand-edited) with
 *       npx drizzle-kit generate --dialect postgresql \
 *         --schema services/<service>/src/db/schema.ts --out services/<service>/src/db/migrations
 *   - the module's init calls `migrate(handle, { migrationsFolder })` before serving.
 *
 * Bookkeeping is drizzle's own table format (`id serial, hash text, created_at bigint`, a
 * migration is pending when its folder timestamp is newer than the last applied one), but the
 * table lives in the service's schema (`<service>.__drizzle_migrations`), so services sharing one
 * database (or one PGlite) never see each other's history.
 *
 * Differences from drizzle's bundled migrator, and why:
 *   - an exclusive lock keyed by schema (Postgres: `pg_advisory_lock`) is held from reading the
 *     history to committing, so two replicas starting together do not both apply a migration;
 *   - all pending migrations run in one transaction with `search_path` set to the schema, so
 *     unqualified DDL lands in the service's schema too;
 *   - drizzle-kit writes `CREATE SCHEMA "x"`; the handle has already created the schema, so that
 *     statement is applied as `CREATE SCHEMA IF NOT EXISTS "x"`;
 *   - `sourceSchema` re-targets migrations generated for one schema name at another, which lets
 *     a test apply a service's real migrations to a throwaway schema.
 */
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { desc, sql } from 'drizzle-orm';
import { bigint, pgSchema, serial, text } from 'drizzle-orm/pg-core';
import { assertSchemaName, quoteIdentifier, type DatabaseHandle } from './database.js';

export interface MigrateOptions {
  migrationsFolder: string;
  /** The schema to migrate, which also holds the history table. Default: the handle's schema. */
  schema?: string;
  /** History table name inside `schema`. Default `__drizzle_migrations` (drizzle-kit's). */
  migrationsTable?: string;
  /**
   * The schema name the migrations were generated for, when it differs from `schema`: every
   * quoted occurrence of it (`"source"`) in the SQL is replaced with `"schema"`.
   */
  sourceSchema?: string;
}

export interface MigrateResult {
  /** Hashes of the migrations this call applied, in order (empty when already up to date). */
  applied: string[];
}

export async function migrate(handle: DatabaseHandle<Record<string, unknown>>, options: MigrateOptions): Promise<MigrateResult> {
  const schema = options.schema ?? handle.schema;
  assertSchemaName(schema);
  const table = options.migrationsTable ?? '__drizzle_migrations';
  const migrations = readMigrationFiles({ migrationsFolder: options.migrationsFolder });
  const history = sql`${sql.identifier(schema)}.${sql.identifier(table)}`;
  const rewrite = statementRewriter(schema, options.sourceSchema);

  return handle.withExclusiveLock(`migrate:${schema}`, async (db) => {
    await db.execute(sql`create schema if not exists ${sql.identifier(schema)}`);
    await db.execute(sql`create table if not exists ${history} (id serial primary key, hash text not null, created_at bigint)`);
    const historyTable = pgSchema(schema).table(table, {
      id: serial('id').primaryKey(),
      hash: text('hash').notNull(),
      createdAt: bigint('created_at', { mode: 'number' }),
    });
    const [last] = await db.select({ createdAt: historyTable.createdAt }).from(historyTable).orderBy(desc(historyTable.createdAt)).limit(1);
    const lastMillis = last?.createdAt ?? undefined;
    const pending = migrations.filter((m) => lastMillis === undefined || lastMillis < m.folderMillis);
    if (pending.length === 0) return { applied: [] };

    await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local search_path to ${quoteIdentifier(schema)}, public`));
      for (const migration of pending) {
        for (const statement of migration.sql) {
          if (statement.trim() === '') continue;
          await tx.execute(sql.raw(rewrite(statement)));
        }
        await tx.execute(sql`insert into ${history} (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`);
      }
    });
    return { applied: pending.map((m) => m.hash) };
  });
}

function statementRewriter(schema: string, sourceSchema: string | undefined): (statement: string) => string {
  const source = sourceSchema && sourceSchema !== schema ? quoteIdentifier(sourceSchema) : undefined;
  const target = quoteIdentifier(schema);
  return (statement) => {
    let out = source ? statement.split(source).join(target) : statement;
    out = out.replace(/^(\s*CREATE\s+SCHEMA\s+)(?!IF\s+NOT\s+EXISTS)/i, '$1IF NOT EXISTS ');
    return out;
  };
}
