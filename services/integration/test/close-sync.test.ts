/**
 * Close's sync on both databases it runs on, against the local stand-in for Close (a third-party
 * SaaS tests cannot reach; support/close-standin.ts speaks its documented API). Ingest and
 * identity are the sync's two neighbours: here identity's teams are given, and ingest is a
 * recorder keyed like ingest (by source and external id), so each outcome can be read call by
 * call. test/integrations/close-sync.test.ts runs the same sync through the real ingest,
 * transcription and scoring, on PostgreSQL.
 *
 * The syncs here run on PGlite, a database of this file's own: on the shared PostgreSQL, another
 * test file's stack may run sync workers, which would take a sync this file queued and run it
 * against its own Close stand-in. How a sync is claimed is tested on both databases, with a sync
 * not yet due, which no worker takes.
 */
import { and, eq, or, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@parlance/platform/db/database';
import { createLogger } from '@parlance/platform/logger';
import { testDatabaseUrl } from '@parlance/platform/testing/infra';
import { claimLeasedWork } from '@parlance/platform/work/leased-work';
import { connections, imports, syncQueue, syncWork } from '../src/db/schema.js';
import { parseKeyring } from '../src/domain/credential-cipher.js';
import { closeCursorOf } from '../src/domain/close-import.js';
import { membersWithChange, type RosterChange, type RosterTeam } from '../src/domain/close-roster.js';
import { INTEGRATION_MESSAGES } from '../src/domain/integrations.js';
import { syncCloseCalls, type CloseSyncDependencies, type RosterKeeper } from '../src/sync/close-sync.js';
import { emptyCounts } from '../src/sync/import-call.js';
import { syncRunner, type SyncRunner } from '../src/sync/sync-runner.js';
import { createCloseClient } from '../src/vendors/close-client.js';
import { closeTestDatabase } from './support/close-database.js';
import { RECORDING, recordingIngest } from './support/recording-ingest.js';
import { startCloseStandin, type CloseCallRecord, type CloseStandin } from './support/close-standin.js';

const DRIVERS = [
  { driver: 'postgres', open: () => openDatabase({ driver: 'postgres', url: testDatabaseUrl(), schema: 'integration', poolSize: 4 }) },
  { driver: 'pglite', open: () => openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'integration' }) },
] as const;

const keyring = parseKeyring(`test:${Buffer.alloc(32, 9).toString('base64')}`);
const noWait = { sleep: async () => {}, random: () => 0 };
const quiet = createLogger({ service: 'integration-sync-test', level: 'silent' });
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

/**
 * Identity's teams as syncUsersAndTeams reads and saves them, kept here: the sync's own gRPC
 * keeper (sync/pipeline-clients.ts) is run against the real identity in
 * test/integrations/close-sync.test.ts.
 */
function rosterInMemory(teams: RosterTeam[], refuse?: string) {
  const applied: RosterChange[] = [];
  const keeper: RosterKeeper = {
    read: async () => structuredClone(teams),
    async apply(_companyId, change) {
      applied.push(change);
      if (refuse) return { refused: refuse };
      const team = teams.find((candidate) => candidate.id === change.teamId)!;
      team.members = membersWithChange(team.members, change);
      return { saved: true };
    },
  };
  return { keeper, teams: async () => structuredClone(teams), applied, current: teams };
}

/** The Close test database, and the syncs queued in it. */
function databaseFor(open: () => Promise<DatabaseHandle<Record<string, unknown>>>) {
  const database = closeTestDatabase(open, keyring);
  return {
    get db() {
      return database.db;
    },
    connectedCompany: database.connectedCompany,
    connection: database.connection,

    /** The company's queued or running syncs. */
    syncWorkOf(companyId: string) {
      return database.db.select().from(syncWork).where(eq(syncWork.companyId, companyId));
    },
  };
}

describe('Close sync, run by the sync workers (PGlite)', () => {
  const database = databaseFor(() => openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'integration' }));
  let close: CloseStandin;
  let runner: SyncRunner | undefined;
  /** How far the sync's clock runs ahead of the stand-in's: a later sync, without waiting. */
  let clockAheadMs = 0;

  afterEach(async () => {
    clockAheadMs = 0;
    await runner?.stop();
    runner = undefined;
    await close?.close();
  });

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

  function startRunner(ingest: ReturnType<typeof recordingIngest>): SyncRunner {
    runner = syncRunner({
      db: database.db,
      logger: quiet,
      workers: 1,
      intervalMs: 300_000,
      pollMs: 50,
      sync: (connection, counts, signal) => syncCloseCalls({ ...dependencies(ingest), signal }, connection, counts),
    });
    return runner;
  }

  /** Sync now, as the screen asks for it, and the sync's end: no sync of the company due or running any more. */
  async function syncNow(companyId: string): Promise<void> {
    expect(await runner!.syncNow(await database.connection(companyId))).toBe(true);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const pending = await database.db
        .select({ connectionId: syncWork.connectionId })
        .from(syncWork)
        .where(and(eq(syncWork.companyId, companyId), or(sql`${syncWork.dueAt} <= now()`, sql`${syncWork.leaseExpiresAt} > now()`)));
      if (pending.length === 0) return;
      if (Date.now() > deadline) throw new Error(`the sync of ${companyId} did not end within 20 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
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
      contacts: { cont_acti_transcribed: 'Dana Whitfield' },
    });
    close.addCall({ ...transcribedCall('acti_recorded_2'), recording_transcript: null, recording_url: close.recordingUrlOf('acti_recorded_2') }, RECORDING);
    const companyId = await database.connectedCompany();
    const ingest = recordingIngest();
    startRunner(ingest);

    await syncNow(companyId);

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
      contactName: 'Dana Whitfield',
    });
    // A contact Close no longer has is kept by its id alone.
    expect(ingest.received.get('acti_recorded_2')).toMatchObject({ contactId: 'cont_acti_recorded_2', contactName: '' });
    expect(transcribed.media).toEqual({ kind: 'text', text: expect.stringContaining('<v Anna Lee>Hello, Anna from Acme here.') });
    expect(ingest.received.get('acti_recorded_2')!.media).toEqual({ kind: 'audio', bytes: RECORDING });

    const row = await database.connection(companyId);
    expect(row.lastSyncSummary).toEqual({ imported: 2, alreadyImported: 0, skipped: 4, refused: 0 });
    expect(row.lastSyncAt).toBeInstanceOf(Date);
    expect(row.lastError).toBeNull();
    // autoSync is off: nothing is left queued.
    expect(await database.syncWorkOf(companyId)).toEqual([]);
    expect(Date.parse((JSON.parse(row.syncCursor!) as { windowEnd: string }).windowEnd)).toBeGreaterThan(Date.now() - 5 * 60_000);
    const imported = await database.db.select().from(imports).where(eq(imports.companyId, companyId));
    expect(imported.map((entry) => [entry.externalId, entry.leadId, entry.activityId]).sort()).toEqual(
      [...ingest.received.values()].map((entry) => [entry.externalId, 'lead_acme', entry.activityId]).sort(),
    );

    // A second sync, five minutes later, reads on from the cursor: a call made since is imported, nothing twice.
    close.addCall(transcribedCall('acti_later', { date_created: minutesAgo(0) }));
    clockAheadMs = 5 * 60_000;
    await syncNow(companyId);
    expect([...ingest.received.keys()].sort()).toEqual(['acti_later', 'acti_recorded_2', 'acti_transcribed']);
    expect((await database.connection(companyId)).lastSyncSummary).toMatchObject({ imported: 1 });
  });

  it('with syncUsersAndTeams, brings Close’s users into the teams first, and reads the history again for a newcomer’s calls', async () => {
    close = await startCloseStandin({ calls: [transcribedCall('acti_anna'), transcribedCall('acti_cleo', { user_id: 'user_cleo' })] });
    const roster = rosterInMemory([
      {
        id: 'team-sales',
        department: 'sales',
        members: [
          { firstName: 'Anna', lastName: 'Lee', email: 'anna.lee@example.com', crmId: '', target: 4 },
          { firstName: 'Ben', lastName: 'Ode', email: 'ben.ode@example.com', crmId: '', target: 2 },
        ],
      },
    ]);
    const ingest = recordingIngest();
    const deps = { ...dependencies(ingest), teams: roster.teams, rosters: roster.keeper };

    // Off (the default), the teams are left alone and Cleo's call has nobody to belong to.
    const companyId = await database.connectedCompany();
    const before = emptyCounts();
    await syncCloseCalls(deps, await database.connection(companyId), before);
    expect(roster.applied).toEqual([]);
    expect(before).toMatchObject({ imported: 1, skipped: { 'no-representative': 1 } });

    // Turned on later: Anna and Ben get their Close ids, Cleo joins, and her call (behind the cursor) is imported.
    const connection = await database.connection(companyId);
    await database.db.update(connections).set({ settings: { ...connection.settings, syncUsersAndTeams: true } }).where(eq(connections.companyId, companyId));
    clockAheadMs = 5 * 60_000;
    const after = emptyCounts();
    await syncCloseCalls(deps, await database.connection(companyId), after);
    expect(roster.current[0]!.members).toEqual([
      { firstName: 'Anna', lastName: 'Lee', email: 'anna.lee@example.com', crmId: 'user_anna', target: 4 },
      { firstName: 'Ben', lastName: 'Ode', email: 'ben.ode@example.com', crmId: 'user_ben', target: 2 },
      { firstName: 'Cleo', lastName: 'Park', email: 'cleo.park@example.com', crmId: 'user_cleo', target: 0 },
    ]);
    expect(ingest.received.get('acti_cleo')).toMatchObject({ teamId: 'team-sales', representativeEmail: 'cleo.park@example.com', representativeName: 'Cleo' });
    expect(after).toMatchObject({ imported: 1, alreadyImported: 1, skipped: { 'no-representative': 0 } });

    // A third sync finds everyone linked: nothing is saved, and the cursor reads on.
    await syncCloseCalls(deps, await database.connection(companyId), emptyCounts());
    expect(roster.applied).toHaveLength(1);
    expect(closeCursorOf((await database.connection(companyId)).syncCursor).windowEnd!.getTime()).toBeGreaterThan(Date.now());
  });

  it('goes on with the calls when identity refuses the Close users for a team, leaving them out', async () => {
    close = await startCloseStandin({ calls: [transcribedCall('acti_anna'), transcribedCall('acti_cleo', { user_id: 'user_cleo' })] });
    const roster = rosterInMemory([{ id: 'team-sales', department: 'sales', members: [{ firstName: 'Anna', lastName: 'Lee', email: 'anna.lee@example.com', crmId: 'user_anna', target: 1 }] }], 'Team member names must be unique.');
    const ingest = recordingIngest();
    const companyId = await database.connectedCompany({ syncUsersAndTeams: true });
    const counts = emptyCounts();
    await syncCloseCalls({ ...dependencies(ingest), teams: roster.teams, rosters: roster.keeper }, await database.connection(companyId), counts);
    expect(roster.applied.map((change) => change.added.map((member) => member.email))).toEqual([['ben.ode@example.com', 'cleo.park@example.com']]);
    expect([...ingest.received.keys()]).toEqual(['acti_anna']);
    expect(counts.skipped['no-representative']).toBe(1);
  });

  it('imports a call passed over before once Close’s event log says it changed (its recording came later)', async () => {
    close = await startCloseStandin({ calls: [transcribedCall('acti_recording_later', { recording_transcript: null, recording_url: null })] });
    const companyId = await database.connectedCompany();
    const ingest = recordingIngest();
    startRunner(ingest);

    await syncNow(companyId);
    expect((await database.connection(companyId)).lastSyncSummary).toEqual({ imported: 0, alreadyImported: 0, skipped: 1, refused: 0 });

    // Close adds the recording a little later, and logs the change.
    close.updateCall('acti_recording_later', { recording_url: close.recordingUrlOf('acti_recording_later') }, { recording: RECORDING, at: new Date(Date.now() + 60_000) });
    clockAheadMs = 5 * 60_000;
    await syncNow(companyId);

    expect((await database.connection(companyId)).lastSyncSummary).toEqual({ imported: 1, alreadyImported: 0, skipped: 0, refused: 0 });
    expect(ingest.received.get('acti_recording_later')!.media).toEqual({ kind: 'audio', bytes: RECORDING });
    expect(close.requests.filter((request) => request.path === '/event/').at(-1)!.query.get('object_type')).toBe('activity.call');
  });

  it('stops where Close fails, says so with the time, and the next sync resumes without importing twice', async () => {
    close = await startCloseStandin({
      calls: [transcribedCall('acti_old', { date_created: minutesAgo(25 * 24 * 60) }), transcribedCall('acti_recent', { date_created: minutesAgo(60) })],
    });
    const companyId = await database.connectedCompany();
    const ingest = recordingIngest();
    // The first window (30 to 23 days ago) goes through; Close then fails every read of calls.
    let windows = 0;
    const failingAfterOneWindow: CloseSyncDependencies = {
      ...dependencies(ingest),
      close: (apiKey) => {
        const client = createCloseClient({ apiKey, baseUrl: close.baseUrl, http: { ...noWait, maxAttempts: 2 } });
        return {
          ...client,
          async *calls(window) {
            yield* client.calls(window);
            windows += 1;
            if (windows === 1) close.failNext(10, 503, '/activity/call/');
          },
        };
      },
    };
    await expect(syncCloseCalls(failingAfterOneWindow, await database.connection(companyId), emptyCounts())).rejects.toMatchObject({ name: 'VendorHttpError', kind: 'server' });
    const cursorAfterFailure = (await database.connection(companyId)).syncCursor!;
    expect(Date.parse((JSON.parse(cursorAfterFailure) as { windowEnd: string }).windowEnd)).toBeLessThan(Date.now() - 22 * 24 * 60 * 60_000);
    expect([...ingest.received.keys()]).toEqual(['acti_old']);

    // The runner records the failure for the screen, and lets go of the sync.
    close.failNext(10, 503, '/activity/call/');
    startRunner(ingest);
    await syncNow(companyId);
    const failed = await database.connection(companyId);
    expect(failed.lastError).toMatch(/^The last sync stopped: Close answered HTTP 503 to GET \/activity\/call\/.*The next sync resumes where it stopped\.$/);
    expect(failed.lastErrorAt).toBeInstanceOf(Date);
    // The windows stay where they stopped (the event log's reading moves on: nothing is lost by it).
    expect(closeCursorOf(failed.syncCursor).windowEnd).toEqual(closeCursorOf(cursorAfterFailure).windowEnd);
    expect(await database.syncWorkOf(companyId)).toEqual([]);

    close.failNext(0, 503);
    await syncNow(companyId);
    const resumed = await database.connection(companyId);
    expect([...ingest.received.keys()].sort()).toEqual(['acti_old', 'acti_recent']);
    expect(resumed.lastError).toBeNull();
    expect(resumed.lastSyncSummary).toMatchObject({ imported: 1 });
  });

  it('leaves out a call ingest refuses for good and goes on with the others', async () => {
    close = await startCloseStandin({ calls: [transcribedCall('acti_refused'), transcribedCall('acti_taken')] });
    const companyId = await database.connectedCompany();
    const ingest = recordingIngest();
    ingest.refuseNext('close-call-acti_refused.audio is not an audio file Parlance can read.');
    startRunner(ingest);
    await syncNow(companyId);
    expect([...ingest.received.keys()]).toEqual(['acti_taken']);
    expect((await database.connection(companyId)).lastSyncSummary).toEqual({ imported: 1, alreadyImported: 0, skipped: 0, refused: 1 });
  });

  it('queues the next automatic sync while autoSync is on', async () => {
    close = await startCloseStandin({ calls: [transcribedCall('acti_1')] });
    const companyId = await database.connectedCompany({ autoSync: true });
    startRunner(recordingIngest());
    await syncNow(companyId);
    const [next] = await database.syncWorkOf(companyId);
    expect(next!.dueAt.getTime()).toBeGreaterThan(Date.now() + 290_000);
    expect(next!.leaseExpiresAt).toBeNull();
  });

  it('marks the connection expired when Close refuses the key, which stops its syncing', async () => {
    close = await startCloseStandin({ calls: [transcribedCall('acti_1')] });
    const companyId = await database.connectedCompany({ autoSync: true });
    close.revokeKey();
    startRunner(recordingIngest());
    await syncNow(companyId);
    const expired = await database.connection(companyId);
    expect(expired.status).toBe('expired');
    expect(expired.lastError).toBe(INTEGRATION_MESSAGES.closeKeyRevoked);
    // No automatic sync is queued after it, autoSync on or not.
    expect(await database.syncWorkOf(companyId)).toEqual([]);
  });
});

describe.each(DRIVERS)('claiming a sync on $driver', ({ open }) => {
  const database = databaseFor(open);

  it('gives a sync to one replica only, and again once its lease has run out', async () => {
    const companyId = await database.connectedCompany({ autoSync: true });
    const { id } = await database.connection(companyId);
    // Due in an hour: no worker of another test file takes it; the claims here ask for this one.
    await database.db.insert(syncWork).values({ connectionId: id, companyId, integrationId: 'close-crm', dueAt: new Date(Date.now() + 3_600_000) });
    const claimOwn = () => database.db.transaction((tx) => claimLeasedWork(tx, syncQueue, 60_000, eq(syncWork.connectionId, id)));
    const [first, second] = await Promise.all([claimOwn(), claimOwn()]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(await claimOwn()).toBeUndefined();
    // The lease runs out (its replica died): the next look takes it up.
    await database.db.update(syncWork).set({ leaseExpiresAt: new Date(Date.now() - 1_000) }).where(eq(syncWork.connectionId, id));
    expect((await claimOwn())?.companyId).toBe(companyId);
  });
});
