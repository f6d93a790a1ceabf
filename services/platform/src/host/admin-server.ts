import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, register, type Registry } from 'prom-client';
import type { ModuleHost } from './module-host.js';

/**
 * Every process answers `/healthz` (alive), `/readyz` (every started module can serve) and
 * `/metrics` (Prometheus) on its admin port, so Kubernetes probes and scrapes need nothing else.
 */
export async function startAdminServer(
  host: ModuleHost,
  options: { host: string; port: number; service: string },
): Promise<{ port: number; close(): Promise<void>; registry: Registry }> {
  // The default registry, where modules register their metrics (metrics.ts); one process, one
  // admin server, so the process-wide registry is the right scope.
  const registry = register;
  registry.setDefaultLabels({ service: options.service });
  collectDefaultMetrics({ register: registry });

  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const reply = (status: number, body: unknown, type = 'application/json') => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (request.method !== 'GET') return reply(405, { error: 'Method not allowed' });
    if (path === '/healthz') return reply(200, { status: 'ok' });
    if (path === '/readyz') {
      void host.ready().then((ready) => reply(ready ? 200 : 503, { ready, modules: host.status() }));
      return;
    }
    if (path === '/metrics') {
      void registry.metrics().then((text) => reply(200, text, registry.contentType));
      return;
    }
    reply(404, { error: 'Not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    registry,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
