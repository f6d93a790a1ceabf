/**
 * The activity rows converge on a real database: the pipeline's events, delivered through the
 * inbox to the real consumers in many shuffled orders, some again (the same event, which the inbox
 * skips, or the same fact republished under a new id, which the merge absorbs), some at the same
 * moment, always leave the same row. A deletion leaves a tombstone that later events do not
 * revive, until housekeeping forgets it.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';
import { ActivityDeleted } from '@parlance/proto/parlance/ingest/v1/events';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { purgeTombstones } from '../src/db/activities.repository.js';
import { activities, teams } from '../src/db/schema.js';
import { DRIVERS, deliver, openAnalyticsDatabase, type AnalyticsDatabase } from './support/analytics-database.js';
import { activityScript, at, envelope, pipelineEnvelopes } from './support/pipeline-events.js';
import { seededRandom } from '@parlance/platform/testing/seeded-random';
import { shuffledWithRepeats } from './support/shuffle.js';

const ORDERS = 30;

describe.each(DRIVERS)('activity rows on $driver', ({ open }) => {
  const company = randomUUID();
  let database: AnalyticsDatabase;

  beforeAll(async () => {
    database = await openAnalyticsDatabase(open);
  });

  afterAll(async () => {
    await database.db.delete(activities).where(eq(activities.companyId, company));
    await database.db.delete(teams).where(eq(teams.companyId, company));
    await database.close();
  });

  /** The rows of these activities without their ids, which are all that differs between them. */
  async function rowsOf(activityIds: string[]) {
    const rows = await database.db
      .select()
      .from(activities)
      .where(and(eq(activities.companyId, company), inArray(activities.id, activityIds)));
    expect(rows).toHaveLength(activityIds.length);
    return rows.map(({ id: _id, ...row }) => row);
  }

  /** A shuffled delivery with repeats: a repeat is the same event or, half the time, republished under a new id. */
  function redelivered(events: EventEnvelope[], random: () => number): EventEnvelope[] {
    const seen = new Set<EventEnvelope>();
    return shuffledWithRepeats(events, random).map((event) => {
      const repeat = seen.has(event);
      seen.add(event);
      return repeat && random() < 0.5 ? { ...event, id: randomUUID() } : event;
    });
  }

  it(`leaves the same row for ${ORDERS} shuffled deliveries with repeats`, async () => {
    const random = seededRandom(42);
    const activityIds: string[] = [];
    for (let order = 0; order < ORDERS; order += 1) {
      const script = activityScript();
      activityIds.push(script.activityId);
      for (const event of redelivered(pipelineEnvelopes(company, script), random)) await deliver(database, event);
    }
    const [first, ...others] = await rowsOf(activityIds);
    for (const row of others) expect(row).toEqual(first);
    expect(first).toMatchObject({
      receivedAt: at(1),
      kind: 'meeting',
      teamId: 'team-sales',
      occurredAt: at(0),
      representativeEmail: 'anna.lee@example.com',
      contactId: 'lead-42',
      media: 'text',
      transcribedAt: at(10),
      transcript: '[0:00] Anna: Good morning, this is Anna.\n[1:05] Mark: We want to renew.\nAnna: Great, I will send the contract.',
      evaluatedAt: at(40),
      score: 7.5,
      scriptMatch: 82.5,
      isSuccessful: true,
      passedCriteria: ['greeting', 'needs-analysis'],
      failedCriteria: ['next-steps'],
      // The re-scoring's count replaces the first scoring's 2.
      criteriaNeedingReview: 1,
      summary: 'Anna renewed Acme (7.5).',
      failedAt: at(2),
      deletedAt: null,
      durationSeconds: 755,
    });
    const [team] = await database.db.select().from(teams).where(eq(teams.companyId, company));
    expect(team).toMatchObject({ teamId: 'team-sales', version: 2, department: 'sales', deleted: false });
  });

  it('leaves the same row when every event of an activity arrives at the same moment', async () => {
    const activityIds: string[] = [];
    for (let order = 0; order < 5; order += 1) {
      const script = activityScript();
      activityIds.push(script.activityId);
      const events = pipelineEnvelopes(company, script);
      await Promise.all([...events, ...events.map((event) => ({ ...event, id: randomUUID() }))].map((event) => deliver(database, event)));
    }
    const [first, ...others] = await rowsOf(activityIds);
    for (const row of others) expect(row).toEqual(first);
    expect(first).toMatchObject({ score: 7.5, durationSeconds: 755, failedAt: at(2) });
  });

  it('keeps only a tombstone of a deleted activity, whatever arrived before or after the deletion', async () => {
    const random = seededRandom(7);
    const activityIds: string[] = [];
    for (let order = 0; order < ORDERS; order += 1) {
      const script = activityScript();
      activityIds.push(script.activityId);
      for (const event of redelivered(pipelineEnvelopes(company, script, { deleted: true }), random)) await deliver(database, event);
    }
    for (const row of await rowsOf(activityIds)) {
      expect(row).toMatchObject({ companyId: company, deletedAt: at(50), receivedAt: null, kind: null, transcribedAt: null, transcript: '', evaluatedAt: null, score: null, results: [], passedCriteria: [], criteriaNeedingReview: 0, summary: '', failedAt: null, durationSeconds: 0 });
    }
  });

  it('forgets tombstones older than the retention, and nothing else', async () => {
    const script = activityScript();
    const kept = activityScript();
    const longAgo = new Date('2001-01-01T00:00:00Z');
    const deletion = (activityId: string) => envelope(company, 'ingest.activity-deleted.v1', ActivityDeleted.encode({ activityId, kind: ActivityKind.ACTIVITY_KIND_MEETING }).finish(), longAgo);
    await deliver(database, deletion(script.activityId));
    for (const event of pipelineEnvelopes(company, kept)) await deliver(database, event);

    await purgeTombstones(database.db, new Date('2001-01-01T00:00:00Z'));
    expect(await rowsOf([script.activityId])).toHaveLength(1);
    await purgeTombstones(database.db, new Date('2001-01-02T00:00:00Z'));
    const left = await database.db.select({ id: activities.id }).from(activities).where(and(eq(activities.companyId, company), inArray(activities.id, [script.activityId, kept.activityId])));
    expect(left).toEqual([{ id: kept.activityId }]);
  });
});
