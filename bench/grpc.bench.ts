/**
 * Unary gRPC calls per second over loopback through our helpers (createGrpcServer, createClient):
 * metadata, deadline, CLIENT and SERVER spans, request context and status mapping included.
 *
 *   npx tsx bench/grpc.bench.ts          # 3 runs x 5 s, 50 calls in flight
 *   BENCH_SECONDS=2 BENCH_CONCURRENCY=100 npx tsx bench/grpc.bench.ts
 *
 * Prints one JSON line: {"bench":"grpc.unary","calls_per_s":<median of the runs>,...}
 */
import { ProbeClient, ProbeService, ProbeState } from '@parlance/proto/parlance/platform/v1/probe';
import { createClient } from '@parlance/platform/grpc/grpc-client';
import { createGrpcServer } from '@parlance/platform/grpc/grpc-server';
import { requestContext } from '@parlance/platform/grpc/request-context';
import { createLogger } from '@parlance/platform/logger';
import { startTelemetry } from '@parlance/platform/telemetry';
import { callsPerSecond, median } from './support/measure.js';

const RUNS = 3;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);

// As in production: a tracer provider is running (spans are made and sampled), nothing exported.
const telemetry = startTelemetry({ serviceName: 'bench' });
const logger = createLogger({ service: 'bench', level: 'warn', pretty: false });

const sentAt = new Date();
const server = createGrpcServer({ port: 0, logger });
server.addService(ProbeService, {
  sendProbe: async ({ note }) => ({ probeId: note, traceId: '' }),
  getProbe: async ({ probeId }) => ({
    probeId,
    state: requestContext().companyId ? ProbeState.PROBE_STATE_RECEIVED : ProbeState.PROBE_STATE_UNSPECIFIED,
    sentAt,
    receivedAt: sentAt,
    sentTraceId: '',
    receivedTraceId: '',
  }),
});
const port = await server.start();
const client = createClient(ProbeClient, `127.0.0.1:${port}`, { idempotent: ['getProbe'] });

const run = (seconds: number) =>
  callsPerSecond(
    async () => {
      const response = await client.getProbe({ probeId: 'probe-1', service: 'probe' }, { companyId: 'company-1' });
      if (response.state !== ProbeState.PROBE_STATE_RECEIVED) throw new Error('company id did not arrive');
    },
    { seconds, concurrency: CONCURRENCY },
  );

await run(1); // warm-up: connection, JIT
const runs: number[] = [];
for (let i = 0; i < RUNS; i++) runs.push(Math.round(await run(SECONDS)));

console.log(
  JSON.stringify({ bench: 'grpc.unary', calls_per_s: median(runs), runs, concurrency: CONCURRENCY, seconds_per_run: SECONDS, node: process.version }),
);

client.close();
await server.stop(1_000);
await telemetry.shutdown();
