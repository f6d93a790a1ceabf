/**
 * HubSpot in the integration service, against the local stand-in for HubSpot (a third-party SaaS
 * tests cannot reach; support/hubspot-standin.ts speaks its documented OAuth and CRM API):
 *
 * - connecting through OAuth on both databases: a single-use state bound to the session that
 *   asked, a cancelled consent, an expired or foreign state, tokens sealed at rest, reconnecting
 *   keeping the settings, settings changes;
 * - the access token refreshed before it expires and stored sealed again, and a refresh refused
 *   once the app is uninstalled;
 * - a sync (PGlite, the sync workers) importing a representative's recorded call with its
 *   contacts, passing over the rest, reading on from its checkpoint, and marking the connection
 *   expired when HubSpot refuses its tokens;
 * - a call's transcript imported as text rather than its recording, read only for calls worth
 *   importing, and the recording used when the account did not grant the transcripts scope;
 * - the note and the task written back after scoring.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveredMessage } from '@parlance/platform/bus/event-bus';
import { openDatabase, type DatabaseHandle } from '@parlance/platform/db/database';
import { migrate } from '@parlance/platform/db/migrate';
import { runWithRequestContext } from '@parlance/platform/grpc/request-context';
import { createLogger } from '@parlance/platform/logger';
import { testDatabaseUrl } from '@parlance/platform/testing/infra';
import { ConnectionStatus } from '@parlance/proto/parlance/integration/v1/integrations';
import { connections, imports, oauthStates, syncWork, writebackWork } from '../src/db/schema.js';
import { openCredential, parseKeyring, sealCredential } from '../src/domain/credential-cipher.js';
import { HUBSPOT_DEFAULTS, INTEGRATION_MESSAGES } from '../src/domain/integrations.js';
import { OAUTH_STATE_TTL_MS, tokensOf, tokensText } from '../src/domain/oauth.js';
import { writebackConsumer } from '../src/events/writeback.consumer.js';
import { integrationAnswers } from '../src/grpc/integrations.server.js';
import { syncHubSpotCalls } from '../src/sync/hubspot-sync.js';
import { syncRunner, type SyncRunner } from '../src/sync/sync-runner.js';
import { oauthAccessToken } from '../src/vendors/oauth-access.js';
import { createHubSpotClient, createHubSpotOAuth, HUBSPOT_SCOPES } from '../src/vendors/hubspot-client.js';
import { writebackRunner, type WritebackRunner } from '../src/writeback/writeback-runner.js';
import { startHubSpotStandin, HUBSPOT_STANDIN_SEED, type HubSpotCallRecord, type HubSpotStandin, type HubSpotTranscriptRecord } from './support/hubspot-standin.js';
import { RECORDING, recordingIngest } from './support/recording-ingest.js';
import { evaluation, scoredEvent, verdict } from './support/scored-event.js';

const keyring = parseKeyring(`test:${Buffer.alloc(32, 5).toString('base64')}`);
const quiet = createLogger({ service: 'integration-hubspot-test', level: 'silent' });
const noWait = { sleep: async () => {}, random: () => 0, maxAttempts: 2 };
const ANNA = { firstName: 'Anna', lastName: 'Lee', email: 'anna.lee@example.com' };
const REDIRECT = 'http://127.0.0.1:9/api/integrations/hubspot/callback';
const MIGRATIONS = fileURLToPath(new URL('../src/db/migrations', import.meta.url));
const TEAMS = [{ id: 'team-sales', department: 'sales', members: [{ email: 'anna.lee@example.com', firstName: 'Anna', crmId: '' }] }];

function oauthOf(hubspot: HubSpotStandin, now?: () => Date) {
  return createHubSpotOAuth({
    clientId: HUBSPOT_STANDIN_SEED.clientId,
    clientSecret: HUBSPOT_STANDIN_SEED.clientSecret,
    authorizeUrl: hubspot.authorizeUrl,
    baseUrl: hubspot.baseUrl,
    http: noWait,
    ...(now ? { now } : {}),
  });
}

/** The stand-in's consent page, as the browser would follow it: where it sends the browser back. */
async function consent(url: string): Promise<URL> {
  const answer = await fetch(url, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location')!);
}

describe.each([
  { driver: 'postgres', open: () => openDatabase({ driver: 'postgres', url: testDatabaseUrl(), schema: 'integration', poolSize: 2 }) },
  { driver: 'pglite', open: () => openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'integration' }) },
] as const)('connecting HubSpot through OAuth ($driver)', ({ open }) => {
  let database: DatabaseHandle<Record<string, unknown>>;
  let hubspot: HubSpotStandin;
  let clock = Date.parse('2026-11-24T09:00:00Z');
  let service: ReturnType<typeof integrationAnswers>;
  const companyId = randomUUID();
  const userId = randomUUID();
  const asAnna = <T>(work: () => Promise<T>, who = { companyId, userId }) => runWithRequestContext(who, work);

  beforeAll(async () => {
    database = await open();
    await migrate(database, { migrationsFolder: MIGRATIONS });
    hubspot = await startHubSpotStandin();
    service = integrationAnswers({
      db: database.db,
      keyring,
      close: () => {
        throw new Error('Close is not used here');
      },
      hubspot: oauthOf(hubspot),
      syncNow: async () => true,
      resumeWrites: async () => undefined,
      sendIntegrationRequests: async () => {},
      now: () => new Date(clock),
    });
  });

  afterAll(async () => {
    await database.db.delete(connections).where(eq(connections.companyId, companyId));
    await database.db.delete(oauthStates).where(eq(oauthStates.companyId, companyId));
    await hubspot.close();
    await database.close();
  });

  const begin = async (binding = 'session-token-1', who = { companyId, userId }) => new URL((await asAnna(() => service.beginHubSpotOAuth({ redirectUri: REDIRECT, sessionBinding: binding }), who)).url);

  it('sends the browser to HubSpot’s consent page with the app, the redirect, the scopes and a state', async () => {
    const url = await begin();
    expect(`${url.origin}${url.pathname}`).toBe(hubspot.authorizeUrl);
    expect(url.searchParams.get('client_id')).toBe(HUBSPOT_STANDIN_SEED.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
    expect(url.searchParams.get('scope')).toContain('crm.objects.contacts.read');
    const state = url.searchParams.get('state')!;
    expect(Buffer.from(state, 'base64url')).toHaveLength(32);
    // Only its hash is stored.
    const stored = await database.db.select().from(oauthStates).where(eq(oauthStates.companyId, companyId));
    expect(JSON.stringify(stored)).not.toContain(state);
  });

  it('connects with the code HubSpot gives, the tokens sealed at rest, and takes the state once', async () => {
    const back = await consent((await begin()).toString());
    const callback = { state: back.searchParams.get('state')!, code: back.searchParams.get('code')!, error: '', sessionBinding: 'session-token-1', by: ANNA };

    const { integration } = await asAnna(() => service.completeHubSpotOAuth(callback));

    expect(integration?.connection).toMatchObject({
      status: ConnectionStatus.CONNECTION_STATUS_CONNECTED,
      by: ANNA,
      settings: { $case: 'hubspot', value: { syncCalls: false, createTasks: false, minCallDuration: 60, account: HUBSPOT_STANDIN_SEED.hubDomain } },
    });
    const [row] = await database.db.select().from(connections).where(and(eq(connections.companyId, companyId), eq(connections.integrationId, 'hubspot-crm')));
    const tokens = tokensOf(openCredential(keyring, row!.credentials));
    expect(row!.credentials).not.toContain(tokens.accessToken);
    expect(row!.credentials).not.toContain(tokens.refreshToken);
    expect(tokens.expiresAt.getTime()).toBeGreaterThan(Date.now() + 25 * 60_000);

    await expect(asAnna(() => service.completeHubSpotOAuth(callback))).rejects.toMatchObject({ kind: 'failed-precondition', message: INTEGRATION_MESSAGES.oauthStateUnknown });
  });

  it('refuses a state from another session, user or company, and uses it up', async () => {
    const state = (await begin('session-token-1')).searchParams.get('state')!;
    await expect(asAnna(() => service.completeHubSpotOAuth({ state, code: 'x', error: '', sessionBinding: 'session-token-2', by: ANNA }))).rejects.toMatchObject({
      message: INTEGRATION_MESSAGES.oauthStateForeign,
    });
    await expect(asAnna(() => service.completeHubSpotOAuth({ state, code: 'x', error: '', sessionBinding: 'session-token-1', by: ANNA }))).rejects.toMatchObject({
      message: INTEGRATION_MESSAGES.oauthStateUnknown,
    });
    const other = (await begin('session-token-1')).searchParams.get('state')!;
    await expect(
      asAnna(() => service.completeHubSpotOAuth({ state: other, code: 'x', error: '', sessionBinding: 'session-token-1', by: ANNA }), { companyId: randomUUID(), userId }),
    ).rejects.toMatchObject({ message: INTEGRATION_MESSAGES.oauthStateForeign });
  });

  it('refuses a state after ten minutes, and says a cancelled consent was cancelled', async () => {
    const late = (await begin()).searchParams.get('state')!;
    clock += OAUTH_STATE_TTL_MS;
    await expect(asAnna(() => service.completeHubSpotOAuth({ state: late, code: 'x', error: '', sessionBinding: 'session-token-1', by: ANNA }))).rejects.toMatchObject({
      message: INTEGRATION_MESSAGES.oauthStateUnknown,
    });

    hubspot.denyNextConsent();
    const back = await consent((await begin()).toString());
    expect(back.searchParams.get('error')).toBe('access_denied');
    await expect(
      asAnna(() => service.completeHubSpotOAuth({ state: back.searchParams.get('state')!, code: '', error: 'access_denied', sessionBinding: 'session-token-1', by: ANNA })),
    ).rejects.toMatchObject({ kind: 'failed-precondition', message: INTEGRATION_MESSAGES.oauthCancelled });
  });

  it('changes the settings it is given, and keeps them when connected again', async () => {
    const { settings } = await asAnna(() => service.updateHubSpotSettings({ createTasks: true, minCallDuration: 120 }));
    expect(settings).toMatchObject({ syncCalls: false, createTasks: true, minCallDuration: 120, account: HUBSPOT_STANDIN_SEED.hubDomain });
    await expect(asAnna(() => service.updateHubSpotSettings({ minCallDuration: 4000 }))).rejects.toMatchObject({ kind: 'invalid-argument', message: INTEGRATION_MESSAGES.minCallDuration });

    const back = await consent((await begin()).toString());
    const { integration } = await asAnna(() =>
      service.completeHubSpotOAuth({ state: back.searchParams.get('state')!, code: back.searchParams.get('code')!, error: '', sessionBinding: 'session-token-1', by: ANNA }),
    );
    expect(integration?.connection?.settings).toMatchObject({ $case: 'hubspot', value: { createTasks: true, minCallDuration: 120 } });
  });

  it('says HubSpot cannot be connected on a server without a HubSpot app', async () => {
    const without = integrationAnswers({
      db: database.db,
      keyring,
      close: () => {
        throw new Error('Close is not used here');
      },
      syncNow: async () => true,
      resumeWrites: async () => undefined,
      sendIntegrationRequests: async () => {},
    });
    await expect(asAnna(() => without.beginHubSpotOAuth({ redirectUri: REDIRECT, sessionBinding: 's' }))).rejects.toMatchObject({
      kind: 'failed-precondition',
      message: INTEGRATION_MESSAGES.hubspotNotConfigured,
    });
  });
});

describe('HubSpot’s access token (PGlite)', () => {
  let database: DatabaseHandle<Record<string, unknown>>;
  let hubspot: HubSpotStandin;

  beforeAll(async () => {
    database = await openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'integration' });
    await migrate(database, { migrationsFolder: MIGRATIONS });
    hubspot = await startHubSpotStandin();
  });

  afterAll(async () => {
    await hubspot.close();
    await database.close();
  });

  it('is refreshed from five minutes before it expires, and stored sealed again; a refused refresh is an invalid grant', async () => {
    let now = Date.now();
    const issued = hubspot.issueTokens();
    const credentials = sealCredential(keyring, tokensText({ ...issued, expiresAt: new Date(now + 30 * 60_000) }));
    const [row] = await database.db
      .insert(connections)
      .values({ companyId: randomUUID(), integrationId: 'hubspot-crm', status: 'connected', connectedBy: ANNA, connectedAt: new Date(), credentials, settings: { ...HUBSPOT_DEFAULTS } })
      .returning();
    const accessToken = oauthAccessToken({ db: database.db, keyring, oauth: oauthOf(hubspot, () => new Date(now)), now: () => new Date(now) }, row!);

    expect(await accessToken()).toBe(issued.accessToken);
    now += 26 * 60_000;
    hubspot.advanceClock(26 * 60_000);
    const refreshed = await accessToken();
    expect(refreshed).not.toBe(issued.accessToken);
    const stored = tokensOf(openCredential(keyring, (await database.db.select().from(connections).where(eq(connections.id, row!.id)))[0]!.credentials));
    expect(stored).toMatchObject({ accessToken: refreshed, refreshToken: issued.refreshToken });
    // Two asking at once share one refresh.
    now += 26 * 60_000;
    hubspot.advanceClock(26 * 60_000);
    const refreshesBefore = hubspot.requests.filter((request) => request.path === '/oauth/v1/token').length;
    const [first, second] = await Promise.all([accessToken(), accessToken()]);
    expect(first).toBe(second);
    expect(hubspot.requests.filter((request) => request.path === '/oauth/v1/token').length - refreshesBefore).toBe(1);

    hubspot.revokeRefreshTokens();
    now += 26 * 60_000;
    await expect(accessToken()).rejects.toMatchObject({ name: 'VendorHttpError', kind: 'invalid_grant' });
  });
});

describe('HubSpot sync and write-back (PGlite, the workers)', () => {
  let database: DatabaseHandle<Record<string, unknown>>;
  let hubspot: HubSpotStandin;
  let syncs: SyncRunner | undefined;
  let writes: WritebackRunner | undefined;

  beforeAll(async () => {
    database = await openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'integration' });
    await migrate(database, { migrationsFolder: MIGRATIONS });
  });

  afterEach(async () => {
    await syncs?.stop();
    await writes?.stop();
    syncs = undefined;
    writes = undefined;
    await hubspot?.close();
  });

  afterAll(() => database.close());

  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
  const call = (id: string, ownerId: string, fields: Record<string, string | null> = {}): HubSpotCallRecord => ({
    id,
    properties: {
      hs_timestamp: minutesAgo(120),
      hs_lastmodifieddate: minutesAgo(110),
      hs_call_duration: '95000',
      hs_call_recording_url: hubspot.recordingUrlOf(id),
      hs_call_title: `Call ${id}`,
      hs_call_body: '<p>Discovery</p>',
      hs_call_direction: 'OUTBOUND',
      hubspot_owner_id: ownerId,
      ...fields,
    },
  });

  /** A transcript of the call: Anna (known by her e-mail, under another name), then the contact, then someone HubSpot could not name. */
  const transcript = (id: string, callId: string): HubSpotTranscriptRecord => ({
    id,
    engagementId: Number(callId),
    transcriptSource: 'HUBSPOT_GENERATED',
    createdAt: minutesAgo(115),
    updatedAt: minutesAgo(115),
    transcriptUtterances: [
      { id: 'u1', speaker: { id: 's1', name: 'A. Lee', email: 'anna.lee@example.com' }, text: 'Hi, Anna from Acme here.', languageCode: 'en-US', startTimeMillis: 500, endTimeMillis: 2_750 },
      { id: 'u2', speaker: { id: 's2', name: 'Mark Ruiz', email: 'mark@globex.example' }, text: 'Hello Anna.', languageCode: 'en-US', startTimeMillis: 3_000, endTimeMillis: 4_000 },
      { id: 'u3', speaker: { id: 's3', name: '' }, text: 'Sorry, joining late.', startTimeMillis: 65_000, endTimeMillis: 67_125 },
    ],
  });
  const TRANSCRIPT_TEXT =
    'WEBVTT\n\n00:00:00.500 --> 00:00:02.750\n<v Anna>Hi, Anna from Acme here.\n\n00:00:03.000 --> 00:00:04.000\n<v Mark Ruiz>Hello Anna.\n\n00:01:05.000 --> 00:01:07.125\n<v Contact>Sorry, joining late.\n';
  const transcribed = (transcriptId: string) => ({ hs_call_has_transcript: 'true', hs_call_transcription_id: transcriptId });
  const transcriptReads = () => hubspot.requests.filter((request) => request.path.startsWith('/crm/v3/extensions/calling/transcripts/')).map((request) => request.path.split('/').at(-1));
  const recordingReads = () => hubspot.requests.filter((request) => request.path.startsWith('/recordings/')).map((request) => request.path.split('/').at(-1));

  async function connected(settings: Partial<typeof HUBSPOT_DEFAULTS> = {}, scopes?: readonly string[]) {
    const tokens = hubspot.issueTokens(scopes);
    const [row] = await database.db
      .insert(connections)
      .values({
        companyId: randomUUID(),
        integrationId: 'hubspot-crm',
        status: 'connected',
        connectedBy: ANNA,
        connectedAt: new Date(),
        credentials: sealCredential(keyring, tokensText({ ...tokens, expiresAt: new Date(Date.now() + 30 * 60_000) })),
        settings: { ...HUBSPOT_DEFAULTS, ...settings },
      })
      .returning();
    return row!;
  }

  const client = (connection: { id: string; credentials: string }) =>
    createHubSpotClient({ baseUrl: hubspot.baseUrl, accessToken: oauthAccessToken({ db: database.db, keyring, oauth: oauthOf(hubspot) }, connection), http: noWait });

  function startSyncs(ingest: ReturnType<typeof recordingIngest>): SyncRunner {
    syncs = syncRunner({
      db: database.db,
      logger: quiet,
      workers: 1,
      intervalMs: 300_000,
      pollMs: 50,
      sync: (connection, counts, signal) => syncHubSpotCalls({ db: database.db, keyring, teams: async () => TEAMS, ingest, logger: quiet, signal, hubspot: client }, connection, counts),
    });
    return syncs;
  }

  async function syncNow(connection: Awaited<ReturnType<typeof connected>>) {
    expect(await syncs!.syncNow(connection)).toBe(true);
    await expect.poll(async () => (await database.db.select().from(syncWork).where(eq(syncWork.connectionId, connection.id))).length, { timeout: 20_000, interval: 50 }).toBe(0);
    return (await database.db.select().from(connections).where(eq(connections.id, connection.id)))[0]!;
  }

  it('imports a representative’s recorded call with its contacts, passes over the rest, and reads on from its checkpoint', async () => {
    hubspot = await startHubSpotStandin();
    hubspot.addCall(call('9001', 'own_anna'), RECORDING, ['501', '502']);
    hubspot.addCall(call('9002', 'own_cleo'), RECORDING, ['503']);
    hubspot.addCall(call('9003', 'own_anna', { hs_call_recording_url: null }));
    hubspot.addCall(call('9004', 'own_anna', { hs_call_duration: '30000' }), RECORDING);
    const connection = await connected();
    const ingest = recordingIngest();
    startSyncs(ingest);

    const after = await syncNow(connection);

    expect(after.lastError).toBeNull();
    expect(after.lastSyncSummary).toEqual({ imported: 1, alreadyImported: 0, skipped: 3, refused: 0 });
    expect([...ingest.received.keys()]).toEqual(['9001']);
    expect(ingest.received.get('9001')).toMatchObject({
      source: 'hubspot-crm',
      teamId: 'team-sales',
      representativeEmail: 'anna.lee@example.com',
      contactId: '501',
      notes: 'Call 9001\nDiscovery',
      media: { kind: 'audio', bytes: RECORDING },
    });
    const [imported] = await database.db.select().from(imports).where(eq(imports.companyId, connection.companyId));
    expect(imported).toMatchObject({ integrationId: 'hubspot-crm', externalId: '9001', vendorRefs: { contactIds: ['501', '502'], ownerId: 'own_anna' } });
    expect(Date.parse(after.syncCursor!)).toBeGreaterThan(Date.now() - 2 * 60_000);

    // A call modified after the checkpoint is read; those before it are not searched again.
    hubspot.addCall(call('9005', 'own_anna', { hs_lastmodifieddate: new Date(Date.parse(after.syncCursor!) + 1).toISOString() }), RECORDING, ['501']);
    const again = await syncNow(connection);
    expect(again.lastSyncSummary).toEqual({ imported: 1, alreadyImported: 0, skipped: 0, refused: 0 });
    expect([...ingest.received.keys()]).toEqual(['9001', '9005']);
  });

  it('imports a call’s transcript as text, with its speakers, rather than its recording; and reads none for calls it passes over', async () => {
    hubspot = await startHubSpotStandin();
    hubspot.addCall(call('9201', 'own_anna', { hs_call_recording_url: null, ...transcribed('77201') }), undefined, ['501']);
    hubspot.addCall(call('9202', 'own_anna', transcribed('77202')), RECORDING, ['502']);
    hubspot.addCall(call('9203', 'own_cleo', transcribed('77203')), RECORDING);
    hubspot.addCall(call('9204', 'own_anna', { hs_call_duration: '30000', ...transcribed('77204') }), RECORDING);
    for (const [id, callId] of [['77201', '9201'], ['77202', '9202'], ['77203', '9203'], ['77204', '9204']] as const) hubspot.addTranscript(transcript(id, callId));
    const connection = await connected();
    const ingest = recordingIngest();
    startSyncs(ingest);

    const after = await syncNow(connection);

    expect(after.lastError).toBeNull();
    expect(after.lastSyncSummary).toEqual({ imported: 2, alreadyImported: 0, skipped: 2, refused: 0 });
    expect([...ingest.received.keys()]).toEqual(['9201', '9202']);
    expect(ingest.received.get('9201')).toMatchObject({
      representativeEmail: 'anna.lee@example.com',
      representativeName: 'Anna',
      contactId: '501',
      fileName: 'hubspot-call-9201.vtt',
      media: { kind: 'text', text: TRANSCRIPT_TEXT },
    });
    expect(ingest.received.get('9202')).toMatchObject({ contactId: '502', fileName: 'hubspot-call-9202.vtt', media: { kind: 'text', text: TRANSCRIPT_TEXT } });
    expect(transcriptReads()).toEqual(['77201', '77202']);
    expect(recordingReads()).toEqual([]);
  });

  it('imports the recording when the account did not grant the transcripts scope, asking HubSpot for a transcript once', async () => {
    hubspot = await startHubSpotStandin();
    hubspot.addCall(call('9301', 'own_anna', transcribed('77301')), RECORDING, ['501']);
    hubspot.addCall(call('9302', 'own_anna', transcribed('77302')), RECORDING, ['502']);
    hubspot.addCall(call('9303', 'own_anna', { hs_call_recording_url: null, ...transcribed('77303') }));
    for (const [id, callId] of [['77301', '9301'], ['77302', '9302'], ['77303', '9303']] as const) hubspot.addTranscript(transcript(id, callId));
    const connection = await connected({}, HUBSPOT_SCOPES);
    const ingest = recordingIngest();
    startSyncs(ingest);

    const after = await syncNow(connection);

    expect(after.lastError).toBeNull();
    expect(after.lastSyncSummary).toEqual({ imported: 2, alreadyImported: 0, skipped: 1, refused: 0 });
    expect(ingest.received.get('9301')).toMatchObject({ fileName: 'hubspot-call-9301.audio', media: { kind: 'audio', bytes: RECORDING } });
    expect(ingest.received.get('9302')).toMatchObject({ media: { kind: 'audio', bytes: RECORDING } });
    expect(ingest.received.has('9303')).toBe(false);
    expect(transcriptReads()).toEqual(['77301']);
  });

  it('imports the recording of a call whose transcript HubSpot no longer has', async () => {
    hubspot = await startHubSpotStandin();
    hubspot.addCall(call('9401', 'own_anna', transcribed('77401')), RECORDING, ['501']);
    const connection = await connected();
    const ingest = recordingIngest();
    startSyncs(ingest);

    const after = await syncNow(connection);

    expect(after.lastSyncSummary).toEqual({ imported: 1, alreadyImported: 0, skipped: 0, refused: 0 });
    expect(ingest.received.get('9401')).toMatchObject({ media: { kind: 'audio', bytes: RECORDING } });
    expect(transcriptReads()).toEqual(['77401']);
  });

  it('marks the connection expired when HubSpot refuses its tokens (the app uninstalled)', async () => {
    hubspot = await startHubSpotStandin();
    const connection = await connected();
    hubspot.revokeRefreshTokens();
    startSyncs(recordingIngest());

    const after = await syncNow(connection);

    expect(after).toMatchObject({ status: 'expired', lastError: INTEGRATION_MESSAGES.hubspotRevoked });
  });

  /** The call HubSpot holds as imported with contact 501, and its score arrived: the writes queued and made. */
  async function scoredImport(settings: Partial<typeof HUBSPOT_DEFAULTS> = {}) {
    hubspot.addCall(call('9101', 'own_anna'), RECORDING, ['501']);
    const connection = await connected(settings);
    const activityId = randomUUID();
    await database.db.insert(imports).values({
      companyId: connection.companyId,
      integrationId: 'hubspot-crm',
      externalId: '9101',
      activityId,
      jobId: randomUUID(),
      vendorRefs: { contactIds: ['501'], ownerId: 'own_anna' },
    });
    writes = writebackRunner({ db: database.db, keyring, close: () => Promise.reject(new Error('unused')) as never, hubspot: client, logger: quiet, workers: 1, pollMs: 50 });
    const scored = evaluation(activityId, { score: 7.5, verdicts: [verdict('Next steps', 2.5, false, 'Agree a date for the demo.')] });
    await database.db.transaction((tx) => writebackConsumer(() => writes!.wake()).handle(scoredEvent(connection.companyId, scored), tx, {} as DeliveredMessage));
    await expect.poll(async () => (await database.db.select().from(writebackWork).where(eq(writebackWork.companyId, connection.companyId))).length, { timeout: 10_000, interval: 50 }).toBe(0);
    return { connection, activityId };
  }

  it('keeps the note on the call’s contacts when HubSpot will not put it on the call', async () => {
    hubspot = await startHubSpotStandin();
    hubspot.refuseNotesOnCalls();
    const { connection } = await scoredImport();
    expect(hubspot.notes).toHaveLength(1);
    expect(hubspot.notes[0]).toMatchObject({ contactIds: ['501'], callIds: [] });
    const row = (await database.db.select().from(connections).where(eq(connections.id, connection.id)))[0]!;
    expect(row.lastWritebackAt).toBeInstanceOf(Date);
    expect(row.writebackError).toBeNull();
  });

  it('writes a note with the score on the call and its contacts, and a follow-up task when createTasks is on', async () => {
    hubspot = await startHubSpotStandin();
    const { connection, activityId } = await scoredImport({ createTasks: true });

    expect(hubspot.notes).toHaveLength(1);
    expect(hubspot.notes[0]).toMatchObject({ contactIds: ['501'], callIds: ['9101'], properties: { hubspot_owner_id: 'own_anna' } });
    expect(hubspot.notes[0]!.properties.hs_note_body).toContain('Parlance score: 7.5/10 (successful)');
    expect(hubspot.notes[0]!.properties.hs_note_body).toContain(`Parlance activity ${activityId}, scored 2026-11-24T10:00:00.000Z`);
    expect(hubspot.tasks).toHaveLength(1);
    expect(hubspot.tasks[0]).toMatchObject({
      contactIds: ['501'],
      properties: { hs_task_subject: 'Follow up on a call scored 7.5/10', hs_task_status: 'NOT_STARTED', hubspot_owner_id: 'own_anna' },
    });
    expect(hubspot.tasks[0]!.properties.hs_task_body).toContain('Top improvement: Agree a date for the demo.');
    expect((await database.db.select().from(connections).where(eq(connections.id, connection.id)))[0]!.lastWritebackAt).toBeInstanceOf(Date);
  });
});
