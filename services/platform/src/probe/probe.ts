import { randomUUID } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import {
  ProbeSent,
  ProbeService,
  ProbeState,
  type GetProbeResponse,
  type SendProbeResponse,
} from '@parlance/proto/parlance/platform/v1/probe';
import { invalidArgument, notFound } from '../errors.js';
import { outboxMessageFor } from '../events/event-envelope.js';
import type { GrpcServer } from '../grpc/grpc-server.js';
import { requestContext } from '../grpc/request-context.js';
import { enqueue } from '../outbox/enqueue.js';
import type { OutboxTable } from '../outbox/tables.js';
import type { ServiceRuntime } from '../service/service-runtime.js';
import { currentTraceId } from '../telemetry.js';
import type { ProbeTable } from './probe-tables.js';

export { probeTable, type ProbeTable } from './probe-tables.js';

/** Probes are not tenant data; their events are keyed by this id when no company is calling. */
export const PLATFORM_COMPANY_ID = 'platform';

const MAX_NOTE_LENGTH = 200;

export const probeTopic = (service: string) => `${service}.probe-sent.v1`;

interface ProbeEndpoint {
  send(note: string): Promise<SendProbeResponse>;
  get(probeId: string): Promise<GetProbeResponse>;
}

/**
 * One Probe gRPC service per process, dispatching on the request's `service`, because in the
 * standalone host every service shares one gRPC server.
 */
export class ProbeDirectory {
  private readonly endpoints = new Map<string, ProbeEndpoint>();

  constructor(server: GrpcServer) {
    server.addService(ProbeService, {
      sendProbe: async (request) => this.endpoint(request.service).send(request.note),
      getProbe: async (request) => {
        if (!request.probeId) throw invalidArgument('probe_id is required');
        return this.endpoint(request.service).get(request.probeId);
      },
    });
  }

  register(service: string, endpoint: ProbeEndpoint): void {
    this.endpoints.set(service, endpoint);
  }

  private endpoint(service: string): ProbeEndpoint {
    const endpoint = this.endpoints.get(service);
    if (!endpoint) throw notFound(`No service "${service}" runs in this process`);
    return endpoint;
  }
}

/**
 * Sending a probe writes a row and its `<service>.probe-sent.v1` event in one transaction; the
 * service's own consumer marks it received. Reading it back shows both trace ids.
 */
export async function startProbe(
  directory: ProbeDirectory,
  owner: ServiceRuntime,
  tables: { probes: ProbeTable; outbox: OutboxTable },
): Promise<void> {
  const { probes, outbox } = tables;
  const db = owner.database.db;
  directory.register(owner.name, {
    async send(note) {
      if (note.length > MAX_NOTE_LENGTH) throw invalidArgument(`note must be at most ${MAX_NOTE_LENGTH} characters`);
      const probeId = randomUUID();
      const traceId = currentTraceId() ?? '';
      const event = outboxMessageFor({
        type: probeTopic(owner.name),
        companyId: requestContext().companyId ?? PLATFORM_COMPANY_ID,
        producer: owner.name,
        payload: ProbeSent.encode({ probeId, service: owner.name, note }).finish(),
      });
      await db.transaction(async (tx) => {
        await tx.insert(probes).values({ id: probeId, note, sentTraceId: traceId });
        await enqueue(tx, outbox, [event]);
      });
      return { probeId, traceId };
    },
    async get(probeId) {
      const [row] = await db.select().from(probes).where(eq(probes.id, probeId));
      if (!row) throw notFound(`No probe ${probeId}`);
      return {
        probeId: row.id,
        state: row.receivedAt ? ProbeState.PROBE_STATE_RECEIVED : ProbeState.PROBE_STATE_SENT,
        sentAt: row.sentAt,
        receivedAt: row.receivedAt ?? undefined,
        sentTraceId: row.sentTraceId,
        receivedTraceId: row.receivedTraceId ?? '',
      };
    },
  });

  await owner.consume({
    consumer: 'probe-receiver',
    eventTypes: [probeTopic(owner.name)],
    handle: async (event, tx) => {
      const sent = ProbeSent.decode(event.payload);
      await tx
        .update(probes)
        .set({ receivedAt: new Date(), receivedTraceId: currentTraceId() ?? '' })
        .where(eq(probes.id, sent.probeId));
    },
  });
}

/** Deletes probes sent before `olderThan`; returns how many. */
export async function purgeProbes(db: Executor, probes: ProbeTable, olderThan: Date): Promise<number> {
  const deleted = await db.delete(probes).where(lt(probes.sentAt, olderThan)).returning({ id: probes.id });
  return deleted.length;
}
