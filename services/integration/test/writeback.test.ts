/**
 * Write-back after scoring (issue 16, point 4): what `scoring.activity-scored` queues, on both
 * databases integration runs on, and the writes the write-back workers make in the local stand-in
 * for Close (a third-party SaaS tests cannot reach; support/close-standin.ts speaks its documented
 * API): once each, tried again after a failure, never twice after a lost answer, given up with
 * the reason on the connection, and waiting while the connection is expired.
 *
 * The workers run on PGlite, a database of this file's own: on the shared PostgreSQL another test
 * file's stack may run write-back workers, which would take a write queued here and make it in
 * its own Close stand-in. test/integrations/close-sync.test.ts runs write-back through the real
 * pipeline on PostgreSQL and Kafka.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveredMessage } from '@parlance/platform/bus/event-bus';
import { openDatabase, type DatabaseHandle } from '@parlance/platform/db/database';
import { createLogger } from '@parlance/platform/logger';
import { testDatabaseUrl } from '@parlance/platform/testing/infra';
import type { Evaluation } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { connections, imports, writebackWork } from '../src/db/schema.js';
import { bringWritesForward } from '../src/db/writeback.repository.js';
import { parseKeyring } from '../src/domain/credential-cipher.js';
import { INTEGRATION_MESSAGES, type CloseSettings } from '../src/domain/integrations.js';
import { noteMarker, WRITE_MAX_FAILURES } from '../src/domain/writeback.js';
import { writebackConsumer } from '../src/events/writeback.consumer.js';
import { createCloseClient } from '../src/vendors/close-client.js';
import { writebackRunner, type WritebackRunner } from '../src/writeback/writeback-runner.js';
import { closeTestDatabase } from './support/close-database.js';
import { startCloseStandin, type CloseStandin } from './support/close-standin.js';
import { evaluation, scoredEvent } from './support/scored-event.js';

const keyring = parseKeyring(`test:${Buffer.alloc(32, 7).toString('base64')}`);
const quiet = createLogger({ service: 'integration-writeback-test', level: 'silent' });
const WRITING: Partial<CloseSettings> = { createActivities: true, updateLeadStatus: true, successfulCallStatus: 'stat_qualified', unsuccessfulCallStatus: 'stat_bad_fit' };
const NOT_DELIVERED = {} as DeliveredMessage;

/** The Close test database, with calls imported from Close and the writes their scores queue. */
function databaseFor(open: () => Promise<DatabaseHandle<Record<string, unknown>>>) {
  const database = closeTestDatabase(open, keyring);
  return {
    get db() {
      return database.db;
    },
    connection: database.connection,
    connectedCompany: (settings: Partial<CloseSettings> = WRITING) => database.connectedCompany(settings),

    /** A call the sync imported from Close, on `leadId`; its activity id. */
    async importedCall(companyId: string, leadId = 'lead_acme'): Promise<string> {
      const activityId = randomUUID();
      await database.db.insert(imports).values({ companyId, integrationId: 'close-crm', externalId: `acti_${activityId}`, activityId, jobId: randomUUID(), leadId });
      return activityId;
    },

    /** Takes the event in as the inbox does: the consumer's effect in one transaction. */
    async deliver(companyId: string, scored: Evaluation, onQueued: () => void = () => {}, rescored = false): Promise<void> {
      await database.db.transaction((tx) => writebackConsumer(onQueued).handle(scoredEvent(companyId, scored, rescored), tx, NOT_DELIVERED));
    },

    writesOf(companyId: string) {
      return database.db.select().from(writebackWork).where(eq(writebackWork.companyId, companyId));
    },

  };
}

describe.each([
  { driver: 'postgres', open: () => openDatabase({ driver: 'postgres', url: testDatabaseUrl(), schema: 'integration', poolSize: 2 }) },
  { driver: 'pglite', open: () => openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'integration' }) },
] as const)('what a scored call queues ($driver)', ({ open }) => {
  const database = databaseFor(open);

  it('queues a note and the lead’s status for a call imported from Close, per the settings', async () => {
    const companyId = await database.connectedCompany();
    const activityId = await database.importedCall(companyId);
    let woken = 0;

    await database.deliver(companyId, evaluation(activityId), () => (woken += 1));

    const writes = await database.writesOf(companyId);
    expect(writes.map((write) => write.request)).toEqual(
      expect.arrayContaining([
        { kind: 'close-note', leadId: 'lead_acme', note: expect.stringContaining('Parlance score: 6/10 (successful)'), marker: noteMarker({ activityId, evaluatedAt: new Date('2026-11-24T10:00:00.000Z') }) },
        { kind: 'close-lead-status', leadId: 'lead_acme', statusId: 'stat_qualified' },
      ]),
    );
    expect(writes).toHaveLength(2);
    expect(writes.every((write) => write.activityId === activityId && write.failures === 0)).toBe(true);
    await expect.poll(() => woken).toBe(1);
  });

  it('queues the same verdict once, and a re-score again', async () => {
    const companyId = await database.connectedCompany({ createActivities: true });
    const activityId = await database.importedCall(companyId);

    await database.deliver(companyId, evaluation(activityId));
    await database.deliver(companyId, evaluation(activityId));
    expect(await database.writesOf(companyId)).toHaveLength(1);

    await database.deliver(companyId, evaluation(activityId, { evaluatedAt: new Date('2026-11-24T11:00:00.000Z'), score: 8 }));
    expect((await database.writesOf(companyId)).map((write) => write.request.kind === 'close-note' && write.request.note.split('\n')[0]).sort()).toEqual([
      'Parlance score: 6/10 (successful)',
      'Parlance score: 8/10 (successful)',
    ]);
  });

  it('queues nothing when a newer engine scores the call again: the CRM keeps the note it has', async () => {
    const companyId = await database.connectedCompany();
    const activityId = await database.importedCall(companyId);
    await database.deliver(companyId, evaluation(activityId));
    await database.deliver(companyId, evaluation(activityId, { evaluatedAt: new Date('2026-11-28T10:00:00.000Z'), score: 9 }), () => {}, true);
    expect((await database.writesOf(companyId)).map((write) => write.request.kind === 'close-note' && write.request.note.split('\n')[0]).filter(Boolean)).toEqual([
      'Parlance score: 6/10 (successful)',
    ]);
  });

  it('queues nothing for an upload, with the settings off, for a call without a lead, or once disconnected', async () => {
    const companyId = await database.connectedCompany();
    await database.deliver(companyId, evaluation(randomUUID()));
    await database.deliver(companyId, evaluation(await database.importedCall(companyId, '')));
    expect(await database.writesOf(companyId)).toEqual([]);

    const quietCompany = await database.connectedCompany({ createActivities: false, updateLeadStatus: false });
    await database.deliver(quietCompany, evaluation(await database.importedCall(quietCompany)));
    expect(await database.writesOf(quietCompany)).toEqual([]);

    const leftCompany = await database.connectedCompany();
    const activityId = await database.importedCall(leftCompany);
    await database.db.delete(connections).where(eq(connections.companyId, leftCompany));
    await database.deliver(leftCompany, evaluation(activityId));
    expect(await database.writesOf(leftCompany)).toEqual([]);
  });

  it('keeps another company’s imports apart: the same activity id of another company writes nothing here', async () => {
    const owner = await database.connectedCompany();
    const other = await database.connectedCompany();
    const activityId = await database.importedCall(owner);

    await database.deliver(other, evaluation(activityId));

    expect(await database.writesOf(other)).toEqual([]);
    expect(await database.writesOf(owner)).toEqual([]);
  });
});

describe('the write-back workers (PGlite)', () => {
  const database = databaseFor(() => openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'integration' }));
  let close: CloseStandin;
  let runner: WritebackRunner | undefined;

  beforeAll(async () => {
    close = await startCloseStandin();
  });

  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
    await close.close();
    close = await startCloseStandin();
  });

  afterAll(() => close.close());

  function startRunner(): WritebackRunner {
    runner = writebackRunner({
      db: database.db,
      keyring,
      close: (apiKey) => createCloseClient({ apiKey, baseUrl: close.baseUrl, http: { sleep: async () => {}, random: () => 0, maxAttempts: 2 } }),
      logger: quiet,
      workers: 1,
      pollMs: 50,
    });
    return runner;
  }

  /**
   * Until the company's writes are all made, given up, or waiting for later: none is claimable,
   * nor held (a held lease ends within the 30 s write lease; a waiting write's ends later).
   */
  async function settled(companyId: string): Promise<void> {
    const waiting = (write: { leaseExpiresAt: Date | null }) => write.leaseExpiresAt !== null && write.leaseExpiresAt.getTime() > Date.now() + 31_000;
    await expect.poll(async () => (await database.writesOf(companyId)).filter((write) => !waiting(write)).length, { timeout: 10_000, interval: 50 }).toBe(0);
  }

  it('writes the note and the lead’s status in Close, and stamps the connection', async () => {
    const companyId = await database.connectedCompany();
    const activityId = await database.importedCall(companyId, 'lead_globex');
    startRunner();

    await database.deliver(companyId, evaluation(activityId, { isSuccessful: false }), () => runner!.wake());
    await settled(companyId);

    expect(await database.writesOf(companyId)).toEqual([]);
    expect(close.notes).toEqual([
      {
        id: 'acti_note_1',
        lead_id: 'lead_globex',
        note: [
          'Parlance score: 6/10 (unsuccessful)',
          'Failed criteria: Asked about the budget (Discovery)',
          'Top improvement: Ask what budget they have set aside.',
          `Parlance activity ${activityId}, scored 2026-11-24T10:00:00.000Z`,
        ].join('\n'),
      },
    ]);
    expect(close.leadStatusChanges).toEqual([{ leadId: 'lead_globex', statusId: 'stat_bad_fit' }]);
    const connection = await database.connection(companyId);
    expect(connection.lastWritebackAt).toBeInstanceOf(Date);
    expect(connection.writebackError).toBeNull();
  });

  it('never writes a note twice: after a lost answer, the next try finds the note Close made', async () => {
    const companyId = await database.connectedCompany({ createActivities: true });
    const activityId = await database.importedCall(companyId);
    close.loseAnswerOfNext(1, 502, '/activity/note/');
    startRunner();

    await database.deliver(companyId, evaluation(activityId), () => runner!.wake());
    await settled(companyId);
    const [waiting] = await database.writesOf(companyId);
    expect(waiting).toMatchObject({ failures: 1, lastError: expect.stringContaining('Close answered HTTP 502 to POST /activity/note/') });
    expect(waiting!.leaseExpiresAt!.getTime() - Date.now()).toBeGreaterThan(50_000);
    expect(close.notes).toHaveLength(1);

    // The minute's wait, cut short.
    await bringWritesForward(database.db, waiting!.connectionId, 30_000);
    runner!.wake();
    await settled(companyId);

    expect(await database.writesOf(companyId)).toEqual([]);
    expect(close.notes).toHaveLength(1);
    expect(close.requests.filter((request) => request.path === '/activity/note/').map((request) => request.method)).toEqual(['POST', 'GET']);
  });

  it('gives up at once on a write Close refuses for good, and says why on the connection', async () => {
    const companyId = await database.connectedCompany({ updateLeadStatus: true, successfulCallStatus: 'stat_deleted_in_close' });
    const activityId = await database.importedCall(companyId);
    startRunner();

    await database.deliver(companyId, evaluation(activityId), () => runner!.wake());
    await settled(companyId);

    expect(await database.writesOf(companyId)).toEqual([]);
    const connection = await database.connection(companyId);
    expect(connection.writebackError).toBe(INTEGRATION_MESSAGES.writebackFailed('Close answered HTTP 400 to PUT /lead/lead_acme/: status_id: No such lead status.'));
    expect(connection.writebackErrorAt).toBeInstanceOf(Date);
    expect(connection.lastWritebackAt).toBeNull();
  });

  it('gives up after WRITE_MAX_FAILURES failures in a row, each tried after a longer wait', async () => {
    const companyId = await database.connectedCompany({ createActivities: true });
    const activityId = await database.importedCall(companyId);
    close.failNext(1_000, 503, '/activity/note/');
    startRunner();

    await database.deliver(companyId, evaluation(activityId), () => runner!.wake());
    const waits: number[] = [];
    for (let failure = 1; failure < WRITE_MAX_FAILURES; failure += 1) {
      await settled(companyId);
      const [waiting] = await database.writesOf(companyId);
      expect(waiting!.failures).toBe(failure);
      waits.push(Math.round((waiting!.leaseExpiresAt!.getTime() - Date.now()) / 60_000));
      await bringWritesForward(database.db, waiting!.connectionId, 30_000);
      runner!.wake();
    }
    await settled(companyId);

    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60]);
    expect(await database.writesOf(companyId)).toEqual([]);
    // The last try failed looking for the note the ones before might have made.
    expect((await database.connection(companyId)).writebackError).toBe(
      INTEGRATION_MESSAGES.writebackFailed('Close answered HTTP 503 to GET /activity/note/: The stand-in was told to fail this request. (after 2 attempts)'),
    );
    expect(close.notes).toEqual([]);
  });

  it('marks the connection expired when Close refuses the key; its writes wait, and are made once it is connected again', async () => {
    const companyId = await database.connectedCompany({ createActivities: true });
    const activityId = await database.importedCall(companyId);
    close.revokeKey();
    startRunner();

    await database.deliver(companyId, evaluation(activityId), () => runner!.wake());
    await settled(companyId);

    const expired = await database.connection(companyId);
    expect(expired).toMatchObject({ status: 'expired', lastError: INTEGRATION_MESSAGES.closeKeyRevoked });
    const [waiting] = await database.writesOf(companyId);
    expect(waiting).toMatchObject({ failures: 0, lastError: INTEGRATION_MESSAGES.closeKeyRevoked });
    expect(waiting!.leaseExpiresAt!.getTime() - Date.now()).toBeGreaterThan(10 * 60_000);

    // Connected again with the key Close now accepts (what ConnectClose stores), then resumed as it does.
    await close.close();
    close = await startCloseStandin();
    await database.db.update(connections).set({ status: 'connected' }).where(eq(connections.companyId, companyId));
    await runner!.resume(expired);
    await settled(companyId);

    expect(await database.writesOf(companyId)).toEqual([]);
    expect(close.notes.map((note) => note.note.split('\n')[0])).toEqual(['Parlance score: 6/10 (successful)']);
  });
});
