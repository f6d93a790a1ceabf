import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  deadLetterTopic,
  FAILURE_ATTEMPTS_HEADER,
  FAILURE_REASON_HEADER,
  ORIGINAL_TOPIC_HEADER,
  type DeliveredMessage,
  type EventBus,
  type Subscription,
} from '../src/bus/event-bus.js';
import { uniqueName } from '../src/testing/infra.js';

/**
 * The behaviour every EventBus adapter must show. bus-memory.test.ts runs it in process,
 * bus-kafka.test.ts against the real broker started by `deploy/local/services up`.
 */
export function busContract(name: string, makeBus: () => Promise<EventBus>): void {
  describe(`event bus contract: ${name}`, () => {
    let bus: EventBus;
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    const bytes = (text: string) => encoder.encode(text);
    const text = (message: DeliveredMessage) => decoder.decode(message.value);
    const eventually = (assertion: () => void, timeout = 20_000) => vi.waitFor(assertion, { timeout, interval: 20 });

    beforeEach(async () => {
      bus = await makeBus();
    });

    afterEach(async () => {
      await bus.close();
    });

    it('delivers every published message to a subscribed group, even on a topic that did not exist yet', async () => {
      const topic = uniqueName('bus_all');
      const received: DeliveredMessage[] = [];
      await bus.subscribe({ group: uniqueName('g'), topics: [topic], handler: async (m) => void received.push(m) });

      const sent = Array.from({ length: 60 }, (_, i) => `message-${i}`);
      await bus.publish(sent.map((value, i) => ({ topic, key: `key-${i % 7}`, value: bytes(value) })));

      await eventually(() => expect(received).toHaveLength(sent.length));
      expect(received.map(text).sort()).toEqual([...sent].sort());
      for (const message of received) {
        expect(message.topic).toBe(topic);
        expect(message.attempt).toBe(1);
        expect(message.key).toBe(`key-${Number(text(message).split('-')[1]) % 7}`);
        expect(message.value).toBeInstanceOf(Uint8Array);
      }
    });

    it('delivers messages published before the group subscribed (fromBeginning by default)', async () => {
      const topic = uniqueName('bus_before');
      await bus.ensureTopics([topic]);
      await bus.publish(Array.from({ length: 10 }, (_, i) => ({ topic, key: `k${i % 3}`, value: bytes(`early-${i}`) })));

      const received: string[] = [];
      await bus.subscribe({ group: uniqueName('g'), topics: [topic], handler: async (m) => void received.push(text(m)) });
      await bus.publish([{ topic, key: 'k0', value: bytes('late') }]);

      await eventually(() => expect(received).toHaveLength(11));
      expect(received.sort()).toEqual([...Array.from({ length: 10 }, (_, i) => `early-${i}`), 'late'].sort());
    });

    it('each of two groups receives every message', async () => {
      const topic = uniqueName('bus_groups');
      const first: string[] = [];
      const second: string[] = [];
      await bus.subscribe({ group: uniqueName('g1'), topics: [topic], handler: async (m) => void first.push(text(m)) });
      await bus.subscribe({ group: uniqueName('g2'), topics: [topic], handler: async (m) => void second.push(text(m)) });

      const sent = Array.from({ length: 40 }, (_, i) => `m${i}`);
      await bus.publish(sent.map((value, i) => ({ topic, key: `k${i % 5}`, value: bytes(value) })));

      await eventually(() => {
        expect(first).toHaveLength(sent.length);
        expect(second).toHaveLength(sent.length);
      });
      expect(first.sort()).toEqual([...sent].sort());
      expect(second.sort()).toEqual([...sent].sort());
    });

    it('keeps order per key across interleaved keys', async () => {
      const topic = uniqueName('bus_order');
      const keys = ['acme', 'globex', 'initech', 'umbrella', 'hooli'];
      const perKey = 200;
      const seen = new Map<string, number[]>(keys.map((key) => [key, []]));
      const partitionOf = new Map<string, Set<number>>(keys.map((key) => [key, new Set()]));
      await bus.subscribe({
        group: uniqueName('g'),
        topics: [topic],
        handler: async (m) => {
          // Yield, so partitions really interleave instead of running one after the other.
          if (Number(text(m)) % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
          seen.get(m.key)!.push(Number(text(m)));
          partitionOf.get(m.key)!.add(m.partition);
        },
      });

      // Publish in interleaved batches: k0#0, k1#0, ..., k4#0, k0#1, ...; some calls concurrent.
      const all = Array.from({ length: perKey }, (_, seq) => keys.map((key) => ({ topic, key, value: bytes(String(seq)) }))).flat();
      for (let i = 0; i < all.length; i += 100) {
        await Promise.all([bus.publish(all.slice(i, i + 50)), bus.publish(all.slice(i + 50, i + 100))]);
      }

      const expected = Array.from({ length: perKey }, (_, seq) => seq);
      await eventually(() => {
        for (const key of keys) expect(seen.get(key)).toHaveLength(perKey);
      });
      for (const key of keys) {
        expect(seen.get(key)).toEqual(expected);
        expect(partitionOf.get(key)!.size).toBe(1);
      }
    });

    it('passes headers through', async () => {
      const topic = uniqueName('bus_headers');
      const received: DeliveredMessage[] = [];
      await bus.subscribe({ group: uniqueName('g'), topics: [topic], handler: async (m) => void received.push(m) });
      const headers = {
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        'x-event-type': 'ingest.activity-received.v1',
        'x-unicode': 'Zoë — 会议',
      };
      await bus.publish([
        { topic, key: 'company-1', value: bytes('with'), headers },
        { topic, key: 'company-1', value: bytes('without') },
      ]);

      await eventually(() => expect(received).toHaveLength(2));
      expect(received.map((m) => [text(m), m.headers])).toEqual([
        ['with', headers],
        ['without', {}],
      ]);
    });

    it('delivers the bytes as published even when the publisher reuses its buffer', async () => {
      const topic = uniqueName('bus_copy');
      const received: string[] = [];
      await bus.subscribe({ group: uniqueName('g'), topics: [topic], handler: async (m) => void received.push(text(m)) });
      const buffer = bytes('original');
      const published = bus.publish([{ topic, key: 'k', value: buffer }]);
      buffer.set(bytes('mutated!'));
      await published;

      await eventually(() => expect(received).toEqual(['original']));
    });

    it('retries a failing handler with growing backoff and succeeds on a later attempt', async () => {
      const topic = uniqueName('bus_retry');
      const attempts: { attempt: number; at: number }[] = [];
      const handled: string[] = [];
      await bus.subscribe({
        group: uniqueName('g'),
        topics: [topic],
        initialBackoffMs: 50,
        maxBackoffMs: 150,
        maxAttempts: 6,
        handler: async (m) => {
          if (text(m) !== 'flaky') {
            handled.push(text(m));
            return;
          }
          attempts.push({ attempt: m.attempt, at: performance.now() });
          if (m.attempt < 5) throw new Error(`transient failure ${m.attempt}`);
          handled.push(text(m));
        },
      });
      await bus.publish([
        { topic, key: 'k', value: bytes('flaky') },
        { topic, key: 'k', value: bytes('next') },
      ]);

      await eventually(() => expect(handled).toEqual(['flaky', 'next']));
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
      const gaps = attempts.slice(1).map((a, i) => a.at - attempts[i]!.at);
      // 50, 100, then capped at 150: doubling up to maxBackoffMs.
      const expected = [50, 100, 150, 150];
      gaps.forEach((gap, i) => {
        expect(gap).toBeGreaterThanOrEqual(expected[i]! - 2);
        expect(gap).toBeLessThan(expected[i]! + 500);
      });
      expect(gaps[1]!).toBeGreaterThan(gaps[0]!);
      expect(gaps[2]!).toBeGreaterThan(gaps[0]!);
    });

    it('dead-letters after maxAttempts with the failure reason and original topic in headers, then continues', async () => {
      const topic = uniqueName('bus_dlq');
      const attempts: number[] = [];
      const handled: string[] = [];
      const deadLetters: DeliveredMessage[] = [];
      await bus.subscribe({
        group: uniqueName('g'),
        topics: [topic],
        maxAttempts: 3,
        initialBackoffMs: 10,
        handler: async (m) => {
          if (text(m) === 'poison') {
            attempts.push(m.attempt);
            throw new Error('cannot parse payload');
          }
          handled.push(text(m));
        },
      });
      await bus.subscribe({
        group: uniqueName('dlq_reader'),
        topics: [deadLetterTopic(topic)],
        handler: async (m) => void deadLetters.push(m),
      });
      // Same key, so 'after' sits behind 'poison' in the same partition.
      await bus.publish([
        { topic, key: 'company-7', value: bytes('before') },
        { topic, key: 'company-7', value: bytes('poison'), headers: { 'x-event-type': 'test.poisoned.v1' } },
        { topic, key: 'company-7', value: bytes('after') },
      ]);

      await eventually(() => {
        expect(handled).toEqual(['before', 'after']);
        expect(deadLetters).toHaveLength(1);
      });
      expect(attempts).toEqual([1, 2, 3]);
      const [dead] = deadLetters;
      expect(dead!.topic).toBe(deadLetterTopic(topic));
      expect(dead!.key).toBe('company-7');
      expect(text(dead!)).toBe('poison');
      expect(dead!.headers).toEqual({
        'x-event-type': 'test.poisoned.v1',
        [FAILURE_REASON_HEADER]: 'cannot parse payload',
        [FAILURE_ATTEMPTS_HEADER]: '3',
        [ORIGINAL_TOPIC_HEADER]: topic,
      });
    });

    it('redelivers uncommitted messages to a new consumer in the same group after the first stops mid-way', async () => {
      const topic = uniqueName('bus_redeliver');
      const group = uniqueName('g');
      const keys = ['a', 'b', 'c'];
      const sent = keys.flatMap((key) => Array.from({ length: 10 }, (_, i) => `${key}-${i}`));
      const handledByFirst = new Set<string>();
      const handledBySecond = new Set<string>();
      const secondAttempts = new Map<string, number>();
      let failedOnce: () => void = () => undefined;
      const stuck = new Promise<void>((resolve) => (failedOnce = resolve));

      const first = await bus.subscribe({
        group,
        topics: [topic],
        // The retry after the failure would come much later than the test runs.
        initialBackoffMs: 60_000,
        handler: async (m) => {
          if (text(m) === 'a-4') {
            failedOnce();
            throw new Error('downstream unavailable');
          }
          handledByFirst.add(text(m));
        },
      });
      await bus.publish(sent.map((value) => ({ topic, key: value.split('-')[0]!, value: bytes(value) })));
      await stuck;
      const startedStopping = performance.now();
      await first.stop();
      // stop() must not sit out the 60 s backoff of the failed message.
      expect(performance.now() - startedStopping).toBeLessThan(15_000);
      expect(handledByFirst.has('a-4')).toBe(false);

      await bus.subscribe({
        group,
        topics: [topic],
        handler: async (m) => {
          handledBySecond.add(text(m));
          secondAttempts.set(text(m), m.attempt);
        },
      });
      await eventually(() => {
        for (const value of sent) expect(handledByFirst.has(value) || handledBySecond.has(value)).toBe(true);
      });
      // Everything from the failed message on, in its partition, was left for the next member.
      for (let i = 4; i < 10; i++) expect(handledBySecond.has(`a-${i}`)).toBe(true);
      expect(secondAttempts.get('a-4')).toBe(1);
    });

    it('stop() waits for an in-flight handler, then commits its offset', async () => {
      const topic = uniqueName('bus_stop');
      const group = uniqueName('g');
      const events: string[] = [];
      let entered: () => void = () => undefined;
      const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));

      const first = await bus.subscribe({
        group,
        topics: [topic],
        handler: async (m) => {
          events.push(`start ${text(m)}`);
          entered();
          await gate;
          events.push(`end ${text(m)}`);
        },
      });
      await bus.publish([{ topic, key: 'k', value: bytes('slow') }]);
      await handlerEntered;

      let stopped = false;
      const stopping = first.stop().then(() => {
        stopped = true;
        events.push('stopped');
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect(events).toEqual(['start slow', 'end slow', 'stopped']);

      // The finished message was committed: the next member of the group starts after it.
      const later: string[] = [];
      await bus.subscribe({ group, topics: [topic], handler: async (m) => void later.push(text(m)) });
      await bus.publish([{ topic, key: 'k', value: bytes('marker') }]);
      await eventually(() => expect(later).toEqual(['marker']));
    });

    it('close() stops every subscription', async () => {
      const topic = uniqueName('bus_close');
      const received: string[] = [];
      const subscriptions: Subscription[] = [];
      for (const group of [uniqueName('g1'), uniqueName('g2')]) {
        subscriptions.push(await bus.subscribe({ group, topics: [topic], handler: async (m) => void received.push(text(m)) }));
      }
      await bus.publish([{ topic, key: 'k', value: bytes('one') }]);
      await eventually(() => expect(received).toHaveLength(2));
      await bus.close();
      await expect(bus.publish([{ topic, key: 'k', value: bytes('two') }])).rejects.toThrow(/closed/);
      // Stopping an already stopped subscription is harmless.
      await Promise.all(subscriptions.map((s) => s.stop()));
    });
  });
}
