import Type from 'typebox';
import { SERVICE_NAMES } from '../service-clients.js';

export const ServiceNameParam = Type.Union(
  SERVICE_NAMES.map((name) => Type.Literal(name)),
  { description: 'a Parlance service' },
);

export const SendProbeBody = Type.Object(
  {
    service: ServiceNameParam,
    note: Type.Optional(Type.String({ maxLength: 200, description: 'free text echoed in the event' })),
  },
  { additionalProperties: false },
);

export const SentProbe = Type.Object({
  service: Type.String(),
  probeId: Type.String({ format: 'uuid' }),
  traceId: Type.String(),
});

export const ProbeParams = Type.Object({
  service: ServiceNameParam,
  probeId: Type.String({ format: 'uuid' }),
});

export const ProbeReport = Type.Object({
  service: Type.String(),
  probeId: Type.String(),
  state: Type.Union([Type.Literal('sent'), Type.Literal('received')]),
  sentAt: Type.String({ format: 'date-time' }),
  receivedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  sentTraceId: Type.String(),
  receivedTraceId: Type.Union([Type.String(), Type.Null()]),
});
