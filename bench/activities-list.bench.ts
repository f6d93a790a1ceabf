/**
 * The calls list at a million calls (issue 14, point 9): one company's 1,000,000 scored calls over
 * 50 teams and 1,000 representatives (bench/support/call-corpus.ts), loaded through analytics'
 * projection code (`applyActivityFacts`: batches of facts merged by `mergeActivityFact`, rollups
 * kept in the same transaction) into PostgreSQL, then listed by `listActivities` — what the
 * ListActivities RPC runs, on the connections it runs on (`preparedReads`: one prepared statement
 * per list, planned once) — with BENCH_CLIENTS requests in flight:
 *
 * - team_filters_page_1: the biggest team, this quarter as the web sends it (to 23:59:59.999 on
 *   its last day), successful, score ≥ 7, page 1 of 10 rows;
 * - team_filters_page_500: the same, page 500 (on PGlite, whose corpus is smaller, the last page);
 * - failed_criterion: the biggest team, this quarter, one of its criteria failed (a different one
 *   each request), page 1;
 * - contact_lookup: one contact id (a different one each request), page 1;
 * - needs_review: the biggest team, this quarter, only calls with a criterion that needs review
 *   (about one in nine in the corpus), page 1;
 * - no_op: `select 1` on the same pool, the floor the machine sets under this concurrency.
 *
 * Each scenario, after a warm-up that sends each of its different requests once, reports
 * p50/p95/p99 of the whole call (page and exact total) against a 30 ms p95 target, the CPU each
 * request cost (this process, and the PostgreSQL backends serving it) and, one client at a time,
 * the median of the same call and of the naive query (bench/support/naive-list.ts: the rows
 * counted with count(*) and the page read with OFFSET, on the same indexes). The statements of
 * the slowest scenario (by its one-client median) are EXPLAINed (ANALYZE, BUFFERS) as sent, the
 * tuned and the naive ones (auto_explain). Then the same scenarios on PGlite at 50,000 calls, in
 * memory, as the standalone product runs.
 *
 * The loaded PostgreSQL database (`parlance_bench_activities`, ~2.3 GiB) is KEPT between runs and
 * reused while the corpus (LOADER_VERSION, BENCH_CALLS) and the migrations it was loaded under are
 * unchanged; newer migrations are applied to it (and rollups they add built), as a deployment
 * would. Loading takes about 5 minutes on 2 busy cores; a reused load reports the throughput
 * measured when it was loaded ("loaded_now": false). `BENCH_FRESH=1` reloads it; drop it with
 * `psql "$DATABASE_URL" -c 'drop database parlance_bench_activities'`.
 *
 *   npx tsx bench/activities-list.bench.ts     # needs `deploy/local/services up`
 *
 * Env: BENCH_CALLS (1000000), BENCH_PGLITE_CALLS (50000; 0 skips PGlite), BENCH_CLIENTS (16),
 *      BENCH_REQUESTS (per scenario, 2000), BENCH_POOL (PostgreSQL connections, 10 as the service's
 *      DATABASE_POOL_SIZE), BENCH_FRESH (1: reload the PostgreSQL corpus).
 *
 * Prints JSON lines: {"bench":"activities.load",…} and {"bench":"activities.list",…} per database
 * and scenario, {"bench":"activities.list.explain",…} per query of the slowest scenario.
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { queryRows, type Executor } from '@parlance/platform/db/database';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { Comparison, ListActivitiesRequest } from '@parlance/proto/parlance/analytics/v1/activities';
import { listActivities } from '@parlance/analytics/db/activity-list';
import { pageCount, readListRequest, type ActivityListQuery } from '@parlance/analytics/domain/list-request';
import {
  activitySizes,
  APPLICATION_NAME,
  corpusDatabaseUrl,
  corpusKey,
  LOADER_VERSION,
  pgliteCorpus,
  postgresCorpus,
  type AnalyticsHandle,
  type LoadResult,
} from './support/activities-database.js';
import { callCorpus, THIS_QUARTER, type CallCorpus } from './support/call-corpus.js';
import { latencies, machine, median, percentile } from './support/measure.js';
import { naiveListQueries } from './support/naive-list.js';
import { cpuMsOf } from './support/process-memory.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 1_000_000);
const PGLITE_CALLS = Number(process.env.BENCH_PGLITE_CALLS ?? 50_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
/** The service's own default (DATABASE_POOL_SIZE). */
const POOL = Number(process.env.BENCH_POOL ?? 10);
const TARGET_P95_MS = 30;
/** One client at a time: enough runs for a median. */
const SOLO_RUNS = 15;
const DEEP_PAGE = 500;

interface Scenario {
  name: string;
  /** The request of the i-th call; undefined for the no-op. */
  request?: (i: number) => ActivityListQuery;
  /** How many different requests it cycles through (1 when it repeats one). */
  distinct?: number;
}

async function scenarios(db: Executor, corpus: CallCorpus): Promise<Scenario[]> {
  // The team with the most calls this quarter: the broadest team-filtered list.
  const team = corpus.teams.reduce((best, candidate) => (corpus.callsPerTeam.get(candidate.teamId)!.thisQuarter > corpus.callsPerTeam.get(best.teamId)!.thisQuarter ? candidate : best));
  const criteria = team.groups.flatMap((group) => group.criteria.map((criterion) => ({ groupId: group.id, criterionId: criterion.id })));
  const list = (request: Partial<ListActivitiesRequest>) => readListRequest(ListActivitiesRequest.fromPartial({ kind: ActivityKind.ACTIVITY_KIND_CALL, page: 1, limit: 10, ...request }));
  // The web's range: its last day up to 23:59:59.999 (so that day is a part day to analytics).
  const teamQuarter = { teamIds: [team.teamId], start: THIS_QUARTER.start, end: new Date(THIS_QUARTER.end.getTime() - 1) };
  const filtered = { ...teamQuarter, isSuccessful: true, score: { comparison: Comparison.COMPARISON_GTE, value: 7 } };
  const { total } = await listActivities(db, corpus.companyId, list(filtered));
  const deepPage = Math.min(DEEP_PAGE, pageCount(total, 10));
  // Contacts drawn from those with the most calls (the generator favours low numbers), in a fixed order.
  const contacts = Array.from({ length: 997 }, (_, i) => corpus.contactIds[(i * 7919) % Math.min(corpus.contactIds.length, 5_000)]!);
  return [
    { name: 'team_filters_page_1', request: () => list(filtered) },
    { name: deepPage === DEEP_PAGE ? 'team_filters_page_500' : 'team_filters_last_page', request: () => list({ ...filtered, page: deepPage }) },
    { name: 'failed_criterion', request: (i) => list({ ...teamQuarter, criteria: [{ ...criteria[i % criteria.length]!, passed: false }] }), distinct: criteria.length },
    { name: 'contact_lookup', request: (i) => list({ contactIds: [contacts[i % contacts.length]!] }), distinct: contacts.length },
    { name: 'needs_review', request: () => list({ ...teamQuarter, needsReview: true }) },
    { name: 'no_op' },
  ];
}

const round = (ms: number) => +ms.toFixed(2);

async function measureScenarios(handle: AnalyticsHandle, corpus: CallCorpus, database: string, calls: number): Promise<{ scenario: Scenario; solo: number }[]> {
  // As the service does: lists on the connections that keep prepared statements' plans, the naive query as any other.
  const { db, preparedReads: lists } = handle;
  const results: { scenario: Scenario; solo: number }[] = [];
  for (const scenario of await scenarios(lists, corpus)) {
    const { request } = scenario;
    const call = request ? (i: number) => listActivities(lists, corpus.companyId, request(i)) : () => lists.execute(sql`select 1`);
    const first = request && (await listActivities(lists, corpus.companyId, request(0)));
    if (first && first.rows.length === 0) throw new Error(`${scenario.name} lists nothing`);
    // Warm-up, which also opens the pool's connections: every different request once at least, so
    // the measured calls find the pages they read cached, as a service that has served them before.
    await latencies(call, Math.max(CLIENTS * 4, scenario.distinct ?? 1), CLIENTS);
    const backends = database === 'postgres' ? await backendPids(lists) : [];
    const cpu = { node: process.cpuUsage(), postgres: await postgresCpuMs(backends) };
    const loaded = await latencies(call, REQUESTS, CLIENTS);
    const nodeCpu = process.cpuUsage(cpu.node);
    const postgresCpu = await postgresCpuMs(backends);
    const solo = await latencies(call, SOLO_RUNS, 1);
    const naive =
      request &&
      (await latencies(
        async (i) => {
          const { page, count } = naiveListQueries(db, corpus.companyId, request(i));
          await Promise.all([page, count]);
        },
        SOLO_RUNS,
        1,
      ));
    const p95 = percentile(loaded, 0.95);
    if (request) results.push({ scenario, solo: median(solo) });
    console.log(
      JSON.stringify({
        bench: 'activities.list',
        database,
        calls,
        scenario: scenario.name,
        ...(request && first ? { page: request(0).page, total: first.total, total_pages: pageCount(first.total, request(0).limit) } : {}),
        clients: CLIENTS,
        ...(database === 'postgres' ? { pool: POOL } : {}),
        requests: REQUESTS,
        p50_ms: round(median(loaded)),
        p95_ms: round(p95),
        p99_ms: round(percentile(loaded, 0.99)),
        ...(request ? { target_p95_ms: TARGET_P95_MS, meets_target: p95 <= TARGET_P95_MS } : {}),
        // CPU spent per request under load, wherever the machine ran it: what the latency would be made of on idle cores.
        node_cpu_ms_per_request: round((nodeCpu.user + nodeCpu.system) / 1_000 / REQUESTS),
        ...(backends.length > 0 && postgresCpu !== undefined && cpu.postgres !== undefined ? { postgres_cpu_ms_per_request: round((postgresCpu - cpu.postgres) / REQUESTS) } : {}),
        one_client_median_ms: round(median(solo)),
        ...(naive ? { naive_one_client_median_ms: round(median(naive)) } : {}),
        load_1m: machine().load_1m,
      }),
    );
  }
  return results;
}

/** The server processes behind the benchmark's pooled connections (the local PostgreSQL only). */
async function backendPids(db: Executor): Promise<number[]> {
  const rows = await queryRows<{ pid: number }>(db, sql`select pid from pg_stat_activity where datname = current_database() and application_name = ${APPLICATION_NAME}`);
  return rows.map((row) => row.pid);
}

/** CPU time (user and system, ms) those processes have used; undefined when it cannot be read. */
async function postgresCpuMs(pids: readonly number[]): Promise<number | undefined> {
  const used = await Promise.all(pids.map(cpuMsOf));
  return used.includes(undefined) ? undefined : used.reduce<number>((sum, ms) => sum + ms!, 0);
}

/**
 * Every statement `listActivities` runs for the scenario's first request, and then the naive
 * query's, EXPLAINed (ANALYZE, BUFFERS) by auto_explain on a connection of its own, as sent: the
 * list's with the generic plan its connections keep (`preparedReads`), the naive one's planned
 * for its values.
 */
async function explain(corpus: CallCorpus, database: string, scenario: Scenario): Promise<void> {
  const pool = new pg.Pool({ connectionString: corpusDatabaseUrl(), max: 1 });
  const plans: string[] = [];
  pool.on('connect', (client) => client.on('notice', (notice) => notice.message?.includes('plan:') && plans.push(notice.message)));
  try {
    const db = drizzle({ client: pool });
    await db.execute(sql.raw(`load 'auto_explain'`));
    for (const setting of ['log_min_duration = 0', 'log_analyze = on', 'log_buffers = on', 'log_timing = on', "log_level = 'notice'"]) await db.execute(sql.raw(`set auto_explain.${setting}`));
    const request = scenario.request!(0);
    for (const [query, run] of [
      ['tuned', async () => {
        await db.execute(sql`set plan_cache_mode = force_generic_plan`);
        await listActivities(db, corpus.companyId, request);
        await db.execute(sql`reset plan_cache_mode`);
      }],
      ['naive', async () => {
        const { page, count } = naiveListQueries(db, corpus.companyId, request);
        await page;
        await count;
      }],
    ] as const) {
      await run(); // once to warm the caches, as the measured runs had them
      plans.length = 0;
      await run();
      for (const [i, plan] of plans.entries()) {
        const lines = plan.split('\n');
        console.error(`-- ${database} ${scenario.name}, ${query} statement ${i + 1}\n${lines.join('\n')}`);
        console.log(JSON.stringify({ bench: 'activities.list.explain', database, scenario: scenario.name, query, statement: i + 1, plan: lines }));
      }
    }
  } finally {
    await pool.end();
  }
}

function reportLoad(database: string, load: LoadResult, sizes: Awaited<ReturnType<typeof activitySizes>>) {
  console.log(
    JSON.stringify({
      bench: 'activities.load',
      database,
      loader_version: LOADER_VERSION,
      rows: load.rows,
      facts: load.facts,
      seconds: Math.round(load.seconds),
      rows_per_s: Math.round(load.rows / load.seconds),
      facts_per_s: Math.round(load.facts / load.seconds),
      loaded_now: load.loadedNow,
      rollups_built_now_s: +load.rollupBuildSeconds.toFixed(1),
      ...sizes,
      ...machine(),
    }),
  );
}

async function run(database: 'postgres' | 'pglite', calls: number): Promise<void> {
  const corpus = callCorpus(calls);
  let reported = 0;
  const onProgress = (rows: number) => {
    if (rows - reported < 100_000) return;
    reported = rows;
    console.error(`[activities] ${database}: ${rows} rows loaded`);
  };
  const options = { batchCalls: 2_000, inFlight: 2, onProgress };
  const { handle, load } =
    database === 'postgres'
      ? await postgresCorpus(corpus, corpusKey(calls), { ...options, poolSize: POOL, fresh: process.env.BENCH_FRESH === '1' })
      : await pgliteCorpus(corpus, options);
  try {
    reportLoad(database, load, await activitySizes(handle));
    const results = await measureScenarios(handle, corpus, database, calls);
    // The slowest by its own cost (one client at a time); under load the p95s mostly tell how busy the machine was.
    const slowest = results.reduce((worst, result) => (result.solo > worst.solo ? result : worst));
    if (database === 'postgres') await explain(corpus, database, slowest.scenario);
  } finally {
    await handle.close();
  }
}

await run('postgres', CALLS);
if (PGLITE_CALLS > 0) await run('pglite', PGLITE_CALLS);
