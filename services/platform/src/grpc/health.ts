/**
 * The standard gRPC health service (grpc.health.v1.Health), so Kubernetes gRPC probes and
 * grpc-health-probe can ask a process whether it serves:
 *
 *   const health = createHealthService();
 *   server.addService(health.definition, health.implementation);
 *   health.setStatus('parlance.platform.v1.Probe', 'SERVING');
 *   ...
 *   health.shutdown(); // before server.stop(): report NOT_SERVING while calls drain
 *
 * "" is the status of the process as a whole; like grpc-go, it starts as SERVING. A service
 * name never set is unknown: Check answers NOT_FOUND, Watch sends SERVICE_UNKNOWN and keeps
 * the stream open until the service is registered.
 */
import type { ServerWritableStream } from '@grpc/grpc-js';
import {
  HealthCheckResponse_ServingStatus as ServingStatus,
  HealthService,
  type HealthCheckRequest,
  type HealthCheckResponse,
} from '@parlance/proto/grpc/health/v1/health';
import { DomainError } from '../errors.js';
import type { ServiceImplementation } from './grpc-server.js';

export type HealthStatus = 'SERVING' | 'NOT_SERVING';

export interface Health {
  definition: typeof HealthService;
  implementation: ServiceImplementation<typeof HealthService>;
  /** Sets the status of a fully qualified service name, or of "" (the whole process). */
  setStatus(service: string, status: HealthStatus): void;
  /** Every service and "" become NOT_SERVING, and stay so: call before stopping the server. */
  shutdown(): void;
}

export function createHealthService(): Health {
  const statuses = new Map<string, ServingStatus>([['', ServingStatus.SERVING]]);
  const watchers = new Map<string, Set<(status: ServingStatus) => void>>();
  let shuttingDown = false;

  const set = (service: string, status: ServingStatus) => {
    if (statuses.get(service) === status) return;
    statuses.set(service, status);
    for (const notify of watchers.get(service) ?? []) notify(status);
  };

  const watch = (call: ServerWritableStream<HealthCheckRequest, HealthCheckResponse>) => {
    const service = call.request.service;
    let last: ServingStatus | undefined;
    const send = (status: ServingStatus) => {
      if (status === last) return;
      last = status;
      call.write({ status });
    };
    const listeners = watchers.get(service) ?? new Set();
    watchers.set(service, listeners);
    listeners.add(send);
    const stop = () => {
      listeners.delete(send);
      if (listeners.size === 0 && watchers.get(service) === listeners) watchers.delete(service);
    };
    call.once('cancelled', stop);
    call.once('close', stop);
    send(statuses.get(service) ?? ServingStatus.SERVICE_UNKNOWN);
  };

  return {
    definition: HealthService,
    implementation: {
      check: async ({ service }) => {
        const status = statuses.get(service);
        if (status === undefined) throw new DomainError('not-found', `Unknown service: ${service}`);
        return { status };
      },
      watch,
    },
    setStatus(service, status) {
      if (shuttingDown) return;
      set(service, ServingStatus[status]);
    },
    shutdown() {
      shuttingDown = true;
      for (const service of statuses.keys()) set(service, ServingStatus.NOT_SERVING);
    },
  };
}
