/**
 * ListActivities over gRPC, on activities the real consumers built from the pipeline's events: the
 * company's calls or meetings, newest first, never deleted ones or another company's, with every
 * filter of the contract, paging, and INVALID_ARGUMENT for a filter that cannot be applied.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@parlance/platform/grpc/grpc-client';
import { createGrpcServer } from '@parlance/platform/grpc/grpc-server';
import { GrpcCallError } from '@parlance/platform/grpc/status-mapping';
import { createLogger } from '@parlance/platform/logger';
import type { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';
import { ActivitiesServiceClient, Comparison, ListActivitiesRequest } from '@parlance/proto/parlance/analytics/v1/activities';
import { TeamChanged } from '@parlance/proto/parlance/identity/v1/events';
import { ActivityDeleted, ActivityReceived } from '@parlance/proto/parlance/ingest/v1/events';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { ActivityScored, ScoringFailed } from '@parlance/proto/parlance/scoring/v1/events';
import { TranscriptReady } from '@parlance/proto/parlance/transcription/v1/events';
import { activities, teams } from '../src/db/schema.js';
import { ActivitiesServiceService } from '@parlance/proto/parlance/analytics/v1/activities';
import { createCaptureMailer } from '@parlance/platform/mail/capture-mailer';
import { activitiesService } from '../src/grpc/activities.server.js';
import { DRIVERS, deliver, openAnalyticsDatabase, type AnalyticsDatabase } from './support/analytics-database.js';
import { activityScored, activityScript, envelope, received, TRANSCRIPT, teamChanged, transcriptReady, type Judged } from './support/pipeline-events.js';

const day = (date: number, hour = 10) => new Date(Date.UTC(2026, 9, date, hour));

interface Seeded {
  kind?: ActivityKind;
  teamId: string;
  occurredAt: Date;
  email?: string;
  contactId?: string;
  durationSeconds?: number;
  judged?: Omit<Judged, 'evaluatedAt'>;
  failed?: boolean;
  deleted?: boolean;
}

describe.each(DRIVERS)('ListActivities on $driver', ({ open }) => {
  const company = randomUUID();
  const otherCompany = randomUUID();
  const logger = createLogger({ service: 'analytics-test', level: 'warn' });
  const server = createGrpcServer({ port: 0, logger });
  let database: AnalyticsDatabase;
  let client: ReturnType<typeof createClient<typeof ActivitiesServiceClient>>;
  const ids: Record<string, string> = {};

  async function seed(name: string, activity: Seeded, companyId = company): Promise<void> {
    const script = activityScript({ kind: activity.kind ?? ActivityKind.ACTIVITY_KIND_CALL, teamId: activity.teamId, occurredAt: activity.occurredAt, representativeEmail: activity.email ?? 'anna.lee@example.com' });
    ids[name] = script.activityId;
    const time = activity.occurredAt;
    const receipt = { ...received(script), contact: { id: activity.contactId ?? `contact-${name}`, name: 'Mark Doe', company: 'Acme', role: 'Buyer' } };
    await publish(envelope(companyId, 'ingest.activity-received.v1', ActivityReceived.encode(receipt).finish(), time));
    const ready = transcriptReady(script);
    ready.transcript = { ...TRANSCRIPT, activityId: script.activityId, durationMs: (activity.durationSeconds ?? 900) * 1000 };
    await publish(envelope(companyId, 'transcription.transcript-ready.v1', TranscriptReady.encode(ready).finish(), time));
    if (activity.judged) {
      const scored = ActivityScored.encode(activityScored(script, { ...activity.judged, evaluatedAt: time })).finish();
      await publish(envelope(companyId, 'scoring.activity-scored.v1', scored, time));
    }
    if (activity.failed) await publish(envelope(companyId, 'scoring.scoring-failed.v1', ScoringFailed.encode({ activityId: script.activityId, jobId: '', reason: 'no criteria' }).finish(), time));
    if (activity.deleted) await publish(envelope(companyId, 'ingest.activity-deleted.v1', ActivityDeleted.encode({ activityId: script.activityId, kind: script.kind }).finish(), time));
  }

  const publish = (event: EventEnvelope) => deliver(database, event);

  async function list(filters: Partial<ListActivitiesRequest> = {}, companyId = company) {
    return client.listActivities(ListActivitiesRequest.fromPartial({ kind: ActivityKind.ACTIVITY_KIND_CALL, page: 1, limit: 100, ...filters }), { companyId });
  }

  /** The seeded names of the rows listed, in order. */
  async function names(filters: Partial<ListActivitiesRequest> = {}): Promise<string[]> {
    const byId = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
    return (await list(filters)).rows.map((row) => byId.get(row.id) ?? row.id);
  }

  beforeAll(async () => {
    database = await openAnalyticsDatabase(open);
    // Lists send no mail; the capture mailer writes nothing unless asked to.
    const mailer = createCaptureMailer({ dir: path.join(tmpdir(), 'parlance-analytics-test-mail'), from: 'parlance@example.com' });
    server.addService(ActivitiesServiceService, activitiesService({ db: database.db, lists: database.preparedReads, mailer }));
    client = createClient(ActivitiesServiceClient, `127.0.0.1:${await server.start()}`);

    for (const [teamId, department, deleted] of [['team-sales', 'sales', false], ['team-sales-2', 'sales', false], ['team-hr', 'hr', false], ['team-gone', 'sales', true]] as const) {
      await publish(envelope(company, 'identity.team-changed.v1', TeamChanged.encode(teamChanged(teamId, 1, department, deleted)).finish(), day(1, 0)));
    }
    const greetingOnly = { greeting: true, 'needs-analysis': false, 'next-steps': null };
    await seed('c1', { teamId: 'team-sales', occurredAt: day(1), contactId: 'lead-1', durationSeconds: 120, judged: { score: 8, scriptMatch: 90, isSuccessful: true, verdicts: greetingOnly } });
    await seed('c2', { teamId: 'team-sales', occurredAt: day(2), email: 'bob@example.com', contactId: 'lead-2', durationSeconds: 300, judged: { score: 5.5, isSuccessful: false, verdicts: { greeting: false, 'needs-analysis': true }, review: ['greeting'] } });
    await seed('c3', { teamId: 'team-sales-2', occurredAt: day(3), email: 'ANNA.LEE@example.com', durationSeconds: 600, judged: { score: 10, scriptMatch: 80, verdicts: { greeting: true, 'needs-analysis': true }, review: ['greeting', 'needs-analysis'] } });
    await seed('c4', { teamId: 'team-hr', occurredAt: day(4), email: 'carl@example.com', durationSeconds: 60 });
    await seed('c5', { teamId: 'team-sales', occurredAt: day(5), deleted: true, judged: { score: 9, verdicts: greetingOnly } });
    await seed('c6', { teamId: 'team-gone', occurredAt: day(6), failed: true });
    await seed('c7', { teamId: 'team-sales', occurredAt: day(7) });
    await seed('c8', { teamId: 'team-sales', occurredAt: day(7) });
    await seed('m1', { kind: ActivityKind.ACTIVITY_KIND_MEETING, teamId: 'team-sales', occurredAt: day(1), judged: { score: 6, verdicts: greetingOnly, review: ['next-steps'] } });
    await seed('elsewhere', { teamId: 'team-sales', occurredAt: day(8), judged: { score: 8, verdicts: greetingOnly } }, otherCompany);
  });

  afterAll(async () => {
    client.close();
    await server.stop(1_000);
    for (const companyId of [company, otherCompany]) {
      await database.db.delete(activities).where(eq(activities.companyId, companyId));
      await database.db.delete(teams).where(eq(teams.companyId, companyId));
    }
    await database.close();
  });

  /** c7 and c8 occurred at the same moment: the greater id comes first. */
  const sameMoment = () => [ids.c7!, ids.c8!].sort().reverse().map((id) => (id === ids.c7 ? 'c7' : 'c8'));

  it('lists the company’s calls newest first, without deleted ones, meetings or another company’s', async () => {
    const answer = await list();
    expect(await names()).toEqual([...sameMoment(), 'c6', 'c4', 'c3', 'c2', 'c1']);
    expect(answer).toMatchObject({ total: 7, totalPages: 1 });
    expect((await list({}, otherCompany)).rows.map((row) => row.id)).toEqual([ids.elsewhere]);
  });

  it('shows what each event brought, and the status they add up to', async () => {
    const rows = new Map((await list()).rows.map((row) => [row.id, row]));
    expect(rows.get(ids.c1!)).toEqual({
      id: ids.c1,
      kind: ActivityKind.ACTIVITY_KIND_CALL,
      teamId: 'team-sales',
      occurredAt: day(1),
      representativeEmail: 'anna.lee@example.com',
      representativeName: 'Anna',
      contactId: 'lead-1',
      contactName: 'Mark Doe',
      contactCompany: 'Acme',
      contactRole: 'Buyer',
      link: 'https://meet.example.com/abc',
      title: 'Renewal with Acme',
      fileName: 'renewal-acme.txt',
      media: 'audio',
      status: 'scored',
      durationSeconds: 120,
      score: 8,
      scriptMatch: 90,
      isSuccessful: true,
      results: [
        { groupId: 'opening', criterionId: 'greeting', passed: true },
        { groupId: 'opening', criterionId: 'needs-analysis', passed: false },
      ],
      criteriaNeedingReview: 0,
      transcript: '',
      summary: '',
      improvements: [],
    });
    expect(rows.get(ids.c4!)).toMatchObject({ status: 'processing', durationSeconds: 60, results: [] });
    expect(rows.get(ids.c4!)?.score).toBeUndefined();
    expect(rows.get(ids.c4!)?.isSuccessful).toBeUndefined();
    expect(rows.get(ids.c6!)).toMatchObject({ status: 'failed' });
    expect(rows.get(ids.c3!)?.scriptMatch).toBe(80);
    expect(rows.get(ids.c3!)?.isSuccessful).toBeUndefined();
    expect(rows.get(ids.c3!)?.criteriaNeedingReview).toBe(2);
    expect(rows.get(ids.c4!)?.criteriaNeedingReview).toBe(0);
  });

  it('gives a meeting its transcript, summary and improvements', async () => {
    const { rows } = await list({ kind: ActivityKind.ACTIVITY_KIND_MEETING });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: ids.m1,
      kind: ActivityKind.ACTIVITY_KIND_MEETING,
      media: 'text',
      transcript: '[0:00] Anna: Good morning, this is Anna.\n[1:05] Mark: We want to renew.\nAnna: Great, I will send the contract.',
      summary: 'Anna renewed Acme (6).',
      // An inapplicable verdict that needs review counts too, as in the summary.
      criteriaNeedingReview: 1,
      improvements: [{ groupId: 'opening', groupName: 'Opening', criteria: [{ criterionId: 'needs-analysis', criterionName: 'needs-analysis', suggestion: 'Work on needs-analysis.' }] }],
    });
  });

  it('filters by team, or by the current teams of a department', async () => {
    expect(await names({ teamIds: ['team-sales'] })).toEqual([...sameMoment(), 'c2', 'c1']);
    expect(await names({ teamIds: ['team-sales-2', 'team-hr'] })).toEqual(['c4', 'c3']);
    expect(await names({ department: 'sales' })).toEqual([...sameMoment(), 'c3', 'c2', 'c1']);
    expect(await names({ department: 'hr' })).toEqual(['c4']);
    expect(await names({ department: 'support' })).toEqual([]);
    expect(await names({ department: 'hr', teamIds: ['team-gone'] })).toEqual(['c6']);
  });

  it('filters by a range that holds its start and not its end', async () => {
    expect(await names({ start: day(2), end: day(4) })).toEqual(['c3', 'c2']);
    expect(await names({ start: day(6) })).toEqual([...sameMoment(), 'c6']);
    expect(await names({ end: day(2) })).toEqual(['c1']);
  });

  it('filters by success, where N/A matches neither', async () => {
    expect(await names({ isSuccessful: true })).toEqual(['c1']);
    expect(await names({ isSuccessful: false })).toEqual(['c2']);
  });

  it('filters by criteria, all of them at once, in the named group', async () => {
    expect(await names({ criteria: [{ groupId: 'opening', criterionId: 'greeting', passed: true }] })).toEqual(['c3', 'c1']);
    expect(await names({ criteria: [{ groupId: '', criterionId: 'greeting', passed: false }] })).toEqual(['c2']);
    expect(
      await names({
        criteria: [
          { groupId: 'opening', criterionId: 'greeting', passed: true },
          { groupId: 'opening', criterionId: 'needs-analysis', passed: true },
        ],
      }),
    ).toEqual(['c3']);
    expect(await names({ criteria: [{ groupId: 'closing', criterionId: 'greeting', passed: true }] })).toEqual([]);
    // Not applicable is no result at all.
    expect(await names({ criteria: [{ groupId: 'closing', criterionId: 'next-steps', passed: true }] })).toEqual([]);
  });

  it('filters on activities with a criterion that needs review, with every other filter', async () => {
    expect(await names({ needsReview: true })).toEqual(['c3', 'c2']);
    expect(await list({ needsReview: true })).toMatchObject({ total: 2, totalPages: 1 });
    expect(await names({ needsReview: true, teamIds: ['team-sales'] })).toEqual(['c2']);
    expect(await names({ needsReview: true, department: 'sales', start: day(3) })).toEqual(['c3']);
    expect(await names({ needsReview: true, isSuccessful: false })).toEqual(['c2']);
    expect(await names({ needsReview: true, score: { value: 8, comparison: Comparison.COMPARISON_GTE } })).toEqual(['c3']);
    expect(await names({ needsReview: true, criteria: [{ groupId: 'opening', criterionId: 'needs-analysis', passed: true }] })).toEqual(['c3', 'c2']);
    expect(await names({ needsReview: true, criteria: [{ groupId: 'opening', criterionId: 'greeting', passed: true }] })).toEqual(['c3']);
    // Counted on the rows: filters no rollup keeps.
    expect(await names({ needsReview: true, representativeEmails: ['bob@example.com', 'anna.lee@example.com'] })).toEqual(['c3', 'c2']);
    expect(await names({ needsReview: true, durationSeconds: { value: 300, comparison: Comparison.COMPARISON_LTE } })).toEqual(['c2']);
    expect(await names({ needsReview: true, kind: ActivityKind.ACTIVITY_KIND_MEETING })).toEqual(['m1']);
    expect(await names({ needsReview: false })).toEqual(await names());
  });

  it('compares durations in seconds, scores and script matches as stored', async () => {
    expect(await names({ durationSeconds: { value: 300, comparison: Comparison.COMPARISON_LTE } })).toEqual(['c4', 'c2', 'c1']);
    expect(await names({ durationSeconds: { value: 300, comparison: Comparison.COMPARISON_EQ } })).toEqual(['c2']);
    expect(await names({ durationSeconds: { value: 299.5, comparison: Comparison.COMPARISON_GTE }, teamIds: ['team-sales', 'team-sales-2'] })).toEqual([...sameMoment(), 'c3', 'c2']);
    expect(await names({ score: { value: 8, comparison: Comparison.COMPARISON_GTE } })).toEqual(['c3', 'c1']);
    expect(await names({ score: { value: 5.5, comparison: Comparison.COMPARISON_EQ } })).toEqual(['c2']);
    expect(await names({ score: { value: 5.5, comparison: Comparison.COMPARISON_LTE } })).toEqual(['c2']);
    expect(await names({ scriptMatch: { value: 85, comparison: Comparison.COMPARISON_GTE } })).toEqual(['c1']);
  });

  it('filters by representatives in any case, contacts and ids', async () => {
    expect(await names({ representativeEmails: ['Anna.Lee@EXAMPLE.com'], teamIds: ['team-sales', 'team-sales-2'] })).toEqual([...sameMoment(), 'c3', 'c1']);
    expect(await names({ representativeEmails: ['bob@example.com', 'carl@example.com'] })).toEqual(['c4', 'c2']);
    expect(await names({ contactIds: ['lead-2'] })).toEqual(['c2']);
    expect(await names({ activityIds: [ids.c1!, ids.c5!, ids.elsewhere!, 'not-a-uuid'] })).toEqual(['c1']);
    expect(await list({ activityIds: ['not-a-uuid'] })).toEqual({ rows: [], total: 0, totalPages: 0 });
  });

  it('pages through the list', async () => {
    for (let minute = 0; minute < 23; minute += 1) await seed(`bulk-${minute}`, { teamId: 'team-bulk', occurredAt: new Date(Date.UTC(2026, 8, 1, 9, minute)) });
    const page = (n: number) => names({ teamIds: ['team-bulk'], page: n, limit: 10 });
    expect(await page(1)).toEqual(Array.from({ length: 10 }, (_, i) => `bulk-${22 - i}`));
    expect(await page(3)).toEqual(['bulk-2', 'bulk-1', 'bulk-0']);
    expect(await list({ teamIds: ['team-bulk'], page: 4, limit: 10 })).toEqual({ rows: [], total: 23, totalPages: 3 });
    expect(await list({ teamIds: ['team-bulk'], page: 1, limit: 20 })).toMatchObject({ total: 23, totalPages: 2 });
  });

  it('refuses a filter that cannot be applied as an invalid argument, with a sentence naming it', async () => {
    const refusal = (filters: Partial<ListActivitiesRequest>) => list(filters).then(() => expect.unreachable('the list was answered'), (error: unknown) => error);
    const cases: Array<[Partial<ListActivitiesRequest>, string]> = [
      [{ page: 0 }, 'The page must be 1 or more.'],
      [{ limit: 15 }, 'The limit (page size) must be 10, 20, 50 or 100.'],
      [{ start: day(3), end: day(2) }, 'The end of the date range is before its start.'],
      [{ score: { value: 5, comparison: Comparison.COMPARISON_UNSPECIFIED } }, 'The score filter needs a comparison: ≤, = or ≥.'],
    ];
    for (const [filters, message] of cases) {
      const error = await refusal(filters);
      expect(error).toBeInstanceOf(GrpcCallError);
      expect(error).toMatchObject({ kind: 'invalid-argument', message });
    }
  });

  it('answers only a call that names its company', async () => {
    await expect(client.listActivities(ListActivitiesRequest.fromPartial({ kind: ActivityKind.ACTIVITY_KIND_CALL, page: 1, limit: 10 }))).rejects.toMatchObject({ kind: 'unauthenticated' });
  });
});
