import { status } from '@grpc/grpc-js';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProbeClient, ProbeService, ProbeState } from '@parlance/proto/parlance/platform/v1/probe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../src/errors.js';
import { createClient } from '../src/grpc/grpc-client.js';
import { createGrpcServer, type GrpcServer } from '../src/grpc/grpc-server.js';
import { createLogger } from '../src/logger.js';

const logger = createLogger({ service: 'grpc-test', level: 'silent' });

/** Fails the first `failures` calls of each method with UNAVAILABLE, and counts attempts. */
function flakyProbe(failures: number) {
  const attempts = { sendProbe: 0, getProbe: 0 };
  const implementation = {
    sendProbe: async () => {
      attempts.sendProbe += 1;
      if (attempts.sendProbe <= failures) throw new DomainError('unavailable', 'Probe store is warming up');
      return { probeId: 'p1', traceId: '' };
    },
    getProbe: async ({ probeId }: { probeId: string }) => {
      attempts.getProbe += 1;
      if (attempts.getProbe <= failures) throw new DomainError('unavailable', 'Probe store is warming up');
      return { probeId, state: ProbeState.PROBE_STATE_SENT, sentAt: undefined, receivedAt: undefined, sentTraceId: '', receivedTraceId: '' };
    },
  };
  return { attempts, implementation };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const fastBackoff = { initialMs: 20, maxMs: 100 };

describe('gRPC client retries', () => {
  const flaky = flakyProbe(2);
  const server = createGrpcServer({ port: 0, logger });
  let address = '';

  beforeAll(async () => {
    server.addService(ProbeService, flaky.implementation);
    address = `127.0.0.1:${await server.start()}`;
  });
  afterAll(() => server.stop(1_000));
  afterEach(() => {
    flaky.attempts.sendProbe = 0;
    flaky.attempts.getProbe = 0;
  });

  it('retries an idempotent method on UNAVAILABLE until it succeeds', async () => {
    const client = createClient(ProbeClient, address, { idempotent: ['getProbe'], retries: 3, backoff: fastBackoff });
    try {
      const response = await client.getProbe({ probeId: 'p1', service: 'probe' });
      expect(response.state).toBe(ProbeState.PROBE_STATE_SENT);
      expect(flaky.attempts.getProbe).toBe(3);
    } finally {
      client.close();
    }
  });

  it('gives up after `retries` retries and reports the last error', async () => {
    const client = createClient(ProbeClient, address, { idempotent: ['getProbe'], retries: 1, backoff: fastBackoff });
    try {
      const error = await client.getProbe({ probeId: 'p1', service: 'probe' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'unavailable', message: 'Probe store is warming up', code: status.UNAVAILABLE });
      expect(flaky.attempts.getProbe).toBe(2);
    } finally {
      client.close();
    }
  });

  it('never retries a method that is not listed as idempotent', async () => {
    const client = createClient(ProbeClient, address, { idempotent: ['getProbe'], retries: 3, backoff: fastBackoff });
    try {
      const error = await client.sendProbe({ note: 'once', service: 'probe' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ kind: 'unavailable', message: 'Probe store is warming up' });
      expect(flaky.attempts.sendProbe).toBe(1);
    } finally {
      client.close();
    }
  });

  it('stops retrying when the deadline leaves no room for another attempt', async () => {
    const client = createClient(ProbeClient, address, {
      idempotent: ['getProbe'],
      retries: 10,
      backoff: { initialMs: 1_000, maxMs: 1_000 }, // every delay is 500-1000 ms
      deadlineMs: 300,
    });
    try {
      const started = Date.now();
      const error = await client.getProbe({ probeId: 'p1', service: 'probe' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'unavailable' });
      expect(flaky.attempts.getProbe).toBe(1);
      expect(Date.now() - started).toBeLessThan(300);
    } finally {
      client.close();
    }
  });
});

describe('gRPC client against a server that is not up yet', () => {
  let late: GrpcServer | undefined;
  afterEach(async () => {
    await late?.stop(1_000);
    late = undefined;
  });

  it('reaches the server once it starts when the method is idempotent', async () => {
    const port = await freePort();
    const flaky = flakyProbe(0);
    const client = createClient(ProbeClient, `127.0.0.1:${port}`, {
      idempotent: ['getProbe'],
      retries: 20,
      backoff: fastBackoff,
      channelOptions: { 'grpc.initial_reconnect_backoff_ms': 20, 'grpc.max_reconnect_backoff_ms': 50 },
    });
    try {
      const call = client.getProbe({ probeId: 'p1', service: 'probe' });
      await sleep(150); // the first attempts fail with connection refused
      late = createGrpcServer({ port, logger });
      late.addService(ProbeService, flaky.implementation);
      await late.start();
      expect((await call).probeId).toBe('p1');
      expect(flaky.attempts.getProbe).toBe(1);
    } finally {
      client.close();
    }
  });

  it('fails at once with UNAVAILABLE when the method is not idempotent', async () => {
    const port = await freePort();
    const client = createClient(ProbeClient, `127.0.0.1:${port}`, { idempotent: ['getProbe'], backoff: fastBackoff });
    try {
      const started = Date.now();
      const error = await client.sendProbe({ note: 'x', service: 'probe' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'unavailable', code: status.UNAVAILABLE });
      expect((error as Error).message).not.toContain(String(port)); // transport details stay out
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      client.close();
    }
  });
});
