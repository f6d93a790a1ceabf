import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ProbeState } from '@parlance/proto/parlance/platform/v1/probe';
import { ErrorResponse } from '../../../schemas/error.schema.js';
import { ProbeParams, ProbeReport, SendProbeBody, SentProbe } from '../../../schemas/probe.schema.js';
import type { ServiceClients } from '../../../service-clients.js';

/**
 * Pipeline probes: an operator (or a test) sends one through a service and reads back when its
 * event came out of the other end of the outbox, bus and consumer, with the trace ids seen on
 * both sides.
 */
export async function probeRoutes(app: FastifyInstance, options: { services: ServiceClients }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.post(
    '/api/diagnostics/probes',
    {
      schema: {
        summary: 'Send a pipeline probe through a service',
        tags: ['system'],
        body: SendProbeBody,
        response: { 201: SentProbe, 400: ErrorResponse, 404: ErrorResponse, 503: ErrorResponse },
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
        summary: 'Where a pipeline probe has got to',
        tags: ['system'],
        params: ProbeParams,
        response: { 200: ProbeReport, 400: ErrorResponse, 404: ErrorResponse, 503: ErrorResponse },
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
