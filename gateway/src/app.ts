import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from '@parlance/platform/logger';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { gracefulCloser } from './plugins/graceful-close.js';
import { registerTracing } from './plugins/tracing.js';
import { registerWebApp } from './plugins/web-app.js';
import { probeRoutes } from './routes/api/diagnostics/probes.routes.js';
import { healthRoutes } from './routes/api/health/health.routes.js';
import type { ServiceClients } from './service-clients.js';

export interface AppOptions {
  logger: Logger;
  services: ServiceClients;
  webDir: string;
  version: string;
  mode: 'standalone' | 'distributed';
  bodyLimit?: number;
}

/** The gateway as an application: plugins, then routes. `server` in module.ts only listens. */
export interface GatewayApp {
  app: FastifyInstance;
  /** Stops accepting requests, finishes those in flight (up to `timeoutMs`), then closes. */
  close(timeoutMs: number): Promise<void>;
}

export async function buildApp(options: AppOptions): Promise<GatewayApp> {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: options.bodyLimit ?? 1_048_576,
    // Long-lived keep-alive connections must not hold a shutdown open.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });

  const close = gracefulCloser(app);
  registerErrorHandler(app);
  registerTracing(app);
  await registerSecurityHeaders(app);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Parlance API',
        version: options.version,
        description: 'The REST API of Parlance under /api. Errors are returned as { "error": "sentence for a person" }.',
      },
    },
  });

  await app.register(healthRoutes, { services: options.services, version: options.version, mode: options.mode });
  await app.register(probeRoutes, { services: options.services });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await registerWebApp(app, options.webDir);
  return { app, close };
}
