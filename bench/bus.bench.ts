/**
 * Event bus throughput: N keyed 1 KB events published in batches of 500, several batches in
 * flight at once (as a producer service's outbox relay would), consumed by one group.
 *
 *   npx tsx bench/bus.bench.ts            # both adapters; KAFKA_BROKERS defaults to the local broker
 *   npx tsx bench/bus.bench.ts kafka      # one adapter
 *
 * Prints one JSON line per measure with the median of RUNS runs. A smaller warm-up run per
 * adapter (JIT, connections, topic metadata) goes first and is not counted.
 */
import { createBus, type BusConfig } from '@parlance/platform/bus/create-bus';
import type { BusMessage } from '@parlance/platform/bus/event-bus';
import { testKafkaBrokers, uniqueName } from '@parlance/platform/testing/infra';
import { median } from './support/measure.js';

const RUNS = 3;
const KEYS = 100;
const VALUE_BYTES = 1024;
const BATCH = 500;
const CONCURRENT_BATCHES = 8;

interface Target {
  name: 'memory' | 'kafka';
  events: number;
  config: BusConfig;
}

const targets: Target[] = [
  { name: 'memory', events: 200_000, config: { adapter: 'memory' } },
  { name: 'kafka', events: 100_000, config: { adapter: 'kafka', brokers: testKafkaBrokers(), clientId: 'bus-bench' } },
];

interface Run {
  publish: number;
  publishConsume: number;
}

async function runOnce(target: Target, total = target.events): Promise<Run> {
  const bus = createBus(target.config);
  const topic = uniqueName('bench_bus');
  try {
    await bus.ensureTopics([topic]);
    let consumed = 0;
    let allConsumed: () => void = () => undefined;
    const consumedAll = new Promise<void>((resolve) => (allConsumed = resolve));
    await bus.subscribe({
      group: uniqueName('bench'),
      topics: [topic],
      handler: async () => {
        if (++consumed === total) allConsumed();
      },
    });

    const template = new Uint8Array(VALUE_BYTES).map((_, i) => 32 + (i % 90));
    let next = 0;
    const batchOf = (): BusMessage[] => {
      const messages: BusMessage[] = [];
      for (let i = 0; i < BATCH && next < total; i++, next++) {
        const value = template.slice();
        new DataView(value.buffer).setUint32(0, next);
        messages.push({ topic, key: `company-${next % KEYS}`, value, headers: { 'x-event-type': 'bench.event-happened.v1' } });
      }
      return messages;
    };
    const publisher = async () => {
      while (next < total) await bus.publish(batchOf());
    };

    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENT_BATCHES }, publisher));
    const published = performance.now();
    await consumedAll;
    const finished = performance.now();
    return {
      publish: Math.round(total / ((published - started) / 1000)),
      publishConsume: Math.round(total / ((finished - started) / 1000)),
    };
  } finally {
    await bus.close();
  }
}

const only = process.argv[2];
for (const target of targets.filter((t) => !only || t.name === only)) {
  await runOnce(target, Math.round(target.events / 5));
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await runOnce(target));
  const common = { events: target.events, value_bytes: VALUE_BYTES, keys: KEYS, batch: BATCH, concurrent_batches: CONCURRENT_BATCHES };
  for (const [measure, pick] of [
    ['publish', (r: Run) => r.publish],
    ['publish_consume', (r: Run) => r.publishConsume],
  ] as const) {
    const values = runs.map(pick);
    console.log(JSON.stringify({ bench: `bus.${target.name}.${measure}`, events_per_s: median(values), runs: values, ...common }));
  }
}
