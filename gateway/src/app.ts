import fastifySwagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from '@parlance/platform/logger';
import { ssoVerifier } from './auth/sso-token.js';
import type { OidcSettings } from './config.js';
import { registerCsrfProtection } from './plugins/csrf.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { gracefulCloser } from './plugins/graceful-close.js';
import { DEFAULT_RATE_LIMITS, RateLimiter, type RateLimit, type RateLimitName } from './plugins/rate-limit.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerSessions } from './plugins/sessions.js';
import { registerTracing } from './plugins/tracing.js';
import { registerWebApp } from './plugins/web-app.js';
import { activitiesRoutes } from './routes/api/activities/activities.routes.js';
import { dashboardRoutes } from './routes/api/dashboard/dashboard.routes.js';
import { shareFeedbackRoutes } from './routes/api/activities/share-feedback.routes.js';
import { authRoutes } from './routes/api/auth/auth.routes.js';
import { billingRoutes } from './routes/api/billing/billing.routes.js';
import { companyRoutes } from './routes/api/company/company.routes.js';
import { probeRoutes } from './routes/api/diagnostics/probes.routes.js';
import { healthRoutes } from './routes/api/health/health.routes.js';
import { integrationsRoutes } from './routes/api/integrations/integrations.routes.js';
import { settingsRoutes } from './routes/api/settings/settings.routes.js';
import { summariesRoutes } from './routes/api/summaries/summaries.routes.js';
import { teamsRoutes } from './routes/api/teams/teams.routes.js';
import { uploadsRoutes } from './routes/api/uploads/uploads.routes.js';
import { webConfigRoutes } from './routes/api/web-config/web-config.routes.js';
import { SECURITY_SCHEMES } from './schemas/security.schema.js';
import type { ServiceClients } from './service-clients.js';
import { DEFAULT_WEB_SETTINGS, type WebSettings } from './web-settings.js';

export interface AppOptions {
  logger: Logger;
  services: ServiceClients;
  webDir: string;
  version: string;
  mode: 'standalone' | 'distributed';
  bodyLimit?: number;
  /** Secure, __Host- cookies (Parlance is reached over HTTPS). */
  secureCookies?: boolean;
  /** The address people open Parlance at (PUBLIC_URL), for the OAuth callbacks; unset: the request's own. */
  publicUrl?: string;
  /** Proxies whose X-Forwarded-* headers are believed (Fastify's trustProxy). */
  trustProxy?: boolean | string[];
  /** Single sign-on: bearer tokens from this issuer are accepted. */
  oidc?: OidcSettings;
  /** The operators' secret for /api/diagnostics; without it those routes answer 404. */
  diagnosticsToken?: string;
  /** The third parties the web app may use (Google sign-in, demo scheduling, analytics). */
  web?: WebSettings;
  /** Overrides of the default rate limits. */
  rateLimits?: Partial<Record<RateLimitName, RateLimit>>;
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
    trustProxy: options.trustProxy ?? false,
    // Long-lived keep-alive connections must not hold a shutdown open.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // Fastify's own request lines log the URL with its query, and links carry secrets there
    // (?token=…); the tracing plugin logs each request by path instead.
    logController: new LogController({ disableRequestLogging: true }),
    // Type lists (`type: ['number', 'string', 'null']`) describe fields taken as typed, e.g. a weight.
    ajv: { customOptions: { allowUnionTypes: true } },
  });

  const close = gracefulCloser(app);
  registerErrorHandler(app);
  registerTracing(app);
  const web = options.web ?? DEFAULT_WEB_SETTINGS;
  await registerSecurityHeaders(app, web);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Parlance API',
        version: options.version,
        description:
          'The REST API of Parlance under /api. Errors are returned as { "error": sentence, "message": the same sentence }. ' +
          'A browser signs in with a session cookie and sends X-CSRF-Token (from GET /api/csrf-token) on every non-GET request; ' +
          'in single-sign-on mode an API client sends Authorization: Bearer <access token> instead.',
      },
      components: { securitySchemes: SECURITY_SCHEMES },
    },
  });

  const sessions = await registerSessions(app, {
    identity: options.services.identity,
    secureCookies: options.secureCookies ?? false,
    sso: options.oidc ? ssoVerifier(options.oidc) : undefined,
  });
  registerCsrfProtection(app, sessions.cookies);
  const limiter = new RateLimiter({ ...DEFAULT_RATE_LIMITS, ...options.rateLimits });

  await app.register(healthRoutes, { services: options.services, version: options.version, mode: options.mode });
  await app.register(probeRoutes, { services: options.services, token: options.diagnosticsToken });
  await app.register(authRoutes, { services: options.services, sessions, limiter });
  await app.register(companyRoutes, { services: options.services, sessions });
  await app.register(settingsRoutes, { services: options.services, sessions });
  await app.register(billingRoutes, { services: options.services, sessions });
  await app.register(teamsRoutes, { services: options.services, sessions, limiter });
  await app.register(uploadsRoutes, { services: options.services, sessions });
  await app.register(summariesRoutes, { services: options.services, sessions });
  await app.register(activitiesRoutes, { services: options.services, sessions });
  await app.register(dashboardRoutes, { services: options.services, sessions });
  await app.register(integrationsRoutes, { services: options.services, sessions, publicUrl: options.publicUrl });
  await app.register(shareFeedbackRoutes, { services: options.services, sessions, limiter });
  await app.register(webConfigRoutes, { web });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await registerWebApp(app, options.webDir);
  return { app, close };
}
