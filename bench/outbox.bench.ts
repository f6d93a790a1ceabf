/**
 * Outbox relay throughput: 50,000 pre-written outbox rows, time until the relay has published
 * and marked all of them. Three runs per target; prints the median as one JSON line each:
 *
 *   {"bench":"outbox.relay.kafka","events_per_s":...}          real Postgres -> real Kafka
 *   {"bench":"outbox.relay.memory","events_per_s":...}         real Postgres -> memory bus
 *   {"bench":"outbox.relay.pglite.memory","events_per_s":...}  PGlite (in memory) -> memory bus
 *
 * Run: npx tsx bench/outbox.bench.ts   (needs `deploy/local/services up`)
 * Env: BENCH_EVENTS (50000), BENCH_RUNS (3), BENCH_BATCH (relay batch size, 500),
 *      BENCH_TARGETS (comma list of kafka,memory,pglite; all by default).
 */
import { sql } from 'drizzle-orm';
import type { EventBus } from '../services/platform/src/bus/event-bus.js';
import { createKafkaBus } from '../services/platform/src/bus/kafka-bus.js';
import { createMemoryBus } from '../services/platform/src/bus/memory-bus.js';
import { openDatabase, type DatabaseConfig } from '../services/platform/src/db/database.js';
import { migrate } from '../services/platform/src/db/migrate.js';
import { enqueue, type OutboxMessage } from '../services/platform/src/outbox/enqueue.js';
import { startOutboxRelay } from '../services/platform/src/outbox/relay.js';
import { FIXTURE_SCHEMA, MIGRATIONS_FOLDER, fixtureTables } from '../services/platform/test/fixtures/db/tables.js';
import { testDatabaseUrl, testKafkaBrokers, uniqueName } from '../services/platform/src/testing/infra.js';
import { median } from './support/measure.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BATCH = Number(process.env.BENCH_BATCH ?? 500);
const TARGETS = (process.env.BENCH_TARGETS ?? 'kafka,memory,pglite').split(',');

/** A payload the size of a typical domain event (~250 bytes of protobuf). */
const payload = new Uint8Array(250).map((_, i) => i % 251);

async function runOnce(target: string): Promise<number> {
  const schemaName = uniqueName('bench_outbox');
  const config: DatabaseConfig =
    target === 'pglite'
      ? { driver: 'pglite', dataDir: 'memory', schema: schemaName }
      : { driver: 'postgres', url: testDatabaseUrl(), schema: schemaName, poolSize: 4 };
  const handle = await openDatabase(config);
  const { outbox } = fixtureTables(schemaName);
  const topic = uniqueName('bench.outbox');
  const bus: EventBus =
    target === 'kafka' ? createKafkaBus({ brokers: testKafkaBrokers(), clientId: 'outbox-bench' }) : createMemoryBus();
  try {
    // The fixture migrations hold an outbox exactly as drizzle-kit generates outboxTable().
    await migrate(handle, { migrationsFolder: MIGRATIONS_FOLDER, sourceSchema: FIXTURE_SCHEMA });
    await bus.ensureTopics([topic]);
    // Warm the producer connection, so the run measures relaying, not connecting.
    await bus.publish([{ topic, key: 'warm-up', value: payload, headers: {} }]);

    for (let i = 0; i < EVENTS; i += 5_000) {
      const messages: OutboxMessage[] = Array.from({ length: Math.min(5_000, EVENTS - i) }, (_, j) => ({
        topic,
        key: `company-${(i + j) % 64}`,
        payload,
        headers: { 'event-type': 'bench.event-happened.v1' },
      }));
      await handle.db.transaction((tx) => enqueue(tx, outbox, messages));
    }
    if (handle.driver === 'postgres') await handle.db.execute(sql`analyze ${outbox}`);

    const started = performance.now();
    const relay = await startOutboxRelay({ database: handle, outbox, bus, batchSize: BATCH, pollIntervalMs: 50 });
    while (relay.published < EVENTS) await new Promise((r) => setTimeout(r, 5));
    const seconds = (performance.now() - started) / 1000;
    await relay.stop();
    return EVENTS / seconds;
  } finally {
    await handle.db.execute(sql`drop schema if exists ${sql.identifier(schemaName)} cascade`).catch(() => {});
    await bus.close();
    await handle.close();
  }
}

const names: Record<string, string> = {
  kafka: 'outbox.relay.kafka',
  memory: 'outbox.relay.memory',
  pglite: 'outbox.relay.pglite.memory',
};

for (const target of TARGETS) {
  const rates: number[] = [];
  for (let run = 0; run < RUNS; run++) rates.push(await runOnce(target));
  console.log(
    JSON.stringify({
      bench: names[target] ?? target,
      events_per_s: Math.round(median(rates)),
      runs: rates.map(Math.round),
      events: EVENTS,
      batch_size: BATCH,
    }),
  );
}
