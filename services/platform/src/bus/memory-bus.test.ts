import { Partitioners } from 'kafkajs';
import { describe, expect, it, vi } from 'vitest';
import type { DeliveredMessage } from './event-bus.js';
import { backoffDelay } from './delivery.js';
import { createMemoryBus, partitionFor } from './memory-bus.js';

describe('memory bus', () => {
  it('puts a key on the same partition as kafkajs’ default partitioner', () => {
    const partitioner = Partitioners.DefaultPartitioner();
    const partitionMetadata = Array.from({ length: 6 }, (_, partitionId) => ({ partitionId, leader: 1, partitionErrorCode: 0, replicas: [1], isr: [1] }));
    const keys = ['', 'a', 'ab', 'abc', 'abcd', 'company-1', '8d1c7f1e-3a4b-4f2a-9d0e-6a1f4c2b9e11', 'Zoë', '会议'];
    for (let i = 0; i < 200; i++) keys.push(`key-${i}-${'x'.repeat(i % 9)}`);
    for (const key of keys) {
      expect(partitionFor(key, 6), key).toBe(partitioner({ topic: 't', partitionMetadata, message: { key, value: null } }));
    }
  });

  it('doubles the backoff from initialBackoffMs up to maxBackoffMs', () => {
    const policy = { initialBackoffMs: 100, maxBackoffMs: 1_000 };
    expect([1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(attempt, policy))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });

  it('gives each partition to one member of a group at a time, and hands it over when that member stops', async () => {
    const bus = createMemoryBus({ partitions: 4 });
    const byFirst: DeliveredMessage[] = [];
    const bySecond: DeliveredMessage[] = [];
    const first = await bus.subscribe({ group: 'g', topics: ['t'], handler: async (m) => void byFirst.push(m) });
    await bus.subscribe({ group: 'g', topics: ['t'], handler: async (m) => void bySecond.push(m) });
    const messages = Array.from({ length: 40 }, (_, i) => ({ topic: 't', key: `k${i}`, value: new Uint8Array([i]) }));
    await bus.publish(messages);
    await vi.waitFor(() => expect(byFirst.length + bySecond.length).toBe(40));
    // The first member took every partition; the second idles as a standby.
    expect(bySecond).toHaveLength(0);

    await first.stop();
    await bus.publish([{ topic: 't', key: 'k1', value: new Uint8Array([99]) }]);
    await vi.waitFor(() => expect(bySecond.map((m) => m.value[0])).toEqual([99]));
    expect(byFirst).toHaveLength(40);
    await bus.close();
  });

  it('starts a group at the end of the log when fromBeginning is false', async () => {
    const bus = createMemoryBus();
    await bus.publish([{ topic: 't', key: 'k', value: new Uint8Array([1]) }]);
    const received: number[] = [];
    await bus.subscribe({ group: 'g', topics: ['t'], fromBeginning: false, handler: async (m) => void received.push(m.value[0]!) });
    await bus.publish([{ topic: 't', key: 'k', value: new Uint8Array([2]) }]);
    await vi.waitFor(() => expect(received).toEqual([2]));
    await bus.close();
  });

  it('drops old messages nobody needs, but never one a group has yet to handle', async () => {
    const bus = createMemoryBus({ partitions: 1, retainedMessagesPerPartition: 10 });
    const message = (i: number) => ({ topic: 't', key: 'k', value: new TextEncoder().encode(String(i)) });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const lagging: string[] = [];
    await bus.subscribe({
      group: 'slow',
      topics: ['t'],
      handler: async (m) => {
        await gate;
        lagging.push(new TextDecoder().decode(m.value));
      },
    });
    for (let i = 0; i < 5_000; i++) await bus.publish([message(i)]);
    release();
    await vi.waitFor(() => expect(lagging).toHaveLength(5_000));
    expect(lagging).toEqual(Array.from({ length: 5_000 }, (_, i) => String(i)));

    // Now every group is past them: more publishing trims the log, and a group that
    // subscribes late starts at the oldest retained message.
    for (let i = 5_000; i < 7_000; i++) await bus.publish([message(i)]);
    await vi.waitFor(() => expect(lagging).toHaveLength(7_000));
    await bus.publish([message(7_000)]);
    const late: DeliveredMessage[] = [];
    await bus.subscribe({ group: 'late', topics: ['t'], handler: async (m) => void late.push(m) });
    await vi.waitFor(() => expect(late.at(-1)?.offset).toBe('7000'));
    expect(late.length).toBeGreaterThanOrEqual(10);
    expect(late.length).toBeLessThan(7_001);
    expect(Number(late[0]!.offset)).toBeGreaterThan(0);
    await bus.close();
  });

  it('rejects a subscription with a nonsensical retry policy', async () => {
    const bus = createMemoryBus();
    await expect(bus.subscribe({ group: 'g', topics: ['t'], maxAttempts: 0, handler: async () => undefined })).rejects.toThrow(/maxAttempts/);
  });

  describe("with acknowledge: 'handled'", () => {
    const bytes = (text: string) => new TextEncoder().encode(text);

    it('resolves publish only after every reading group has handled the messages', async () => {
      const bus = createMemoryBus({ acknowledge: 'handled' });
      const handled: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      await bus.subscribe({ group: 'fast', topics: ['t'], handler: async () => void handled.push('fast') });
      await bus.subscribe({
        group: 'slow',
        topics: ['t'],
        handler: async () => {
          await gate;
          handled.push('slow');
        },
      });
      let resolved = false;
      const published = bus.publish([{ topic: 't', key: 'k', value: bytes('one') }]).then(() => (resolved = true));
      await vi.waitFor(() => expect(handled).toEqual(['fast']));
      expect(resolved).toBe(false);
      release();
      await published;
      expect(handled).toEqual(['fast', 'slow']);
      await bus.close();
    });

    it('counts a dead-lettered message as handled', async () => {
      const bus = createMemoryBus({ acknowledge: 'handled' });
      await bus.subscribe({
        group: 'g',
        topics: ['t'],
        maxAttempts: 2,
        initialBackoffMs: 1,
        handler: async () => {
          throw new Error('cannot handle');
        },
      });
      await bus.publish([{ topic: 't', key: 'k', value: bytes('poison') }]);
      const dead: string[] = [];
      await bus.subscribe({ group: 'inspector', topics: ['t.dlq'], handler: async (m) => void dead.push(m.headers['x-failure-reason']!) });
      await vi.waitFor(() => expect(dead).toEqual(['cannot handle']));
      await bus.close();
    });

    it('resolves at once on a topic nobody reads, and when the only reader stops', async () => {
      const bus = createMemoryBus({ acknowledge: 'handled' });
      await bus.publish([{ topic: 'unread', key: 'k', value: bytes('x') }]);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const subscription = await bus.subscribe({ group: 'g', topics: ['t'], handler: () => gate });
      const published = bus.publish([{ topic: 't', key: 'k', value: bytes('stuck') }, { topic: 't', key: 'k', value: bytes('behind') }]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      // A stopping reader leaves its messages uncommitted for the next member of its group.
      const stopped = subscription.stop();
      await published;
      release();
      await stopped;
      await bus.close();
    });
  });
});
