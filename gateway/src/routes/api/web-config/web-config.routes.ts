import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { WebConfigResponse } from '../../../schemas/web-config.schema.js';
import type { WebSettings } from '../../../web-settings.js';

/** GET /api/web-config: public, read by the web app on start. Holds no secret. */
export async function webConfigRoutes(app: FastifyInstance, options: { web: WebSettings }): Promise<void> {
  const body = {
    googleClientId: options.web.googleClientId ?? null,
    demoSchedulingUrl: options.web.demoSchedulingUrl ?? null,
    demoContactEmail: options.web.demoContactEmail,
    analyticsScriptUrl: options.web.analyticsScriptUrl ?? null,
  };
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/web-config',
    {
      schema: {
        operationId: 'getWebConfig',
        summary: 'The third-party services the web app may use in this deployment',
        tags: ['system'],
        response: { 200: WebConfigResponse },
      },
    },
    async () => body,
  );
}
