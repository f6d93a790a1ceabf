/**
 * The leased work queue and its workers, on PostgreSQL and PGlite: work is claimed oldest first
 * under a lease that only its holder renews or finishes; work a dead worker held is taken up once
 * its lease runs out; and the workers abandon work when it is removed, taken over or they stop.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseConfig, type DatabaseHandle } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { captureLogs } from '../src/testing/captured-logs.js';
import { enqueue } from '../src/outbox/enqueue.js';
import { testDatabaseUrl, uniqueName } from '../src/testing/infra.js';
import { claimLeasedWork, deferLeasedWork, enqueueLeasedWork, finishLeasedWork, renewLeasedWork } from '../src/work/leased-work.js';
import { startLeasedWorkers, type LeasedWorkerSettings, type LeasedWorkers, type LeasedWorkersOptions, type WorkAbandoned } from '../src/work/leased-workers.js';
import { WORK_FIXTURE_SCHEMA, WORK_MIGRATIONS_FOLDER, workTables, type WorkTables } from './fixtures/work/tables.js';

const drivers: Array<{ name: string; config: (schema: string) => DatabaseConfig }> = [
  { name: 'postgres', config: (schema) => ({ driver: 'postgres', url: testDatabaseUrl(), schema, poolSize: 6 }) },
  { name: 'pglite (in memory)', config: (schema) => ({ driver: 'pglite', dataDir: 'memory', schema }) },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(drivers)('leased work on $name', ({ config }) => {
  const schemaName = uniqueName('work');
  const tables: WorkTables = workTables(schemaName);
  const { chores, queue } = tables;
  const company = randomUUID();
  let handle: DatabaseHandle<Record<string, unknown>>;
  let workers: LeasedWorkers[] = [];
  const logs = captureLogs('leased-work-test');
  const logger = logs.logger;

  beforeAll(async () => {
    handle = await openDatabase(config(schemaName));
    await migrate(handle, { migrationsFolder: WORK_MIGRATIONS_FOLDER, sourceSchema: WORK_FIXTURE_SCHEMA });
  });

  beforeEach(async () => {
    await handle.db.delete(chores);
  });

  afterEach(async () => {
    await Promise.all(workers.map((running) => running.stop()));
    workers = [];
  });

  afterAll(async () => {
    await handle?.db.execute(sql`drop schema if exists ${sql.identifier(schemaName)} cascade`);
    await handle?.close();
  });

  /** Queues a chore created `ageMs` ago. */
  async function queueChore(description: string, ageMs = 0): Promise<string> {
    const choreId = randomUUID();
    await enqueueLeasedWork(handle.db, queue, { choreId, companyId: company, description, createdAt: new Date(Date.now() - ageMs) });
    return choreId;
  }

  const rowOf = async (choreId: string) => (await handle.db.select().from(chores).where(eq(chores.choreId, choreId)))[0];
  const claim = (leaseMs = 60_000) => handle.db.transaction((tx) => claimLeasedWork(tx, queue, leaseMs));
  const expireLease = (choreId: string) => handle.db.update(chores).set({ leaseExpiresAt: sql`now() - interval '1 second'` }).where(eq(chores.choreId, choreId));

  type StartOptions = Partial<Omit<LeasedWorkersOptions<typeof chores>, 'settings'>> &
    Pick<LeasedWorkersOptions<typeof chores>, 'process'> & { settings?: Partial<LeasedWorkerSettings> };

  function start(options: StartOptions): LeasedWorkers {
    const running = startLeasedWorkers({
      name: 'chore',
      db: handle.db,
      queue,
      logger,
      giveUp: async () => {},
      ...options,
      settings: { workers: 1, leaseMs: 60_000, pollMs: 20, maxAttempts: 3, ...options.settings },
    });
    workers.push(running);
    return running;
  }

  describe('the queue', () => {
    it('claims the oldest free work first, counting an attempt and setting a lease', async () => {
      const newer = await queueChore('newer', 1_000);
      const older = await queueChore('older', 5_000);
      const claimed = await claim(30_000);
      expect(claimed).toMatchObject({ choreId: older, companyId: company, description: 'older', attempts: 1 });
      const leaseLeft = claimed!.leaseExpiresAt!.getTime() - Date.now();
      expect(leaseLeft).toBeGreaterThan(25_000);
      expect(leaseLeft).toBeLessThan(35_000);
      expect((await claim())?.choreId).toBe(newer);
      expect(await claim()).toBeUndefined();
    });

    it('claims only the work a condition holds for, when given one, oldest first', async () => {
      const dishes = await queueChore('dishes', 5_000);
      await queueChore('laundry', 4_000);
      const moreDishes = await queueChore('dishes again', 1_000);
      const onlyDishes = sql`${chores.description} like 'dishes%'`;
      const claimDishes = () => handle.db.transaction((tx) => claimLeasedWork(tx, queue, 60_000, onlyDishes));
      expect((await claimDishes())?.choreId).toBe(dishes);
      expect((await claimDishes())?.choreId).toBe(moreDishes);
      expect(await claimDishes()).toBeUndefined();
      expect((await claim())?.description).toBe('laundry');
    });

    it('queues a key once: queueing it again changes nothing', async () => {
      const choreId = await queueChore('once');
      expect(await enqueueLeasedWork(handle.db, queue, { choreId, companyId: company, description: 'twice' })).toBe(false);
      expect((await rowOf(choreId))?.description).toBe('once');
    });

    it('leaves held work alone, and claims it again once its lease ran out', async () => {
      const choreId = await queueChore('held');
      await claim();
      expect(await claim()).toBeUndefined();
      await expireLease(choreId);
      expect(await claim()).toMatchObject({ choreId, attempts: 2 });
    });

    it('gives concurrent claims different work', async () => {
      const queued = await Promise.all(Array.from({ length: 6 }, (_, index) => queueChore(`chore ${index}`)));
      const claimed = await Promise.all(queued.map(() => claim()));
      expect(new Set(claimed.map((work) => work?.choreId)).size).toBe(6);
    });

    it('renews only the claim that holds the work: taken once another claimed it, removed once it is gone', async () => {
      const choreId = await queueChore('renewed');
      const first = queue.claimOf((await claim(1_000))!);
      expect(await renewLeasedWork(handle.db, queue, first, 60_000)).toBe('held');
      expect((await rowOf(choreId))!.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 50_000);

      await expireLease(choreId);
      const second = queue.claimOf((await claim())!);
      expect(await renewLeasedWork(handle.db, queue, first, 60_000)).toBe('taken');
      expect(await renewLeasedWork(handle.db, queue, second, 60_000)).toBe('held');
      expect(await renewLeasedWork(handle.db, queue, { ...second, companyId: randomUUID() }, 60_000)).toBe('removed');

      await finishLeasedWork(handle.db, queue, { companyId: company, key: choreId });
      expect(await renewLeasedWork(handle.db, queue, second, 60_000)).toBe('removed');
    });

    it('finishes work only for the claim that holds it, and without a claim for whoever does, within its company', async () => {
      const choreId = await queueChore('finished');
      const first = queue.claimOf((await claim())!);
      await expireLease(choreId);
      const second = queue.claimOf((await claim())!);
      expect(await finishLeasedWork(handle.db, queue, first)).toBe(false);
      expect(await finishLeasedWork(handle.db, queue, { ...second, companyId: randomUUID() })).toBe(false);
      expect(await finishLeasedWork(handle.db, queue, second)).toBe(true);
      expect(await rowOf(choreId)).toBeUndefined();

      const cancelled = await queueChore('cancelled');
      await claim();
      expect(await finishLeasedWork(handle.db, queue, { companyId: company, key: cancelled })).toBe(true);
      expect(await finishLeasedWork(handle.db, queue, { companyId: company, key: cancelled })).toBe(false);
    });

    it('defers claimed work without counting the attempt, to be claimed after the delay', async () => {
      const choreId = await queueChore('not yet');
      const held = queue.claimOf((await claim())!);
      expect(await deferLeasedWork(handle.db, queue, held, 300)).toBe(true);
      expect(await deferLeasedWork(handle.db, queue, held, 300)).toBe(false);
      expect(await claim()).toBeUndefined();
      await sleep(400);
      expect(await claim()).toMatchObject({ choreId, attempts: 1 });
    });
  });

  describe('the workers', () => {
    it('work through the queue, announcing each claim in its transaction, and look at once when woken', async () => {
      const done: string[] = [];
      const running = start({
        settings: { pollMs: 60_000 },
        onClaimed: async (tx, work) => {
          await enqueue(tx, tables.outbox, [{ topic: 'chore.started', key: work.companyId, payload: Buffer.from(work.choreId) }]);
        },
        process: async (work) => {
          await handle.db.transaction(async (tx) => {
            if (await finishLeasedWork(tx, queue, queue.claimOf(work))) done.push(work.description);
          });
        },
      });
      await sleep(100);
      const choreId = await queueChore('woken');
      running.wake();
      await expect.poll(() => done, { timeout: 2_000, interval: 20 }).toEqual(['woken']);
      const announced = await handle.db.select().from(tables.outbox);
      expect(announced.map((row) => Buffer.from(row.payload).toString())).toContain(choreId);
    });

    it('keep renewing the lease of work that runs longer than the lease, so nobody else claims it', async () => {
      const choreId = await queueChore('long');
      const started: string[] = [];
      const process = async (work: typeof chores.$inferSelect) => {
        started.push(work.choreId);
        await sleep(1_000);
        await handle.db.transaction((tx) => finishLeasedWork(tx, queue, queue.claimOf(work)));
      };
      start({ settings: { leaseMs: 300 }, process });
      await expect.poll(() => started.length, { timeout: 2_000, interval: 20 }).toBe(1);
      start({ settings: { leaseMs: 300 }, process });
      await expect.poll(async () => rowOf(choreId), { timeout: 3_000, interval: 50 }).toBeUndefined();
      expect(started).toEqual([choreId]);
    });

    it('abandon work whose row is removed, or that another worker took over, recording nothing', async () => {
      const reasons: WorkAbandoned[] = [];
      start({
        settings: { leaseMs: 300 },
        removedMessage: 'The chore was cancelled.',
        process: (_work, signal) =>
          new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => {
              reasons.push(signal.reason as WorkAbandoned);
              reject(signal.reason as Error);
            }),
          ),
      });
      const removed = await queueChore('removed');
      await expect.poll(async () => (await rowOf(removed))?.attempts, { timeout: 2_000, interval: 20 }).toBe(1);
      await finishLeasedWork(handle.db, queue, { companyId: company, key: removed });
      await expect.poll(() => reasons.map((reason) => reason.why), { timeout: 2_000, interval: 20 }).toEqual(['removed']);
      expect(logs.text()).toContain('The chore was cancelled.');

      const taken = await queueChore('taken');
      await expect.poll(async () => (await rowOf(taken))?.attempts, { timeout: 2_000, interval: 20 }).toBe(1);
      // What another worker's claim does once this lease has run out.
      await handle.db.update(chores).set({ attempts: 2 }).where(eq(chores.choreId, taken));
      await expect.poll(() => reasons.map((reason) => reason.why), { timeout: 2_000, interval: 20 }).toEqual(['removed', 'taken']);
      expect((await rowOf(taken))?.attempts).toBe(2);
    });

    it('hand work in hand back when stopped, uncounted, so the next worker takes it up at once', async () => {
      const choreId = await queueChore('interrupted');
      const first = start({
        process: (_work, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error))),
      });
      await expect.poll(async () => (await rowOf(choreId))?.attempts, { timeout: 2_000, interval: 20 }).toBe(1);
      await first.stop();
      const handedBack = await rowOf(choreId);
      expect(handedBack?.attempts).toBe(0);
      expect(handedBack!.leaseExpiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
      expect(logs.text()).toContain('The process is stopping.');
      expect(await claim()).toMatchObject({ choreId, attempts: 1 });
    });

    it('take up work whose worker died once its lease runs out, and not before', async () => {
      const choreId = await queueChore('orphaned');
      // A worker that claimed it and died: nobody renews the lease.
      await claim(800);
      const takenUp: number[] = [];
      start({
        process: async (work) => {
          takenUp.push(work.attempts);
          await handle.db.transaction((tx) => finishLeasedWork(tx, queue, queue.claimOf(work)));
        },
      });
      await sleep(300);
      expect(takenUp).toEqual([]);
      await expect.poll(() => takenUp, { timeout: 3_000, interval: 20 }).toEqual([2]);
      await expect.poll(async () => rowOf(choreId), { timeout: 2_000, interval: 20 }).toBeUndefined();
    });

    it('give up work claimed more than maxAttempts times, without announcing or doing it', async () => {
      const choreId = await queueChore('cursed');
      await handle.db.update(chores).set({ attempts: 3, leaseExpiresAt: sql`now() - interval '1 second'` }).where(eq(chores.choreId, choreId));
      const givenUp: Array<[string, number]> = [];
      let processed = 0;
      let announced = 0;
      start({
        onClaimed: async () => {
          announced += 1;
        },
        process: async () => {
          processed += 1;
        },
        giveUp: async (work, interruptions) => {
          givenUp.push([work.choreId, interruptions]);
          await handle.db.transaction((tx) => finishLeasedWork(tx, queue, queue.claimOf(work)));
        },
      });
      await expect.poll(() => givenUp, { timeout: 2_000, interval: 20 }).toEqual([[choreId, 3]]);
      expect([processed, announced]).toEqual([0, 0]);
    });

    it('log an error that left the outcome unrecorded and carry on; the work is claimed again after its lease', async () => {
      const choreId = await queueChore('flaky');
      const attempts: number[] = [];
      start({
        settings: { leaseMs: 300 },
        process: async (work) => {
          attempts.push(work.attempts);
          if (work.attempts === 1) throw new Error('the disk is full');
          await handle.db.transaction((tx) => finishLeasedWork(tx, queue, queue.claimOf(work)));
        },
      });
      await expect.poll(async () => rowOf(choreId), { timeout: 3_000, interval: 50 }).toBeUndefined();
      expect(attempts).toEqual([1, 2]);
      expect(logs.text()).toContain('the disk is full');
      expect(logs.text()).toContain('could not record the outcome of chore work');
    });
  });
});
