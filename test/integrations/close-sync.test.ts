/**
 * Close's calls through the real pipeline (issue 16, point 3): the gateway over real HTTP,
 * identity, ingest, transcription, scoring, analytics and integration on PostgreSQL and Kafka,
 * and a local stand-in for Close (a third-party SaaS tests cannot reach; it speaks Close's
 * documented API). Close is connected with a key; turning autoSync on makes the schedule import
 * a transcribed call made by a team's representative, acting as the person who connected Close,
 * and the call is listed scored like an upload; its score is written back to Close as a note on
 * its lead, with the lead's status set from its success; "Sync now" then imports nothing twice.
 * With syncUsersAndTeams on, Close's users join the team and a newcomer's call is imported.
 * Ingest itself takes an import once per source and external id.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chunksOf, uploadActivity } from '@parlance/platform/activity/upload-activity';
import { createClient } from '@parlance/platform/grpc/grpc-client';
import { ActivityKind, IngestServiceClient, MediaKind, type UploadHeader } from '@parlance/proto/parlance/ingest/v1/ingest';
import { startCloseStandin, STANDIN_SEED, type CloseCallRecord, type CloseStandin } from '../../services/integration/test/support/close-standin.js';
import { startIdentityStack, type IdentityStack } from '../support/identity-stack.js';
import { waitFor } from '../support/wait-for.js';
import { uploadingCompany, type UploadingCompany } from '../uploads/upload-fixtures.js';

interface IntegrationJson {
  id: string;
  connection: {
    status: string;
    settings: { lastSyncDate: string | null } | null;
    lastError: { message: string; at: string } | null;
    sync: { running: boolean; lastRun: { imported: number; alreadyImported: number; skipped: number; refused: number } | null };
    writeback: { pending: number; lastWrittenAt: string | null; lastError: { message: string; at: string } | null };
  };
}

interface CallRow {
  id: string;
  representative: string;
  contact_id: string;
  score: number | null;
  is_successful: boolean | null;
  status: string;
}

let stack: IdentityStack;
let close: CloseStandin;
let acme: UploadingCompany;

const closeCall = (id: string, minutesAgo: number, userId: string): CloseCallRecord => ({
  id,
  lead_id: 'lead_acme',
  contact_id: `cont_${id}`,
  user_id: userId,
  direction: 'outbound',
  duration: 95,
  recording_url: null,
  date_created: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
  note: 'Discovery call',
  recording_transcript: {
    utterances: [
      { speaker_label: 'Anna Lee', speaker_side: 'close-user', start: 1, end: 6, text: 'Thank you for taking my call, this is Anna from Parlance. How are you today?' },
      { speaker_label: 'Morgan', speaker_side: 'contact', start: 6, end: 12, text: 'Fine, thanks. We review our support calls by hand and it takes far too long.' },
      { speaker_label: 'Anna Lee', speaker_side: 'close-user', start: 12, end: 20, text: 'Understood. What would you like to improve first? I could show you a demo on Thursday at 10am.' },
      { speaker_label: 'Morgan', speaker_side: 'contact', start: 20, end: 95, text: 'Thursday at 10 works, we agree to the demo.' },
    ],
    summary_text: '',
    summary_html: '',
  },
});

beforeAll(async () => {
  close = await startCloseStandin({ calls: [closeCall('acti_anna_1', 90, 'user_anna'), closeCall('acti_cleo_1', 80, 'user_cleo')] });
  stack = await startIdentityStack({
    withIngest: true,
    withIntegration: true,
    env: { CLOSE_API_URL: close.baseUrl, INTEGRATION_SYNC_TICK_SECONDS: '1', INTEGRATION_SYNC_WORKERS: '1', INTEGRATION_WRITEBACK_WORKERS: '1' },
  });
  acme = await uploadingCompany(stack, { first_name: 'Anna', last_name: 'Lee', email: 'anna.lee@example.com' });
}, 120_000);

afterAll(async () => {
  // Its automatic sync stays scheduled in the shared PostgreSQL otherwise, for any later stack with sync workers to run.
  await acme?.browser.delete('/api/integrations/close/disconnect');
  await stack?.stop();
  await close?.close();
});

const closeIntegration = async () => {
  const response = await acme.browser.get<IntegrationJson[]>('/api/integrations');
  expect(response.status).toBe(200);
  return response.body.find((integration) => integration.id === 'close-crm')!;
};

/** When the connection's last sync ended: its last sync date or its last error, whichever is later (0 before any). */
const lastSyncEnd = (integration: IntegrationJson) =>
  Math.max(Date.parse(integration.connection.settings?.lastSyncDate ?? '') || 0, Date.parse(integration.connection.lastError?.at ?? '') || 0);

/**
 * The integration once a sync later than the one seen before has ended. Compared with the database's own stamps,
 * not the test's clock: a second of slack let the previous sync, ended just before, pass for the one awaited.
 */
const syncEndedAfter = (before: IntegrationJson) =>
  waitFor(
    'a Close sync to end',
    async () => {
      const integration = await closeIntegration();
      return !integration.connection.sync.running && lastSyncEnd(integration) > lastSyncEnd(before) ? integration : undefined;
    },
    60_000,
  );

it('imports a representative’s Close call on the schedule, scored like an upload, writes the score back, and never imports twice', async () => {
  expect((await acme.browser.post('/api/integrations/close/sync', {})).status).toBe(409);
  expect((await acme.browser.post('/api/integrations/close/connect', { apiKey: STANDIN_SEED.apiKey })).status).toBe(200);
  const writeBack = { createActivities: true, updateLeadStatus: true, successfulCallStatus: 'stat_qualified', unsuccessfulCallStatus: 'stat_bad_fit' };
  expect((await acme.browser.put('/api/integrations/close/settings', writeBack)).status).toBe(200);

  const autoSyncOn = await closeIntegration();
  expect((await acme.browser.put('/api/integrations/close/settings', { autoSync: true })).status).toBe(200);
  const synced = await syncEndedAfter(autoSyncOn);
  expect(synced.connection.lastError).toBeNull();
  expect(synced.connection.settings?.lastSyncDate).not.toBeNull();
  // Cleo is in no team of this company: her call is passed over.
  expect(synced.connection.sync.lastRun).toEqual({ imported: 1, alreadyImported: 0, skipped: 1, refused: 0 });

  const scored = await waitFor(
    'the imported call to be scored in the list',
    async () => {
      const list = await acme.browser.get<{ data: CallRow[] }>(`/api/calls/?teamId=${acme.teamId}`);
      expect(list.status).toBe(200);
      return list.body.data.length === 1 && list.body.data[0]!.status === 'scored' ? list.body.data[0] : undefined;
    },
    90_000,
  );
  expect(scored).toMatchObject({ representative: 'anna.lee@example.com', contact_id: 'cont_acti_anna_1' });
  expect(scored!.score).toEqual(expect.any(Number));

  // The score goes back to Close: a note on the call's lead naming the activity, and the lead's status from the call's success.
  const [note] = await waitFor('the score written back to Close', async () => (close.notes.length > 0 ? close.notes : undefined), 30_000);
  expect(note!.lead_id).toBe('lead_acme');
  expect(note!.note.startsWith(`Parlance score: ${Math.round(scored!.score! * 10) / 10}/10`)).toBe(true);
  expect(note!.note).toContain(`Parlance activity ${scored!.id}, scored `);
  if (scored!.is_successful !== null) {
    await waitFor('the lead’s status set', async () => (close.leadStatusChanges.length > 0 ? true : undefined), 30_000);
    expect(close.leadStatusChanges).toEqual([{ leadId: 'lead_acme', statusId: scored!.is_successful ? 'stat_qualified' : 'stat_bad_fit' }]);
  }
  const written = await waitFor('the connection to show the write-back', async () => {
    const integration = await closeIntegration();
    return integration.connection.writeback.pending === 0 && integration.connection.writeback.lastWrittenAt ? integration : undefined;
  }, 30_000);
  expect(written.connection.writeback.lastError).toBeNull();
  expect(close.notes).toHaveLength(1);

  // "Sync now" reads on from the schedule's cursor: nothing new, nothing twice.
  const syncNow = await closeIntegration();
  const started = await acme.browser.post<{ started: boolean; message: string }>('/api/integrations/close/sync', {});
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  expect((await syncEndedAfter(syncNow)).connection.sync.lastRun).toMatchObject({ imported: 0 });
  const list = await acme.browser.get<{ data: CallRow[] }>(`/api/calls/?teamId=${acme.teamId}`);
  expect(list.body.data).toHaveLength(1);

  // syncUsersAndTeams: Close's users join the team through identity (Anna, in it already, gets her Close id),
  // and Cleo's call, passed over before, is imported: the sync reads the history again for her.
  expect((await acme.browser.put('/api/integrations/close/settings', { syncUsersAndTeams: true })).status).toBe(200);
  const rosterSync = await closeIntegration();
  expect((await acme.browser.post('/api/integrations/close/sync', {})).status).toBe(202);
  expect((await syncEndedAfter(rosterSync)).connection.sync.lastRun).toEqual({ imported: 1, alreadyImported: 1, skipped: 0, refused: 0 });
  const team = await acme.browser.get<{ members: { first_name: string; last_name: string; email: string; crm_id: string; target: number }[] }>(`/api/teams/${acme.teamId}`);
  expect(team.status).toBe(200);
  expect(team.body.members.map(({ first_name, last_name, email, crm_id, target }) => ({ first_name, last_name, email, crm_id, target }))).toEqual([
    { first_name: 'Anna', last_name: 'Lee', email: 'anna.lee@example.com', crm_id: 'user_anna', target: 4 },
    { first_name: 'Ben', last_name: 'Ode', email: 'ben.ode@example.com', crm_id: 'user_ben', target: 0 },
    { first_name: 'Cleo', last_name: 'Park', email: 'cleo.park@example.com', crm_id: 'user_cleo', target: 0 },
  ]);
  const cleosCall = await waitFor(
    'Cleo’s call to be scored in the list',
    async () => {
      const calls = (await acme.browser.get<{ data: CallRow[] }>(`/api/calls/?teamId=${acme.teamId}`)).body.data;
      return calls.find((call) => call.representative === 'cleo.park@example.com' && call.status === 'scored');
    },
    90_000,
  );
  expect(cleosCall).toMatchObject({ contact_id: 'cont_acti_cleo_1' });
}, 240_000);

it('takes an import once per source and external id, answering a repeat with the first one’s ids', async () => {
  const ingest = createClient(IngestServiceClient, stack.services.get('ingest').address);
  const header: UploadHeader = {
    kind: ActivityKind.ACTIVITY_KIND_CALL,
    mediaKind: MediaKind.MEDIA_KIND_TEXT,
    fileName: 'hubspot-call.txt',
    teamId: acme.teamId,
    representativeEmail: 'anna.lee@example.com',
    representativeName: 'Anna',
    occurredAt: new Date('2026-11-20T10:00:00Z'),
    title: '',
    notes: '',
    contact: undefined,
    link: '',
    source: 'hubspot-crm',
    externalId: `call-${randomUUID()}`,
  };
  const content = Buffer.from('Anna: Hello, this is Anna.\nMorgan: Hi Anna.');
  try {
    const caller = { companyId: acme.companyId, userId: acme.userId };
    const [first, second] = await Promise.all([uploadActivity(ingest.raw, header, chunksOf(content), caller), uploadActivity(ingest.raw, header, chunksOf(content), caller)]);
    expect(second.activityId).toBe(first.activityId);
    expect(second.jobId).toBe(first.jobId);
    expect([first.alreadyReceived, second.alreadyReceived].sort()).toEqual([false, true]);
    const third = await uploadActivity(ingest.raw, header, chunksOf(content), caller);
    expect(third).toEqual({ ...first, alreadyReceived: true });

    await expect(uploadActivity(ingest.raw, { ...header, source: '' }, chunksOf(content), caller)).rejects.toMatchObject({
      kind: 'invalid-argument',
      message: 'Only an activity imported from an integration has an external id.',
    });
    await expect(uploadActivity(ingest.raw, { ...header, source: 'salesforce' }, chunksOf(content), caller)).rejects.toMatchObject({ kind: 'invalid-argument' });
  } finally {
    ingest.close();
  }
}, 60_000);
