/**
 * The outbox and inbox survive crashes: against real Postgres and real Kafka, child processes
 * produce 10,000 events (state change + outbox row, 100 per transaction), relay them to Kafka,
 * and consume them into an effect table through the inbox. The test SIGKILLs the relay while it
 * is publishing and the consumer while it is applying, restarts both, and checks that every
 * event was applied exactly once even though Kafka redelivered some of them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { and, count, eq, isNotNull, sql } from 'drizzle-orm';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaBus } from '../src/bus/kafka-bus.js';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { testDatabaseUrl, testKafkaBrokers, uniqueName } from '../src/testing/infra.js';
import { FIXTURE_SCHEMA, MIGRATIONS_FOLDER } from './fixtures/db/tables.js';
import { CRASH_CONSUMER, crashTables } from './fixtures/crash-env.js';

const EVENTS = 10_000;
const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const FIXTURES = path.join(import.meta.dirname, 'fixtures');

interface Child {
  name: string;
  process: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
  /** Resolves when the child prints `line` on stdout. */
  printed(line: string): Promise<void>;
}

const children = new Set<Child>();

function start(name: string, script: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(FIXTURES, script)], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const lines = new Set<string>();
  const waiters = new Map<string, Array<() => void>>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean)) {
      output.push(`[${name}] ${line}`);
      lines.add(line);
      for (const resolve of waiters.get(line) ?? []) resolve();
      waiters.delete(line);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => output.push(`[${name} stderr] ${chunk.trimEnd()}`));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const entry: Child = {
    name,
    process: child,
    output,
    exited,
    printed: (line) =>
      lines.has(line)
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            waiters.set(line, [...(waiters.get(line) ?? []), resolve]);
            void exited.then((code) => reject(new Error(`${name} exited (code ${code}) before printing "${line}":\n${output.join('\n')}`)));
          }),
  };
  children.add(entry);
  void exited.then(() => children.delete(entry));
  return entry;
}

async function topicMessageCount(topic: string): Promise<number> {
  const admin = new Kafka({ clientId: 'crash-test-admin', brokers: testKafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
  } finally {
    await admin.disconnect();
  }
}

async function kill(child: Child): Promise<void> {
  child.process.kill('SIGKILL');
  await child.exited;
}

describe('outbox and inbox under crashes (Postgres + Kafka)', () => {
  const schema = uniqueName('crash');
  const topic = uniqueName('crash.widget-created');
  const t = crashTables(schema);
  let handle: DatabaseHandle;
  const env = {
    DATABASE_URL: testDatabaseUrl(),
    KAFKA_BROKERS: testKafkaBrokers().join(','),
    CRASH_SCHEMA: schema,
    CRASH_TOPIC: topic,
    CRASH_GROUP: uniqueName('crash-consumer'),
    CRASH_EVENTS: String(EVENTS),
    CRASH_PER_TX: '100',
    // Keep the producer writing for a few seconds, so the relay is killed mid-stream.
    CRASH_PAUSE_MS: '20',
    CRASH_BATCH: '200',
  };

  beforeAll(async () => {
    handle = await openDatabase({ driver: 'postgres', url: testDatabaseUrl(), schema, poolSize: 2 });
    await migrate(handle, { migrationsFolder: MIGRATIONS_FOLDER, sourceSchema: FIXTURE_SCHEMA });
    const bus = createKafkaBus({ brokers: testKafkaBrokers(), clientId: 'crash-test-setup' });
    try {
      await bus.ensureTopics([topic]);
    } finally {
      await bus.close();
    }
  });

  afterAll(async () => {
    await Promise.all([...children].map(kill));
    await handle?.db.execute(sql`drop schema if exists ${sql.identifier(schema)} cascade`);
    await handle?.close();
  });

  const published = async () => (await handle.db.select({ n: count() }).from(t.outbox).where(isNotNull(t.outbox.publishedAt)))[0]!.n;
  const written = async () => (await handle.db.select({ n: count() }).from(t.outbox))[0]!.n;
  const applied = async () => (await handle.db.select({ n: count() }).from(t.effects))[0]!.n;

  /** Polls `value` until `done` holds; fails early, with the children's output, if one dies. */
  async function waitUntil(what: string, value: () => Promise<number>, done: (n: number) => boolean, watched: Child[], timeoutMs = 45_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const n = await value();
      if (done(n)) return n;
      const dead = watched.find((c) => c.process.exitCode !== null && c.process.exitCode !== 0);
      if (dead || Date.now() > deadline) {
        const log = watched.flatMap((c) => c.output).join('\n');
        throw new Error(`${dead ? `${dead.name} died` : 'timed out'} waiting for ${what} (now ${n}):\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('applies each of 10,000 events exactly once across relay and consumer crashes', { timeout: 90_000 }, async () => {
    let consumer = start('consumer', 'crash-consumer.ts', env);
    await consumer.printed('ready');
    const producer = start('producer', 'crash-producer.ts', env);
    // The relay starts behind, so it is always busy when it is killed.
    await waitUntil('a backlog in the outbox', written, (n) => n >= 4_000, [producer, consumer]);
    let relay = start('relay', 'crash-relay.ts', { ...env, CRASH_MARK_DELAY_MS: '150' });

    // 1. The relay dies part-way, most likely between Kafka accepting a batch and marking it.
    await waitUntil('some rows published', published, (n) => n >= 3_000, [relay, producer, consumer]);
    await new Promise((r) => setTimeout(r, 60));
    await kill(relay);
    const publishedWhenRelayDied = await published();
    expect(publishedWhenRelayDied).toBeLessThan(EVENTS);

    // 2. A new relay takes over (republishing the batch the old one had not marked, if any).
    relay = start('relay', 'crash-relay.ts', env);
    await producer.printed('produced');
    expect(await producer.exited).toBe(0);

    // 3. The consumer dies while it works through the backlog.
    await waitUntil('some events applied', applied, (n) => n >= 5_000, [relay, consumer]);
    await kill(consumer);
    const appliedWhenConsumerDied = await applied();
    expect(appliedWhenConsumerDied).toBeLessThan(EVENTS);

    // 4. A new consumer in the same group resumes from the last committed offsets.
    consumer = start('consumer', 'crash-consumer.ts', env);
    await waitUntil('all events applied', applied, (n) => n >= EVENTS, [relay, consumer], 60_000);
    await waitUntil('all rows published', published, (n) => n >= EVENTS, [relay, consumer]);

    // Let late redeliveries land before counting, then check the invariants.
    await new Promise((r) => setTimeout(r, 500));
    const [effects] = await handle.db
      .select({
        rows: count(),
        distinct: sql<number>`count(distinct ${t.effects.eventId})::int`,
        maxApplied: sql<number>`max(${t.effects.appliedCount})::int`,
      })
      .from(t.effects);
    expect(effects).toEqual({ rows: EVENTS, distinct: EVENTS, maxApplied: 1 });
    const [outbox] = await handle.db
      .select({ rows: count(), unpublished: sql<number>`count(*) filter (where ${t.outbox.publishedAt} is null)::int` })
      .from(t.outbox);
    expect(outbox).toEqual({ rows: EVENTS, unpublished: 0 });
    // Every effect belongs to an event of the outbox, and the inbox holds exactly those ids.
    const [joined] = await handle.db
      .select({ matched: count() })
      .from(t.effects)
      .innerJoin(t.outbox, eq(t.outbox.eventId, t.effects.eventId))
      .innerJoin(t.inbox, and(eq(t.inbox.eventId, t.effects.eventId), eq(t.inbox.consumer, CRASH_CONSUMER)));
    expect(joined?.matched).toBe(EVENTS);
    const [{ n: duplicates } = { n: 0 }] = await handle.db.select({ n: count() }).from(t.duplicates);
    // More messages than events in Kafka means the relay republished the batch it died in.
    const messagesInKafka = await topicMessageCount(topic);
    expect(messagesInKafka).toBeGreaterThanOrEqual(EVENTS);
    process.stdout.write(
      `${JSON.stringify({ publishedWhenRelayDied, appliedWhenConsumerDied, messagesInKafka, redeliveriesSkippedByInbox: duplicates })}\n`,
    );

    await Promise.all([relay, consumer].map(async (c) => {
      c.process.kill('SIGTERM');
      expect(await c.exited).toBe(0);
    }));
  });
});
