import { credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  GetProbeRequest,
  ProbeClient,
  ProbeService,
  ProbeState,
  type GetProbeResponse,
  type SendProbeRequest,
} from '@parlance/proto/parlance/platform/v1/probe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DomainError } from '../src/errors.js';
import { createClient } from '../src/grpc/grpc-client.js';
import { createGrpcServer, type CallContext } from '../src/grpc/grpc-server.js';
import { COMPANY_ID_METADATA } from '../src/grpc/metadata.js';
import { requestContext, type RequestContext } from '../src/grpc/request-context.js';
import { GrpcCallError, httpStatusForDomainError } from '../src/grpc/status-mapping.js';
import { createLogger } from '../src/logger.js';
import { currentTraceId, inSpan, SpanKind, spanProcessorFor, startTelemetry } from '../src/telemetry.js';

const exporter = new InMemorySpanExporter();
const telemetry = startTelemetry({ serviceName: 'grpc-test', spanProcessors: [spanProcessorFor(exporter)] });

const logLines: string[] = [];
const logger = createLogger({ service: 'grpc-test', level: 'info', destination: { write: (line: string) => void logLines.push(line) } });

/** What the handlers saw, per call. */
let seen: Array<RequestContext & { traceId: string | undefined; signal?: AbortSignal }> = [];
let handled = 0;

const server = createGrpcServer({ port: 0, logger });
let address = '';
let probe: ReturnType<typeof createClient<typeof ProbeClient>>;

beforeAll(async () => {
  server.addService(ProbeService, {
    // Calls GetProbe on the same server without passing the company: it must follow the request.
    sendProbe: async (request: SendProbeRequest) => {
      seen.push({ ...requestContext(), traceId: currentTraceId() });
      if (request.note === 'forward') await probe.getProbe({ probeId: 'forwarded', service: 'probe' });
      return { probeId: randomUUID(), traceId: currentTraceId() ?? '' };
    },
    getProbe: async ({ probeId }: GetProbeRequest, ctx: CallContext): Promise<GetProbeResponse> => {
      handled += 1;
      seen.push({ ...requestContext(), traceId: currentTraceId(), signal: ctx.signal });
      if (probeId === 'missing') throw new DomainError('not-found', 'Team not found');
      if (probeId === 'crash') throw new Error('connect ECONNREFUSED 10.1.2.3:5432 for probe crash');
      if (probeId === 'slow') await sleep(1_000);
      return {
        probeId,
        state: ProbeState.PROBE_STATE_RECEIVED,
        sentAt: new Date('2025-01-02T03:04:05.678Z'),
        receivedAt: undefined,
        sentTraceId: '',
        receivedTraceId: '',
      };
    },
  });
  address = `127.0.0.1:${await server.start()}`;
  probe = createClient(ProbeClient, address, { idempotent: ['getProbe'] });
});

afterAll(async () => {
  probe.close();
  await server.stop(1_000);
  await telemetry.shutdown();
});

beforeEach(() => {
  seen = [];
  handled = 0;
  logLines.length = 0;
  exporter.reset();
});

describe('gRPC server and client helpers', () => {
  it('round-trips a unary call with typed messages and dates', async () => {
    const response = await probe.getProbe({ probeId: 'p1', service: 'probe' }, { companyId: 'c1' });
    expect(response.probeId).toBe('p1');
    expect(response.state).toBe(ProbeState.PROBE_STATE_RECEIVED);
    expect(response.sentAt).toEqual(new Date('2025-01-02T03:04:05.678Z'));
    expect(response.receivedAt).toBeUndefined();
  });

  it('delivers the company id, user id and deadline to the handler through the request context', async () => {
    const before = Date.now();
    await probe.getProbe({ probeId: 'p1', service: 'probe' }, { companyId: 'company-7', userId: 'user-3', deadlineMs: 2_000 });
    const [context] = seen;
    expect(context?.companyId).toBe('company-7');
    expect(context?.userId).toBe('user-3');
    expect(context?.deadline?.getTime()).toBeGreaterThan(before);
    expect(context?.deadline?.getTime()).toBeLessThanOrEqual(Date.now() + 2_000);
  });

  it("continues the client's trace in a SERVER span that is a child of the CLIENT span", async () => {
    const clientTraceId = await inSpan('test request', {}, async (span) => {
      await probe.sendProbe({ note: 'hello', service: 'probe' }, { companyId: 'company-7' });
      return span.spanContext().traceId;
    });
    expect(seen[0]?.traceId).toBe(clientTraceId);

    const spans = exporter.getFinishedSpans();
    const serverSpan = spans.find((s) => s.kind === SpanKind.SERVER && s.name === 'parlance.platform.v1.Probe/SendProbe');
    const clientSpan = spans.find((s) => s.kind === SpanKind.CLIENT && s.name === 'parlance.platform.v1.Probe/SendProbe');
    expect(serverSpan?.spanContext().traceId).toBe(clientTraceId);
    expect(clientSpan?.spanContext().traceId).toBe(clientTraceId);
    expect(serverSpan?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
    expect(serverSpan?.attributes).toMatchObject({ 'rpc.system': 'grpc', 'rpc.method': 'SendProbe', 'parlance.company_id': 'company-7' });
  });

  it('passes the company and trace of the request being handled on to the calls it makes', async () => {
    await probe.sendProbe({ note: 'forward', service: 'probe' }, { companyId: 'company-9', userId: 'user-1', deadlineMs: 1_000 });
    expect(seen).toHaveLength(2);
    expect(seen[1]?.companyId).toBe('company-9');
    expect(seen[1]?.userId).toBe('user-1');
    expect(seen[1]?.traceId).toBe(seen[0]?.traceId);
    // The inner call may not outlive the outer one (the client's default would be 5 s); the
    // grpc-timeout header is relative, so allow a few milliseconds of transit and rounding.
    expect(seen[1]?.deadline?.getTime()).toBeLessThanOrEqual((seen[0]?.deadline?.getTime() ?? 0) + 20);
  });

  it('answers a DomainError thrown in a handler with its kind and message, which map to HTTP 404', async () => {
    const error = await probe.getProbe({ probeId: 'missing', service: 'probe' }, { companyId: 'c1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'not-found', message: 'Team not found', code: status.NOT_FOUND });
    expect(httpStatusForDomainError(error as DomainError)).toBe(404);
    expect(handled).toBe(1); // not-found is not retried, even on an idempotent method
    expect(logLines.join('')).not.toContain('gRPC handler failed');
  });

  it('answers an unexpected error with a generic INTERNAL and logs it without the request', async () => {
    const error = await probe.getProbe({ probeId: 'crash', service: 'probe' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrpcCallError);
    expect(error).toMatchObject({ kind: 'internal', message: 'Internal error.', code: status.INTERNAL });
    expect((error as Error).message).not.toContain('10.1.2.3');
    expect(httpStatusForDomainError(error as DomainError)).toBe(500);

    const failures = logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => l.msg === 'gRPC handler failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ level: 50, rpc: '/parlance.platform.v1.Probe/GetProbe', service: 'grpc-test' });
    expect(failures[0]?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(failures[0])).not.toContain('probeId');
  });

  it('fails a slow call with DEADLINE_EXCEEDED (HTTP 504) and aborts the handler signal', async () => {
    const started = Date.now();
    const error = await probe.getProbe({ probeId: 'slow', service: 'probe' }, { deadlineMs: 150 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(900);
    expect(error).toBeInstanceOf(GrpcCallError);
    expect(error).toMatchObject({ kind: 'unavailable', code: status.DEADLINE_EXCEEDED });
    expect(httpStatusForDomainError(error as DomainError)).toBe(504);
    expect(handled).toBe(1); // DEADLINE_EXCEEDED is never retried
    await sleep(20);
    expect(seen[0]?.signal?.aborted).toBe(true);
  });

  it('does not run a handler for a call whose deadline has already passed', async () => {
    const raw = new ProbeClient(address, credentials.createInsecure());
    try {
      const error = await new Promise<ServiceError | null>((resolve) => {
        raw.getProbe(GetProbeRequest.create({ probeId: 'p1' }), new Metadata(), { deadline: Date.now() - 1 }, (e) => resolve(e));
      });
      expect(error?.code).toBe(status.DEADLINE_EXCEEDED);
      expect(handled).toBe(0);
    } finally {
      raw.close();
    }
  });

  it('reads the company id a raw grpc-js client sets under the documented metadata key', async () => {
    const raw = new ProbeClient(address, credentials.createInsecure());
    try {
      const metadata = new Metadata();
      metadata.set(COMPANY_ID_METADATA, 'company-raw');
      await new Promise<void>((resolve, reject) => {
        raw.getProbe(GetProbeRequest.create({ probeId: 'p1' }), metadata, (e) => (e ? reject(e) : resolve()));
      });
      expect(seen[0]?.companyId).toBe('company-raw');
    } finally {
      raw.close();
    }
  });
});
