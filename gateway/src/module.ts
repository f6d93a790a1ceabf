import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { HostConfig } from '@parlance/platform/host/host-config';
import type { ModuleDefinition } from '@parlance/platform/host/module';
import { buildApp } from './app.js';
import { loadGatewayConfig } from './config.js';
import { connectServices, serviceAddresses } from './service-clients.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** Longest a shutdown waits for requests in flight. */
const DRAIN_TIMEOUT_MS = 10_000;

export interface RunningGateway {
  app: FastifyInstance;
  url: string;
}

/**
 * The HTTP front door. It depends on no module in its own process: it reaches every service
 * over gRPC, at this process's own server when standalone.
 */
export function gatewayModule(hostConfig: HostConfig, env: NodeJS.ProcessEnv = process.env): ModuleDefinition<RunningGateway> {
  // Read now, so a bad setting stops the process before any module starts.
  const config = loadGatewayConfig(env);
  const addresses = serviceAddresses(hostConfig, env);
  return {
    name: 'gateway',
    dependencies: [],
    description: 'REST API under /api, its OpenAPI document, and the web app',
    async init({ logger }) {
      const services = connectServices(addresses);
      const { app, close } = await buildApp({
        logger,
        services,
        webDir: config.GATEWAY_WEB_DIR,
        version,
        mode: hostConfig.PARLANCE_MODE,
        bodyLimit: config.GATEWAY_BODY_LIMIT,
        secureCookies: config.secureCookies,
        ...(config.PUBLIC_URL ? { publicUrl: config.PUBLIC_URL } : {}),
        trustProxy: config.trustProxy,
        ...(config.oidc ? { oidc: config.oidc } : {}),
        ...(config.DIAGNOSTICS_TOKEN ? { diagnosticsToken: config.DIAGNOSTICS_TOKEN } : {}),
        web: {
          demoContactEmail: config.DEMO_CONTACT_EMAIL,
          ...(config.GOOGLE_CLIENT_ID ? { googleClientId: config.GOOGLE_CLIENT_ID } : {}),
          ...(config.DEMO_SCHEDULING_URL ? { demoSchedulingUrl: config.DEMO_SCHEDULING_URL } : {}),
          ...(config.WEB_ANALYTICS_SCRIPT_URL ? { analyticsScriptUrl: config.WEB_ANALYTICS_SCRIPT_URL } : {}),
        },
      });
      await app.listen({ host: config.GATEWAY_HOST, port: config.GATEWAY_PORT });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : config.GATEWAY_PORT;
      const url = `http://${config.GATEWAY_HOST}:${port}`;
      return {
        exports: { app, url },
        // New requests get 503 while those in flight finish.
        quiesce: () => close(DRAIN_TIMEOUT_MS),
        stop: async () => services.close(),
      };
    },
  };
}
