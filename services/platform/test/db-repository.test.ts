import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, queryRowsPrepared, releaseSharedPglite, sharedPglite, type Database, type DatabaseConfig, type DatabaseHandle } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { testDatabaseUrl, uniqueName } from '../src/testing/infra.js';
import { FIXTURE_SCHEMA, MIGRATIONS_FOLDER, fixtureTables, type FixtureTables } from './fixtures/db/tables.js';

/** A repository as a service would write one: plain Drizzle over the handle's `db`. */
function widgetRepository(db: Database, { widgets }: FixtureTables) {
  return {
    create: (name: string, values: Partial<typeof widgets.$inferInsert> = {}) =>
      db
        .insert(widgets)
        .values({ name, ...values })
        .returning()
        .then((rows) => rows[0]!),
    byName: (name: string) =>
      db
        .select()
        .from(widgets)
        .where(eq(widgets.name, name))
        .then((rows) => rows[0]),
    adjust: (name: string, delta: number) =>
      db
        .update(widgets)
        .set({ quantity: sql`${widgets.quantity} + ${delta}`, updatedAt: new Date() })
        .where(eq(widgets.name, name))
        .returning()
        .then((rows) => rows[0]),
    all: () => db.select().from(widgets).orderBy(asc(widgets.name)),
  };
}

const drivers: Array<{ name: string; config: (schema: string) => DatabaseConfig }> = [
  { name: 'postgres', config: (schema) => ({ driver: 'postgres', url: testDatabaseUrl(), schema, poolSize: 4 }) },
  { name: 'pglite (in memory)', config: (schema) => ({ driver: 'pglite', dataDir: 'memory', schema }) },
];

describe.each(drivers)('a repository on $name', ({ config }) => {
  const schemaName = uniqueName('repo');
  const tables = fixtureTables(schemaName);
  let handle: DatabaseHandle;
  let repo: ReturnType<typeof widgetRepository>;

  beforeAll(async () => {
    handle = await openDatabase(config(schemaName));
    const { applied } = await migrate(handle, { migrationsFolder: MIGRATIONS_FOLDER, sourceSchema: FIXTURE_SCHEMA });
    expect(applied).toHaveLength(1);
    repo = widgetRepository(handle.db, tables);
  });

  afterAll(async () => {
    await handle?.db.execute(sql`drop schema if exists ${sql.identifier(schemaName)} cascade`);
    await handle?.close();
  });

  it('creates its tables in its own schema, with the migration history there too', async () => {
    const rows = await handle.db
      .select({ table: sql<string>`table_name` })
      .from(sql`information_schema.tables`)
      .where(sql`table_schema = ${schemaName}`)
      .orderBy(sql`table_name`);
    expect(rows.map((r) => r.table)).toEqual(['__drizzle_migrations', 'duplicates', 'effects', 'inbox', 'outbox', 'widgets']);
  });

  it('applies nothing when migrated again', async () => {
    expect((await migrate(handle, { migrationsFolder: MIGRATIONS_FOLDER, sourceSchema: FIXTURE_SCHEMA })).applied).toEqual([]);
  });

  it('inserts and selects a row with defaults filled in', async () => {
    const created = await repo.create('anvil');
    expect(created).toMatchObject({ name: 'anvil', quantity: 0, attributes: {}, blob: null, updatedAt: null });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await repo.byName('anvil')).toEqual(created);
  });

  it('updates a row in place', async () => {
    await repo.create('bucket', { quantity: 3 });
    const updated = await repo.adjust('bucket', 4);
    expect(updated?.quantity).toBe(7);
    expect(updated?.updatedAt).toBeInstanceOf(Date);
  });

  it('round-trips json, bytea and timestamps with time zone', async () => {
    const attributes = { colour: 'red', sizes: [1, 2, 3], nested: { ok: true, none: null }, text: 'ünïcødé "quoted"' };
    const blob = new Uint8Array([0, 1, 2, 254, 255, 0x5c, 0x27]);
    const createdAt = new Date('2024-02-29T23:59:58.123Z');
    await repo.create('crate', { attributes, blob, createdAt });
    const row = await repo.byName('crate');
    expect(row?.attributes).toEqual(attributes);
    expect(row?.blob).toBeInstanceOf(Uint8Array);
    expect([...row!.blob!]).toEqual([...blob]);
    expect(row?.createdAt.toISOString()).toBe(createdAt.toISOString());
    const [json] = await handle.db
      .select({ colour: sql<string>`${tables.widgets.attributes}->>'colour'` })
      .from(tables.widgets)
      .where(eq(tables.widgets.name, 'crate'));
    expect(json?.colour).toBe('red');
  });

  it('rolls back every write of a failed transaction', async () => {
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.insert(tables.widgets).values({ name: 'doomed' });
        await tx.update(tables.widgets).set({ quantity: 100 }).where(eq(tables.widgets.name, 'anvil'));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await repo.byName('doomed')).toBeUndefined();
    expect((await repo.byName('anvil'))?.quantity).toBe(0);
  });

  it('rolls back a transaction that violates a constraint, keeping earlier commits', async () => {
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.insert(tables.widgets).values({ name: 'unique-1' });
        await tx.insert(tables.widgets).values({ name: 'anvil' });
      }),
    ).rejects.toThrow();
    expect(await repo.byName('unique-1')).toBeUndefined();
    expect((await repo.all()).map((w) => w.name)).toEqual(['anvil', 'bucket', 'crate']);
  });

  it('commits a transaction and returns its result', async () => {
    const id = await handle.db.transaction(async (tx) => {
      const [row] = await tx.insert(tables.widgets).values({ name: 'drum' }).returning({ id: tables.widgets.id });
      return row!.id;
    });
    expect((await repo.byName('drum'))?.id).toBe(id);
  });
});

describe.each(drivers)('prepared reads on $name', ({ name, config }) => {
  const schemaName = uniqueName('prepared');
  const tables = fixtureTables(schemaName);
  let handle: DatabaseHandle;

  beforeAll(async () => {
    // One connection per pool, so the statements run again on the connection that prepared them.
    const settings = config(schemaName);
    handle = await openDatabase(settings.driver === 'postgres' ? { ...settings, poolSize: 1 } : settings);
    await migrate(handle, { migrationsFolder: MIGRATIONS_FOLDER, sourceSchema: FIXTURE_SCHEMA });
    await handle.db.insert(tables.widgets).values([{ name: 'anvil', quantity: 1 }, { name: 'bucket', quantity: 5 }, { name: 'crate', quantity: 9 }]);
  });

  afterAll(async () => {
    await handle?.db.execute(sql`drop schema if exists ${sql.identifier(schemaName)} cascade`);
    await handle?.close();
  });

  const atLeast = (quantity: number) => sql`select name from ${tables.widgets} where ${tables.widgets.quantity} >= ${quantity} order by name`;

  it("reads the rows for each call's values, on either set of connections", async () => {
    for (const db of [handle.db, handle.preparedReads]) {
      expect(await queryRowsPrepared(db, atLeast(5))).toEqual([{ name: 'bucket' }, { name: 'crate' }]);
      expect(await queryRowsPrepared(db, atLeast(0))).toEqual(await queryRows(db, atLeast(0)));
      expect(await queryRowsPrepared(db, atLeast(10))).toEqual([]);
    }
  });

  // PGlite has no named statements, so no plans kept.
  if (name !== 'postgres') return;

  it("plans a statement once on the prepared reads' connections, for its values elsewhere", async () => {
    // Reads its own plan counts: the only statement whose text holds the marker (in a comment).
    const marker = uniqueName('marker');
    const plans = sql`select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement like ${`%${marker}%`} ${sql.raw(`/* ${marker} */`)}`;
    const runThrice = async (db: typeof handle.db) => {
      let counts: Record<string, unknown>[] = [];
      for (let i = 0; i < 3; i++) counts = await queryRowsPrepared(db, plans);
      return counts;
    };
    expect(await runThrice(handle.preparedReads)).toEqual([{ generic: 3, custom: 0 }]);
    expect(await runThrice(handle.db)).toEqual([{ generic: 0, custom: 3 }]);
  });
});

describe('pglite on disk', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'parlance-pglite-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps committed data after the database is closed and reopened', async () => {
    const schemaName = uniqueName('disk');
    const tables = fixtureTables(schemaName);
    const first = await openDatabase({ driver: 'pglite', dataDir, schema: schemaName });
    await migrate(first, { migrationsFolder: MIGRATIONS_FOLDER, sourceSchema: FIXTURE_SCHEMA });
    await widgetRepository(first.db, tables).create('persistent', { attributes: { kept: true }, blob: new Uint8Array([7]) });
    await first.close();

    const second = await openDatabase({ driver: 'pglite', dataDir, schema: schemaName });
    try {
      expect((await migrate(second, { migrationsFolder: MIGRATIONS_FOLDER, sourceSchema: FIXTURE_SCHEMA })).applied).toEqual([]);
      const row = await widgetRepository(second.db, tables).byName('persistent');
      expect(row?.attributes).toEqual({ kept: true });
      expect([...row!.blob!]).toEqual([7]);
    } finally {
      await second.close();
    }
  });

  it('shares one PGlite between the services of a process, each in its own schema', async () => {
    const [a, b] = [uniqueName('svc_a'), uniqueName('svc_b')];
    const identity = await openDatabase({ driver: 'pglite', dataDir, schema: a });
    const scoring = await openDatabase({ driver: 'pglite', dataDir, schema: b });
    try {
      const [one, two] = [await sharedPglite(dataDir), await sharedPglite(dataDir)];
      await releaseSharedPglite(dataDir);
      await releaseSharedPglite(dataDir);
      expect(one).toBe(two);
      await Promise.all([
        migrate(identity, { migrationsFolder: MIGRATIONS_FOLDER, sourceSchema: FIXTURE_SCHEMA }),
        migrate(scoring, { migrationsFolder: MIGRATIONS_FOLDER, sourceSchema: FIXTURE_SCHEMA }),
      ]);
      await widgetRepository(identity.db, fixtureTables(a)).create('only-in-a');
      expect((await widgetRepository(scoring.db, fixtureTables(b)).all()).map((w) => w.name)).toEqual([]);
      expect((await widgetRepository(scoring.db, fixtureTables(a)).all()).map((w) => w.name)).toEqual(['only-in-a']);
    } finally {
      await identity.close();
      await scoring.close();
    }
  });
});
