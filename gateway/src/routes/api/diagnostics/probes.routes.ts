import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ProbeState } from '@parlance/proto/parlance/platform/v1/probe';
import { constantTimeEqual } from '../../../auth/csrf-token.js';
import { OPERATORS } from '../../../schemas/security.schema.js';
import { ErrorResponse, errorBody } from '../../../schemas/error.schema.js';
import { ProbeParams, ProbeReport, SendProbeBody, SentProbe } from '../../../schemas/probe.schema.js';
import type { ServiceClients } from '../../../service-clients.js';

export const DIAGNOSTICS_HEADER = 'x-diagnostics-token';

export const DIAGNOSTICS_MESSAGES = {
  off: 'Diagnostics are turned off on this server (set DIAGNOSTICS_TOKEN to turn them on).',
  token: 'Send the diagnostics token as the X-Diagnostics-Token header.',
} as const;

/**
 * Pipeline probes: an operator (or a test) sends one through a service and reads back when its
 * event came out of the other end of the outbox, bus and consumer, with the trace ids seen on
 * both sides. Operators only: every call needs the DIAGNOSTICS_TOKEN secret in the
 * X-Diagnostics-Token header, and without that setting the routes answer 404.
 */
export async function probeRoutes(app: FastifyInstance, options: { services: ServiceClients; token: string | undefined }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!options.token) return reply.status(404).send(errorBody(DIAGNOSTICS_MESSAGES.off));
    const given = request.headers[DIAGNOSTICS_HEADER];
    if (typeof given !== 'string' || !constantTimeEqual(given, options.token)) return reply.status(401).send(errorBody(DIAGNOSTICS_MESSAGES.token));
  });

  typed.post(
    '/api/diagnostics/probes',
    {
      schema: {
        operationId: 'startProbe',
        summary: 'Send a pipeline probe through a service',
        security: OPERATORS,
        tags: ['system'],
        body: SendProbeBody,
        response: { 201: SentProbe, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (request, reply) => {
      const { service, note } = request.body;
      const sent = await options.services.get(service).probe.sendProbe({ service, note: note ?? '' });
      return reply.status(201).send({ service, probeId: sent.probeId, traceId: sent.traceId });
    },
  );

  typed.get(
    '/api/diagnostics/probes/:service/:probeId',
    {
      schema: {
        operationId: 'getProbe',
        summary: 'Where a pipeline probe has got to',
        security: OPERATORS,
        tags: ['system'],
        params: ProbeParams,
        response: { 200: ProbeReport, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (request) => {
      const { service, probeId } = request.params;
      const probe = await options.services.get(service).probe.getProbe({ service, probeId });
      return {
        service,
        probeId: probe.probeId,
        state: probe.state === ProbeState.PROBE_STATE_RECEIVED ? ('received' as const) : ('sent' as const),
        sentAt: (probe.sentAt ?? new Date(0)).toISOString(),
        receivedAt: probe.receivedAt ? probe.receivedAt.toISOString() : null,
        sentTraceId: probe.sentTraceId,
        receivedTraceId: probe.receivedTraceId || null,
      };
    },
  );
}
