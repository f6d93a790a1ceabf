/**
 * analytics' schema filled with a call corpus (call-corpus.ts) through the projection code: team
 * changes with `applyTeamChange`, call facts with `applyActivityFacts` (the same
 * `mergeActivityFact` the consumers use), a batch per transaction, two transactions in flight.
 *
 * On PostgreSQL the corpus lives in a database of its own on the local server
 * (`parlance_bench_activities`), kept between runs: it is reused when it holds the same corpus
 * (loader version and number of calls) and its applied migrations are the first of the service's
 * current ones (newer ones are then applied to the loaded rows, as a deployment would). Anything
 * else drops it and loads again. On PGlite the corpus is loaded into memory every run.
 */
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { openDatabase, queryRows, type DatabaseHandle } from '@parlance/platform/db/database';
import { migrate } from '@parlance/platform/db/migrate';
import { testDatabaseUrl } from '@parlance/platform/testing/infra';
import { applyActivityFacts } from '@parlance/analytics/db/activities.repository';
import { ensureActivityRollups } from '@parlance/analytics/db/activity-rollups';
import { applyTeamChange } from '@parlance/analytics/db/teams.repository';
import type { CallCorpus } from './call-corpus.js';

export type AnalyticsHandle = DatabaseHandle<Record<string, unknown>>;

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../services/analytics/src/db/migrations', import.meta.url));
const DATABASE = 'parlance_bench_activities';
/** How the benchmark's pooled connections name themselves to PostgreSQL. */
export const APPLICATION_NAME = 'activities-bench';

export interface LoadResult {
  /** Activity rows written (the calls and the deleted ones' tombstones). */
  rows: number;
  facts: number;
  seconds: number;
  /** False when the rows were loaded by an earlier run (the figures are that run's). */
  loadedNow: boolean;
  /** Seconds this run spent building the lists' rollups from rows loaded before they existed (0: already built). */
  rollupBuildSeconds: number;
}

/** Loads the corpus in batches of `batchCalls` calls, `inFlight` transactions at a time. */
export async function loadCorpus(handle: AnalyticsHandle, corpus: CallCorpus, options: { batchCalls: number; inFlight: number; onProgress?: (rows: number) => void }): Promise<LoadResult> {
  const started = performance.now();
  const { db } = handle;
  for (const team of corpus.teams) {
    const { teamId, name, department, deleted, version, members, criteria } = team;
    await db.transaction((tx) => applyTeamChange(tx, corpus.companyId, { teamId, name, department, deleted, version, members, criteria }));
  }
  const running = new Set<Promise<void>>();
  let facts = 0;
  const activityIds = new Set<string>();
  for (const batch of corpus.batches(options.batchCalls)) {
    facts += batch.length;
    for (const { activityId } of batch) activityIds.add(activityId);
    const write = db.transaction((tx) => applyActivityFacts(tx, batch)).then(() => {
      running.delete(write);
    });
    running.add(write);
    if (running.size >= options.inFlight) await Promise.race(running);
    options.onProgress?.(activityIds.size);
  }
  await Promise.all(running);
  return { rows: activityIds.size, facts, seconds: (performance.now() - started) / 1_000, loadedNow: true, rollupBuildSeconds: 0 };
}

/** PostgreSQL's URL for another database on the same server. */
function databaseUrl(name: string): string {
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** Bump when call-corpus.ts or the loader changes what is loaded: a kept database is then reloaded. */
export const LOADER_VERSION = 2;

/** What a load is known by (the loader's version and the number of calls): a kept database is reused only under the same key. */
export const corpusKey = (calls: number): string => `v${LOADER_VERSION}:${calls}`;

/** PostgreSQL's URL for the benchmark's database, for connections of the benchmark's own. */
export const corpusDatabaseUrl = () => databaseUrl(DATABASE);

/**
 * The corpus on the local PostgreSQL, in its own database: reused when an earlier run loaded the
 * same `corpusKey`, else (re)created and loaded. Vacuumed and analysed, as autovacuum leaves a
 * table that has stopped growing.
 */
export async function postgresCorpus(
  corpus: CallCorpus,
  corpusKey: string,
  options: { poolSize: number; batchCalls: number; inFlight: number; fresh?: boolean; onProgress?: (rows: number) => void },
): Promise<{ handle: AnalyticsHandle; load: LoadResult }> {
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  let reusable: LoadResult | undefined;
  try {
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [DATABASE])).rowCount === 1;
    if (exists && !options.fresh) reusable = await cachedLoad(corpusKey);
    if (!reusable) {
      if (exists) await admin.query(`drop database ${DATABASE} with (force)`);
      await admin.query(`create database ${DATABASE}`);
    }
  } finally {
    await admin.end();
  }

  const handle = await openDatabase({ driver: 'postgres', url: databaseUrl(DATABASE), schema: 'analytics', poolSize: options.poolSize, applicationName: APPLICATION_NAME });
  try {
    await migrate(handle, { migrationsFolder: MIGRATIONS_FOLDER });
    // As the service does when it starts: on kept rows loaded before the rollups existed, this builds them.
    const building = performance.now();
    await ensureActivityRollups(handle.db);
    const rollupBuildSeconds = (performance.now() - building) / 1_000;
    let load = reusable && { ...reusable, rollupBuildSeconds };
    if (!load) {
      load = await loadCorpus(handle, corpus, options);
      await handle.db.execute(sql`create table public.bench_corpus (key text not null, rows integer not null, facts integer not null, seconds double precision not null)`);
      await handle.db.execute(sql`insert into public.bench_corpus values (${corpusKey}, ${load.rows}, ${load.facts}, ${load.seconds})`);
    }
    await vacuumAnalyzed(handle);
    return { handle, load };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** What an earlier run loaded, when it is this corpus under migrations that are still the service's. */
async function cachedLoad(corpusKey: string): Promise<LoadResult | undefined> {
  const handle = await openDatabase({ driver: 'postgres', url: databaseUrl(DATABASE), schema: 'analytics', poolSize: 1 });
  try {
    const [marker] = await queryRows<{ key: string; rows: number; facts: number; seconds: number }>(
      handle.db,
      sql`select key, rows, facts, seconds from public.bench_corpus where exists (select from pg_tables where schemaname = 'public' and tablename = 'bench_corpus')`,
    ).catch(() => []);
    if (marker?.key !== corpusKey) return undefined;
    const applied = await queryRows<{ hash: string }>(handle.db, sql`select hash from analytics.__drizzle_migrations order by id`);
    const current = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((migration) => migration.hash);
    if (!applied.every(({ hash }, i) => current[i] === hash)) return undefined;
    return { rows: marker.rows, facts: marker.facts, seconds: marker.seconds, loadedNow: false, rollupBuildSeconds: 0 };
  } finally {
    await handle.close();
  }
}

/** The corpus loaded into a fresh in-memory PGlite, as the standalone product stores it. */
export async function pgliteCorpus(corpus: CallCorpus, options: { batchCalls: number; inFlight: number }): Promise<{ handle: AnalyticsHandle; load: LoadResult }> {
  const handle = await openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'analytics' });
  try {
    await migrate(handle, { migrationsFolder: MIGRATIONS_FOLDER });
    await ensureActivityRollups(handle.db);
    const load = await loadCorpus(handle, corpus, options);
    await vacuumAnalyzed(handle);
    return { handle, load };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Vacuumed and analysed, as autovacuum leaves tables that have stopped growing. */
async function vacuumAnalyzed(handle: AnalyticsHandle): Promise<void> {
  await handle.db.execute(sql`vacuum (analyze) analytics.activities`);
  await handle.db.execute(sql`vacuum (analyze) analytics.teams`);
}

/** Sizes in MiB of the activities table (heap and TOAST), of each of its indexes, and of the rollups (with their keys). */
export async function activitySizes(handle: AnalyticsHandle): Promise<{ table_mib: number; indexes_mib: Record<string, number>; rollups_mib: number }> {
  const mib = (bytes: number | string) => Math.round(Number(bytes) / 1_048_576);
  const [table] = await queryRows<{ bytes: string; rollups: string }>(
    handle.db,
    sql`select pg_table_size('analytics.activities') as bytes,
          pg_total_relation_size('analytics.activity_day_counts') + pg_total_relation_size('analytics.activity_day_verdicts') as rollups`,
  );
  const indexes = await queryRows<{ name: string; bytes: string }>(
    handle.db,
    sql`select indexrelid::regclass::text as name, pg_relation_size(indexrelid) as bytes from pg_index where indrelid = 'analytics.activities'::regclass order by 1`,
  );
  return {
    table_mib: mib(table!.bytes),
    indexes_mib: Object.fromEntries(indexes.map(({ name, bytes }) => [name.replace(/^analytics\./, ''), mib(bytes)])),
    rollups_mib: mib(table!.rollups),
  };
}
