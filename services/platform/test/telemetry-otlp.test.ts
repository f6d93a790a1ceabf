/**
 * Spans leave the process over OTLP/HTTP. The receiver is a plain local HTTP server standing in
 * for an OpenTelemetry collector; it records what the real exporter sends to /v1/traces.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSpan, startTelemetry } from '../src/telemetry.js';

const received: Array<{ path: string; contentType: string; body: string }> = [];
let server: Server;
let endpoint: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ path: request.url ?? '', contentType: request.headers['content-type'] ?? '', body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('OTLP trace export', () => {
  it('sends finished spans, with their trace id and the service name, to <endpoint>/v1/traces', async () => {
    const telemetry = startTelemetry({ serviceName: 'otlp-test', exporter: 'otlp', otlpEndpoint: `${endpoint}/` });
    let traceId = '';
    await inSpan('scored an activity', {}, async (span) => {
      traceId = span.spanContext().traceId;
    });
    await telemetry.shutdown();

    const request = received.find((entry) => entry.path === '/v1/traces');
    expect(request, 'a request to /v1/traces').toBeDefined();
    expect(request!.contentType).toContain('application/json');
    expect(request!.body).toContain(traceId);
    expect(request!.body).toContain('scored an activity');
    expect(request!.body).toContain('otlp-test');
  });
});
