/**
 * Facts merged in batches (`applyActivityFacts`, what loaders use) leave exactly the rows that the
 * consumers' one-fact-at-a-time `applyActivityFact` leaves for the same facts in the same order:
 * new activities, activities that already have a row, repeats, deletions and ids that are not
 * UUIDs, in one batch or in many, and with two batches at the same moment (rollups included).
 */
import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '@parlance/platform/testing/seeded-random';
import { applyActivityFact, applyActivityFacts, type KeyedActivityFact } from '../src/db/activities.repository.js';
import { activities, activityDayCounts, activityDayVerdicts } from '../src/db/schema.js';
import type { ActivityFact } from '../src/domain/activity-state.js';
import { DRIVERS, openAnalyticsDatabase, type AnalyticsDatabase } from './support/analytics-database.js';
import { shuffledWithRepeats } from './support/shuffle.js';

const ACTIVITIES = 60;
const minute = (minutes: number) => new Date(Date.UTC(2026, 9, 5, 9, minutes));

/** Every kind of fact for one activity, some twice with different times (a newer one must win). */
function factsOf(activityId: string, random: () => number): { activityId: string; fact: ActivityFact }[] {
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const receipt = (at: number): ActivityFact => ({
    type: 'received',
    part: {
      receivedAt: minute(at),
      kind: pick(['call', 'meeting'] as const),
      teamId: pick(['team-a', 'team-b']),
      occurredAt: minute(at - 1),
      representativeEmail: pick(['anna@example.com', 'ben@example.com']),
      representativeName: 'Anna',
      contactId: `contact-${Math.floor(random() * 5)}`,
      // Quotes, backslashes, commas and braces survive the arrays rows travel in.
      contactName: pick(['Mark Doe', 'Zoë "Z" O\'Brien, {CFO} \\ NULL', '']),
      contactCompany: 'Acme',
      contactRole: 'Buyer',
      link: '',
      title: `Title ${at}`,
      fileName: 'call.mp3',
      media: pick(['audio', 'text'] as const),
    },
  });
  const evaluation = (at: number): ActivityFact => {
    const verdicts = ['greeting', 'discovery', 'closing, "final" {step} \\'].map((criterionId) => ({ groupId: 'opening', criterionId, passed: random() < 0.5 }));
    return {
      type: 'evaluated',
      part: {
        evaluatedAt: minute(at),
        score: Math.round(random() * 1000) / 100,
        scriptMatch: random() < 0.3 ? null : Math.round(random() * 1000) / 10,
        isSuccessful: pick([true, false, null]),
        results: verdicts,
        criteriaNeedingReview: pick([0, 0, 1, 2]),
        summary: `Summary ${at}`,
        improvements: [{ groupId: 'opening', groupName: 'Opening', criteria: [{ criterionId: 'greeting', criterionName: 'Greeting', suggestion: `Say hello ${at}.` }] }],
        durationSeconds: Math.floor(random() * 900),
      },
    };
  };
  const facts: ActivityFact[] = [
    receipt(1 + Math.floor(random() * 5)),
    { type: 'transcribed', part: { transcribedAt: minute(10 + Math.floor(random() * 5)), durationSeconds: Math.floor(random() * 1200), transcript: random() < 0.5 ? '' : '[0:00] Anna: Hello.' } },
    evaluation(20 + Math.floor(random() * 10)),
  ];
  if (random() < 0.4) facts.push(receipt(6 + Math.floor(random() * 5)), evaluation(30 + Math.floor(random() * 10)));
  if (random() < 0.3) facts.push({ type: 'failed', at: minute(2 + Math.floor(random() * 20)) });
  if (random() < 0.15) facts.push({ type: 'deleted', at: minute(50 + Math.floor(random() * 5)) });
  return facts.map((fact) => ({ activityId, fact }));
}

describe.each(DRIVERS)('applyActivityFacts on $driver', ({ open }) => {
  let database: AnalyticsDatabase;
  const companies: string[] = [];

  beforeAll(async () => {
    database = await openAnalyticsDatabase(open);
  });

  afterAll(async () => {
    for (const company of companies) {
      for (const table of [activities, activityDayCounts, activityDayVerdicts]) await database.db.delete(table).where(eq(table.companyId, company));
    }
    await database.close();
  });

  /** A delivery of every fact of ACTIVITIES activities (and of one id that is not a UUID), shuffled, some repeated. */
  function delivery(seed: number): { activityId: string; fact: ActivityFact }[] {
    const random = seededRandom(seed);
    const ids = Array.from({ length: ACTIVITIES }, (_, i) => (i === 0 ? randomUUID().toUpperCase() : randomUUID()));
    return shuffledWithRepeats([...ids, 'not-a-uuid'].flatMap((id) => factsOf(id, random)), random);
  }

  const newCompany = () => {
    const company = randomUUID();
    companies.push(company);
    return company;
  };

  /** The company's rows, by id, without the company. */
  async function rowsOf(company: string) {
    const rows = await database.db.select().from(activities).where(eq(activities.companyId, company)).orderBy(asc(activities.id));
    return rows.map(({ companyId: _companyId, ...row }) => row);
  }

  /** The company's rollup cells that count something, without the company. */
  async function cellsOf(company: string) {
    const counts = await database.db.select().from(activityDayCounts).where(eq(activityDayCounts.companyId, company));
    const verdicts = await database.db.select().from(activityDayVerdicts).where(eq(activityDayVerdicts.companyId, company));
    const key = ({ companyId: _companyId, activities, ...cell }: { companyId: string; activities: number }) => `${JSON.stringify(cell)}=${activities}`;
    return [...counts, ...verdicts].filter((cell) => cell.activities !== 0).map(key).sort();
  }

  async function oneAtATime(company: string, facts: { activityId: string; fact: ActivityFact }[]) {
    for (const { activityId, fact } of facts) await database.db.transaction((tx) => applyActivityFact(tx, company, activityId, fact));
  }

  const keyed = (company: string, facts: { activityId: string; fact: ActivityFact }[]): KeyedActivityFact[] => facts.map((fact) => ({ companyId: company, ...fact }));

  it('leaves the rows one-at-a-time application leaves, in one batch or in many of random sizes', async () => {
    const facts = delivery(11);
    const single = newCompany();
    await oneAtATime(single, facts);
    const expected = await rowsOf(single);
    expect(expected).toHaveLength(ACTIVITIES);
    expect(expected.filter((row) => row.deletedAt === null && row.evaluatedAt !== null).length).toBeGreaterThan(ACTIVITIES / 2);
    expect(expected.some((row) => row.deletedAt !== null)).toBe(true);

    const whole = newCompany();
    await database.db.transaction((tx) => applyActivityFacts(tx, keyed(whole, facts)));
    expect(await rowsOf(whole)).toEqual(expected);

    // Many batches: most activities already have a row when later facts arrive.
    const batched = newCompany();
    const random = seededRandom(12);
    for (let i = 0; i < facts.length; ) {
      const size = 1 + Math.floor(random() * 25);
      const batch = keyed(batched, facts.slice(i, i + size));
      await database.db.transaction((tx) => applyActivityFacts(tx, batch));
      i += size;
    }
    expect(await rowsOf(batched)).toEqual(expected);
  });

  it('loses no fact when two batches about the same activities are applied at the same moment', async () => {
    const facts = delivery(21);
    const single = newCompany();
    await oneAtATime(single, facts);

    const racing = newCompany();
    const half = Math.floor(facts.length / 2);
    await Promise.all(
      [facts.slice(0, half), facts.slice(half)].map((part) => database.db.transaction((tx) => applyActivityFacts(tx, keyed(racing, part)))),
    );
    expect(await rowsOf(racing)).toEqual(await rowsOf(single));
    // And the lists' rollups moved with the rows, neither counting a fact twice nor losing one.
    expect(await cellsOf(racing)).toEqual(await cellsOf(single));
  });

  it('does nothing for no facts', async () => {
    await database.db.transaction((tx) => applyActivityFacts(tx, []));
  });
});
