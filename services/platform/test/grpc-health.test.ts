import type { ClientReadableStream } from '@grpc/grpc-js';
import {
  HealthCheckResponse_ServingStatus as ServingStatus,
  HealthClient,
  type HealthCheckResponse,
} from '@parlance/proto/grpc/health/v1/health';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../src/errors.js';
import { createClient } from '../src/grpc/grpc-client.js';
import { createGrpcServer } from '../src/grpc/grpc-server.js';
import { createHealthService } from '../src/grpc/health.js';
import { createLogger } from '../src/logger.js';

const PROBE = 'parlance.platform.v1.Probe';

const health = createHealthService();
const server = createGrpcServer({ port: 0, logger: createLogger({ service: 'grpc-test', level: 'silent' }) });
let client: ReturnType<typeof createClient<typeof HealthClient>>;

beforeAll(async () => {
  server.addService(health.definition, health.implementation);
  const port = await server.start();
  client = createClient(HealthClient, `127.0.0.1:${port}`, { idempotent: ['check'] });
});

afterAll(async () => {
  client.close();
  await server.stop(1_000);
});

/** Reads a Watch stream message by message. */
function reader(stream: ClientReadableStream<HealthCheckResponse>) {
  const received: ServingStatus[] = [];
  const waiting: Array<() => void> = [];
  stream.on('data', (message: HealthCheckResponse) => {
    received.push(message.status);
    waiting.shift()?.();
  });
  stream.on('error', () => undefined); // cancelled at the end of each test
  return {
    async next(): Promise<ServingStatus> {
      if (received.length === 0) await new Promise<void>((resolve) => waiting.push(resolve));
      return received.shift() as ServingStatus;
    },
    pending: () => received.length,
  };
}

describe('gRPC health service', () => {
  it('reports the whole process ("") as SERVING from the start', async () => {
    expect(await client.check({ service: '' })).toEqual({ status: ServingStatus.SERVING });
  });

  it('answers NOT_FOUND for a service that was never registered', async () => {
    const error = await client.check({ service: 'parlance.nothing.v1.Nothing' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'not-found' });
  });

  it('reflects setStatus in Check', async () => {
    health.setStatus(PROBE, 'SERVING');
    expect((await client.check({ service: PROBE })).status).toBe(ServingStatus.SERVING);
    health.setStatus(PROBE, 'NOT_SERVING');
    expect((await client.check({ service: PROBE })).status).toBe(ServingStatus.NOT_SERVING);
  });

  it('streams the current status and every change to a watcher, starting from SERVICE_UNKNOWN', async () => {
    const service = 'parlance.watch.v1.Watched';
    const stream = client.raw.watch({ service });
    const watch = reader(stream);
    try {
      expect(await watch.next()).toBe(ServingStatus.SERVICE_UNKNOWN);
      health.setStatus(service, 'SERVING');
      expect(await watch.next()).toBe(ServingStatus.SERVING);
      health.setStatus(service, 'SERVING'); // no change, no message
      health.setStatus(service, 'NOT_SERVING');
      expect(await watch.next()).toBe(ServingStatus.NOT_SERVING);
      expect(watch.pending()).toBe(0);
    } finally {
      stream.cancel();
    }
  });

  it('turns everything NOT_SERVING on shutdown, for watchers and Check alike', async () => {
    health.setStatus(PROBE, 'SERVING');
    const stream = client.raw.watch({ service: '' });
    const watch = reader(stream);
    try {
      expect(await watch.next()).toBe(ServingStatus.SERVING);
      health.shutdown();
      expect(await watch.next()).toBe(ServingStatus.NOT_SERVING);
      expect((await client.check({ service: PROBE })).status).toBe(ServingStatus.NOT_SERVING);
      health.setStatus(PROBE, 'SERVING'); // ignored while shutting down
      expect((await client.check({ service: PROBE })).status).toBe(ServingStatus.NOT_SERVING);
    } finally {
      stream.cancel();
    }
  });
});
