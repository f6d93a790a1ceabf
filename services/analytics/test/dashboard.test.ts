/**
 * The dashboard's rollups and answers. After a seeded, shuffled history (receipts, transcripts,
 * scorings, re-scorings, moves to another team or day, failures, deletions, and facts delivered
 * twice) through the consumers' one-fact path and the loaders' batched path, recomputing every
 * rollup from the rows finds no difference, in zones kept from the start and in one built after;
 * every dashboard call answers the same from the rollups as from the rows; and a small company's
 * figures are checked by hand, time zones included.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '@parlance/platform/errors';
import { runWithRequestContext } from '@parlance/platform/grpc/request-context';
import { createLogger } from '@parlance/platform/logger';
import { seededRandom } from '@parlance/platform/testing/seeded-random';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { applyActivityFact, applyActivityFacts } from '../src/db/activities.repository.js';
import { dashboardRollupDifferences, ensureZoneRollups, zoneReady } from '../src/db/dashboard-rollups.js';
import { activities, dashboardTotals, dashboardTotalsStaged, dashboardVerdicts, dashboardVerdictsStaged, dashboardZones, teams } from '../src/db/schema.js';
import type { ActivityFact, CriterionResult } from '../src/domain/activity-state.js';
import type { TeamState } from '../src/domain/team-state.js';
import { dashboardAnswers } from '../src/grpc/dashboard.server.js';
import { DRIVERS, openAnalyticsDatabase, type AnalyticsDatabase } from './support/analytics-database.js';

const ACTIVITIES = 300;
const DAY_MS = 86_400_000;
/**
 * From 10 September 2026 to 7 January 2027: over both autumn clock changes (Kyiv 25 October, New
 * York 1 November), four month ends and two quarter ends, one of them a year's.
 */
const FIRST_DAY = Date.UTC(2026, 8, 10);
const DAYS = 120;
const CRITERIA = [
  { groupId: 'opening', criterionId: 'greeting', name: 'Greets the customer' },
  { groupId: 'opening', criterionId: 'agenda', name: 'Confirms the agenda' },
  { groupId: 'closing', criterionId: 'next-steps', name: 'Agrees next steps' },
];
const PEOPLE = ['anna@example.com', 'ben@example.com', 'cara@example.com', 'dan@example.com'];
const TEAMS: Omit<TeamState, 'version' | 'deleted'>[] = [
  {
    teamId: 'team-a',
    name: 'Alpha',
    department: 'sales',
    members: [
      { email: 'anna@example.com', firstName: 'Anna', lastName: 'Lee', target: 2 },
      { email: 'ben@example.com', firstName: 'Ben', lastName: 'Novak', target: 1 },
    ],
    criteria: CRITERIA.map(({ groupId, criterionId, name }) => ({ groupId, criterionId, name })),
  },
  {
    // Ben is a member of two teams.
    teamId: 'team-b',
    name: 'Bravo',
    department: 'sales',
    members: [
      { email: 'ben@example.com', firstName: 'Ben', lastName: 'Novak', target: 3 },
      { email: 'cara@example.com', firstName: 'Cara', lastName: 'Diaz', target: 0 },
    ],
    criteria: CRITERIA.slice(0, 2).map(({ groupId, criterionId, name }) => ({ groupId, criterionId, name })),
  },
  { teamId: 'team-c', name: 'Charlie', department: 'support', members: [{ email: 'dan@example.com', firstName: 'Dan', lastName: 'Okafor', target: 1 }], criteria: [] },
];
const ZONES_FIRST = ['UTC', 'Europe/Kyiv', 'America/New_York'];
/** A zone 5 h 45 min ahead, built after the history. */
const ZONE_LATER = 'Asia/Kathmandu';

type Delivery = { activityId: string; fact: ActivityFact }[];

function history(seed: number): Delivery {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  // Near midnight often, where the zones disagree about the day.
  const time = () => new Date(FIRST_DAY + Math.floor(random() * DAYS) * DAY_MS + pick([0, 1_800_000, 10 * 3_600_000, 21 * 3_600_000, 23 * 3_600_000, DAY_MS - 1]));
  const facts: Delivery = [];
  for (let i = 0; i < ACTIVITIES; i++) {
    const activityId = randomUUID();
    const receipt = (at: number): ActivityFact => ({
      type: 'received',
      part: {
        receivedAt: new Date(FIRST_DAY + at),
        kind: random() < 0.85 ? 'call' : 'meeting',
        teamId: pick(['team-a', 'team-a', 'team-b', 'team-c']),
        occurredAt: time(),
        representativeEmail: pick(PEOPLE),
        representativeName: 'N/A',
        contactId: 'lead-1',
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
        score: pick([0, 2.5, 5, 6.7, 7.25, 8, 9.9, 10]),
        scriptMatch: random() < 0.3 ? null : Math.round(random() * 10_000) / 100 + 0.001,
        isSuccessful: pick([true, false, null]),
        results: CRITERIA.filter(() => random() < 0.8).map((criterion): CriterionResult => ({ groupId: criterion.groupId, criterionId: criterion.criterionId, passed: random() < 0.6 })),
        // Moves no dashboard figure: a re-score that changes only this moves the lists' counts alone.
        criteriaNeedingReview: pick([0, 1]),
        summary: '',
        improvements: [],
        durationSeconds: 3,
      },
    });
    const own: ActivityFact[] = [receipt(1)];
    if (random() < 0.9) own.push({ type: 'transcribed', part: { transcribedAt: new Date(FIRST_DAY + 2), durationSeconds: Math.floor(random() * 1200), transcript: '' } });
    if (random() < 0.85) own.push(scoring(3));
    if (random() < 0.2) own.push(scoring(4 + Math.floor(random() * 3)));
    if (random() < 0.1) own.push(receipt(8));
    if (random() < 0.05) own.push({ type: 'failed', at: new Date(FIRST_DAY + 5) });
    if (random() < 0.08) own.push({ type: 'deleted', at: new Date(FIRST_DAY + 9) });
    // Redelivered facts change nothing.
    const repeated = own.filter(() => random() < 0.1);
    facts.push(...[...own, ...repeated].map((fact) => ({ activityId, fact })));
  }
  for (let j = facts.length - 1; j > 0; j--) {
    const k = Math.floor(random() * (j + 1));
    [facts[j], facts[k]] = [facts[k]!, facts[j]!];
  }
  return facts;
}

describe.each(DRIVERS)('dashboard on $driver', ({ open }) => {
  let database: AnalyticsDatabase;
  const single = randomUUID();
  const batched = randomUUID();
  const small = randomUUID();
  const logger = createLogger({ service: 'analytics-test', level: 'silent' });

  const insertTeams = async (companyId: string) => {
    await database.db.insert(teams).values(TEAMS.map((team) => ({ companyId, ...team, deleted: false, version: 1 })));
  };

  beforeAll(async () => {
    database = await openAnalyticsDatabase(open);
    for (const zone of [...ZONES_FIRST, ZONE_LATER]) await database.db.delete(dashboardZones).where(eq(dashboardZones.zone, zone));
    for (const zone of ZONES_FIRST) await ensureZoneRollups(database, zone);
    for (const companyId of [single, batched, small]) await insertTeams(companyId);
    const facts = history(7);
    for (const { activityId, fact } of facts) await database.db.transaction((tx) => applyActivityFact(tx, single, activityId, fact));
    const random = seededRandom(8);
    for (let i = 0; i < facts.length; ) {
      const size = 1 + Math.floor(random() * 40);
      const batch = facts.slice(i, i + size).map((fact) => ({ companyId: batched, ...fact }));
      await database.db.transaction((tx) => applyActivityFacts(tx, batch));
      i += size;
    }
  }, 120_000);

  afterAll(async () => {
    for (const table of [activities, dashboardTotals, dashboardVerdicts, teams]) {
      for (const companyId of [single, batched, small]) await database.db.delete(table).where(eq(table.companyId, companyId));
    }
    await database.close();
  });

  it('holds exactly what recomputing every rollup from the rows finds, in zones kept from the start and one built after', async () => {
    expect(await dashboardRollupDifferences(database.db, [single, batched, small])).toEqual([]);
    await ensureZoneRollups(database, ZONE_LATER);
    expect(await dashboardRollupDifferences(database.db, [single, batched, small])).toEqual([]);
    const cells = await database.db.select().from(dashboardTotals).where(eq(dashboardTotals.companyId, single));
    // Other zones may be kept too (the test database is shared); these four must be.
    expect([...new Set(cells.map((cell) => cell.zone))]).toEqual(expect.arrayContaining([...ZONES_FIRST, ZONE_LATER]));
    expect(cells.length).toBeGreaterThan(200);
  });

  it('notices a rollup that drifted from the rows', async () => {
    const [cell] = await database.db.select().from(dashboardTotals).where(eq(dashboardTotals.companyId, single)).limit(1);
    await database.db.update(dashboardTotals).set({ activities: cell!.activities + 1 }).where(sqlKey(cell!));
    const differences = await dashboardRollupDifferences(database.db, [single, batched, small]);
    expect(differences).toHaveLength(1);
    expect(differences[0]).toContain(cell!.zone);
    await database.db.update(dashboardTotals).set({ activities: cell!.activities }).where(sqlKey(cell!));
    expect(await dashboardRollupDifferences(database.db, [single, batched, small])).toEqual([]);
  });

  /** Calls the service with figures from the rollups and from the rows, and expects the same answer. */
  async function bothWays<T>(companyId: string, call: (service: ReturnType<typeof dashboardAnswers>) => Promise<T>): Promise<T> {
    const fromRollups = dashboardAnswers({ database, logger, now: () => new Date('2026-11-25T12:00:00Z') });
    const fromRows = dashboardAnswers({ database, logger, source: 'rows', now: () => new Date('2026-11-25T12:00:00Z') });
    const [a, b] = await runWithRequestContext({ companyId }, () => Promise.all([call(fromRollups), call(fromRows)]));
    expect(a).toEqual(b);
    return a;
  }

  it('answers every call the same from the rollups as from the rows', async () => {
    const random = seededRandom(11);
    const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
    const day = () => new Date(FIRST_DAY + Math.floor(random() * (DAYS + 4) - 2) * DAY_MS).toISOString().slice(0, 10);
    let compared = 0;
    // Ranges of whole quarters and months with days at either end are read from cells of every span.
    const chosen: [string, string][] = [
      ['2026-10-01', '2026-12-31'],
      ['2026-09-14', '2027-01-05'],
      ['2026-07-01', '2026-12-31'],
      ['2026-09-30', '2026-12-01'],
      ['2026-10-01', ''],
      ['', '2026-12-31'],
    ];
    for (let i = 0; i < 40; i++) {
      let [from, to] = i < chosen.length ? chosen[i]! : [random() < 0.85 ? day() : '', random() < 0.85 ? day() : ''];
      if (from && to && to < from) [from, to] = [to, from];
      const companyId = pick([single, batched]);
      const scope = {
        kind: pick([ActivityKind.ACTIVITY_KIND_CALL, ActivityKind.ACTIVITY_KIND_CALL, ActivityKind.ACTIVITY_KIND_MEETING]),
        department: pick(['', '', 'sales']),
        teamIds: pick([[], ['team-a'], ['team-a', 'team-b'], ['team-c']]),
        representativeEmails: pick([[], [], ['ben@example.com'], ['anna@example.com', 'cara@example.com']]),
        from,
        to,
        timeZone: pick([...ZONES_FIRST, 'Europe/Kiev', ZONE_LATER]),
        mode: pick(['', 'team', 'representative']),
      };
      const leaderboard = await bothWays(companyId, (service) => service.getLeaderboard({ scope }));
      await bothWays(companyId, (service) => service.getMetrics({ scope }));
      for (const groupBy of ['day', 'week', 'month']) {
        await bothWays(companyId, (service) => service.getPerformance({ scope, groupBy, metrics: ['score', 'conversion_rate', 'total_calls', 'script_match', 'unsuccessful'] }));
      }
      const subset = pick(['successful', 'unsuccessful', 'total_calls']);
      const byParameter = await bothWays(companyId, (service) => service.getPerformance({ scope, groupBy: 'parameter', metrics: [subset] }));
      if (from && to) {
        const groups = [
          { id: '1', name: 'Sales', mode: 'team', teamIds: ['team-a', 'team-b'], memberEmails: [], from, to },
          { id: '2', name: 'Ben', mode: 'representative', teamIds: ['team-a', 'team-b'], memberEmails: ['ben@example.com'], from, to },
        ];
        await bothWays(companyId, (service) => service.getRecommendations({ groups, kind: scope.kind, timeZone: scope.timeZone }));
      }
      const person = pick(PEOPLE);
      await bothWays(companyId, (service) => service.getCoaching({ representativeEmail: person, kind: scope.kind, from, to, timeZone: scope.timeZone }).catch((error: unknown) => String(error)));
      compared += leaderboard.rows.length + byParameter.labels.length;
    }
    expect(compared).toBeGreaterThan(100);
  }, 120_000);

  describe('a small company, checked by hand', () => {
    const call = (at: string, fields: { team?: string; email?: string; score?: number | null; success?: boolean | null; script?: number | null; duration?: number; results?: CriterionResult[] }) => {
      const activityId = randomUUID();
      const facts: ActivityFact[] = [
        receivedCall(at, fields.team, fields.email),
        { type: 'transcribed', part: { transcribedAt: new Date(at), durationSeconds: fields.duration ?? 0, transcript: '' } },
      ];
      if (fields.score !== null) {
        facts.push({
          type: 'evaluated',
          part: {
            evaluatedAt: new Date(at),
            score: fields.score ?? 5,
            scriptMatch: fields.script ?? null,
            isSuccessful: fields.success ?? null,
            results: fields.results ?? [],
            criteriaNeedingReview: 0,
            summary: '',
            improvements: [],
            durationSeconds: 1,
          },
        });
      }
      return { activityId, facts };
    };
    const greeting = (passed: boolean): CriterionResult => ({ groupId: 'opening', criterionId: 'greeting', passed });
    const calls: Record<string, ReturnType<typeof call>> = {};

    beforeAll(async () => {
      Object.assign(calls, {
        // 31 October 22:30 UTC is 1 November 00:30 in Kyiv (UTC+2 after 25 October).
        lateOctober: call('2026-10-31T22:30:00Z', { score: 8, success: true, script: 90, duration: 120, results: [greeting(true)] }),
        november2: call('2026-11-02T10:00:00Z', { score: 6, success: false, script: 70, duration: 300, results: [greeting(false)] }),
        november9: call('2026-11-09T10:00:00Z', { email: 'ben@example.com', score: 10, success: true, duration: 60, results: [greeting(false)] }),
        unscored: call('2026-11-10T10:00:00Z', { email: 'ben@example.com', score: null }),
        // Judged on a criterion whose ids JSON must escape: identity allows none, but analytics keeps what it is sent.
        bravo: call('2026-11-03T10:00:00Z', { team: 'team-b', email: 'ben@example.com', score: 4, success: false, results: [{ groupId: 'wrap-up "final"', criterionId: 'C:\\notes', passed: false }] }),
      });
      for (const { activityId, facts } of Object.values(calls)) for (const fact of facts) await database.db.transaction((tx) => applyActivityFact(tx, small, activityId, fact));
    });

    it('ranks the leaderboard by success rate, with names from the teams', async () => {
      const { rows } = await bothWays(small, (service) => service.getLeaderboard({ scope: { kind: ActivityKind.ACTIVITY_KIND_CALL, teamIds: ['team-a'], representativeEmails: [], from: '2026-10-01', to: '2026-11-30', timeZone: 'UTC', department: '', mode: '' } }));
      expect(rows).toEqual([
        { teamId: 'team-a', representativeName: 'Anna Lee', representativeEmail: 'anna@example.com', totalActivities: 2, successfulActivities: 1, successRate: 50, averageScore: 7 },
        { teamId: 'team-a', representativeName: 'Ben Novak', representativeEmail: 'ben@example.com', totalActivities: 2, successfulActivities: 1, successRate: 50, averageScore: 10 },
      ].sort((a, b) => b.averageScore - a.averageScore));
    });

    it('buckets by the caller’s day: Europe/Kiev is read as Europe/Kyiv, and weeks start on Monday', async () => {
      const scope = (timeZone: string) => ({ kind: ActivityKind.ACTIVITY_KIND_CALL, teamIds: ['team-a'], representativeEmails: [], from: '2026-10-01', to: '2026-11-30', timeZone, department: '', mode: 'team' });
      const utc = await bothWays(small, (service) => service.getPerformance({ scope: scope('UTC'), groupBy: 'month', metrics: ['total_calls'] }));
      const kyiv = await bothWays(small, (service) => service.getPerformance({ scope: scope('Europe/Kiev'), groupBy: 'month', metrics: ['total_calls'] }));
      expect(utc.labels).toEqual(['2026-10', '2026-11']);
      expect(utc.datasets.map((dataset) => dataset.data.map((point) => point.value))).toEqual([[1, 3]]);
      expect(kyiv.datasets.map((dataset) => dataset.data.map((point) => point.value))).toEqual([[0, 4]]);
      expect(kyiv.datasets[0]).toMatchObject({ label: 'Alpha', seriesKey: 'team-a', metric: 'total_calls', color: '#2563eb' });
      const weeks = await bothWays(small, (service) => service.getPerformance({ scope: { ...scope('UTC'), from: '2026-11-01', to: '2026-11-14' }, groupBy: 'week', metrics: ['score'] }));
      // 1 November 2026 is a Sunday: its week starts on Monday 26 October.
      expect(weeks.labels).toEqual(['2026-10-26', '2026-11-02', '2026-11-09']);
      expect(weeks.datasets[0]!.data).toEqual([{}, { value: 6 }, { value: 10 }]);
      await expect(runWithRequestContext({ companyId: small }, () => dashboardAnswers({ database, logger }).getPerformance({ scope: scope('Mars/Olympus'), groupBy: 'day', metrics: [] }))).rejects.toThrow(
        new DomainError('invalid-argument', 'Unknown time zone: Mars/Olympus. Send an IANA name such as Europe/Kyiv or America/New_York.'),
      );
    });

    it('compares the KPIs with the period of the same length before', async () => {
      const answer = await bothWays(small, (service) =>
        service.getMetrics({ scope: { kind: ActivityKind.ACTIVITY_KIND_CALL, teamIds: ['team-a'], representativeEmails: [], from: '2026-11-01', to: '2026-11-30', timeZone: 'UTC', department: '', mode: 'representative' } }),
      );
      expect(answer).toEqual({
        current: { conversionRate: rounded((1 / 3) * 100), avgActivitiesPerRep: 1.5, avgDuration: 180, successScore: 8 },
        previous: { conversionRate: 100, avgActivitiesPerRep: 1, avgDuration: 120, successScore: 8 },
        currentFrom: '2026-11-01',
        currentTo: '2026-11-30',
        previousFrom: '2026-10-02',
        previousTo: '2026-10-31',
      });
    });

    it('measures each member against their daily target, a member of two teams in each', async () => {
      const { groups } = await bothWays(small, (service) =>
        service.getRecommendations({
          groups: [{ id: 'g', name: 'November', mode: 'team', teamIds: ['team-a', 'team-b'], memberEmails: [], from: '2026-11-02', to: '2026-11-06' }],
          kind: ActivityKind.ACTIVITY_KIND_CALL,
          timeZone: 'UTC',
        }),
      );
      const [group] = groups;
      expect(group).toMatchObject({ groupId: 'g', workingDays: 5 });
      const [alpha, bravo] = group!.teams;
      expect(alpha!.members.map((member) => [member.email, member.standing])).toEqual([
        [
          'anna@example.com',
          { target: 10, successfulCalls: 0, totalCalls: 1, conversionRate: 0, averageScore: 6, onTarget: false, additionalNeeded: undefined, requiredConversionRate: 100, requiredAverageScore: 10, scoredCalls: 1 },
        ],
        [
          'ben@example.com',
          { target: 5, successfulCalls: 0, totalCalls: 0, conversionRate: 0, averageScore: 0, onTarget: false, additionalNeeded: undefined, requiredConversionRate: 100, requiredAverageScore: 0, scoredCalls: 0 },
        ],
      ]);
      expect(alpha!.members[0]!.criteria).toEqual([expect.objectContaining({ criterionName: 'Greets the customer', failureRate: 100, failed: 1, judged: 1, teamId: 'team-a' })]);
      expect(bravo!.members.map((member) => [member.email, member.standing?.target, member.standing?.totalCalls])).toEqual([
        ['ben@example.com', 15, 1],
        ['cara@example.com', 0, 0],
      ]);
      expect(bravo!.standing).toMatchObject({ target: 15, totalCalls: 1, averageScore: 4, scoredCalls: 1 });
      // The team's criteria, for the advice the web app words: its representatives' verdicts by name.
      expect(alpha!.criteria).toEqual([{ criterionName: 'Greets the customer', failureRate: 100, failed: 1, judged: 1 }]);
      expect(bravo!.criteria).toEqual([{ criterionName: 'C:\\notes', failureRate: 100, failed: 1, judged: 1 }]);
      expect([alpha!.scriptMatch, bravo!.scriptMatch]).toEqual([70, undefined]);
      expect(bravo!.members[0]!.criteria).toEqual([
        { criterionName: 'C:\\notes', failureRate: 100, failed: 1, judged: 1, groupId: 'wrap-up "final"', criterionId: 'C:\\notes', teamId: 'team-b', failedActivityIds: [] },
      ]);
    });

    it('counts only the chosen members in representative mode, for them and for their team', async () => {
      const { groups } = await bothWays(small, (service) =>
        service.getRecommendations({
          groups: [{ id: 'g', name: 'Anna and Cara', mode: 'representative', teamIds: ['team-a', 'team-b'], memberEmails: ['anna@example.com', 'cara@example.com'], from: '2026-11-02', to: '2026-11-06' }],
          kind: ActivityKind.ACTIVITY_KIND_CALL,
          timeZone: 'UTC',
        }),
      );
      const [alpha, bravo] = groups[0]!.teams;
      expect(alpha!.members.map((member) => member.email)).toEqual(['anna@example.com']);
      expect(alpha!.standing).toMatchObject({ target: 10, totalCalls: 1, averageScore: 6 });
      // Ben's call in team B is not Cara's: the team counts her alone.
      expect(bravo!.members.map((member) => member.email)).toEqual(['cara@example.com']);
      expect(bravo!.standing).toMatchObject({ target: 0, totalCalls: 0, averageScore: 0, scoredCalls: 0 });
      expect(bravo).toMatchObject({ scriptMatch: undefined, criteria: [] });
    });

    it('coaches a representative with the activities that failed each criterion', async () => {
      const coaching = await bothWays(small, (service) => service.getCoaching({ representativeEmail: 'Anna@Example.com', kind: ActivityKind.ACTIVITY_KIND_CALL, from: '2026-10-01', to: '2026-11-30', timeZone: 'UTC' }));
      expect(coaching).toMatchObject({ email: 'anna@example.com', name: 'Anna Lee', teamIds: ['team-a'] });
      expect(coaching.failedCriteria).toEqual([expect.objectContaining({ criterionName: 'Greets the customer', failed: 1, judged: 2, failureRate: 50, failedActivityIds: [calls.november2!.activityId] })]);
      expect(coaching.trend).toEqual([
        { week: '2026-10-26', averageScore: 8, activities: 1 },
        { week: '2026-11-02', averageScore: 6, activities: 1 },
      ]);
      expect(coaching.statistics.find((statistic) => statistic.metric === 'total_activities')).toEqual({ metric: 'total_activities', value: 2, teamMedian: 2 });
      await expect(
        runWithRequestContext({ companyId: small }, () => dashboardAnswers({ database, logger }).getCoaching({ representativeEmail: 'nobody@example.com', kind: ActivityKind.ACTIVITY_KIND_CALL, from: '', to: '', timeZone: '' })),
      ).rejects.toThrow('No activities or team membership for nobody@example.com.');
    });
  });
});

/**
 * A zone's build holds writes off only while it lists the zone. PostgreSQL only: PGlite's one
 * connection runs one transaction at a time, so there every write waits for a build (as for any
 * transaction) and the build lists and counts in one.
 */
describe('a zone built while activities are written, on PostgreSQL', () => {
  const ZONE = 'Asia/Tokyo';
  const companyId = randomUUID();
  let database: AnalyticsDatabase;
  const postgres = DRIVERS.find((candidate) => candidate.driver === 'postgres')!;

  const forgetZone = async (zone: string) => {
    await database.db.delete(dashboardZones).where(eq(dashboardZones.zone, zone));
    for (const table of [dashboardTotals, dashboardVerdicts, dashboardTotalsStaged, dashboardVerdictsStaged]) await database.db.delete(table).where(eq(table.zone, zone));
  };
  const write = (facts: { activityId: string; fact: ActivityFact }[]) =>
    database.db.transaction((tx) => applyActivityFacts(tx, facts.map((fact) => ({ companyId, ...fact }))));

  beforeAll(async () => {
    database = await openAnalyticsDatabase(postgres.open);
    await forgetZone(ZONE);
    await forgetZone('Asia/Seoul');
    await database.db.insert(teams).values(TEAMS.map((team) => ({ companyId, ...team, deleted: false, version: 1 })));
    await write(history(21));
  }, 60_000);

  afterAll(async () => {
    await forgetZone(ZONE);
    await forgetZone('Asia/Seoul');
    for (const table of [activities, teams]) await database.db.delete(table).where(eq(table.companyId, companyId));
    await database.close();
  });

  it('lists the zone at once, lets writes through while it counts the rows, and ends exact', async () => {
    // A call whose whole-team quarter cell the count will write; a transaction that has written
    // the same key, and not committed, holds the count there for as long as the test wants.
    await write([{ activityId: randomUUID(), fact: receivedCall('2026-11-02T10:00:00Z') }]);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const holder = database.db
      .transaction(async (tx) => {
        await tx.insert(dashboardTotalsStaged).values({
          companyId,
          zone: ZONE,
          kind: 'call',
          span: 'q',
          teamId: 'team-a',
          representativeEmail: '*',
          period: '2026-10-01',
          ...NO_CALLS,
        });
        holding();
        await released;
        throw new Error('rolled back on purpose');
      })
      .catch((error: unknown) => expect(String(error)).toContain('rolled back on purpose'));
    await held;

    const build = ensureZoneRollups(database, ZONE);
    const listed = async () => (await database.db.select().from(dashboardZones).where(eq(dashboardZones.zone, ZONE)))[0];
    while ((await listed()) === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await listed())!.builtAt).toBeNull();

    // Written while the count is held: new calls, re-scorings and deletions all go through.
    const during = history(22).slice(0, 120);
    for (let i = 0; i < during.length; i += 10) await write(during.slice(i, i + 10));
    await write([{ activityId: randomUUID(), fact: receivedCall('2026-12-30T23:30:00Z') }]);
    expect(await zoneReady(database.db, ZONE)).toBe(false);

    release();
    await holder;
    await build;
    expect((await listed())!.builtAt).toBeInstanceOf(Date);
    expect(await zoneReady(database.db, ZONE)).toBe(true);
    expect(await dashboardRollupDifferences(database.db, [companyId])).toEqual([]);
    expect(await database.db.select().from(dashboardTotalsStaged).where(eq(dashboardTotalsStaged.zone, ZONE))).toEqual([]);
    expect(await database.db.select().from(dashboardVerdictsStaged).where(eq(dashboardVerdictsStaged.zone, ZONE))).toEqual([]);
  }, 60_000);

  it('starts again after a build that died, dropping what it left', async () => {
    const ZONE_LEFT = 'Asia/Seoul';
    await database.db.insert(dashboardZones).values({ zone: ZONE_LEFT, builtAt: null });
    const left = { companyId, kind: 'call' as const, span: 'd' as const, teamId: 'team-a', representativeEmail: '*', period: '2026-11-02' };
    const counts = { ...NO_CALLS, activities: 7 };
    await database.db.insert(dashboardTotals).values({ ...left, zone: ZONE_LEFT, ...counts });
    await database.db.insert(dashboardTotalsStaged).values({ ...left, zone: ZONE_LEFT, ...counts });
    expect(await zoneReady(database.db, ZONE_LEFT)).toBe(false);
    await ensureZoneRollups(database, ZONE_LEFT);
    expect(await zoneReady(database.db, ZONE_LEFT)).toBe(true);
    expect(await dashboardRollupDifferences(database.db, [companyId])).toEqual([]);
  }, 60_000);
});

const rounded = (value: number) => Math.round(value * 100) / 100;

/** A totals cell's measures, all zero. */
const NO_CALLS = { activities: 0, successful: 0, unsuccessful: 0, scored: 0, scoreSum: '0', scriptMatched: 0, scriptMatchSum: '0', timed: 0, durationSum: 0 };

/** A call received when it occurred, at `at`, from a representative of a team. */
function receivedCall(at: string, teamId = 'team-a', representativeEmail = 'anna@example.com'): ActivityFact {
  return {
    type: 'received',
    part: {
      receivedAt: new Date(at),
      kind: 'call',
      teamId,
      occurredAt: new Date(at),
      representativeEmail,
      representativeName: 'N/A',
      contactId: '',
      contactName: '',
      contactCompany: '',
      contactRole: '',
      link: '',
      title: '',
      fileName: 'call.txt',
      media: 'text',
    },
  };
}

function sqlKey(cell: typeof dashboardTotals.$inferSelect) {
  return and(
    eq(dashboardTotals.companyId, cell.companyId),
    eq(dashboardTotals.zone, cell.zone),
    eq(dashboardTotals.kind, cell.kind),
    eq(dashboardTotals.span, cell.span),
    eq(dashboardTotals.teamId, cell.teamId),
    eq(dashboardTotals.representativeEmail, cell.representativeEmail),
    eq(dashboardTotals.period, cell.period),
  );
}
