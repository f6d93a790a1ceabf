import { HealthClient } from '@parlance/proto/grpc/health/v1/health';
import { ProbeClient } from '@parlance/proto/parlance/platform/v1/probe';
import { createClient, type PromiseClient } from '@parlance/platform/grpc/grpc-client';
import { serviceAddress, type HostConfig } from '@parlance/platform/host/host-config';

/** The services behind the gateway, each reached over gRPC at its configured address. */
export const SERVICE_NAMES = ['identity', 'ingest', 'transcription', 'scoring', 'analytics', 'integration'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface ServiceConnection {
  name: ServiceName;
  address: string;
  health: PromiseClient<typeof HealthClient>;
  probe: PromiseClient<typeof ProbeClient>;
}

export interface ServiceClients {
  get(name: ServiceName): ServiceConnection;
  all(): ServiceConnection[];
  close(): void;
}

/** Every service's address, checked up front (throws ConfigError naming a missing variable). */
export function serviceAddresses(config: HostConfig, env: NodeJS.ProcessEnv = process.env): Record<ServiceName, string> {
  return Object.fromEntries(SERVICE_NAMES.map((name) => [name, serviceAddress(name, config, env)])) as Record<ServiceName, string>;
}

export function connectServices(addresses: Record<ServiceName, string>): ServiceClients {
  const connections = new Map<ServiceName, ServiceConnection>();
  for (const name of SERVICE_NAMES) {
    const address = addresses[name];
    connections.set(name, {
      name,
      address,
      health: createClient(HealthClient, address, { deadlineMs: 2_000, idempotent: ['check'], retries: 1 }),
      probe: createClient(ProbeClient, address, { deadlineMs: 5_000, idempotent: ['getProbe'] }),
    });
  }
  return {
    get: (name) => connections.get(name)!,
    all: () => [...connections.values()],
    close: () => {
      for (const connection of connections.values()) {
        connection.health.close();
        connection.probe.close();
      }
    },
  };
}
