/**
 * The integrations service on both databases it runs on, against a local stand-in for Close
 * (a third-party SaaS tests cannot reach; support/close-standin.ts speaks its documented API):
 * the catalogue, connecting Close with a key Close accepts or refuses, the key sealed at rest,
 * settings, lead statuses, reconnecting, disconnecting, and each company seeing only its own;
 * a request for another integration stored, and e-mailed once the operators' address takes it;
 * credentials sealed again after a key rotation.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@parlance/platform/db/database';
import { migrate } from '@parlance/platform/db/migrate';
import { runWithRequestContext } from '@parlance/platform/grpc/request-context';
import { createCaptureMailer } from '@parlance/platform/mail/capture-mailer';
import { createSmtpMailer } from '@parlance/platform/mail/smtp-mailer';
import { testDatabaseUrl } from '@parlance/platform/testing/infra';
import { ConnectionStatus } from '@parlance/proto/parlance/integration/v1/integrations';
import { resealCredentials } from '../src/db/connections.repository.js';
import { connections, integrationRequests } from '../src/db/schema.js';
import { openCredential, parseKeyring, sealCredential, sealedWithCurrentKey } from '../src/domain/credential-cipher.js';
import { INTEGRATION_MESSAGES } from '../src/domain/integrations.js';
import { integrationAnswers } from '../src/grpc/integrations.server.js';
import { integrationRequestSender } from '../src/integration-requests.js';
import { createCloseClient } from '../src/vendors/close-client.js';
import { startCloseStandin, STANDIN_SEED, type CloseStandin } from './support/close-standin.js';

const DRIVERS = [
  { driver: 'postgres', open: () => openDatabase({ driver: 'postgres', url: testDatabaseUrl(), schema: 'integration', poolSize: 4 }) },
  { driver: 'pglite', open: () => openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'integration' }) },
] as const;

const keyring = parseKeyring(`test:${Buffer.alloc(32, 7).toString('base64')}`);
const ANNA = { firstName: 'Anna', lastName: 'Lee', email: 'anna.lee@example.com' };
const noWait = { sleep: async () => {}, random: () => 0 };

describe.each(DRIVERS)('integrations on $driver', ({ open }) => {
  let database: DatabaseHandle<Record<string, unknown>>;
  let close: CloseStandin;
  let service: ReturnType<typeof integrationAnswers>;
  const acme = randomUUID();
  const globex = randomUUID();
  const as = <T>(companyId: string, work: () => Promise<T>) => runWithRequestContext({ companyId, userId: randomUUID() }, work);

  beforeAll(async () => {
    database = await open();
    await migrate(database, { migrationsFolder: fileURLToPath(new URL('../src/db/migrations', import.meta.url)) });
    close = await startCloseStandin();
    let clock = Date.parse('2026-11-24T09:00:00Z');
    service = integrationAnswers({
      db: database.db,
      keyring,
      close: (apiKey) => createCloseClient({ apiKey, baseUrl: close.baseUrl, http: noWait }),
      syncNow: async () => true,
      resumeWrites: async () => undefined,
      sendIntegrationRequests: async () => {},
      now: () => new Date((clock += 60_000)),
    });
  });

  afterAll(async () => {
    await database.db.delete(connections).where(eq(connections.companyId, acme));
    await database.db.delete(connections).where(eq(connections.companyId, globex));
    await database.db.delete(integrationRequests).where(eq(integrationRequests.companyId, acme));
    await close.close();
    await database.close();
  });

  it('lists Close, HubSpot and Google Workspace, none connected, for a new company', async () => {
    const { integrations } = await as(acme, () => service.listIntegrations({}));
    expect(integrations.map((integration) => [integration.id, integration.connection?.status])).toEqual([
      ['close-crm', ConnectionStatus.CONNECTION_STATUS_NOT_CONNECTED],
      ['hubspot-crm', ConnectionStatus.CONNECTION_STATUS_NOT_CONNECTED],
      ['google-workspace', ConnectionStatus.CONNECTION_STATUS_NOT_CONNECTED],
    ]);
  });

  it('refuses a key Close does not accept, an empty one, and stores nothing', async () => {
    await expect(as(acme, () => service.connectClose({ apiKey: 'api_wrong', by: ANNA }))).rejects.toMatchObject({ kind: 'invalid-argument', message: INTEGRATION_MESSAGES.apiKeyRefused });
    await expect(as(acme, () => service.connectClose({ apiKey: '  ', by: ANNA }))).rejects.toMatchObject({ kind: 'invalid-argument', message: INTEGRATION_MESSAGES.apiKeyMissing });
    expect(await database.db.select().from(connections).where(eq(connections.companyId, acme))).toEqual([]);
  });

  it('says Close is out of reach when it cannot be reached', async () => {
    const unreachable = integrationAnswers({
      db: database.db,
      keyring,
      close: (apiKey) => createCloseClient({ apiKey, baseUrl: 'http://127.0.0.1:9/api/v1', http: { ...noWait, maxAttempts: 2 } }),
      syncNow: async () => true,
      resumeWrites: async () => undefined,
      sendIntegrationRequests: async () => {},
    });
    await expect(as(acme, () => unreachable.connectClose({ apiKey: STANDIN_SEED.apiKey, by: ANNA }))).rejects.toMatchObject({ kind: 'unavailable', message: INTEGRATION_MESSAGES.closeUnreachable });
  });

  it('connects with a key Close accepts, sealing it at rest, with the default settings', async () => {
    const { integration } = await as(acme, () => service.connectClose({ apiKey: ` ${STANDIN_SEED.apiKey} `, by: ANNA }));
    expect(integration?.connection).toMatchObject({
      status: ConnectionStatus.CONNECTION_STATUS_CONNECTED,
      by: ANNA,
      settings: { $case: 'close', value: { minCallDuration: 60, autoSync: false, createActivities: false, updateLeadStatus: false, successfulCallStatus: '' } },
    });
    expect(integration?.connection?.date).toBeInstanceOf(Date);
    const [row] = await database.db.select().from(connections).where(eq(connections.companyId, acme));
    expect(row!.credentials).not.toContain(STANDIN_SEED.apiKey);
    expect(openCredential(keyring, row!.credentials)).toBe(STANDIN_SEED.apiKey);
    expect(close.requests.some((request) => request.path === '/me/')).toBe(true);
  });

  it('changes only the settings named, and refuses a duration out of range naming it', async () => {
    const { settings } = await as(acme, () => service.updateCloseSettings({ autoSync: true, minCallDuration: 90, successfulCallStatus: 'stat_qualified' }));
    expect(settings).toMatchObject({ autoSync: true, minCallDuration: 90, successfulCallStatus: 'stat_qualified', createActivities: false });
    await expect(as(acme, () => service.updateCloseSettings({ minCallDuration: 3601 }))).rejects.toMatchObject({ kind: 'invalid-argument', message: INTEGRATION_MESSAGES.minCallDuration });
    const { settings: unchanged } = await as(acme, () => service.updateCloseSettings({ createActivities: true }));
    expect(unchanged).toMatchObject({ autoSync: true, minCallDuration: 90, createActivities: true });
  });

  it('reads the lead statuses of the connected organization from Close', async () => {
    expect((await as(acme, () => service.listCloseLeadStatuses({}))).statuses).toEqual(STANDIN_SEED.leadStatuses);
  });

  it('keeps each company to its own connection', async () => {
    const { integrations } = await as(globex, () => service.listIntegrations({}));
    expect(integrations[0]!.connection?.status).toBe(ConnectionStatus.CONNECTION_STATUS_NOT_CONNECTED);
    await expect(as(globex, () => service.updateCloseSettings({ autoSync: false }))).rejects.toMatchObject({ kind: 'failed-precondition', message: INTEGRATION_MESSAGES.closeNotConnected });
    await expect(as(globex, () => service.listCloseLeadStatuses({}))).rejects.toMatchObject({ kind: 'failed-precondition' });
    await as(globex, () => service.disconnect({ integrationId: 'close-crm' }));
    expect((await as(acme, () => service.listIntegrations({}))).integrations[0]!.connection?.status).toBe(ConnectionStatus.CONNECTION_STATUS_CONNECTED);
  });

  it('marks Close expired when Close no longer accepts the stored key, and reconnecting repairs it keeping the settings', async () => {
    // The same Close organization, after the key Parlance holds was deleted there: it accepts another key only.
    const revoked = await startCloseStandin({ apiKey: 'api_the_new_key' });
    try {
      const afterRevocation = integrationAnswers({
        db: database.db,
        keyring,
        close: (apiKey) => createCloseClient({ apiKey, baseUrl: revoked.baseUrl, http: noWait }),
        syncNow: async () => true,
      resumeWrites: async () => undefined,
        sendIntegrationRequests: async () => {},
      });
      await expect(as(acme, () => afterRevocation.listCloseLeadStatuses({}))).rejects.toMatchObject({ kind: 'failed-precondition', message: INTEGRATION_MESSAGES.closeKeyRevoked });
      const { integrations } = await as(acme, () => afterRevocation.listIntegrations({}));
      expect(integrations[0]!.connection).toMatchObject({ status: ConnectionStatus.CONNECTION_STATUS_EXPIRED, settings: { value: { autoSync: true, minCallDuration: 90 } } });
      const { integration } = await as(acme, () => afterRevocation.connectClose({ apiKey: 'api_the_new_key', by: ANNA }));
      expect(integration?.connection).toMatchObject({ status: ConnectionStatus.CONNECTION_STATUS_CONNECTED, settings: { value: { autoSync: true, minCallDuration: 90 } } });
      expect((await as(acme, () => afterRevocation.listCloseLeadStatuses({}))).statuses).toEqual(STANDIN_SEED.leadStatuses);
    } finally {
      await revoked.close();
    }
  });

  it('keeps the settings when Close is connected again, and forgets everything on disconnect', async () => {
    const ben = { firstName: 'Ben', lastName: 'Ode', email: 'ben.ode@example.com' };
    const { integration } = await as(acme, () => service.connectClose({ apiKey: STANDIN_SEED.apiKey, by: ben }));
    expect(integration?.connection).toMatchObject({ by: ben, settings: { value: { autoSync: true, minCallDuration: 90 } } });
    await expect(as(acme, () => service.disconnect({ integrationId: 'salesforce' }))).rejects.toMatchObject({ kind: 'not-found', message: INTEGRATION_MESSAGES.unknown('salesforce') });
    await as(acme, () => service.disconnect({ integrationId: 'close-crm' }));
    expect(await database.db.select().from(connections).where(eq(connections.companyId, acme))).toEqual([]);
    expect((await as(acme, () => service.listIntegrations({}))).integrations[0]!.connection?.status).toBe(ConnectionStatus.CONNECTION_STATUS_NOT_CONNECTED);
  });

  it('stores a request for another integration, and e-mails it once the mail goes through', async () => {
    const captureDir = await mkdtemp(path.join(tmpdir(), 'integration-requests-'));
    const silent = { warn: () => {} };
    // The operators' SMTP server down (nothing listens on port 9): the request is kept, unsent.
    const down = createSmtpMailer({ url: 'smtp://127.0.0.1:9', from: 'Parlance <no-reply@parlance.test>' });
    const failing = integrationRequestSender({ db: database.db, mailer: down, to: 'ops@parlance.test', logger: silent });
    const asking = integrationAnswers({ db: database.db, keyring, close: () => createCloseClient({ apiKey: 'unused' }), syncNow: async () => true,
      resumeWrites: async () => undefined, sendIntegrationRequests: failing });
    await expect(as(acme, () => asking.requestIntegration({ integrationName: ' ', details: '', by: ANNA }))).rejects.toMatchObject({ kind: 'invalid-argument', message: INTEGRATION_MESSAGES.requestNameMissing });
    const { requestId } = await as(acme, () => asking.requestIntegration({ integrationName: ' Salesforce ', details: 'Calls and tasks.', by: ANNA }));
    const stored = async () => (await database.db.select().from(integrationRequests).where(eq(integrationRequests.id, requestId)))[0];
    expect(await stored()).toMatchObject({ companyId: acme, integrationName: 'Salesforce', details: 'Calls and tasks.', requestedBy: ANNA, emailedAt: null });
    await down.close();

    // The next round, with the mail going through, sends it once.
    const mailer = createCaptureMailer({ dir: captureDir, from: 'Parlance <no-reply@parlance.test>' });
    const working = integrationRequestSender({ db: database.db, mailer, to: 'ops@parlance.test', logger: silent });
    await Promise.all([working(), working()]);
    await working();
    expect((await stored())!.emailedAt).toBeInstanceOf(Date);
    const sent = (await mailer.listCaptured()).filter((mail) => mail.subject === 'Integration request: Salesforce' && mail.text.includes(acme));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: 'ops@parlance.test' });
    expect(sent[0]!.text).toContain('Anna Lee <anna.lee@example.com> asked for an integration with Salesforce.');
    await mailer.close();
    await rm(captureDir, { recursive: true, force: true });
  });

  it('seals again with the current key what an older key sealed, once a new key is put first', async () => {
    const company = randomUUID();
    const oldKey = `old:${Buffer.alloc(32, 5).toString('base64')}`;
    const before = parseKeyring(oldKey);
    await database.db.insert(connections).values({
      companyId: company,
      integrationId: 'close-crm',
      status: 'connected',
      connectedBy: ANNA,
      connectedAt: new Date(),
      credentials: sealCredential(before, 'api_sealed_long_ago'),
      settings: {},
    });
    const rotated = parseKeyring(`new:${Buffer.alloc(32, 6).toString('base64')},${oldKey}`);
    const stored = async () => (await database.db.select().from(connections).where(eq(connections.companyId, company)))[0]!.credentials;
    try {
      expect((await resealCredentials(database.db, rotated)).resealed).toBeGreaterThanOrEqual(1);
      expect(sealedWithCurrentKey(rotated, await stored())).toBe(true);
      expect(openCredential(rotated, await stored())).toBe('api_sealed_long_ago');
      // Once the old key is dropped, the value still opens.
      expect(openCredential(parseKeyring(`new:${Buffer.alloc(32, 6).toString('base64')}`), await stored())).toBe('api_sealed_long_ago');
      // A value whose key left the ring is counted, and left as it was.
      const orphan = sealCredential(parseKeyring(`gone:${Buffer.alloc(32, 8).toString('base64')}`), 'api_orphan');
      await database.db.update(connections).set({ credentials: orphan }).where(eq(connections.companyId, company));
      expect((await resealCredentials(database.db, rotated)).unopenable).toBeGreaterThanOrEqual(1);
      expect(await stored()).toBe(orphan);
    } finally {
      await database.db.delete(connections).where(eq(connections.companyId, company));
    }
  });
});
