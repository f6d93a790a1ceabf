import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type DatabaseHandle } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { testDatabaseUrl, uniqueName } from '../src/testing/infra.js';
import { FIXTURE_SCHEMA, MIGRATIONS_FOLDER } from './fixtures/db/tables.js';

const postgres = (schema: string) => openDatabase({ driver: 'postgres', url: testDatabaseUrl(), schema, poolSize: 2 });

describe('migrations on postgres', () => {
  const handles: DatabaseHandle[] = [];
  const schemas: string[] = [];
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'parlance-migrations-'));
  });

  afterAll(async () => {
    const [first] = handles;
    for (const schema of schemas) await first?.db.execute(sql`drop schema if exists ${sql.identifier(schema)} cascade`);
    await Promise.all(handles.map((h) => h.close()));
    await rm(folder, { recursive: true, force: true });
  });

  async function open(schema: string) {
    const handle = await postgres(schema);
    handles.push(handle);
    if (!schemas.includes(schema)) schemas.push(schema);
    return handle;
  }

  it('applies each migration once when two processes start at the same moment', async () => {
    const schema = uniqueName('race');
    // Two handles are two pools: separate sessions, as two processes would have.
    const [a, b, c] = await Promise.all([open(schema), open(schema), open(schema)]);
    const results = await Promise.all([a, b, c].map((h) => migrate(h, { migrationsFolder: MIGRATIONS_FOLDER, sourceSchema: FIXTURE_SCHEMA })));
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, 1]);
    const history = await queryRows<{ n: number }>(a.db, sql`select count(*)::int as n from ${sql.identifier(schema)}.__drizzle_migrations`);
    expect(history).toEqual([{ n: 1 }]);
  });

  it('applies only the migrations added since the last start', async () => {
    const schema = uniqueName('incremental');
    const handle = await open(schema);
    await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
    expect((await migrate(handle, { migrationsFolder: folder, sourceSchema: FIXTURE_SCHEMA })).applied).toHaveLength(1);

    const journalPath = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: Array<Record<string, unknown>> };
    journal.entries.push({ idx: 1, version: '7', when: Date.now(), tag: '0001_colour', breakpoints: true });
    await writeFile(journalPath, JSON.stringify(journal));
    await writeFile(
      path.join(folder, '0001_colour.sql'),
      `ALTER TABLE "${FIXTURE_SCHEMA}"."widgets" ADD COLUMN "colour" text;--> statement-breakpoint\nCREATE TABLE "unqualified" ("id" integer);`,
    );
    const second = await migrate(handle, { migrationsFolder: folder, sourceSchema: FIXTURE_SCHEMA });
    expect(second.applied).toHaveLength(1);
    expect((await migrate(handle, { migrationsFolder: folder, sourceSchema: FIXTURE_SCHEMA })).applied).toEqual([]);

    const columns = await queryRows<{ table_name: string; column_name: string }>(
      handle.db,
      sql`select table_name, column_name from information_schema.columns
          where table_schema = ${schema}
            and ((table_name = 'widgets' and column_name = 'colour') or table_name = 'unqualified')
          order by table_name`,
    );
    // The qualified statement was re-targeted; the unqualified one landed in the service schema.
    expect(columns).toEqual([
      { table_name: 'unqualified', column_name: 'id' },
      { table_name: 'widgets', column_name: 'colour' },
    ]);
  });

  it('rolls back a failing migration entirely and applies nothing of it', async () => {
    const schema = uniqueName('broken');
    const handle = await open(schema);
    const broken = await mkdtemp(path.join(tmpdir(), 'parlance-broken-'));
    try {
      await cp(MIGRATIONS_FOLDER, broken, { recursive: true });
      const journalPath = path.join(broken, 'meta', '_journal.json');
      const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: Array<Record<string, unknown>> };
      journal.entries.push({ idx: 1, version: '7', when: Date.now(), tag: '0001_broken', breakpoints: true });
      await writeFile(journalPath, JSON.stringify(journal));
      await writeFile(path.join(broken, '0001_broken.sql'), 'CREATE TABLE "first" ("id" integer);--> statement-breakpoint\nSELECT no_such_function();');
      await expect(migrate(handle, { migrationsFolder: broken, sourceSchema: FIXTURE_SCHEMA })).rejects.toThrow();
      const tables = await queryRows<{ n: number }>(
        handle.db,
        sql`select count(*)::int as n from information_schema.tables where table_schema = ${schema} and table_name <> '__drizzle_migrations'`,
      );
      expect(tables).toEqual([{ n: 0 }]);
    } finally {
      await rm(broken, { recursive: true, force: true });
    }
  });

  it("puts the service's schema first on every pooled connection's search_path", async () => {
    const schema = uniqueName('path');
    const handle = await open(schema);
    const rows = await Promise.all([1, 2, 3].map(() => queryRows<{ search_path: string }>(handle.db, sql`show search_path`)));
    expect(rows.flat().map((r) => r.search_path)).toEqual(Array(3).fill(`${schema},public`));
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(postgres('Robert"; drop table x; --')).rejects.toThrow(/lower-case identifier/);
  });
});
