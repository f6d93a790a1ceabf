import type { FastifyInstance } from 'fastify';
import { HealthCheckResponse_ServingStatus as ServingStatus } from '@parlance/proto/grpc/health/v1/health';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { HealthResponse } from '../../../schemas/health.schema.js';
import { ErrorResponse } from '../../../schemas/error.schema.js';
import type { ServiceClients } from '../../../service-clients.js';

export interface HealthRouteOptions {
  services: ServiceClients;
  version: string;
  mode: 'standalone' | 'distributed';
}

/** `GET /api/health`: asks each service's gRPC health service; 503 unless all serve. */
export async function healthRoutes(app: FastifyInstance, options: HealthRouteOptions): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Whether every Parlance service is serving',
        tags: ['system'],
        response: { 200: HealthResponse, 503: HealthResponse, 500: ErrorResponse },
      },
    },
    async (_request, reply) => {
      const modules = await Promise.all(
        options.services.all().map(async (service) => {
          try {
            const { status } = await service.health.check({ service: service.name });
            return { name: service.name, state: status === ServingStatus.SERVING ? ('serving' as const) : ('not serving' as const) };
          } catch {
            return { name: service.name, state: 'unreachable' as const };
          }
        }),
      );
      const healthy = modules.every((module) => module.state === 'serving');
      return reply.status(healthy ? 200 : 503).send({
        status: healthy ? 'ok' : 'degraded',
        version: options.version,
        mode: options.mode,
        modules,
      });
    },
  );
}
