/**
 * The dashboard at a million calls (issue 15, point 8), on the corpus and loader of the list bench
 * (bench/support/call-corpus.ts, activities-database.ts: 1,000,000 scored calls, 50 teams, 1,000
 * representatives, kept in `parlance_bench_activities`). The dashboard's RPCs run as the service
 * runs them (`dashboardAnswers`, on the service's pool) with BENCH_CLIENTS requests in flight, from
 * the rollups of the caller's zone (UTC, built first):
 *
 * - metrics: the ten biggest teams this quarter, against the quarter before;
 * - performance_by_day: score by day over this quarter, a series per team of the ten;
 * - performance_by_parameter: the criteria pass rates of the ten teams this quarter;
 * - leaderboard: the ten teams' representatives this quarter;
 * - recommendations: two filter groups, the ten teams this quarter (team mode) and five of them
 *   last month (representative mode, two members each).
 *
 * Each scenario reports p50/p95/p99 against its target (50 ms; 100 ms for recommendations) and the
 * CPU each request cost, in node and in the local PostgreSQL (all its processes, read from /proc). In the same run each is answered once more from the activity rows
 * (`source: 'rows'`, what the rollups are kept equal to): that answer must equal the rollups' (the
 * run fails otherwise), and its one-client median is reported beside the rollups'.
 *
 *   node --no-allocation-site-pretenuring --import tsx bench/dashboard.bench.ts   # needs `deploy/local/services up`
 *
 * (the flag as every Parlance process sets it, services/platform/src/host/heap-tuning.ts; `make
 * bench` passes it to every benchmark).
 *
 * The zone is built once per kept database. BENCH_REBUILD=1 drops it and builds it again while a
 * writer re-scores calls (50 a transaction, each rolled back, so the corpus stays as loaded) and
 * reports how long those writes took meanwhile: the build holds writes off only while it lists the
 * zone.
 *
 * Env: BENCH_CALLS (1000000), BENCH_CLIENTS (16), BENCH_REQUESTS (per scenario, 1000), BENCH_POOL (10),
 *      BENCH_SCENARIOS (comma-separated names: only these), BENCH_REBUILD (0).
 * Prints JSON lines: {"bench":"dashboard.rollups",…} once and {"bench":"dashboard",…} per scenario.
 */
import { isDeepStrictEqual } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { queryRows } from '@parlance/platform/db/database';
import { runWithRequestContext } from '@parlance/platform/grpc/request-context';
import { createLogger } from '@parlance/platform/logger';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { ensureZoneRollups } from '@parlance/analytics/db/dashboard-rollups';
import { applyActivityFacts } from '@parlance/analytics/db/activities.repository';
import { dashboardZones, teams } from '@parlance/analytics/db/schema';
import { dashboardAnswers } from '@parlance/analytics/grpc/dashboard.server';
import { corpusKey, postgresCorpus } from './support/activities-database.js';
import { callCorpus, LAST_QUARTER, THIS_QUARTER } from './support/call-corpus.js';
import { cpuMsBetween, latencies, machine, median, percentile, processesCpuMs } from './support/measure.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 1_000_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1_000);
const POOL = Number(process.env.BENCH_POOL ?? 10);
const ZONE = 'UTC';
const SOLO_RUNS = 9;

const day = (date: Date) => date.toISOString().slice(0, 10);
const round = (ms: number) => +ms.toFixed(2);

const corpus = callCorpus(CALLS);
const { handle, load } = await postgresCorpus(corpus, corpusKey(CALLS), { poolSize: POOL, batchCalls: 500, inFlight: 2 });
const { db } = handle;
try {
  // Teams as identity now announces them, with members, targets and criteria names (a kept load may predate them).
  for (const team of corpus.teams) {
    await db.update(teams).set({ members: team.members, criteria: team.criteria }).where(eq(teams.teamId, team.teamId));
  }
  if (process.env.BENCH_REBUILD === '1') {
    await db.delete(dashboardZones);
    await db.execute(sql`truncate analytics.dashboard_totals, analytics.dashboard_verdicts`);
  }
  const building = performance.now();
  const build = ensureZoneRollups(handle, ZONE);
  const writes = await writesUntil(build);
  const [sizes] = await queryRows<{ totals: string; verdicts: string; total_rows: string; verdict_rows: string }>(
    db,
    sql`select pg_total_relation_size('analytics.dashboard_totals') as totals, pg_total_relation_size('analytics.dashboard_verdicts') as verdicts,
          (select count(*) from analytics.dashboard_totals) as total_rows, (select count(*) from analytics.dashboard_verdicts) as verdict_rows`,
  );
  await db.execute(sql`vacuum (analyze) analytics.dashboard_totals`);
  await db.execute(sql`vacuum (analyze) analytics.dashboard_verdicts`);
  console.log(
    JSON.stringify({
      bench: 'dashboard.rollups',
      activities: load.rows,
      zone: ZONE,
      build_seconds_now: round((performance.now() - building) / 1_000),
      totals_rows: Number(sizes!.total_rows),
      verdicts_rows: Number(sizes!.verdict_rows),
      totals_mib: Math.round(Number(sizes!.totals) / 1_048_576),
      verdicts_mib: Math.round(Number(sizes!.verdicts) / 1_048_576),
      writes_during_build: writes.length,
      write_p50_ms_during_build: writes.length > 0 ? round(percentile(writes, 0.5)) : null,
      write_max_ms_during_build: writes.length > 0 ? round(Math.max(...writes)) : null,
    }),
  );

  const biggest = [...corpus.teams].sort((a, b) => corpus.callsPerTeam.get(b.teamId)!.thisQuarter - corpus.callsPerTeam.get(a.teamId)!.thisQuarter).slice(0, 10);
  const teamIds = biggest.map((team) => team.teamId);
  const quarter = { from: day(THIS_QUARTER.start), to: day(new Date(THIS_QUARTER.end.getTime() - 1)) };
  const lastMonth = { from: '2026-09-01', to: day(new Date(LAST_QUARTER.end.getTime() - 1)) };
  const scope = { kind: ActivityKind.ACTIVITY_KIND_CALL, department: '', teamIds, representativeEmails: [], ...quarter, timeZone: ZONE, mode: 'team' };
  const groups = [
    { id: 'quarter', name: 'This quarter', mode: 'team', teamIds, memberEmails: [], ...quarter },
    {
      id: 'month',
      name: 'Last month',
      mode: 'representative',
      teamIds: teamIds.slice(0, 5),
      memberEmails: biggest.slice(0, 5).flatMap((team) => team.members.slice(0, 2).map((member) => member.email)),
      ...lastMonth,
    },
  ];
  const logger = createLogger({ service: 'bench', level: 'warn' });
  const now = () => new Date('2026-12-31T12:00:00Z');
  const services = { rollups: dashboardAnswers({ database: handle, logger, now }), rows: dashboardAnswers({ database: handle, logger, now, source: 'rows' }) };
  type Service = (typeof services)['rollups'];
  const scenarios: { name: string; target: number; call: (service: Service) => Promise<unknown> }[] = [
    { name: 'metrics', target: 50, call: (service) => service.getMetrics({ scope }) },
    { name: 'performance_by_day', target: 50, call: (service) => service.getPerformance({ scope, groupBy: 'day', metrics: ['score'] }) },
    { name: 'performance_by_parameter', target: 50, call: (service) => service.getPerformance({ scope, groupBy: 'parameter', metrics: ['total_calls'] }) },
    { name: 'leaderboard', target: 50, call: (service) => service.getLeaderboard({ scope }) },
    { name: 'recommendations', target: 100, call: (service) => service.getRecommendations({ groups, kind: ActivityKind.ACTIVITY_KIND_CALL, timeZone: ZONE }) },
  ];
  const asCompany = <T>(work: () => Promise<T>) => runWithRequestContext({ companyId: corpus.companyId }, work);

  const only = process.env.BENCH_SCENARIOS?.split(',');
  for (const scenario of scenarios.filter((candidate) => !only || only.includes(candidate.name))) {
    const fromRollups = await asCompany(() => scenario.call(services.rollups));
    const fromRows = await asCompany(() => scenario.call(services.rows));
    if (!isDeepStrictEqual(fromRollups, fromRows)) throw new Error(`${scenario.name}: the rollups' answer differs from the rows'`);
    const call = () => asCompany(() => scenario.call(services.rollups));
    await latencies(call, CLIENTS * 4, CLIENTS);
    const cpu = process.cpuUsage();
    const postgresCpu = processesCpuMs('postgres');
    const loaded = await latencies(call, REQUESTS, CLIENTS);
    const nodeCpu = process.cpuUsage(cpu);
    const postgresSpent = cpuMsBetween(postgresCpu, processesCpuMs('postgres'));
    const solo = await latencies(call, SOLO_RUNS, 1);
    const rowsSolo = await latencies(() => asCompany(() => scenario.call(services.rows)), 3, 1);
    const p95 = percentile(loaded, 0.95);
    console.log(
      JSON.stringify({
        bench: 'dashboard',
        scenario: scenario.name,
        activities: load.rows,
        clients: CLIENTS,
        requests: REQUESTS,
        p50_ms: round(percentile(loaded, 0.5)),
        p95_ms: round(p95),
        p99_ms: round(percentile(loaded, 0.99)),
        target_p95_ms: scenario.target,
        meets_target: p95 <= scenario.target,
        node_cpu_ms_per_request: round((nodeCpu.user + nodeCpu.system) / 1_000 / REQUESTS),
        postgres_cpu_ms_per_request: postgresSpent === null ? null : round(postgresSpent / REQUESTS),
        one_client_median_ms: round(median(solo)),
        rows_one_client_median_ms: round(median(rowsSolo)),
        answers_equal_rows: true,
        answer_bytes: JSON.stringify(fromRollups).length,
        ...machine(),
      }),
    );
  }
} finally {
  await handle.close();
}

/**
 * Re-scores 50 calls a transaction, rolled back, until `build` settles: the milliseconds each
 * write took. Its verdicts are the calls' own, flipped, so every rollup cell of theirs moves.
 */
async function writesUntil(build: Promise<void>): Promise<number[]> {
  let done = false;
  void build.finally(() => (done = true)).catch(() => undefined);
  const calls = await queryRows<{ id: string; results: { groupId: string; criterionId: string; passed: boolean }[] }>(
    db,
    sql`select id, results from analytics.activities where company_id = ${corpus.companyId} and evaluated_at is not null order by id limit 5000`,
  );
  const took: number[] = [];
  class RolledBack extends Error {}
  for (let offset = 0; !done; offset = (offset + 50) % calls.length) {
    const batch = calls.slice(offset, offset + 50).map((call) => ({
      companyId: corpus.companyId,
      activityId: call.id,
      fact: {
        type: 'evaluated' as const,
        part: { evaluatedAt: new Date('2027-06-01T00:00:00Z'), score: 7.5, scriptMatch: 80, isSuccessful: true, results: call.results.map((verdict) => ({ ...verdict, passed: !verdict.passed })), criteriaNeedingReview: 0, summary: '', improvements: [], durationSeconds: 2 },
      },
    }));
    const started = performance.now();
    await db
      .transaction(async (tx) => {
        await applyActivityFacts(tx, batch);
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
    if (!done) took.push(performance.now() - started);
  }
  await build;
  return took;
}
