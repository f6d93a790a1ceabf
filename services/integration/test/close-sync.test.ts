/**
 * Close's sync on both databases it runs on, against the local stand-in for Close (a third-party
 * SaaS tests cannot reach; support/close-standin.ts speaks its documented API). Ingest and
 * identity are the sync's two neighbours: here identity's teams are given, and ingest is a
 * recorder keyed like ingest (by source and external id), so each outcome can be read call by
 * call. test/integrations/close-sync.test.ts runs the same sync through the real ingest,
 * transcription and scoring.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@parlance/platform/db/database';
import { migrate } from '@parlance/platform/db/migrate';
import { claimDueSync, claimSyncNow, type ClaimedSync } from '../src/db/sync.repository.js';
import { connections, imports } from '../src/db/schema.js';
import { parseKeyring, sealCredential } from '../src/domain/credential-cipher.js';
import { CLOSE_DEFAULTS, INTEGRATION_MESSAGES } from '../src/domain/integrations.js';
import { emptyCounts, ImportRefused, syncCloseCalls, type ActivityImport, type CloseSyncDependencies } from '../src/sync/close-sync.js';
import { syncRunner } from '../src/sync/sync-runner.js';
import { createCloseClient } from '../src/vendors/close-client.js';
import { startCloseStandin, STANDIN_SEED, type CloseCallRecord, type CloseStandin } from './support/close-standin.js';
import { testDatabaseUrl } from '@parlance/platform/testing/infra';

const DRIVERS = [
  { driver: 'postgres', open: () => openDatabase({ driver: 'postgres', url: testDatabaseUrl(), schema: 'integration', poolSize: 4 }) },
  { driver: 'pglite', open: () => openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'integration' }) },
] as const;

const keyring = parseKeyring(`test:${Buffer.alloc(32, 9).toString('base64')}`);
const noWait = { sleep: async () => {}, random: () => 0 };
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
/** An MP3 frame header and padding: enough for ingest to tell MP3 by its content. */
const RECORDING = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(2_000, 0)]);
const TEAMS = [
  {
    id: 'team-sales',
    department: 'sales',
    members: [
      { email: 'anna.lee@example.com', firstName: 'Anna', crmId: '' },
      { email: 'ben.ode@example.com', firstName: 'Ben', crmId: '' },
    ],
  },
];

function minutesAgo(minutes: number): string {
  return new Date(Date.now() - minutes * 60_000).toISOString();
}

function transcribedCall(id: string, overrides: Partial<CloseCallRecord> = {}): CloseCallRecord {
  return {
    id,
    lead_id: 'lead_acme',
    contact_id: `cont_${id}`,
    user_id: 'user_anna',
    direction: 'outbound',
    duration: 180,
    recording_url: null,
    date_created: minutesAgo(120),
    note: `Note of ${id}`,
    recording_transcript: {
      utterances: [
        { speaker_label: 'Anna Lee', speaker_side: 'close-user', start: 0, end: 5, text: 'Hello, Anna from Acme here.' },
        { speaker_label: 'Dana', speaker_side: 'contact', start: 5, end: 9, text: 'Hi Anna, go ahead.' },
      ],
      summary_text: '',
      summary_html: '',
    },
    ...overrides,
  };
}

/** Ingest as the sync sees it, keyed by source and external id as ingest is. */
function recordingIngest() {
  const received = new Map<string, ActivityImport & { activityId: string; jobId: string }>();
  let refuse: string | undefined;
  return {
    received,
    refuseNext(reason: string) {
      refuse = reason;
    },
    async importCall(_companyId: string, activity: ActivityImport) {
      if (refuse) {
        const reason = refuse;
        refuse = undefined;
        throw new ImportRefused(reason);
      }
      const earlier = received.get(activity.externalId);
      if (earlier) return { activityId: earlier.activityId, jobId: earlier.jobId };
      const ids = { activityId: randomUUID(), jobId: randomUUID() };
      received.set(activity.externalId, { ...activity, ...ids });
      return ids;
    },
  };
}

describe.each(DRIVERS)('Close sync on $driver', ({ open }) => {
  let database: DatabaseHandle<Record<string, unknown>>;
  let close: CloseStandin;
  const companies: string[] = [];
  /** How far the sync's clock runs ahead of the stand-in's: a later sync, without waiting. */
  let clockAheadMs = 0;

  beforeAll(async () => {
    database = await open();
    await migrate(database, { migrationsFolder: fileURLToPath(new URL('../src/db/migrations', import.meta.url)) });
  });

  afterEach(async () => {
    clockAheadMs = 0;
    await close?.close();
  });

  afterAll(async () => {
    for (const companyId of companies) {
      await database.db.delete(connections).where(eq(connections.companyId, companyId));
      await database.db.delete(imports).where(eq(imports.companyId, companyId));
    }
    await database.close();
  });

  async function connectedCompany(settings: Partial<typeof CLOSE_DEFAULTS> = {}): Promise<string> {
    const companyId = randomUUID();
    companies.push(companyId);
    await database.db.insert(connections).values({
      companyId,
      integrationId: 'close-crm',
      status: 'connected',
      connectedBy: { firstName: 'Anna', lastName: 'Lee', email: 'anna.lee@example.com' },
      connectedAt: new Date(),
      credentials: sealCredential(keyring, STANDIN_SEED.apiKey),
      settings: { ...CLOSE_DEFAULTS, ...settings },
    });
    return companyId;
  }

  function dependencies(ingest: ReturnType<typeof recordingIngest>): CloseSyncDependencies {
    return {
      db: database.db,
      keyring,
      close: (apiKey) => createCloseClient({ apiKey, baseUrl: close.baseUrl, http: { ...noWait, maxAttempts: 2 } }),
      teams: async () => TEAMS,
      ingest,
      logger: quiet,
      now: () => new Date(Date.now() + clockAheadMs),
    };
  }

  const connection = async (companyId: string) =>
    (await database.db.select().from(connections).where(and(eq(connections.companyId, companyId), eq(connections.integrationId, 'close-crm'))))[0]!;

  function runnerFor(ingest: ReturnType<typeof recordingIngest>) {
    return syncRunner({
      db: database.db,
      logger: quiet,
      intervalMs: 300_000,
      tickMs: 60_000,
      syncClose: (claim, counts, renew, signal) => syncCloseCalls({ ...dependencies(ingest), signal }, claim, counts, renew),
    });
  }

  it('imports each call worth scoring once, as a transcript or a recording, and passes over the rest', async () => {
    close = await startCloseStandin({
      calls: [
        transcribedCall('acti_transcribed'),
        transcribedCall('acti_recorded', { recording_transcript: null, recording_url: null, user_id: 'user_ben' }),
        transcribedCall('acti_short', { duration: 30, recording_transcript: null, recording_url: 'set below' }),
        transcribedCall('acti_silent', { recording_transcript: null }),
        transcribedCall('acti_outsider', { user_id: 'user_cleo' }),
      ],
    });
    close.addCall({ ...transcribedCall('acti_recorded_2'), recording_transcript: null, recording_url: close.recordingUrlOf('acti_recorded_2') }, RECORDING);
    const companyId = await connectedCompany();
    const ingest = recordingIngest();
    const runner = runnerFor(ingest);

    await runner.syncNow(companyId, 'close-crm');
    await runner.idle();

    expect([...ingest.received.keys()].sort()).toEqual(['acti_recorded_2', 'acti_transcribed']);
    const transcribed = ingest.received.get('acti_transcribed')!;
    expect(transcribed).toMatchObject({
      source: 'close-crm',
      teamId: 'team-sales',
      representativeEmail: 'anna.lee@example.com',
      representativeName: 'Anna',
      fileName: 'close-call-acti_transcribed.vtt',
      notes: 'Note of acti_transcribed',
      contactId: 'cont_acti_transcribed',
    });
    expect(transcribed.media).toEqual({ kind: 'text', text: expect.stringContaining('<v Anna Lee>Hello, Anna from Acme here.') });
    expect(ingest.received.get('acti_recorded_2')!.media).toEqual({ kind: 'audio', bytes: RECORDING });

    const row = await connection(companyId);
    expect(row.lastSyncSummary).toEqual({ imported: 2, alreadyImported: 0, skipped: 4, refused: 0 });
    expect(row.lastSyncAt).toBeInstanceOf(Date);
    expect(row.lastError).toBeNull();
    expect(row.syncClaimToken).toBeNull();
    expect(Date.parse(row.syncCursor!)).toBeGreaterThan(Date.now() - 5 * 60_000);
    const imported = await database.db.select().from(imports).where(eq(imports.companyId, companyId));
    expect(imported.map((entry) => [entry.externalId, entry.leadId, entry.activityId]).sort()).toEqual(
      [...ingest.received.values()].map((entry) => [entry.externalId, 'lead_acme', entry.activityId]).sort(),
    );

    // A second sync, five minutes later, reads on from the cursor: a call made since is imported, nothing twice.
    close.addCall(transcribedCall('acti_later', { date_created: minutesAgo(0) }));
    clockAheadMs = 5 * 60_000;
    await runner.syncNow(companyId, 'close-crm');
    await runner.idle();
    expect([...ingest.received.keys()].sort()).toEqual(['acti_later', 'acti_recorded_2', 'acti_transcribed']);
    expect((await connection(companyId)).lastSyncSummary).toMatchObject({ imported: 1 });
    await runner.stop();
  });

  it('stops where Close fails, says so with the time, and the next sync resumes without importing twice', async () => {
    close = await startCloseStandin({
      calls: [transcribedCall('acti_old', { date_created: minutesAgo(25 * 24 * 60) }), transcribedCall('acti_recent', { date_created: minutesAgo(60) })],
    });
    const companyId = await connectedCompany();
    const ingest = recordingIngest();
    const runner = runnerFor(ingest);
    const claim = (await claimSyncNow(database.db, companyId, 'close-crm', 60_000))!;
    const counts = emptyCounts();
    let windows = 0;
    // The first window (30 to 23 days ago) goes through; Close then fails every read of calls.
    await expect(
      syncCloseCalls(dependencies(ingest), claim, counts, async () => {
        windows += 1;
        if (windows === 1) close.failNext(10, 503, '/activity/call/');
        return true;
      }),
    ).rejects.toMatchObject({ name: 'VendorHttpError', kind: 'server' });
    const cursorAfterFailure = (await connection(companyId)).syncCursor!;
    expect(Date.parse(cursorAfterFailure)).toBeLessThan(Date.now() - 22 * 24 * 60 * 60_000);
    expect([...ingest.received.keys()]).toEqual(['acti_old']);

    // The runner records the failure for the screen, and the claim is let go.
    close.failNext(10, 503, '/activity/call/');
    await database.db.update(connections).set({ syncClaimToken: null, syncClaimedUntil: null }).where(eq(connections.companyId, companyId));
    await runner.syncNow(companyId, 'close-crm');
    await runner.idle();
    const failed = await connection(companyId);
    expect(failed.lastError).toMatch(/^The last sync stopped: Close answered HTTP 503 to GET \/activity\/call\/.*The next sync resumes where it stopped\.$/);
    expect(failed.lastErrorAt).toBeInstanceOf(Date);
    expect(failed.syncCursor).toBe(cursorAfterFailure);
    expect(failed.syncClaimToken).toBeNull();

    close.failNext(0, 503);
    await runner.syncNow(companyId, 'close-crm');
    await runner.idle();
    const resumed = await connection(companyId);
    expect([...ingest.received.keys()].sort()).toEqual(['acti_old', 'acti_recent']);
    expect(resumed.lastError).toBeNull();
    expect(resumed.lastSyncSummary).toMatchObject({ imported: 1 });
    await runner.stop();
  });

  it('leaves out a call ingest refuses for good and goes on with the others', async () => {
    close = await startCloseStandin({ calls: [transcribedCall('acti_refused'), transcribedCall('acti_taken')] });
    const companyId = await connectedCompany();
    const ingest = recordingIngest();
    ingest.refuseNext('close-call-acti_refused.audio is not an audio file Parlance can read.');
    const runner = runnerFor(ingest);
    await runner.syncNow(companyId, 'close-crm');
    await runner.idle();
    expect([...ingest.received.keys()]).toEqual(['acti_taken']);
    expect((await connection(companyId)).lastSyncSummary).toEqual({ imported: 1, alreadyImported: 0, skipped: 0, refused: 1 });
    await runner.stop();
  });

  it('marks the connection expired when Close refuses the key, which stops its syncing', async () => {
    close = await startCloseStandin({ calls: [transcribedCall('acti_1')] });
    const companyId = await connectedCompany({ autoSync: true });
    close.revokeKey();
    const ingest = recordingIngest();
    const runner = runnerFor(ingest);
    await runner.syncNow(companyId, 'close-crm');
    await runner.idle();
    const expired = await connection(companyId);
    expect(expired.status).toBe('expired');
    expect(expired.lastError).toBe(INTEGRATION_MESSAGES.closeKeyRevoked);
    expect(await claimSyncNow(database.db, companyId, 'close-crm', 60_000)).toBeUndefined();
    await runner.stop();
  });

  it('claims a due automatic sync for one replica only, and again once its claim has run out', async () => {
    close = await startCloseStandin();
    const companyId = await connectedCompany({ autoSync: true });
    const claimOwn = async (): Promise<ClaimedSync | undefined> => {
      // Other tests' connections may be due too; only this company's matter here.
      for (let claimed = await claimDueSync(database.db, 'close-crm', 'autoSync', 60_000); claimed; claimed = await claimDueSync(database.db, 'close-crm', 'autoSync', 60_000)) {
        if (claimed.companyId === companyId) return claimed;
      }
      return undefined;
    };
    const [first, second] = await Promise.all([claimOwn(), claimOwn()]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    // The claim runs out (its replica died): the next look takes it up.
    await database.db.update(connections).set({ syncClaimedUntil: new Date(Date.now() - 1_000) }).where(eq(connections.companyId, companyId));
    expect((await claimOwn())?.companyId).toBe(companyId);
    // A connection without autoSync is never claimed by the schedule.
    const manual = await connectedCompany({ autoSync: false });
    expect(await claimDueSync(database.db, 'close-crm', 'autoSync', 60_000).then((claimed) => claimed?.companyId === manual)).toBe(false);
  });
});
