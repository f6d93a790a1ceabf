/**
 * The gateway's HTTP surface against real services: an in-process host with PGlite, the
 * in-memory bus and the scoring service behind a real gRPC server.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHostConfig } from '@parlance/platform/host/host-config';
import { ModuleHost } from '@parlance/platform/host/module-host';
import { plumbingModules } from '@parlance/platform/host/plumbing-modules';
import { createLogger } from '@parlance/platform/logger';
import { startTelemetry } from '@parlance/platform/telemetry';
import { scoringModule } from '@parlance/scoring/module';
import { buildApp } from '../src/app.js';
import { connectServices, serviceAddresses, type ServiceClients } from '../src/service-clients.js';
import { freePort } from '../../test/support/free-port.js';
import { waitFor } from '../../test/support/wait-for.js';

const logger = createLogger({ service: 'gateway-test', level: 'silent', pretty: false });
let dataDir: string;
let webDir: string;
let host: ModuleHost;
let services: ServiceClients;
let app: FastifyInstance;
let closeApp: (timeoutMs: number) => Promise<void>;
const diagnosticsToken = 'operators-only-diagnostics-token';
const operator = { 'x-diagnostics-token': diagnosticsToken };

beforeAll(async () => {
  // As in every Parlance process, telemetry starts before anything else.
  startTelemetry({ serviceName: 'gateway-test' });
  dataDir = await mkdtemp(path.join(tmpdir(), 'parlance-gateway-'));
  webDir = await mkdtemp(path.join(tmpdir(), 'parlance-web-'));
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(path.join(webDir, 'app.js'), 'console.log("parlance");');
  await writeFile(path.join(webDir, 'app.js.gz'), gzipSync('console.log("parlance");'));
  const config = loadHostConfig({ DATA_DIR: dataDir, GRPC_PORT: String(await freePort()) });
  host = new ModuleHost(logger);
  for (const module of [...plumbingModules(config), scoringModule({})]) host.register(module);
  await host.start(['scoring']);
  services = connectServices(serviceAddresses(config, {}));
  ({ app, close: closeApp } = await buildApp({ logger, services, webDir, version: '9.9.9', mode: 'standalone', diagnosticsToken }));
}, 90_000);

afterAll(async () => {
  await closeApp?.(1_000);
  services?.close();
  await host?.stop();
  await Promise.all([dataDir, webDir].filter(Boolean).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('GET /api/health', () => {
  it('reports each service, and is degraded with 503 while some are not running', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    const body = response.json() as { status: string; version: string; mode: string; modules: Array<{ name: string; state: string }> };
    expect(body).toMatchObject({ status: 'degraded', version: '9.9.9', mode: 'standalone' });
    expect(body.modules.find((module) => module.name === 'scoring')?.state).toBe('serving');
    expect(body.modules.find((module) => module.name === 'identity')?.state).toBe('unreachable');
    expect(body.modules.map((module) => module.name)).toEqual(['identity', 'ingest', 'transcription', 'scoring', 'analytics', 'integration']);
  });
});

describe('pipeline probes', () => {
  it('sends a probe through a service and reports it received', async () => {
    const sent = await app.inject({ method: 'POST', url: '/api/diagnostics/probes', headers: operator, payload: { service: 'scoring', note: 'hello' } });
    expect(sent.statusCode).toBe(201);
    const { probeId } = sent.json() as { probeId: string };
    const report = await waitFor('the probe to be received', async () => {
      const response = await app.inject({ method: 'GET', url: `/api/diagnostics/probes/scoring/${probeId}`, headers: operator });
      const body = response.json() as { state: string; receivedAt: string | null };
      return body.state === 'received' ? body : undefined;
    });
    expect(report.receivedAt).not.toBeNull();
  });

  it('names the field when the service is not one of Parlance’s', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/diagnostics/probes', headers: operator, payload: { service: 'billing' } });
    expect(response.statusCode).toBe(400);
    expect((response.json() as { error: string }).error).toMatch(/^Invalid body: service /);
  });

  it('says which field is missing', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/diagnostics/probes', headers: operator, payload: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'Invalid body: service is required', message: 'Invalid body: service is required' });
  });

  it('rejects a note longer than 200 characters', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/diagnostics/probes', headers: operator, payload: { service: 'scoring', note: 'x'.repeat(201) } });
    expect(response.statusCode).toBe(400);
    expect((response.json() as { error: string }).error).toContain('note');
  });

  it('answers 404 with the service’s message for an unknown probe', async () => {
    const probeId = '00000000-0000-4000-8000-000000000000';
    const response = await app.inject({ method: 'GET', url: `/api/diagnostics/probes/scoring/${probeId}`, headers: operator });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: `No probe ${probeId}` });
  });

  it('answers 404 when the service is not running in the process it was sent to', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/diagnostics/probes', headers: operator, payload: { service: 'ingest' } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'No service "ingest" runs in this process' });
  });
});

describe('diagnostics access', () => {
  it('is for operators only: a wrong or missing X-Diagnostics-Token header gets 401', async () => {
    const wrong = { 'x-diagnostics-token': 'a-wrong-token-of-some-length' };
    const sent = await app.inject({ method: 'POST', url: '/api/diagnostics/probes', headers: wrong, payload: { service: 'scoring' } });
    expect(sent.statusCode).toBe(401);
    expect(sent.json()).toMatchObject({ error: 'Send the diagnostics token as the X-Diagnostics-Token header.' });
    for (const headers of [{}, wrong]) {
      const read = await app.inject({ method: 'GET', url: '/api/diagnostics/probes/scoring/00000000-0000-4000-8000-000000000000', headers });
      expect(read.statusCode).toBe(401);
    }
    // With no header at all, a POST is a browser request like any other, and CSRF refuses it first.
    const bare = await app.inject({ method: 'POST', url: '/api/diagnostics/probes', payload: { service: 'scoring' } });
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toMatchObject({ error: 'CSRF validation failed' });
  });

  it('is turned off, answering 404, when no DIAGNOSTICS_TOKEN is configured', async () => {
    const { app: plain, close } = await buildApp({ logger, services, webDir, version: '9.9.9', mode: 'standalone' });
    try {
      const sent = await plain.inject({ method: 'POST', url: '/api/diagnostics/probes', headers: operator, payload: { service: 'scoring' } });
      expect(sent.statusCode).toBe(404);
      expect(sent.json()).toMatchObject({ error: 'Diagnostics are turned off on this server (set DIAGNOSTICS_TOKEN to turn them on).' });
    } finally {
      await close(1_000);
    }
  });
});

describe('when a service cannot be reached', () => {
  it('answers 503 with a sentence a person can act on, and health names it unreachable', async () => {
    const closedPort = await freePort();
    const unreachable = connectServices(
      Object.fromEntries(
        ['identity', 'ingest', 'transcription', 'scoring', 'analytics', 'integration'].map((name) => [name, `127.0.0.1:${closedPort}`]),
      ) as Parameters<typeof connectServices>[0],
    );
    const { app: isolated, close } = await buildApp({ logger, services: unreachable, webDir, version: '9.9.9', mode: 'distributed', diagnosticsToken });
    try {
      const sent = await isolated.inject({ method: 'POST', url: '/api/diagnostics/probes', headers: operator, payload: { service: 'scoring' } });
      expect(sent.statusCode).toBe(503);
      expect(sent.json()).toMatchObject({ error: 'The service is unavailable. Please try again later.' });
      const health = await isolated.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(503);
      expect((health.json() as { modules: Array<{ state: string }> }).modules.every((module) => module.state === 'unreachable')).toBe(true);
    } finally {
      await close(1_000);
      unreachable.close();
    }
  }, 30_000);
});

describe('routing', () => {
  it('answers an unknown API path with a JSON 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'No such endpoint: GET /api/nothing-here', message: 'No such endpoint: GET /api/nothing-here' });
  });

  it('serves the web app for deep links so the browser router can take over', async () => {
    const response = await app.inject({ method: 'GET', url: '/teams/new' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('<div id="root">');
  });

  it("sends the build's gzip copy of a script to a browser that accepts gzip, and the plain file otherwise", async () => {
    const compressed = await app.inject({ method: 'GET', url: '/app.js', headers: { 'accept-encoding': 'gzip' } });
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(compressed.rawPayload).toString()).toBe('console.log("parlance");');
    const plain = await app.inject({ method: 'GET', url: '/app.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("parlance");');
  });

  it('sends security headers that keep the page from being framed or loading foreign scripts', async () => {
    const response = await app.inject({ method: 'GET', url: '/teams/new' });
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('publishes its OpenAPI document', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    const document = response.json() as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/api/diagnostics/probes', '/api/diagnostics/probes/{service}/{probeId}']),
    );
  });

  it('returns the trace id of the request', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    });
    expect(response.headers['x-trace-id']).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });
});

describe('GET /api/web-config', () => {
  it('tells the web app no third party is configured by default, and the policy allows none', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/web-config' });
    expect(response.json()).toEqual({
      googleClientId: null,
      demoSchedulingUrl: null,
      demoContactEmail: 'sales@parlance.local',
      analyticsScriptUrl: null,
    });
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("frame-src 'self';");
  });

  it('names the configured Google client, scheduling page and analytics script, and allows exactly their origins', async () => {
    const web = {
      googleClientId: 'parlance-web.apps.example',
      demoSchedulingUrl: 'https://calendar.example.com/parlance/demo',
      demoContactEmail: 'demos@example.com',
      analyticsScriptUrl: 'https://stats.example.org/script.js',
    };
    const configured = await buildApp({ logger, services, webDir, version: '9.9.9', mode: 'standalone', web });
    try {
      const response = await configured.app.inject({ method: 'GET', url: '/api/web-config' });
      expect(response.json()).toEqual(web);
      const policy = String(response.headers['content-security-policy']);
      expect(policy).toContain("script-src 'self' https://accounts.google.com https://stats.example.org;");
      expect(policy).toContain("frame-src 'self' https://accounts.google.com https://calendar.example.com;");
      expect(policy).toContain("connect-src 'self' https://accounts.google.com https://stats.example.org;");
      // Google's popups answer the page that opened them.
      expect(response.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    } finally {
      await configured.close(1_000);
    }
  });
});
