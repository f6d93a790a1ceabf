/**
 * Google Workspace in the integration service, against the local stand-in for Google (a
 * third-party SaaS tests cannot reach; support/google-standin.ts speaks Google's documented OAuth
 * token, user-info and Drive APIs): connecting with a code-client code (tokens sealed at rest,
 * the account and scopes kept), the folder picker's folders, settings, reconnecting with what
 * became of the selected folder, and, on PGlite with the sync workers, the Meet transcripts of
 * the folder imported as meetings (a first listing, then Drive's changes) with their Calendar
 * event's Meet link, title and attendees when there is one, the Meet API's entries as the
 * transcript when the connection holds the Meet scope, the Doc's own facts when Calendar or Meet
 * refuse, and the connection marked expired once Google refuses its refresh token.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@parlance/platform/db/database';
import { migrate } from '@parlance/platform/db/migrate';
import { runWithRequestContext } from '@parlance/platform/grpc/request-context';
import { createLogger } from '@parlance/platform/logger';
import { testDatabaseUrl } from '@parlance/platform/testing/infra';
import { ConnectionStatus } from '@parlance/proto/parlance/integration/v1/integrations';
import { connections, imports, syncWork } from '../src/db/schema.js';
import type { ConnectionRow } from '../src/db/connections.repository.js';
import { openCredential, parseKeyring } from '../src/domain/credential-cipher.js';
import { INTEGRATION_MESSAGES } from '../src/domain/integrations.js';
import { tokensOf } from '../src/domain/oauth.js';
import { integrationAnswers } from '../src/grpc/integrations.server.js';
import { syncRunner, type SyncRunner } from '../src/sync/sync-runner.js';
import { syncWorkspaceMeetings } from '../src/sync/workspace-sync.js';
import { createCalendarClient, createDriveClient, createGoogleOAuth, createMeetClient, GOOGLE_MEET_SCOPE, GOOGLE_WORKSPACE_SCOPES } from '../src/vendors/google-client.js';
import { oauthAccessToken } from '../src/vendors/oauth-access.js';
import { GOOGLE_STANDIN_SEED, startGoogleStandin, type GoogleStandin } from './support/google-standin.js';
import { recordingIngest } from './support/recording-ingest.js';

const keyring = parseKeyring(`test:${Buffer.alloc(32, 4).toString('base64')}`);
const quiet = createLogger({ service: 'integration-workspace-test', level: 'silent' });
const noWait = { sleep: async () => {}, random: () => 0, maxAttempts: 2 };
const MAYA = { firstName: 'Maya', lastName: 'Okafor', email: 'maya.okafor@parlance.local' };
const MAYAS_SESSION = 'maya-session-token';

type WorkspaceSignIn = Pick<ReturnType<typeof integrationAnswers>, 'beginWorkspaceSignIn'>;

/** A Google sign-in as the web app makes it, in one request context: a state for the session, then the code with it. */
async function signIn(service: WorkspaceSignIn, code: string, sessionBinding = MAYAS_SESSION) {
  const { state } = await service.beginWorkspaceSignIn({ sessionBinding: MAYAS_SESSION });
  return { code, by: MAYA, state, sessionBinding };
}
const MIGRATIONS = fileURLToPath(new URL('../src/db/migrations', import.meta.url));
const TEAMS = [{ id: 'team-sales', department: 'sales', members: [{ email: 'maya.okafor@parlance.local', firstName: 'Maya', crmId: '' }] }];

/** A Meet transcript as Google saves it in Drive, lasting `minutes`. */
function meetTranscript(title: string, minutes: number): string {
  return [`${title} - Transcript`, 'Attendees', 'Maya Okafor, Morgan Reyes', 'Transcript', '00:00:00', 'Maya Okafor: Thanks for joining, Morgan.', `00:${String(minutes).padStart(2, '0')}:00`, 'Morgan Reyes: Thank you, talk soon.'].join('\n');
}

function googleFor(google: GoogleStandin, db: DatabaseHandle<Record<string, unknown>>['db']) {
  const oauth = createGoogleOAuth({ clientId: GOOGLE_STANDIN_SEED.clientId, clientSecret: GOOGLE_STANDIN_SEED.clientSecret, tokenUrl: google.tokenUrl, userinfoUrl: google.userinfoUrl, http: noWait });
  const drive = (connection: ConnectionRow) => createDriveClient({ baseUrl: google.driveUrl, accessToken: oauthAccessToken({ db, keyring, oauth }, connection), http: noWait });
  // As module.ts builds them: the sync's clients share one access token.
  const workspace = (connection: ConnectionRow) => {
    const accessToken = oauthAccessToken({ db, keyring, oauth }, connection);
    return {
      drive: createDriveClient({ baseUrl: google.driveUrl, accessToken, http: noWait }),
      calendar: createCalendarClient({ baseUrl: google.calendarUrl, accessToken, http: noWait }),
      meet: createMeetClient({ baseUrl: google.meetUrl, accessToken, http: noWait }),
    };
  };
  return { oauth, drive, workspace };
}

/** A time `minutes` from now (before it when negative), as Google writes times. */
function minutesFromNow(minutes: number): string {
  return new Date(Date.now() + minutes * 60_000).toISOString();
}

describe.each([
  { driver: 'postgres', open: () => openDatabase({ driver: 'postgres', url: testDatabaseUrl(), schema: 'integration', poolSize: 2 }) },
  { driver: 'pglite', open: () => openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'integration' }) },
] as const)('connecting Google Workspace ($driver)', ({ open }) => {
  let database: DatabaseHandle<Record<string, unknown>>;
  let google: GoogleStandin;
  let service: ReturnType<typeof integrationAnswers>;
  const companyId = randomUUID();
  const asMaya = <T>(work: () => Promise<T>) => runWithRequestContext({ companyId, userId: randomUUID() }, work);

  beforeAll(async () => {
    database = await open();
    await migrate(database, { migrationsFolder: MIGRATIONS });
    google = await startGoogleStandin();
    service = integrationAnswers({
      db: database.db,
      keyring,
      close: () => {
        throw new Error('Close is not used here');
      },
      google: googleFor(google, database.db),
      syncNow: async () => true,
      resumeWrites: async () => undefined,
      sendIntegrationRequests: async () => {},
    });
  });

  afterAll(async () => {
    await database.db.delete(connections).where(eq(connections.companyId, companyId));
    await google.close();
    await database.close();
  });

  it('connects with the code client’s code: tokens sealed at rest, the account and the granted scopes kept', async () => {
    const { integration } = await asMaya(async () => service.connectWorkspace(await signIn(service, google.consentCode())));

    expect(integration?.connection).toMatchObject({
      status: ConnectionStatus.CONNECTION_STATUS_CONNECTED,
      by: MAYA,
      settings: {
        $case: 'workspace',
        value: { monitoringEnabled: false, minCallDuration: 60, tokenValid: true, refreshTokenValid: true, account: 'maya.okafor@parlance.local' },
      },
    });
    const granted = integration?.connection?.settings?.$case === 'workspace' ? integration.connection.settings.value.scopes : [];
    expect([...granted].sort()).toEqual([...GOOGLE_WORKSPACE_SCOPES].sort());
    const [row] = await database.db.select().from(connections).where(and(eq(connections.companyId, companyId), eq(connections.integrationId, 'google-workspace')));
    const tokens = tokensOf(openCredential(keyring, row!.credentials));
    expect(row!.credentials).not.toContain(tokens.refreshToken);
    const exchange = google.requests.find((request) => request.path.endsWith('/token'))!;
    expect(exchange.body).toMatchObject({ grant_type: 'authorization_code', redirect_uri: 'postmessage' });
  });

  it('refuses an empty code, and one Google refuses', async () => {
    await expect(asMaya(async () => service.connectWorkspace(await signIn(service, ' ')))).rejects.toMatchObject({ kind: 'invalid-argument', message: INTEGRATION_MESSAGES.workspaceCodeMissing });
    await expect(asMaya(async () => service.connectWorkspace(await signIn(service, 'not-a-code')))).rejects.toMatchObject({ kind: 'invalid-argument', message: expect.stringContaining('Google refused the sign-in') });
  });

  it('takes the sign-in’s state once, and only from the session, user and company that asked for it', async () => {
    const code = google.consentCode();
    // No state, or one never given: refused before Google is asked, so the code is still good.
    await expect(asMaya(() => service.connectWorkspace({ code, by: MAYA, state: '', sessionBinding: MAYAS_SESSION }))).rejects.toMatchObject({ kind: 'failed-precondition', message: INTEGRATION_MESSAGES.workspaceStateUnknown });
    await expect(asMaya(() => service.connectWorkspace({ code, by: MAYA, state: 'made-up', sessionBinding: MAYAS_SESSION }))).rejects.toMatchObject({ kind: 'failed-precondition', message: INTEGRATION_MESSAGES.workspaceStateUnknown });
    // Brought back in another session, or by another user of the company: refused, and used up.
    const userId = randomUUID();
    const asOne = <T>(work: () => Promise<T>) => runWithRequestContext({ companyId, userId }, work);
    const stolen = await asOne(() => signIn(service, code, 'another-session'));
    await expect(asOne(() => service.connectWorkspace(stolen))).rejects.toMatchObject({ kind: 'failed-precondition', message: INTEGRATION_MESSAGES.workspaceStateForeign });
    await expect(asOne(() => service.connectWorkspace({ ...stolen, sessionBinding: MAYAS_SESSION }))).rejects.toMatchObject({ message: INTEGRATION_MESSAGES.workspaceStateUnknown });
    const otherUser = await asOne(() => signIn(service, code));
    await expect(runWithRequestContext({ companyId, userId: randomUUID() }, () => service.connectWorkspace(otherUser))).rejects.toMatchObject({ message: INTEGRATION_MESSAGES.workspaceStateForeign });
    // The right session: accepted once.
    const own = await asOne(() => signIn(service, code));
    await asOne(() => service.connectWorkspace(own));
    await expect(asOne(() => service.connectWorkspace({ ...own, code: google.consentCode() }))).rejects.toMatchObject({ message: INTEGRATION_MESSAGES.workspaceStateUnknown });
    // Without a session (a bearer token), no sign-in starts.
    await expect(asOne(() => service.beginWorkspaceSignIn({ sessionBinding: '' }))).rejects.toMatchObject({ kind: 'failed-precondition', message: INTEGRATION_MESSAGES.workspaceSessionNeeded });
  });

  it('lists the Drive folders for the picker, and keeps the folder chosen', async () => {
    const { folders } = await asMaya(() => service.listDriveFolders({}));
    expect(folders).toEqual([
      { id: 'fold_shared', name: 'Customer Calls (Sales)', isShared: true, owners: [{ displayName: 'Daniel Reyes', isMe: false }] },
      { id: 'fold_meet', name: 'Meet Recordings', isShared: false, owners: [{ displayName: 'Maya Okafor', isMe: true }] },
    ]);

    const { settings } = await asMaya(() => service.updateWorkspaceSettings({ selectedFolderId: 'fold_meet', selectedFolderName: 'Meet Recordings', monitoringEnabled: true }));
    expect(settings).toMatchObject({ monitoringEnabled: true, selectedFolder: { id: 'fold_meet', name: 'Meet Recordings' } });
    await expect(asMaya(() => service.updateWorkspaceSettings({ selectedFolderId: 'fold_x' }))).rejects.toMatchObject({ kind: 'invalid-argument', message: INTEGRATION_MESSAGES.selectedFolder });
  });

  it('reconnects keeping the settings, and says what became of the selected folder', async () => {
    await database.db.update(connections).set({ status: 'expired' }).where(eq(connections.companyId, companyId));
    const restored = await asMaya(async () => service.reconnectWorkspace(await signIn(service, google.consentCode())));
    expect(restored.folderStatus).toEqual({ exists: true, accessible: true });
    expect(restored.integration?.connection).toMatchObject({ status: ConnectionStatus.CONNECTION_STATUS_CONNECTED, settings: { value: { monitoringEnabled: true, selectedFolder: { id: 'fold_meet' } } } });

    google.makeFolderInaccessible('fold_meet');
    expect((await asMaya(async () => service.reconnectWorkspace(await signIn(service, google.consentCode())))).folderStatus).toEqual({ exists: true, accessible: false });
    google.removeFolder('fold_meet');
    expect((await asMaya(async () => service.reconnectWorkspace(await signIn(service, google.consentCode())))).folderStatus).toEqual({ exists: false, accessible: false });
  });

  it('marks the connection expired when Google refuses its access to list folders', async () => {
    google.revokeGrant();
    google.advanceClock(3_600_000);
    await expect(asMaya(() => service.listDriveFolders({}))).rejects.toMatchObject({ kind: 'failed-precondition', message: INTEGRATION_MESSAGES.workspaceRevoked });
    const { integrations } = await asMaya(() => service.listIntegrations({}));
    expect(integrations[2]?.connection).toMatchObject({ status: ConnectionStatus.CONNECTION_STATUS_EXPIRED, settings: { value: { refreshTokenValid: false } } });
  });
});

describe('Google Workspace sync (PGlite, the sync workers)', () => {
  let database: DatabaseHandle<Record<string, unknown>>;
  let google: GoogleStandin;
  let syncs: SyncRunner | undefined;

  beforeAll(async () => {
    database = await openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'integration' });
    await migrate(database, { migrationsFolder: MIGRATIONS });
  });

  afterEach(async () => {
    await syncs?.stop();
    syncs = undefined;
    await google?.close();
  });

  afterAll(() => database.close());

  /** Connected as Maya with the scopes consented to (the ones Parlance asks unless said), watching Meet Recordings. */
  async function connected(ingest: ReturnType<typeof recordingIngest>, scopes: readonly string[] = GOOGLE_WORKSPACE_SCOPES) {
    const { oauth, drive, workspace } = googleFor(google, database.db);
    const service = integrationAnswers({
      db: database.db,
      keyring,
      close: () => {
        throw new Error('Close is not used here');
      },
      google: { oauth, drive },
      syncNow: async () => true,
      resumeWrites: async () => undefined,
      sendIntegrationRequests: async () => {},
    });
    const companyId = randomUUID();
    await runWithRequestContext({ companyId, userId: randomUUID() }, async () => {
      await service.connectWorkspace(await signIn(service, google.consentCode(scopes)));
      await service.updateWorkspaceSettings({ selectedFolderId: 'fold_meet', selectedFolderName: 'Meet Recordings' });
    });
    syncs = syncRunner({
      db: database.db,
      logger: quiet,
      workers: 1,
      intervalMs: 300_000,
      pollMs: 50,
      sync: (connection, counts, signal) => syncWorkspaceMeetings({ db: database.db, keyring, teams: async () => TEAMS, ingest, logger: quiet, signal, workspace }, connection, counts),
    });
    return (await database.db.select().from(connections).where(eq(connections.companyId, companyId)))[0]!;
  }

  async function syncNow(connection: ConnectionRow) {
    expect(await syncs!.syncNow(connection)).toBe(true);
    await expect.poll(async () => (await database.db.select().from(syncWork).where(eq(syncWork.connectionId, connection.id))).length, { timeout: 20_000, interval: 50 }).toBe(0);
    return (await database.db.select().from(connections).where(eq(connections.id, connection.id)))[0]!;
  }

  it('imports the folder’s Meet transcripts as meetings, then only what Drive’s changes bring', async () => {
    google = await startGoogleStandin({ events: [] });
    google.addDocument({ id: 'doc_long', name: 'Discovery with Globex - 2026/11/20 10:00 CET - Transcript', folderId: 'fold_meet', text: meetTranscript('Discovery with Globex', 12) });
    google.addDocument({ id: 'doc_short', name: 'Quick check - Transcript', folderId: 'fold_meet', text: meetTranscript('Quick check', 0) });
    google.addDocument({ id: 'doc_elsewhere', name: 'Other - Transcript', folderId: 'fold_shared', text: meetTranscript('Other', 30) });
    const ingest = recordingIngest();
    const connection = await connected(ingest);

    const first = await syncNow(connection);
    expect(first.lastError).toBeNull();
    expect(first.lastSyncSummary).toEqual({ imported: 1, alreadyImported: 0, skipped: 1, refused: 0 });
    expect(ingest.received.get('doc_long')).toMatchObject({
      source: 'google-workspace',
      teamId: 'team-sales',
      representativeEmail: 'maya.okafor@parlance.local',
      fileName: 'Discovery with Globex.txt',
      notes: 'Participants: Maya Okafor, Morgan Reyes',
      contactName: 'Morgan Reyes',
      meeting: { title: 'Discovery with Globex' },
      media: { kind: 'text', text: meetTranscript('Discovery with Globex', 12) },
    });
    expect(ingest.received.get('doc_long')!.meeting!.link).toContain('doc_long');
    // Calendar was asked for the transcript's event around the time the Doc was made, and had none.
    const eventLists = google.requests.filter((request) => request.path === '/calendar/v3/calendars/primary/events');
    expect(eventLists.length).toBeGreaterThanOrEqual(1);
    const createdAt = Date.parse(ingest.received.get('doc_long')!.occurredAt.toISOString());
    expect(Date.parse(eventLists[0]!.query.get('timeMin')!)).toBeLessThan(createdAt - 3 * 3_600_000);
    expect(Date.parse(eventLists[0]!.query.get('timeMax')!)).toBeGreaterThan(createdAt);
    // The Meet API is not asked without its scope.
    expect(google.requests.some((request) => request.path.startsWith('/meet/'))).toBe(false);

    google.addDocument({ id: 'doc_new', name: 'Follow-up with Globex - Transcript', folderId: 'fold_meet', text: meetTranscript('Follow-up with Globex', 20) });
    google.addDocument({ id: 'doc_new_elsewhere', name: 'Elsewhere - Transcript', folderId: 'fold_shared', text: meetTranscript('Elsewhere', 20) });
    google.trashDocument('doc_long');
    const second = await syncNow(connection);
    expect(second.lastSyncSummary).toEqual({ imported: 1, alreadyImported: 0, skipped: 0, refused: 0 });
    expect([...ingest.received.keys()]).toEqual(['doc_long', 'doc_new']);
    expect((await database.db.select().from(imports).where(eq(imports.companyId, connection.companyId))).map((row) => row.externalId).sort()).toEqual(['doc_long', 'doc_new']);
    expect(google.requests.some((request) => request.path.endsWith('/changes'))).toBe(true);
  });

  it('imports a transcript with its Calendar event’s Meet link, title, start and attendees, the contact being the first other guest', async () => {
    google = await startGoogleStandin({ events: [] });
    const start = minutesFromNow(-45);
    google.addEvent({
      id: 'evt_globex',
      summary: 'Globex × Parlance: discovery',
      start,
      end: minutesFromNow(-5),
      meetingCode: 'gxd-qmvr-tka',
      attendees: [
        { email: 'maya.okafor@parlance.local', displayName: 'Maya Okafor', organizer: true },
        { email: 'c_1888room-berlin-3@resource.calendar.google.com', displayName: 'Berlin-3-Orbit (6)', resource: true },
        { email: 'morgan.reyes@globex.example', displayName: 'Morgan Reyes' },
        { email: 'ines.duarte@globex.example' },
      ],
      attachmentFileIds: ['doc_globex'],
    });
    google.addEvent({ id: 'evt_other', summary: 'Another meeting', start: minutesFromNow(-45), end: minutesFromNow(-5), meetingCode: 'oth-erme-eet', attachmentFileIds: ['doc_other'] });
    google.addDocument({ id: 'doc_globex', name: 'Discovery with Globex - 2026/11/20 10:00 CET - Transcript', folderId: 'fold_meet', text: meetTranscript('Discovery with Globex', 12) });
    google.addDocument({ id: 'doc_alone', name: 'Unplanned call - Transcript', folderId: 'fold_meet', text: meetTranscript('Unplanned call', 12) });
    const ingest = recordingIngest();
    const connection = await connected(ingest);

    const synced = await syncNow(connection);

    expect(synced.lastSyncSummary).toEqual({ imported: 2, alreadyImported: 0, skipped: 0, refused: 0 });
    expect(ingest.received.get('doc_globex')).toMatchObject({
      fileName: 'Globex × Parlance discovery.txt',
      occurredAt: new Date(start),
      notes: 'Participants: Maya Okafor, Morgan Reyes, ines.duarte@globex.example',
      contactId: 'morgan.reyes@globex.example',
      contactName: 'Morgan Reyes',
      meeting: { title: 'Globex × Parlance: discovery', link: 'https://meet.google.com/gxd-qmvr-tka' },
      media: { kind: 'text', text: meetTranscript('Discovery with Globex', 12) },
    });
    // A transcript no event holds is imported as before, from the Doc alone.
    expect(ingest.received.get('doc_alone')).toMatchObject({ contactId: '', contactName: 'Morgan Reyes', notes: 'Participants: Maya Okafor, Morgan Reyes', meeting: { title: 'Unplanned call', link: expect.stringContaining('doc_alone') } });
  });

  it('imports the Meet API’s entries as the transcript, with their speakers and times, when the connection holds the Meet scope', async () => {
    google = await startGoogleStandin({ events: [] });
    const now = Date.now();
    const at = (minutes: number, seconds = 0) => new Date(now + minutes * 60_000 + seconds * 1000).toISOString();
    google.addConference({
      id: 'conf_globex',
      startTime: at(-40),
      endTime: at(-2),
      participants: [
        { id: 'p_maya', displayName: 'Maya Okafor' },
        { id: 'p_morgan', displayName: 'Morgan Reyes', kind: 'anonymous' },
      ],
      transcripts: [
        {
          id: 'tr_globex',
          documentId: 'doc_globex',
          startTime: at(-39),
          endTime: at(-2),
          entries: [
            { participantId: 'p_maya', text: 'Thanks for joining, Morgan.', startTime: at(-39, 4), endTime: at(-39, 7) },
            { participantId: 'p_morgan', text: 'Glad to. We review calls by hand today.', startTime: at(-39, 8), endTime: at(-39, 12) },
            { participantId: 'p_maya', text: 'Then a demo on Thursday?', startTime: at(-27), endTime: at(-27, 58) },
          ],
        },
      ],
    });
    google.addDocument({ id: 'doc_globex', name: 'Discovery with Globex - Transcript', folderId: 'fold_meet', text: meetTranscript('Discovery with Globex', 12) });
    const ingest = recordingIngest();
    const connection = await connected(ingest, [...GOOGLE_WORKSPACE_SCOPES, GOOGLE_MEET_SCOPE]);

    const synced = await syncNow(connection);

    expect(synced.lastSyncSummary).toEqual({ imported: 1, alreadyImported: 0, skipped: 0, refused: 0 });
    const imported = ingest.received.get('doc_globex')!;
    expect(imported).toMatchObject({
      fileName: 'Discovery with Globex.vtt',
      notes: 'Participants: Maya Okafor, Morgan Reyes',
      contactName: 'Morgan Reyes',
      meeting: { title: 'Discovery with Globex', link: expect.stringContaining('doc_globex') },
    });
    // When the conference started: no Calendar event says otherwise.
    expect(imported.occurredAt).toEqual(new Date(at(-40)));
    expect(imported.media).toEqual({
      kind: 'text',
      text: [
        'WEBVTT',
        '',
        '00:00:04.000 --> 00:00:07.000',
        '<v Maya Okafor>Thanks for joining, Morgan.',
        '',
        '00:00:08.000 --> 00:00:12.000',
        '<v Morgan Reyes>Glad to. We review calls by hand today.',
        '',
        '00:12:00.000 --> 00:12:58.000',
        '<v Maya Okafor>Then a demo on Thursday?',
        '',
      ].join('\n'),
    });
    // The entries replace the Doc's text, which is not read.
    expect(google.requests.some((request) => request.path.endsWith('/export'))).toBe(false);
  });

  it('imports the Doc’s text when the Meet API refuses, and asks it no more in that sync; the Doc alone when Calendar refuses', async () => {
    google = await startGoogleStandin({ events: [] });
    google.addDocument({ id: 'doc_one', name: 'First - Transcript', folderId: 'fold_meet', text: meetTranscript('First', 12) });
    google.addDocument({ id: 'doc_two', name: 'Second - Transcript', folderId: 'fold_meet', text: meetTranscript('Second', 12) });
    google.addEvent({ id: 'evt_two', summary: 'Second, as booked', start: minutesFromNow(-45), end: minutesFromNow(-5), meetingCode: 'sec-ondm-eet', attachmentFileIds: ['doc_two'] });
    const ingest = recordingIngest();
    const connection = await connected(ingest);
    // The connection says it holds the Meet scope (an admin granted it), but its token does not: Meet answers 403 PERMISSION_DENIED.
    await database.db
      .update(connections)
      .set({ settings: { ...connection.settings, scopes: [...GOOGLE_WORKSPACE_SCOPES, GOOGLE_MEET_SCOPE] } })
      .where(eq(connections.id, connection.id));
    // Calendar refuses the first transcript's event.
    google.failNext(1, 403, '/calendar/v3');

    const synced = await syncNow(connection);

    expect(synced.lastError).toBeNull();
    expect(synced.lastSyncSummary).toEqual({ imported: 2, alreadyImported: 0, skipped: 0, refused: 0 });
    expect(ingest.received.get('doc_one')).toMatchObject({ fileName: 'First.txt', media: { kind: 'text', text: meetTranscript('First', 12) }, meeting: { title: 'First', link: expect.stringContaining('doc_one') } });
    // Calendar refused once, for good: not asked again, so the second transcript has no event either.
    expect(ingest.received.get('doc_two')).toMatchObject({ fileName: 'Second.txt', media: { kind: 'text', text: meetTranscript('Second', 12) }, meeting: { title: 'Second', link: expect.stringContaining('doc_two') } });
    expect(google.requests.filter((request) => request.path.startsWith('/calendar/'))).toHaveLength(1);
    expect(google.requests.filter((request) => request.path.startsWith('/meet/'))).toHaveLength(1);
  });

  it('stops the sync when Calendar fails for now, and imports the transcript with its event in the next', async () => {
    google = await startGoogleStandin({ events: [] });
    google.addEvent({ id: 'evt_one', summary: 'Booked', start: minutesFromNow(-45), end: minutesFromNow(-5), meetingCode: 'boo-kedm-eet', attachmentFileIds: ['doc_one'] });
    google.addDocument({ id: 'doc_one', name: 'First - Transcript', folderId: 'fold_meet', text: meetTranscript('First', 12) });
    const ingest = recordingIngest();
    const connection = await connected(ingest);
    google.failNext(2, 503, '/calendar/v3');

    const failed = await syncNow(connection);
    expect(failed.lastError).toContain('Google answered HTTP 503');
    expect(ingest.received.size).toBe(0);

    const next = await syncNow(connection);
    expect(next.lastError).toBeNull();
    expect(ingest.received.get('doc_one')).toMatchObject({ meeting: { title: 'Booked', link: 'https://meet.google.com/boo-kedm-eet' } });
  });

  it('marks the connection expired when Google refuses its refresh token', async () => {
    google = await startGoogleStandin();
    const connection = await connected(recordingIngest());
    google.revokeGrant();
    google.advanceClock(3_600_000);

    const after = await syncNow(connection);

    expect(after).toMatchObject({ status: 'expired', lastError: INTEGRATION_MESSAGES.workspaceRevoked });
  });
});
