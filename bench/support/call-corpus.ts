/**
 * A company's scored calls for the list benchmarks, drawn from a seeded generator so every run
 * (and every machine) gets the same rows: 50 teams in three departments with 5 to 7 criteria each,
 * 1,000 representatives spread unevenly over the teams (the biggest team has about six times the
 * calls of the smallest), contacts met more than once, and calls over two quarters, newest last.
 *
 * A call is what the pipeline says about it: its receipt, its transcript and its evaluation, as
 * the events carry them (proto messages), turned into facts by analytics' own fact builders
 * (`receivedFact`, `transcribedFact`, `evaluatedFact`). Some calls are re-scored later, and a few
 * are deleted. A verdict needs review 2 % of the time (about one call in nine has one), drawn from
 * a generator of its own so that every other value is what it was before verdicts were marked.
 */
import { seededRandom } from '@parlance/platform/testing/seeded-random';
import { ActivityReceived } from '@parlance/proto/parlance/ingest/v1/events';
import { ActivityKind, MediaKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { Evaluation } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { KeyedActivityFact } from '@parlance/analytics/db/activities.repository';
import { evaluatedFact, receivedFact, transcribedFact } from '@parlance/analytics/domain/activity-facts';
import type { TeamState } from '@parlance/analytics/domain/team-state';

/** The two quarters the calls fall in; "this quarter" is the second. */
export const LAST_QUARTER = { start: new Date('2026-07-01T00:00:00Z'), end: new Date('2026-10-01T00:00:00Z') };
export const THIS_QUARTER = { start: new Date('2026-10-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') };

const TEAMS = 50;
const REPRESENTATIVES = 1_000;
const CONTACTS_PER_CALL = 0.4; // a contact is called 2.5 times on average
const DEPARTMENTS = [...Array<string>(25).fill('sales'), ...Array<string>(15).fill('support'), ...Array<string>(10).fill('hr')];
const FIRST_NAMES = ['Anna', 'Ben', 'Chloe', 'David', 'Emma', 'Farid', 'Grace', 'Hugo', 'Ines', 'Jonas', 'Kira', 'Liam', 'Maya', 'Noah', 'Olga', 'Pavel', 'Rosa', 'Sami', 'Tara', 'Umar'];
const LAST_NAMES = ['Lee', 'Novak', 'Garcia', 'Smith', 'Okafor', 'Rossi', 'Schmidt', 'Dubois', 'Tanaka', 'Silva', 'Kowalski', 'Haddad', 'Berg', 'Moreau', 'Jensen'];
const COMPANIES = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Vandelay', 'Stark', 'Wayne', 'Wonka', 'Tyrell', 'Soylent', 'Cyberdyne'];
const ROLES = ['Buyer', 'Head of Data', 'CFO', 'Office Manager', 'IT Lead', 'Candidate', 'Customer'];
const CRITERIA = ['Greets and introduces', 'Confirms the agenda', 'Asks open questions', 'Restates the need', 'Handles objections', 'Presents the offer', 'Checks understanding', 'Agrees next steps', 'Confirms contact details', 'Closes politely'];

export interface CorpusTeam extends TeamState {
  groups: { id: string; name: string; criteria: { id: string; name: string; weight: number; difficulty: number }[] }[];
  hasScript: boolean;
  hasSuccessPrompt: boolean;
}

export interface Representative {
  email: string;
  name: string;
  team: CorpusTeam;
  skill: number;
}

export interface CallCorpus {
  companyId: string;
  teams: CorpusTeam[];
  representatives: Representative[];
  /** How many calls each team has (by team id), and how many of them fall in this quarter. */
  callsPerTeam: Map<string, { all: number; thisQuarter: number }>;
  /** Contact ids that calls name, for lookups. */
  contactIds: string[];
  /**
   * The facts in delivery order, `batchCalls` calls at a time: every call's receipt, transcript and
   * evaluation in shuffled order, about 3% of evaluations a batch late (their row exists by then)
   * and 1% of calls re-scored a batch late.
   */
  batches(batchCalls: number): Generator<KeyedActivityFact[]>;
  /** Calls deleted after scoring, beyond `calls` (their rows stay as tombstones). */
  deleted: number;
}

/** A UUID (version 4 layout) from the generator. */
function seededUuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = (8 + Math.floor(random() * 4)).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/**
 * How often a verdict needs review. The offline engine leaves more below the threshold (2 in 3 on
 * CompliBench), so that nearly every call would have one; rarer ones are the harder case for the
 * Needs review list, whose page then lies among more rows that do not match.
 */
const NEEDS_REVIEW = 0.02;

/** `calls` scored calls of one company, the same ones for the same `seed`. */
export function callCorpus(calls: number, seed = 20_261_001): CallCorpus {
  const random = seededRandom(seed);
  const reviewRandom = seededRandom(seed + 1);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const companyId = seededUuid(random);

  const teams: CorpusTeam[] = Array.from({ length: TEAMS }, (_, t) => {
    const criteriaCount = 5 + Math.floor(random() * 3);
    const names = [...CRITERIA].sort(() => random() - 0.5).slice(0, criteriaCount);
    // Weights in hundredths that total exactly 10, as identity requires.
    const raw = names.map(() => 0.5 + random());
    const total = raw.reduce((sum, value) => sum + value, 0);
    const hundredths = raw.map((value) => Math.floor((value / total) * 1_000));
    hundredths[0]! += 1_000 - hundredths.reduce((sum, value) => sum + value, 0);
    const criteria = names.map((name, i) => ({ id: seededUuid(random), name, weight: hundredths[i]! / 100, difficulty: random() * 0.5 }));
    const split = 2 + Math.floor(random() * (criteriaCount - 3));
    return {
      teamId: seededUuid(random),
      name: `Team ${t + 1}`,
      department: DEPARTMENTS[t]!,
      deleted: false,
      version: 1,
      groups: [
        { id: seededUuid(random), name: 'Opening', criteria: criteria.slice(0, split) },
        { id: seededUuid(random), name: 'Closing', criteria: criteria.slice(split) },
      ],
      hasScript: random() < 0.8,
      hasSuccessPrompt: random() < 0.9,
      members: [],
      criteria: [],
    };
  });

  // Team t's share of the representatives falls off as 1/(t + 10): from ~55 down to ~9.
  const shares = teams.map((_, t) => 1 / (t + 10));
  const shareTotal = shares.reduce((sum, share) => sum + share, 0);
  const representatives: Representative[] = [];
  teams.forEach((team, t) => {
    const count = t === TEAMS - 1 ? REPRESENTATIVES - representatives.length : Math.round((REPRESENTATIVES * shares[t]!) / shareTotal);
    for (let i = 0; i < count; i++) {
      const first = pick(FIRST_NAMES);
      const last = pick(LAST_NAMES);
      const n = representatives.length;
      representatives.push({ email: `${first}.${last}${n}@example.com`.toLowerCase(), name: `${first} ${last}`, team, skill: 0.2 + random() * 0.6 });
      // Daily targets of 1 to 4 successful calls, from the position alone (the generator's sequence is the corpus).
      team.members.push({ email: representatives[n]!.email, firstName: first, lastName: last, target: 1 + (n % 4) });
    }
  });
  for (const team of teams) team.criteria = team.groups.flatMap((group) => group.criteria.map((criterion) => ({ groupId: group.id, criterionId: criterion.id, name: criterion.name })));

  const contactCount = Math.max(1, Math.round(calls * CONTACTS_PER_CALL));
  const contactIds = Array.from({ length: contactCount }, (_, i) => `crm-contact-${i}`);
  const callsPerTeam = new Map(teams.map((team) => [team.teamId, { all: 0, thisQuarter: 0 }]));
  const deleted = Math.round(calls * 0.005);
  const span = THIS_QUARTER.end.getTime() - LAST_QUARTER.start.getTime();

  /** The facts of the call at position i of `total` in time order; a deleted one also gets its deletion. */
  function callFacts(i: number, total: number, isDeleted: boolean): { now: KeyedActivityFact[]; late: KeyedActivityFact[] } {
    const activityId = seededUuid(random);
    const representative = representatives[Math.floor(random() * representatives.length)]!;
    const { team } = representative;
    // Roughly in time order, as uploads arrive, on working hours.
    const day = new Date(LAST_QUARTER.start.getTime() + Math.floor((i / total) * span));
    const occurredAt = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 7 + Math.floor(random() * 10), Math.floor(random() * 60), Math.floor(random() * 60)));
    const durationMs = Math.round(60_000 + random() * random() * 2_400_000);
    const contact = Math.floor(random() * random() * contactCount);
    const counted = callsPerTeam.get(team.teamId)!;
    if (!isDeleted) {
      counted.all += 1;
      if (occurredAt >= THIS_QUARTER.start) counted.thisQuarter += 1;
    }

    const received = ActivityReceived.fromPartial({
      activityId,
      jobId: activityId,
      kind: ActivityKind.ACTIVITY_KIND_CALL,
      teamId: team.teamId,
      representativeEmail: representative.email,
      representativeName: representative.name,
      fileName: `call-${i}.mp3`,
      mediaKind: random() < 0.9 ? MediaKind.MEDIA_KIND_AUDIO : MediaKind.MEDIA_KIND_TEXT,
      mediaFormat: 'mp3',
      occurredAt,
      source: 'upload',
      contact: { id: contactIds[contact]!, name: `${FIRST_NAMES[contact % FIRST_NAMES.length]} ${LAST_NAMES[contact % LAST_NAMES.length]}`, company: COMPANIES[contact % COMPANIES.length]!, role: ROLES[contact % ROLES.length]! },
    });
    const receivedAt = new Date(occurredAt.getTime() + 600_000);
    const transcribedAt = new Date(receivedAt.getTime() + 120_000);
    const evaluation = (evaluatedAt: Date) => {
      const verdicts = team.groups.flatMap((group) =>
        group.criteria.map((criterion) => ({
          groupId: group.id,
          criterionId: criterion.id,
          passed: random() < representative.skill + 0.3 - criterion.difficulty,
          applicable: random() > 0.05,
          needsReview: reviewRandom() < NEEDS_REVIEW,
        })),
      );
      // As scoring's weightedScore: the weights of the passed criteria, in hundredths.
      const weights = team.groups.flatMap((group) => group.criteria.map((criterion) => criterion.weight));
      const score = verdicts.reduce((sum, verdict, v) => sum + (verdict.passed && verdict.applicable ? Math.round(weights[v]! * 100) : 0), 0) / 100;
      const failed = verdicts.filter((verdict) => verdict.applicable && !verdict.passed);
      return Evaluation.fromPartial({
        activityId,
        kind: ActivityKind.ACTIVITY_KIND_CALL,
        teamId: team.teamId,
        teamVersion: 1,
        representativeEmail: representative.email,
        score,
        scriptMatch: team.hasScript ? Math.round(Math.min(100, Math.max(0, representative.skill * 100 + (random() - 0.5) * 40)) * 10) / 10 : undefined,
        isSuccessful: team.hasSuccessPrompt ? random() < 0.1 + score * 0.08 : undefined,
        verdicts,
        summary: {
          text: `${representative.name} spoke with ${received.contact!.name} of ${received.contact!.company} about renewing their plan. The customer asked about pricing and the onboarding timeline; ${representative.name.split(' ')[0]} explained both and proposed a follow-up call next week to review the contract.`,
        },
        improvements: team.groups
          .map((group) => ({
            groupId: group.id,
            groupName: group.name,
            criteria: group.criteria
              .filter((criterion) => failed.some((verdict) => verdict.criterionId === criterion.id))
              .map((criterion) => ({ criterionId: criterion.id, criterionName: criterion.name, suggestion: `Next time, ${criterion.name.toLowerCase()} early in the call and check the customer agrees before moving on.` })),
          }))
          .filter((group) => group.criteria.length > 0),
        statistics: { durationMs: durationMs - 2_000 },
        engine: 'offline-evidence',
        evaluatedAt,
      });
    };
    const keyed = (fact: KeyedActivityFact['fact']): KeyedActivityFact => ({ companyId, activityId, fact });
    const evaluated = keyed(evaluatedFact(evaluation(new Date(transcribedAt.getTime() + 180_000)), transcribedAt));
    const now = [
      keyed(receivedFact(received, receivedAt)),
      keyed(transcribedFact(ActivityKind.ACTIVITY_KIND_CALL, Transcript.fromPartial({ activityId, durationMs }), transcribedAt)),
    ];
    const late: KeyedActivityFact[] = [];
    (random() < 0.03 ? late : now).push(evaluated);
    if (random() < 0.01) late.push(keyed(evaluatedFact(evaluation(new Date(transcribedAt.getTime() + 86_400_000)), transcribedAt)));
    if (isDeleted) late.push(keyed({ type: 'deleted', at: new Date(transcribedAt.getTime() + 2 * 86_400_000) }));
    return { now, late };
  }

  function* batches(batchCalls: number): Generator<KeyedActivityFact[]> {
    const total = calls + deleted;
    // The deleted calls are spread among the others.
    const deletedEvery = Math.floor(total / Math.max(1, deleted));
    let late: KeyedActivityFact[] = [];
    let dropped = 0;
    for (let start = 0; start < total; start += batchCalls) {
      const batch = late;
      late = [];
      for (let i = start; i < Math.min(total, start + batchCalls); i++) {
        const isDeleted = dropped < deleted && i % deletedEvery === deletedEvery - 1;
        if (isDeleted) dropped += 1;
        const facts = callFacts(i, total, isDeleted);
        batch.push(...facts.now);
        late.push(...facts.late);
      }
      for (let j = batch.length - 1; j > 0; j--) {
        const k = Math.floor(random() * (j + 1));
        [batch[j], batch[k]] = [batch[k]!, batch[j]!];
      }
      yield batch;
    }
    if (late.length > 0) yield late;
  }

  return { companyId, teams, representatives, callsPerTeam, contactIds, batches, deleted };
}
