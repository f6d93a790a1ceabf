import { randomUUID } from 'node:crypto';
import { count, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusMessage, DeliveredMessage, EventBus } from '../src/bus/event-bus.js';
import { createMemoryBus } from '../src/bus/memory-bus.js';
import { openDatabase, queryRows, type DatabaseConfig, type DatabaseHandle } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { EVENT_ID_HEADER, enqueue } from '../src/outbox/enqueue.js';
import { applyOnce, idempotentHandler } from '../src/outbox/inbox.js';
import { startOutboxRelay } from '../src/outbox/relay.js';
import { testDatabaseUrl, uniqueName } from '../src/testing/infra.js';
import { FIXTURE_SCHEMA, MIGRATIONS_FOLDER, fixtureTables } from './fixtures/db/tables.js';

const drivers: Array<{ name: string; config: (schema: string) => DatabaseConfig }> = [
  { name: 'postgres', config: (schema) => ({ driver: 'postgres', url: testDatabaseUrl(), schema, poolSize: 4 }) },
  { name: 'pglite', config: (schema) => ({ driver: 'pglite', dataDir: 'memory', schema }) },
];

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A bus that records what it is asked to publish, and can be told to fail. */
function recordingBus(): Pick<EventBus, 'publish'> & { published: BusMessage[]; failNext: number } {
  const bus = {
    published: [] as BusMessage[],
    failNext: 0,
    async publish(messages: BusMessage[]) {
      if (bus.failNext > 0) {
        bus.failNext -= 1;
        throw new Error('broker unavailable');
      }
      bus.published.push(...messages);
    },
  };
  return bus;
}

describe.each(drivers)('outbox and inbox on $name', ({ config }) => {
  const schemaName = uniqueName('outbox');
  const t = fixtureTables(schemaName);
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openDatabase(config(schemaName));
    await migrate(handle, { migrationsFolder: MIGRATIONS_FOLDER, sourceSchema: FIXTURE_SCHEMA });
  });

  afterAll(async () => {
    await handle?.db.execute(sql`drop schema if exists ${sql.identifier(schemaName)} cascade`);
    await handle?.close();
  });

  const unpublished = async () => (await handle.db.select({ n: count() }).from(t.outbox).where(isNull(t.outbox.publishedAt)))[0]!.n;
  const clearOutbox = () => handle.db.delete(t.outbox);

  it('commits the state change and its outbox row together', async () => {
    const [eventId] = await handle.db.transaction(async (tx) => {
      await tx.insert(t.widgets).values({ name: 'committed' });
      return enqueue(tx, t.outbox, [{ topic: 'widgets.created.v1', key: 'company-1', payload: encode('committed'), headers: { type: 'created' } }]);
    });
    const [row] = await handle.db.select().from(t.outbox).where(eq(t.outbox.eventId, eventId!));
    expect(row).toMatchObject({ topic: 'widgets.created.v1', key: 'company-1', headers: { type: 'created' }, publishedAt: null });
    expect(decode(row!.payload)).toBe('committed');
    expect(await handle.db.select().from(t.widgets).where(eq(t.widgets.name, 'committed'))).toHaveLength(1);
    await clearOutbox();
  });

  it('rolls back the outbox row with the state change', async () => {
    const before = await unpublished();
    await expect(
      handle.db.transaction(async (tx) => {
        await enqueue(tx, t.outbox, [{ topic: 'widgets.created.v1', key: 'company-1', payload: encode('x') }]);
        await tx.insert(t.widgets).values({ name: 'committed' }); // unique violation
      }),
    ).rejects.toThrow();
    expect(await unpublished()).toBe(before);
  });

  it('publishes rows in id order with their event id, then marks them published', async () => {
    const bus = recordingBus();
    const keys = ['a', 'b', 'c'];
    const eventIds: string[] = [];
    for (let batch = 0; batch < 5; batch++) {
      eventIds.push(
        ...(await handle.db.transaction((tx) =>
          enqueue(
            tx,
            t.outbox,
            Array.from({ length: 50 }, (_, i) => ({ topic: 'widgets.counted.v1', key: keys[i % 3]!, payload: encode(`${batch * 50 + i}`) })),
          ),
        )),
      );
    }
    const relay = await startOutboxRelay({ database: handle, outbox: t.outbox, bus, batchSize: 40, pollIntervalMs: 50 });
    try {
      await waitFor(async () => (await unpublished()) === 0);
    } finally {
      await relay.stop();
    }
    expect(relay.published).toBe(250);
    expect(bus.published.map((m) => m.headers?.[EVENT_ID_HEADER])).toEqual(eventIds);
    expect(bus.published.map((m) => Number(decode(m.value)))).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(bus.published[0]).toMatchObject({ topic: 'widgets.counted.v1', key: 'a' });
    await clearOutbox();
  });

  it('wakes on commit without waiting for the poll interval', async () => {
    const bus = recordingBus();
    const relay = await startOutboxRelay({ database: handle, outbox: t.outbox, bus, pollIntervalMs: 60_000 });
    try {
      // Let the first (empty) pass finish so the relay is asleep on its 60 s poll.
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      await handle.db.transaction((tx) => enqueue(tx, t.outbox, [{ topic: 'widgets.woken.v1', key: 'k', payload: encode('wake') }]));
      await waitFor(() => bus.published.length === 1, 5_000);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await relay.stop();
    }
    await clearOutbox();
  });

  it('keeps rows unpublished while the bus fails and publishes them once it recovers', async () => {
    const bus = recordingBus();
    bus.failNext = 2;
    await handle.db.transaction((tx) => enqueue(tx, t.outbox, [{ topic: 'widgets.retried.v1', key: 'k', payload: encode('retry') }]));
    const relay = await startOutboxRelay({ database: handle, outbox: t.outbox, bus, pollIntervalMs: 20 });
    try {
      await waitFor(async () => (await unpublished()) === 0);
    } finally {
      await relay.stop();
    }
    expect(bus.failNext).toBe(0);
    expect(bus.published).toHaveLength(1);
    await clearOutbox();
  });

  it('purges published rows older than the retention, and only those', async () => {
    const [oldId, recentId] = await handle.db.transaction((tx) =>
      enqueue(tx, t.outbox, [
        { topic: 'widgets.old.v1', key: 'k', payload: encode('old') },
        { topic: 'widgets.recent.v1', key: 'k', payload: encode('recent') },
      ]),
    );
    await handle.db.update(t.outbox).set({ publishedAt: new Date(Date.now() - 8 * 86_400_000) }).where(eq(t.outbox.eventId, oldId!));
    await handle.db.update(t.outbox).set({ publishedAt: new Date(Date.now() - 86_400_000) }).where(eq(t.outbox.eventId, recentId!));
    const relay = await startOutboxRelay({ database: handle, outbox: t.outbox, bus: recordingBus(), pollIntervalMs: 20, purgeIntervalMs: 10 });
    try {
      await waitFor(async () => (await handle.db.select().from(t.outbox).where(eq(t.outbox.eventId, oldId!))).length === 0);
    } finally {
      await relay.stop();
    }
    expect((await handle.db.select({ eventId: t.outbox.eventId }).from(t.outbox)).map((r) => r.eventId)).toEqual([recentId]);
    await clearOutbox();
  });

  it('applies an event once per consumer however often it is delivered', async () => {
    const eventId = randomUUID();
    const effect = (tx: Parameters<Parameters<typeof applyOnce>[4]>[0]) =>
      tx
        .insert(t.effects)
        .values({ eventId })
        .onConflictDoUpdate({ target: t.effects.eventId, set: { appliedCount: sql`${t.effects.appliedCount} + 1` } })
        .then(() => undefined);
    expect(await applyOnce(handle.db, t.inbox, 'counter', eventId, effect)).toBe(true);
    expect(await applyOnce(handle.db, t.inbox, 'counter', eventId, effect)).toBe(false);
    const [row] = await handle.db.select().from(t.effects).where(eq(t.effects.eventId, eventId));
    expect(row?.appliedCount).toBe(1);
    // Another consumer has its own record of what it applied.
    expect(await applyOnce(handle.db, t.inbox, 'auditor', eventId, async () => {})).toBe(true);
  });

  it('records nothing in the inbox when the effect fails, so a redelivery applies it', async () => {
    const eventId = randomUUID();
    await expect(
      applyOnce(handle.db, t.inbox, 'counter', eventId, async (tx) => {
        await tx.insert(t.effects).values({ eventId });
        throw new Error('handler crashed');
      }),
    ).rejects.toThrow('handler crashed');
    expect(await handle.db.select().from(t.inbox).where(eq(t.inbox.eventId, eventId))).toHaveLength(0);
    expect(await applyOnce(handle.db, t.inbox, 'counter', eventId, (tx) => tx.insert(t.effects).values({ eventId }).then(() => undefined))).toBe(true);
    expect(await handle.db.select().from(t.effects).where(eq(t.effects.eventId, eventId))).toHaveLength(1);
  });

  it('relays through the memory bus to an idempotent consumer that ignores a redelivered event', async () => {
    const bus = createMemoryBus();
    const topic = uniqueName('widgets.relayed');
    const duplicates: string[] = [];
    const seen: DeliveredMessage[] = [];
    await bus.ensureTopics([topic]);
    const subscription = await bus.subscribe({
      group: uniqueName('counter'),
      topics: [topic],
      handler: idempotentHandler({
        db: handle.db,
        inbox: t.inbox,
        consumer: 'relayed-counter',
        handle: async (message, tx) => {
          seen.push(message);
          await tx
            .insert(t.effects)
            .values({ eventId: message.headers[EVENT_ID_HEADER]! })
            .onConflictDoUpdate({ target: t.effects.eventId, set: { appliedCount: sql`${t.effects.appliedCount} + 1` } });
        },
        onDuplicate: (_message, eventId) => duplicates.push(eventId),
      }),
    });
    const relay = await startOutboxRelay({ database: handle, outbox: t.outbox, bus, pollIntervalMs: 20 });
    try {
      const eventIds = await handle.db.transaction((tx) =>
        enqueue(
          tx,
          t.outbox,
          Array.from({ length: 20 }, (_, i) => ({ topic, key: `company-${i % 4}`, payload: encode(`${i}`) })),
        ),
      );
      await waitFor(() => seen.length === 20);
      // The relay crashed after publishing but before marking: the bus sees the rows again.
      const [first] = await handle.db.select().from(t.outbox).where(eq(t.outbox.eventId, eventIds[0]!));
      await bus.publish([{ topic, key: first!.key, value: first!.payload, headers: { [EVENT_ID_HEADER]: first!.eventId } }]);
      await waitFor(() => duplicates.length === 1);
      expect(duplicates).toEqual([eventIds[0]]);
      const applied = await handle.db
        .select({ n: count() })
        .from(t.effects)
        .where(sql`${t.effects.eventId} in ${eventIds} and ${t.effects.appliedCount} = 1`);
      expect(applied[0]!.n).toBe(20);
    } finally {
      await relay.stop();
      await subscription.stop();
      await bus.close();
    }
  });
});

describe('the outbox relay on PGlite, which runs no autovacuum', () => {
  const schemaName = uniqueName('outbox_vacuum');
  const t = fixtureTables(schemaName);
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openDatabase({ driver: 'pglite', dataDir: 'memory', schema: schemaName });
    await migrate(handle, { migrationsFolder: MIGRATIONS_FOLDER, sourceSchema: FIXTURE_SCHEMA });
  });

  afterAll(async () => {
    await handle?.db.execute(sql`drop schema if exists ${sql.identifier(schemaName)} cascade`);
    await handle?.close();
  });

  /** Pages the relay's batch read touches: with every published row's dead version left in place, one per handful of rows. */
  async function pagesTouchedByBatchRead(): Promise<number> {
    const [explained] = await queryRows<{ 'QUERY PLAN': Array<{ Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }> }>(
      handle.db,
      sql`explain (analyze, buffers, format json) select id from ${t.outbox} where published_at is null order by id limit 500`,
    );
    const plan = explained!['QUERY PLAN'][0]!.Plan;
    return plan['Shared Hit Blocks'] + plan['Shared Read Blocks'];
  }

  it('vacuums its outbox as it goes, so reading the next batch stays cheap however much was published', async () => {
    const bus = recordingBus();
    const relay = await startOutboxRelay({ database: handle, outbox: t.outbox, bus, batchSize: 50, pollIntervalMs: 20 });
    try {
      for (let batch = 0; batch < 20; batch += 1) {
        await handle.db.transaction((tx) =>
          enqueue(
            tx,
            t.outbox,
            Array.from({ length: 100 }, (_, i) => ({ topic: 'widgets.counted.v1', key: 'a', payload: encode(`${'x'.repeat(400)}${batch * 100 + i}`) })),
          ),
        );
      }
      await waitFor(async () => bus.published.length === 2_000);
    } finally {
      await relay.stop();
    }
    // 2,000 published rows of ~0.5 KB fill about 130 pages; a read that visits their dead versions touches most of them.
    expect(await pagesTouchedByBatchRead()).toBeLessThan(30);
  });
});
