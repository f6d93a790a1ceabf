/**
 * The lists' per-day rollups stay exact: after a seeded history of receipts, transcripts,
 * scorings (some with criteria that need review), re-scorings, failures and deletions (through the consumers' one-fact path and the
 * loaders' batched path), their cells equal the activities counted afresh, a rebuild finds the
 * same, and every list the rollups answer (totals and pages, with part days at either end of the
 * range) equals the one counted on the rows.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';
import { openDatabase } from '@parlance/platform/db/database';
import { migrate } from '@parlance/platform/db/migrate';
import { seededRandom } from '@parlance/platform/testing/seeded-random';
import { ListActivitiesRequest } from '@parlance/proto/parlance/analytics/v1/activities';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { applyActivityFact, applyActivityFacts } from '../src/db/activities.repository.js';
import { listActivities } from '../src/db/activity-list.js';
import { activityListConditions } from '../src/db/activity-filters.js';
import { ensureActivityRollups, rollupFilter } from '../src/db/activity-rollups.js';
import { activities, activityDayCounts, activityDayVerdicts, activityRollups, teams } from '../src/db/schema.js';
import type { ActivityFact, CriterionResult } from '../src/domain/activity-state.js';
import { readListRequest, type ActivityListQuery, type ComparisonName } from '../src/domain/list-request.js';
import { DRIVERS, openAnalyticsDatabase, type AnalyticsDatabase } from './support/analytics-database.js';

const ACTIVITIES = 400;
const QUERIES = 300;
const TEAMS = ['team-a', 'team-b', 'team-c'];
const COMPANY = '7d1f0c3e-5b1a-4c6e-9f0e-2a4b6c8d0e1f';
const CRITERIA = [
  { groupId: 'opening', criterionId: 'greeting' },
  { groupId: 'opening', criterionId: 'agenda' },
  { groupId: 'closing', criterionId: 'next-steps' },
  // The same criterion id in another group: the group tells them apart.
  { groupId: 'closing', criterionId: 'greeting' },
];
/** Ten days of October 2026; times near midnight on purpose. */
const DAY_MS = 86_400_000;
const FIRST_DAY = Date.UTC(2026, 9, 1);
const SCORES = [0, 2.5, 3, 5, 6.99, 7, 7.01, 7.5, 8, 9.25, 10, Number.NaN];

type Delivery = { activityId: string; fact: ActivityFact }[];

/** Every fact of ACTIVITIES activities, in a seeded order: some never scored, some re-scored, failed or deleted. */
function history(seed: number): Delivery {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const time = () => new Date(FIRST_DAY + Math.floor(random() * 10 * DAY_MS * 4) / 4 + (random() < 0.2 ? DAY_MS - 1 : 0));
  const facts: Delivery = [];
  for (let i = 0; i < ACTIVITIES; i++) {
    const activityId = randomUUID();
    const receipt = (at: number): ActivityFact => ({
      type: 'received',
      part: {
        receivedAt: new Date(FIRST_DAY + at),
        kind: random() < 0.8 ? 'call' : 'meeting',
        teamId: pick(TEAMS),
        occurredAt: time(),
        representativeEmail: pick(['anna@example.com', 'ben@example.com']),
        representativeName: 'Anna',
        contactId: pick(['lead-1', 'lead-2', 'lead-3']),
        contactName: 'Mark',
        contactCompany: 'Acme',
        contactRole: 'Buyer',
        link: '',
        title: '',
        fileName: 'call.mp3',
        media: 'audio',
      },
    });
    const scoring = (at: number): ActivityFact => ({
      type: 'evaluated',
      part: {
        evaluatedAt: new Date(FIRST_DAY + at),
        score: pick(SCORES),
        scriptMatch: random() < 0.5 ? null : Math.round(random() * 100),
        isSuccessful: pick([true, false, null]),
        results: CRITERIA.filter(() => random() < 0.7).map((criterion): CriterionResult => ({ ...criterion, passed: random() < 0.5 })),
        criteriaNeedingReview: pick([0, 0, 1, 2]),
        summary: '',
        improvements: [],
        durationSeconds: Math.floor(random() * 900),
      },
    });
    const own: ActivityFact[] = [receipt(1), { type: 'transcribed', part: { transcribedAt: new Date(FIRST_DAY + 2), durationSeconds: Math.floor(random() * 1200), transcript: '' } }];
    if (random() < 0.85) own.push(scoring(3));
    if (random() < 0.2) own.push(scoring(4 + Math.floor(random() * 3)));
    // A later receipt moves the activity to another team or day.
    if (random() < 0.1) own.push(receipt(8));
    if (random() < 0.1) own.push({ type: 'failed', at: new Date(FIRST_DAY + 5) });
    if (random() < 0.08) own.push({ type: 'deleted', at: new Date(FIRST_DAY + 9) });
    facts.push(...own.map((fact) => ({ activityId, fact })));
  }
  for (let j = facts.length - 1; j > 0; j--) {
    const k = Math.floor(random() * (j + 1));
    [facts[j], facts[k]] = [facts[k]!, facts[j]!];
  }
  return facts;
}

/**
 * What the rollups should hold for a company, counted here from its rows with rules of its own:
 * per cell, its activities and, of them, those with a criterion that needs review.
 */
async function expectedCells(database: AnalyticsDatabase, companyId: string) {
  const rows = await database.db.select().from(activities).where(eq(activities.companyId, companyId));
  const counts = new Map<string, [number, number]>();
  const verdicts = new Map<string, [number, number]>();
  const add = (map: Map<string, [number, number]>, key: string, needsReview: boolean) => {
    const [all, review] = map.get(key) ?? [0, 0];
    map.set(key, [all + 1, review + (needsReview ? 1 : 0)]);
  };
  for (const row of rows) {
    if (row.kind === null || row.occurredAt === null || row.deletedAt !== null) continue;
    const day = row.occurredAt.toISOString().slice(0, 10);
    const scored = row.evaluatedAt !== null && row.score !== null;
    const score = row.score ?? 0;
    const bucket = !scored ? 0 : Number.isNaN(score) ? 2 ** 30 : Number.isInteger(score) ? 2 * score : 2 * Math.floor(score) + 1;
    const success = row.isSuccessful === null ? -1 : row.isSuccessful ? 1 : 0;
    const needsReview = row.criteriaNeedingReview > 0;
    add(counts, [row.kind, row.teamId, day, success, scored, bucket].join('|'), needsReview);
    const distinct = new Set(row.results.map((result) => [row.kind, row.teamId, day, result.groupId, result.criterionId, result.passed].join('|')));
    for (const key of distinct) add(verdicts, key, needsReview);
  }
  return { counts, verdicts };
}

async function heldCells(database: AnalyticsDatabase, companyId: string) {
  const counts = await database.db.select().from(activityDayCounts).where(eq(activityDayCounts.companyId, companyId));
  const verdicts = await database.db.select().from(activityDayVerdicts).where(eq(activityDayVerdicts.companyId, companyId));
  const measures = (cell: { activities: number; needingReview: number }): [number, number] => [cell.activities, cell.needingReview];
  return {
    counts: new Map(counts.filter((cell) => cell.activities !== 0 || cell.needingReview !== 0).map((cell) => [[cell.kind, cell.teamId, cell.day, cell.success, cell.scored, cell.scoreBucket].join('|'), measures(cell)])),
    verdicts: new Map(verdicts.filter((cell) => cell.activities !== 0 || cell.needingReview !== 0).map((cell) => [[cell.kind, cell.teamId, cell.day, cell.groupId, cell.criterionId, cell.passed].join('|'), measures(cell)])),
  };
}

/** Every call, unfiltered, 10 a page: as the service reads an empty request. */
const EVERY_CALL: ActivityListQuery = readListRequest(ListActivitiesRequest.fromPartial({ kind: ActivityKind.ACTIVITY_KIND_CALL, page: 1, limit: 10 }));

/** A list request drawn at random; most of them ones the rollups answer. */
function randomQuery(random: () => number): ActivityListQuery {
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const instant = () => new Date(FIRST_DAY - DAY_MS + Math.floor(random() * 12) * DAY_MS + pick([0, 0, 1, DAY_MS / 3, DAY_MS - 1]));
  let start = random() < 0.8 ? instant() : null;
  let end = random() < 0.8 ? instant() : null;
  if (start && end && end < start) [start, end] = [end, start];
  const criteria: CriterionResult[] =
    random() < 0.6 ? [] : Array.from({ length: random() < 0.8 ? 1 : 2 }, () => ({ ...pick(CRITERIA), groupId: random() < 0.9 ? pick(CRITERIA).groupId : '', passed: random() < 0.5 }));
  const comparison = (): { comparison: ComparisonName; value: number } => ({ comparison: pick(['lte', 'eq', 'gte'] as const), value: random() < 0.85 ? Math.floor(random() * 11) : 7.5 });
  return {
    kind: pick<ActivityKindName>(['call', 'call', 'meeting']),
    teamIds: pick([[], [], ['team-a'], ['team-b', 'team-c']]),
    department: pick([null, null, 'sales', 'support'] as const),
    start,
    end,
    isSuccessful: pick([null, null, true, false]),
    criteria,
    durationSeconds: random() < 0.05 ? { comparison: 'gte', value: 300 } : null,
    score: random() < 0.5 ? comparison() : null,
    scriptMatch: null,
    representativeEmails: random() < 0.05 ? ['anna@example.com'] : [],
    contactIds: random() < 0.05 ? ['lead-2'] : [],
    activityIds: [],
    needsReview: random() < 0.3,
    page: pick([1, 1, 2, 3, 5, 8]),
    limit: pick([10, 20]),
  };
}

describe.each(DRIVERS)('list rollups on $driver', ({ open }) => {
  let database: AnalyticsDatabase;
  const single = randomUUID();
  const batched = randomUUID();

  beforeAll(async () => {
    database = await openAnalyticsDatabase(open);
    // Teams of two departments, for the department filter.
    for (const companyId of [single, batched]) {
      await database.db.insert(teams).values([
        { companyId, teamId: 'team-a', name: 'A', department: 'sales', deleted: false, version: 1 },
        { companyId, teamId: 'team-b', name: 'B', department: 'sales', deleted: false, version: 1 },
        { companyId, teamId: 'team-c', name: 'C', department: 'support', deleted: false, version: 1 },
      ]);
    }
    const facts = history(99);
    for (const { activityId, fact } of facts) await database.db.transaction((tx) => applyActivityFact(tx, single, activityId, fact));
    const random = seededRandom(100);
    for (let i = 0; i < facts.length; ) {
      const size = 1 + Math.floor(random() * 60);
      const batch = facts.slice(i, i + size).map((fact) => ({ companyId: batched, ...fact }));
      await database.db.transaction((tx) => applyActivityFacts(tx, batch));
      i += size;
    }
  });

  afterAll(async () => {
    for (const table of [activities, activityDayCounts, activityDayVerdicts, teams]) {
      for (const companyId of [single, batched]) await database.db.delete(table).where(eq(table.companyId, companyId));
    }
    await database.close();
  });

  it('holds, whichever path wrote the facts, exactly the activities counted afresh', async () => {
    for (const companyId of [single, batched]) {
      const expected = await expectedCells(database, companyId);
      const held = await heldCells(database, companyId);
      expect(held.counts).toEqual(expected.counts);
      expect(held.verdicts).toEqual(expected.verdicts);
      expect(expected.counts.size).toBeGreaterThan(100);
    }
  });

  it('moves only the review count when a re-score changes nothing else a cell depends on', async () => {
    const companyId = randomUUID();
    const activityId = randomUUID();
    const counts = async () => [...(await heldCells(database, companyId)).counts.values()];
    const verdicts = async () => [...(await heldCells(database, companyId)).verdicts.values()];
    const write = (fact: ActivityFact) => database.db.transaction((tx) => applyActivityFact(tx, companyId, activityId, fact));
    const scored = (minute: number, criteriaNeedingReview: number): ActivityFact => ({
      type: 'evaluated',
      part: { evaluatedAt: new Date(FIRST_DAY + minute * 60_000), score: 7, scriptMatch: null, isSuccessful: true, results: [{ ...CRITERIA[0]!, passed: true }], criteriaNeedingReview, summary: '', improvements: [], durationSeconds: 0 },
    });
    try {
      await write({
        type: 'received',
        part: { receivedAt: new Date(FIRST_DAY), kind: 'call', teamId: 'team-a', occurredAt: new Date(FIRST_DAY), representativeEmail: '', representativeName: '', contactId: '', contactName: '', contactCompany: '', contactRole: '', link: '', title: '', fileName: '', media: 'audio' },
      });
      await write(scored(1, 0));
      expect([await counts(), await verdicts()]).toEqual([[[1, 0]], [[1, 0]]]);
      await write(scored(2, 2));
      expect([await counts(), await verdicts()]).toEqual([[[1, 1]], [[1, 1]]]);
      // Another count, but still some: nothing moves.
      await write(scored(3, 1));
      expect([await counts(), await verdicts()]).toEqual([[[1, 1]], [[1, 1]]]);
      await write(scored(4, 0));
      expect([await counts(), await verdicts()]).toEqual([[[1, 0]], [[1, 0]]]);
      expect(await heldCells(database, companyId)).toEqual(await expectedCells(database, companyId));
    } finally {
      for (const table of [activities, activityDayCounts, activityDayVerdicts]) await database.db.delete(table).where(eq(table.companyId, companyId));
    }
  });

  it(`lists as counting the rows does, for ${QUERIES} random requests`, async () => {
    const random = seededRandom(7);
    let answeredByRollups = 0;
    let answeredNeedingReview = 0;
    for (let i = 0; i < QUERIES; i++) {
      const query = randomQuery(random);
      if (rollupFilter(query)) answeredByRollups += 1;
      if (rollupFilter(query) && query.needsReview) answeredNeedingReview += 1;
      const where = activityListConditions(single, query);
      const [expectedRows, [expectedTotal]] = await Promise.all([
        database.db
          .select({ id: activities.id })
          .from(activities)
          .where(where)
          .orderBy(desc(activities.occurredAt), desc(activities.id))
          .limit(query.limit)
          .offset((query.page - 1) * query.limit),
        database.db.select({ total: count() }).from(activities).where(where),
      ]);
      const listed = await listActivities(database.preparedReads, single, query);
      const context = JSON.stringify(query);
      expect(listed.total, context).toBe(expectedTotal!.total);
      expect(listed.rows.map((row) => row.id), context).toEqual(expectedRows.map((row) => row.id));
    }
    expect(answeredByRollups).toBeGreaterThan(QUERIES / 2);
    expect(answeredNeedingReview).toBeGreaterThan(QUERIES / 10);
  });
});

describe('building the rollups', () => {
  it('gives activities and cells from before the review count 0, and keeps counting from there', async () => {
    // The migrations up to 0007, as a database that has run since before 0008.
    const folder = fileURLToPath(new URL('../src/db/migrations', import.meta.url));
    const before = await mkdtemp(path.join(tmpdir(), 'analytics-migrations-'));
    const journal = JSON.parse(await readFile(path.join(folder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    const older = journal.entries.filter((entry) => entry.tag < '0008');
    await mkdir(path.join(before, 'meta'));
    await writeFile(path.join(before, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: older }));
    for (const { tag } of older) await copyFile(path.join(folder, `${tag}.sql`), path.join(before, `${tag}.sql`));
    const database = await openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'analytics' });
    const activityId = randomUUID();
    try {
      await migrate(database, { migrationsFolder: before });
      await database.db.execute(sql`insert into analytics.activities (company_id, id, received_at, kind, team_id, occurred_at, media, evaluated_at, score)
        values (${COMPANY}, ${activityId}, '2026-10-01T10:05:00Z', 'call', 'team-a', '2026-10-01T10:00:00Z', 'audio', '2026-10-01T10:10:00Z', 7)`);
      await database.db.execute(sql`insert into analytics.activity_day_counts (company_id, kind, team_id, day, success, scored, score_bucket, activities)
        values (${COMPANY}, 'call', 'team-a', '2026-10-01', -1, true, 14, 1)`);
      await database.db.execute(sql`insert into analytics.activity_rollups (built_at) values (now())`);

      await migrate(database, { migrationsFolder: folder });
      expect(await database.db.select({ criteriaNeedingReview: activities.criteriaNeedingReview }).from(activities)).toEqual([{ criteriaNeedingReview: 0 }]);
      expect(await heldCells(database, COMPANY)).toEqual(await expectedCells(database, COMPANY));
      const needingReview = { ...EVERY_CALL, needsReview: true };
      expect((await listActivities(database.db, COMPANY, EVERY_CALL)).total).toBe(1);
      expect((await listActivities(database.db, COMPANY, needingReview)).total).toBe(0);

      // Scored again, now with a criterion to review.
      const rescored: ActivityFact = {
        type: 'evaluated',
        part: { evaluatedAt: new Date('2026-10-02T00:00:00Z'), score: 7, scriptMatch: null, isSuccessful: null, results: [], criteriaNeedingReview: 1, summary: '', improvements: [], durationSeconds: 0 },
      };
      await database.db.transaction((tx) => applyActivityFact(tx, COMPANY, activityId, rescored));
      expect(await heldCells(database, COMPANY)).toEqual(await expectedCells(database, COMPANY));
      expect((await listActivities(database.db, COMPANY, needingReview)).rows.map((row) => [row.id, row.evaluated?.criteriaNeedingReview])).toEqual([[activityId, 1]]);
    } finally {
      await database.close();
      await rm(before, { recursive: true });
    }
  });

  it('counts the activities written before the rollups existed, once, and lists from them', async () => {
    // Migrated but not started: the rollups are not built.
    const database = await openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'analytics' });
    try {
      await migrate(database, { migrationsFolder: fileURLToPath(new URL('../src/db/migrations', import.meta.url)) });
      const companyId = randomUUID();
      for (const { activityId, fact } of history(5)) await database.db.transaction((tx) => applyActivityFact(tx, companyId, activityId, fact));
      const expected = await expectedCells(database, companyId);
      // As a database migrated from before the rollups: rows, but no cells.
      await database.db.delete(activityDayCounts);
      await database.db.delete(activityDayVerdicts);

      const query: ActivityListQuery = { ...EVERY_CALL, isSuccessful: true, score: { comparison: 'gte', value: 7 } };
      const [counted] = await database.db.select({ total: count() }).from(activities).where(activityListConditions(companyId, query));
      // Not built: the list counts the rows.
      expect((await listActivities(database.db, companyId, query)).total).toBe(counted!.total);

      await ensureActivityRollups(database.db);
      await ensureActivityRollups(database.db);
      expect(await heldCells(database, companyId)).toEqual(expected);
      expect(await database.db.select().from(activityRollups)).toHaveLength(1);
      expect((await listActivities(database.db, companyId, query)).total).toBe(counted!.total);
    } finally {
      await database.close();
    }
  });
});
