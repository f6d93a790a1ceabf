/**
 * What signing in costs: the identity service and the gateway on the local PostgreSQL and Kafka,
 * over real HTTP on loopback (the same stack as test/identity/).
 *
 * - login: median and p95 latency of POST /api/auth/login, one at a time (argon2id dominates);
 * - session: GET /api/company with a session cookie (cookie → GetSession → GetCompany), requests
 *   per second with BENCH_CONCURRENCY in flight, next to GET /api/billing/plans (one gRPC call,
 *   no session) measured the same way in the same run: their ratio is what resolving the session
 *   costs on every signed-in request.
 *
 *   npx tsx bench/identity.bench.ts       # 3 runs x 5 s each, 50 in flight
 *
 * Prints JSON lines: {"bench":"identity.login",…} and {"bench":"identity.session",…}.
 */
import { startTelemetry } from '@parlance/platform/telemetry';
import { startIdentityStack } from '../test/support/identity-stack.js';
import { callsPerSecond, median, percentile } from './support/measure.js';

const RUNS = 3;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const LOGINS = 30;

const telemetry = startTelemetry({ serviceName: 'bench' });
const stack = await startIdentityStack({ logLevel: 'warn' });

try {
  const { browser, person } = await stack.signUpVerified();

  const loginMs: number[] = [];
  for (let i = 0; i < LOGINS; i++) {
    const started = performance.now();
    const response = await browser.post('/api/auth/login', { email: person.email, password: person.password });
    loginMs.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`login answered ${response.status}`);
  }
  console.log(JSON.stringify({ bench: 'identity.login', samples: LOGINS, median_ms: +median(loginMs).toFixed(1), p95_ms: +percentile(loginMs, 0.95).toFixed(1) }));

  const cookie = `parlance_session=${browser.cookie('parlance_session')}`;
  const requestsPerSecond = (path: string, headers: Record<string, string>, seconds: number) =>
    callsPerSecond(
      async () => {
        const response = await fetch(`${stack.url}${path}`, { headers });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      },
      { seconds, concurrency: CONCURRENCY },
    );

  await requestsPerSecond('/api/company', { cookie }, 1); // warm-up
  const signedIn: number[] = [];
  const anonymous: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    signedIn.push(Math.round(await requestsPerSecond('/api/company', { cookie }, SECONDS)));
    anonymous.push(Math.round(await requestsPerSecond('/api/billing/plans', {}, SECONDS)));
  }
  console.log(
    JSON.stringify({
      bench: 'identity.session',
      concurrency: CONCURRENCY,
      runs: RUNS,
      seconds: SECONDS,
      signed_in_per_s: median(signedIn),
      public_per_s: median(anonymous),
      signed_in_to_public: +(median(signedIn) / median(anonymous)).toFixed(2),
      signed_in_runs: signedIn,
      public_runs: anonymous,
    }),
  );
} finally {
  await stack.stop();
  await telemetry.shutdown();
}
