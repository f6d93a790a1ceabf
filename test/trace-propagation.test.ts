/**
 * One request's trace, end to end, on the distributed infrastructure (real PostgreSQL, real
 * Kafka): the gateway's HTTP span, the service's gRPC handler span and the span of the consumer
 * that applied the event the handler wrote to its outbox all carry the same trace id.
 */
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayModule, type RunningGateway } from '@parlance/gateway/module';
import { loadHostConfig } from '@parlance/platform/host/host-config';
import { ModuleHost } from '@parlance/platform/host/module-host';
import { plumbingModules } from '@parlance/platform/host/plumbing-modules';
import { createLogger } from '@parlance/platform/logger';
import { spanProcessorFor, startTelemetry } from '@parlance/platform/telemetry';
import { testDatabaseUrl, testKafkaBrokers } from '@parlance/platform/testing/infra';
import { scoringModule } from '@parlance/scoring/module';
import { DIAGNOSTICS_TOKEN, operatorHeaders } from './support/diagnostics.js';
import { freePort } from './support/free-port.js';
import { waitFor } from './support/wait-for.js';

const spans = new InMemorySpanExporter();
let telemetry: { shutdown(): Promise<void> };
let host: ModuleHost;
let gatewayUrl: string;

beforeAll(async () => {
  telemetry = startTelemetry({ serviceName: 'trace-test', spanProcessors: [spanProcessorFor(spans)] });
  const grpcPort = await freePort();
  const env = {
    PARLANCE_MODE: 'distributed',
    DATABASE_URL: testDatabaseUrl(),
    KAFKA_BROKERS: testKafkaBrokers().join(','),
    GRPC_PORT: String(grpcPort),
  };
  // Distributed mode names every service's address; here they all live in this process.
  const addresses = Object.fromEntries(
    ['IDENTITY', 'INGEST', 'TRANSCRIPTION', 'SCORING', 'ANALYTICS', 'INTEGRATION'].map((name) => [`${name}_GRPC_ADDR`, `127.0.0.1:${grpcPort}`]),
  );
  const config = loadHostConfig(env);
  host = new ModuleHost(createLogger({ service: 'trace-test', level: 'warn', pretty: false }));
  for (const module of [...plumbingModules(config), scoringModule(env), gatewayModule(config, { ...addresses, GATEWAY_PORT: '0', DIAGNOSTICS_TOKEN })]) host.register(module);
  await host.start(['scoring', 'gateway']);
  gatewayUrl = host.exportsOf<RunningGateway>('gateway')!.url;
}, 90_000);

afterAll(async () => {
  await host?.stop();
  await telemetry?.shutdown();
});

describe('trace propagation', () => {
  it('carries one trace id from the gateway through a gRPC handler to the consumer of the event it caused', async () => {
    const response = await fetch(`${gatewayUrl}/api/diagnostics/probes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...operatorHeaders },
      body: JSON.stringify({ service: 'scoring', note: 'trace test' }),
    });
    expect(response.status).toBe(201);
    const sent = (await response.json()) as { probeId: string; traceId: string };
    const traceId = response.headers.get('x-trace-id');
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(sent.traceId).toBe(traceId);

    const received = await waitFor('the probe event to be consumed', async () => {
      const report = (await (await fetch(`${gatewayUrl}/api/diagnostics/probes/scoring/${sent.probeId}`, { headers: operatorHeaders })).json()) as {
        state: string;
        receivedTraceId: string | null;
      };
      return report.state === 'received' ? report : undefined;
    });
    expect(received.receivedTraceId).toBe(traceId);

    const finished = spans.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
    const gatewaySpan = finished.find((span) => span.kind === SpanKind.SERVER && span.name === 'POST /api/diagnostics/probes');
    const handlerSpan = finished.find((span) => span.kind === SpanKind.SERVER && span.name === 'parlance.platform.v1.Probe/SendProbe');
    const consumerSpan = finished.find((span) => span.kind === SpanKind.CONSUMER && span.name === 'consume scoring.probe-sent.v1');
    expect(gatewaySpan, 'gateway span').toBeDefined();
    expect(handlerSpan, 'gRPC handler span').toBeDefined();
    expect(consumerSpan, 'consumer span').toBeDefined();
  });

  it('continues a trace the caller started with a traceparent header', async () => {
    const callerTraceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const response = await fetch(`${gatewayUrl}/api/diagnostics/probes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...operatorHeaders, traceparent: `00-${callerTraceId}-00f067aa0ba902b7-01` },
      body: JSON.stringify({ service: 'scoring' }),
    });
    const sent = (await response.json()) as { probeId: string; traceId: string };
    expect(sent.traceId).toBe(callerTraceId);
    const received = await waitFor('the probe event to be consumed', async () => {
      const report = (await (await fetch(`${gatewayUrl}/api/diagnostics/probes/scoring/${sent.probeId}`, { headers: operatorHeaders })).json()) as {
        receivedTraceId: string | null;
      };
      return report.receivedTraceId ?? undefined;
    });
    expect(received).toBe(callerTraceId);
  });
});
