/**
 * What teams cost: identity, scoring and the gateway on the local PostgreSQL and Kafka, over real
 * HTTP on loopback (the stack of test/teams/).
 *
 * - save: median and p95 latency of PUT /api/teams/save updating a team of 12 criteria and 25
 *   members, one at a time; and how long after each save scoring holds the new version (outbox
 *   relay + Kafka + consumer), polled every 2 ms;
 * - fetch: GET /api/teams/fetch/?department=sales with 30 such teams, requests per second with
 *   BENCH_CONCURRENCY in flight, next to GET /api/billing/plans (one gRPC call, no session, no
 *   database) in the same run;
 * - suggestion: POST /api/teams/ai-suggestion with the offline engine, requests per second.
 *
 *   npx tsx bench/teams.bench.ts       # 3 runs x 5 s each, 50 in flight
 *
 * Prints JSON lines: {"bench":"teams.save",…}, {"bench":"teams.fetch",…}, {"bench":"teams.suggestion",…}.
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '@parlance/platform/db/database';
import { startTelemetry } from '@parlance/platform/telemetry';
import { findTeamCriteria } from '@parlance/scoring/db/team-criteria.repository';
import { startIdentityStack } from '../test/support/identity-stack.js';
import { callsPerSecond, median, percentile } from './support/measure.js';

const RUNS = 3;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const SAVES = 100;
const TEAMS = 30;

const telemetry = startTelemetry({ serviceName: 'bench' });
const stack = await startIdentityStack({ logLevel: 'warn', withScoring: true });

const team = (name: string) => ({
  id: randomUUID(),
  name,
  department: 'sales',
  criteria_group: ['Opening', 'Discovery', 'Closing'].map((group) => ({
    id: randomUUID(),
    name: group,
    criteria: [2, 1, 0.5, 0.5].map((weight, i) => ({
      id: randomUUID(),
      name: `${group} criterion ${i + 1}`,
      prompt: `The representative does the ${group.toLowerCase()} step number ${i + 1} clearly and completely.`,
      weight: Math.round((weight * 10) / 12 * 1_000) / 1_000,
    })),
  })),
  success_criteria: { prompt: 'The customer agrees to a next meeting.' },
  members: [],
  call_script: 'Hello, this is Parlance. '.repeat(40),
  crm_id: '',
});
const members = Array.from({ length: 25 }, (_, i) => ({
  first_name: `Member${i}`,
  last_name: 'Benchmark',
  email: `member${i}.${randomUUID().slice(0, 6)}@example.com`,
  crm_id: '',
  target: i % 7,
}));
/** 12 weights of 10/12 rounded do not add to exactly 10: the last takes the remainder. */
function balanced(payload: ReturnType<typeof team>) {
  const criteria = payload.criteria_group.flatMap((group) => group.criteria);
  const others = criteria.slice(0, -1).reduce((sum, criterion) => sum + Math.round(criterion.weight * 1_000), 0);
  criteria.at(-1)!.weight = (10_000 - others) / 1_000;
  return payload;
}

try {
  const { browser, companyId } = await stack.signUpVerified();
  const scoringDb = stack.runtime('scoring').database.db as Executor;

  const saveMs: number[] = [];
  const propagationMs: number[] = [];
  const measured = balanced(team('Benchmark team'));
  for (let i = 0; i <= SAVES; i++) {
    const started = performance.now();
    const response = await browser.put<{ team: { id: string; version: number } }>('/api/teams/save', { team: { ...measured, name: `Benchmark team ${i}` }, isNew: i === 0, members });
    const saved = performance.now();
    if (response.status !== 200) throw new Error(`save answered ${response.status}: ${JSON.stringify(response.body)}`);
    while ((await findTeamCriteria(scoringDb, companyId, response.body.team.id))?.version !== response.body.team.version) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    if (i === 0) continue; // the first is a create, and warms up
    saveMs.push(saved - started);
    propagationMs.push(performance.now() - saved);
  }
  console.log(
    JSON.stringify({
      bench: 'teams.save',
      samples: SAVES,
      criteria: 12,
      members: members.length,
      median_ms: +median(saveMs).toFixed(1),
      p95_ms: +percentile(saveMs, 0.95).toFixed(1),
      to_scoring_median_ms: +median(propagationMs).toFixed(1),
      to_scoring_p95_ms: +percentile(propagationMs, 0.95).toFixed(1),
    }),
  );

  for (let i = 1; i < TEAMS; i++) await browser.put('/api/teams/save', { team: balanced(team(`Listed team ${i}`)), isNew: true, members });

  /** Calls per second with CONCURRENCY in flight; each call must answer 200. */
  const requestsPerSecond = (call: () => Promise<{ status: number }>, seconds: number) =>
    callsPerSecond(
      async () => {
        const { status } = await call();
        if (status !== 200) throw new Error(`answered ${status}`);
      },
      { seconds, concurrency: CONCURRENCY },
    );

  // The same client (cookies, CSRF header, JSON parsing) for all three, so only the server differs.
  const fetchTeams = () => browser.get('/api/teams/fetch/?department=sales');
  const plans = () => browser.get('/api/billing/plans');
  const suggest = () => browser.post('/api/teams/ai-suggestion', { criterionName: 'Handles price objections', criterionDescription: 'When the customer says "too expensive"' });

  await requestsPerSecond(fetchTeams, 1); // warm-up
  const fetched: number[] = [];
  const publicRuns: number[] = [];
  const suggested: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    fetched.push(Math.round(await requestsPerSecond(fetchTeams, SECONDS)));
    publicRuns.push(Math.round(await requestsPerSecond(plans, SECONDS)));
    suggested.push(Math.round(await requestsPerSecond(suggest, SECONDS)));
  }
  console.log(
    JSON.stringify({
      bench: 'teams.fetch',
      teams: TEAMS,
      concurrency: CONCURRENCY,
      runs: RUNS,
      seconds: SECONDS,
      fetch_per_s: median(fetched),
      public_per_s: median(publicRuns),
      fetch_to_public: +(median(fetched) / median(publicRuns)).toFixed(2),
      fetch_runs: fetched,
      public_runs: publicRuns,
    }),
  );
  console.log(JSON.stringify({ bench: 'teams.suggestion', engine: 'offline', concurrency: CONCURRENCY, per_s: median(suggested), runs: suggested }));
} finally {
  await stack.stop();
  await telemetry.shutdown();
}

