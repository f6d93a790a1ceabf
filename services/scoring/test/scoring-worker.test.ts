/**
 * The scoring worker on a real database (PGlite, the scoring schema and its migrations), and the
 * consumers that feed it: it stores the evaluation and announces it (and the insight tokens it
 * used) in one transaction; judges against the team as it stood when the transcript arrived, or as
 * scoring holds it at claim time; fails with a reason a person can read when there is nothing to
 * judge or no team; takes up work whose worker died; and stores nothing for a deleted activity.
 * The engine here is a small one written for the test (the real ones have their own tests).
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@parlance/platform/db/database';
import { migrate } from '@parlance/platform/db/migrate';
import { claimLeasedWork } from '@parlance/platform/work/leased-work';
import { captureLogs } from '@parlance/platform/testing/captured-logs';
import { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';
import type { CriteriaGroup } from '@parlance/proto/parlance/identity/v1/teams';
import { ActivityDeleted } from '@parlance/proto/parlance/ingest/v1/events';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { Evaluation } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { ActivityScored, InsightTokensConsumed, ScoringFailed } from '@parlance/proto/parlance/scoring/v1/events';
import { TranscriptReady } from '@parlance/proto/parlance/transcription/v1/events';
import { SpeakerRole, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { TeamChanged } from '@parlance/proto/parlance/identity/v1/events';
import { applyTeamCriteria, findTeamSnapshot } from '../src/db/team-criteria.repository.js';
import { enqueueEvaluation } from '../src/db/pending-evaluations.repository.js';
import { evaluations, outbox, pendingEvaluations, pendingEvaluationsQueue } from '../src/db/schema.js';
import { EVALUATION_WARNINGS } from '../src/domain/assemble-evaluation.js';
import { DEFAULT_REVIEW_THRESHOLD } from '../src/domain/review.js';
import { UnjudgeableActivityError, type EvaluationEngine, type EvaluationInput, type JudgedVerdict, type Judgement, type TeamSnapshot } from '../src/engines/evaluation-engine.js';
import { activityDeletedConsumer } from '../src/events/activity-deleted.consumer.js';
import { teamChangedConsumer } from '../src/events/team-changed.consumer.js';
import { transcriptReadyConsumer } from '../src/events/transcript-ready.consumer.js';
import { startRescore } from '../src/pipeline/rescore.js';
import { SCORING_REASONS, startScoringWorker, type ScoringWorker, type ScoringWorkerSettings } from '../src/pipeline/scoring-worker.js';
import { transcriptOf } from './support/sample-calls.js';

const COMPANY = randomUUID();
/** Said in every transcript here; no log line may carry it. */
const SECRET_PHRASE = 'my card number is 4111';

const logs = captureLogs('scoring-worker-test', 'debug');
const logger = logs.logger;

let database: DatabaseHandle<Record<string, unknown>>;
let worker: ScoringWorker | undefined;

beforeAll(async () => {
  database = await openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'scoring' });
  await migrate(database, { migrationsFolder: fileURLToPath(new URL('../src/db/migrations', import.meta.url)) });
}, 60_000);

afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

afterAll(async () => {
  await database.close();
});

const GROUPS: CriteriaGroup[] = [
  {
    id: 'opening',
    name: 'Opening',
    criteria: [
      { id: 'greeting', name: 'Greeting', prompt: 'The representative greets the customer by saying hello.', weight: 4 },
      { id: 'name', name: 'Name', prompt: 'The representative says their name.', weight: 2 },
    ],
  },
  { id: 'closing', name: 'Closing', criteria: [{ id: 'thanks', name: 'Thanks', prompt: 'The representative thanks the customer.', weight: 4 }] },
];

const team = (overrides: Partial<TeamSnapshot> = {}): TeamSnapshot => ({
  id: 'team-1',
  version: 1,
  name: 'Support',
  department: 'support',
  criteriaGroups: GROUPS,
  successPrompt: 'The customer’s problem is solved.',
  callScript: '',
  reviewThreshold: DEFAULT_REVIEW_THRESHOLD,
  ...overrides,
});

const CALL = transcriptOf([
  ['Grace', 'Hello, this is Grace from Parlance.'],
  ['Sam', `Hi, ${SECRET_PHRASE} and my order is late.`],
  ['Grace', 'Let me look at it right away.'],
]);

/**
 * Passes a criterion when its first prompt keyword after "by saying"/"says"/"thanks" appears:
 * enough to give passed and failed verdicts with real evidence.
 */
function keywordEngine(options: { tokens?: number; judge?: (input: EvaluationInput, signal: AbortSignal) => Promise<Judgement> } = {}): EvaluationEngine & { inputs: EvaluationInput[] } {
  const inputs: EvaluationInput[] = [];
  const keywords: Record<string, string> = { greeting: 'Hello', name: 'this is', thanks: 'thank' };
  return {
    name: 'test-keywords',
    inputs,
    async judge(input, signal) {
      inputs.push(input);
      if (options.judge) return options.judge(input, signal);
      const verdicts: JudgedVerdict[] = input.team.criteriaGroups.flatMap((group) =>
        group.criteria.map((criterion) => {
          const keyword = keywords[criterion.id] ?? criterion.name;
          const index = input.transcript.segments.findIndex((segment) => segment.text.toLowerCase().includes(keyword.toLowerCase()));
          const segment = input.transcript.segments[index];
          const at = segment ? segment.text.toLowerCase().indexOf(keyword.toLowerCase()) : -1;
          return {
            groupId: group.id,
            criterionId: criterion.id,
            groupName: group.name,
            criterionName: criterion.name,
            weight: criterion.weight,
            passed: index >= 0,
            applicable: true,
            confidence: 0.9,
            reason: index >= 0 ? `Said “${keyword}”.` : `Never said “${keyword}”.`,
            expected: index >= 0 ? '' : `Say “${keyword}”.`,
            suggestion: index >= 0 ? '' : `Say “${keyword}” before the call ends.`,
            evidence: segment ? [{ quote: segment.text.slice(at, at + keyword.length), segmentIndex: index, speaker: segment.speaker, role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE }] : [],
          };
        }),
      );
      return {
        verdicts,
        success: { isSuccessful: true, reason: 'The order is being looked at.', confidence: 0.6, evidence: [] },
        summary: { text: 'Grace took a call about a late order.', participants: ['Grace (representative)', 'Sam (contact)'], discussion: 'A late order.', outcome: 'Looked into.', nextSteps: [] },
        engine: 'test-keywords',
        fallbackReason: '',
        insightTokens: options.tokens ?? 0,
        warnings: [],
      };
    },
  };
}

/** An engine that never answers: it waits until the work is abandoned. */
function hangingEngine(): EvaluationEngine & { started: number } {
  const engine = {
    name: 'test-hanging',
    started: 0,
    judge: (_input: EvaluationInput, signal: AbortSignal) =>
      new Promise<Judgement>((_resolve, reject) => {
        engine.started += 1;
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      }),
  };
  return engine;
}

async function queue(overrides: { transcript?: Transcript; team?: TeamSnapshot | null; teamId?: string; createdAt?: Date } = {}): Promise<string> {
  const activityId = randomUUID();
  await enqueueEvaluation(database.db, {
    activityId,
    companyId: COMPANY,
    jobId: randomUUID(),
    kind: 'call',
    teamId: overrides.teamId ?? 'team-1',
    representativeEmail: 'grace@example.com',
    representativeName: 'Grace',
    transcript: overrides.transcript ?? CALL,
    team: overrides.team === undefined ? team() : overrides.team,
  });
  if (overrides.createdAt) await database.db.update(pendingEvaluations).set({ createdAt: overrides.createdAt }).where(eq(pendingEvaluations.activityId, activityId));
  return activityId;
}

function start(engine: EvaluationEngine, settings: Partial<ScoringWorkerSettings> = {}): ScoringWorker {
  worker = startScoringWorker({ db: database.db, engine, logger, settings: { workers: 1, pollMs: 20, leaseMs: 60_000, maxAttempts: 3, ...settings } });
  return worker;
}

/** The events written for an activity, in order: their types and payloads. */
async function eventsFor(activityId: string) {
  const rows = await database.db.select().from(outbox).orderBy(outbox.id);
  return rows
    .map((row) => EventEnvelope.decode(row.payload))
    .filter((envelope) => {
      if (envelope.type === 'scoring.activity-scored.v1') return ActivityScored.decode(envelope.payload).activityId === activityId;
      if (envelope.type === 'scoring.insight-tokens-consumed.v1') return InsightTokensConsumed.decode(envelope.payload).activityId === activityId;
      if (envelope.type === 'scoring.scoring-failed.v1') return ScoringFailed.decode(envelope.payload).activityId === activityId;
      return false;
    });
}

const pendingRow = async (activityId: string) => (await database.db.select().from(pendingEvaluations).where(eq(pendingEvaluations.activityId, activityId)))[0];
const storedRow = async (activityId: string) => (await database.db.select().from(evaluations).where(eq(evaluations.activityId, activityId)))[0];

async function settled(activityId: string): Promise<void> {
  await expect.poll(() => pendingRow(activityId), { timeout: 10_000, interval: 20 }).toBeUndefined();
}

async function failureReason(activityId: string): Promise<string | undefined> {
  const failed = (await eventsFor(activityId)).find((event) => event.type === 'scoring.scoring-failed.v1');
  return failed ? ScoringFailed.decode(failed.payload).reason : undefined;
}

describe('the scoring worker', () => {
  it('stores the evaluation, removes the work, and announces it and the insight tokens it used, in one transaction', async () => {
    const activityId = await queue();
    start(keywordEngine({ tokens: 1_234 }));
    await settled(activityId);

    const stored = await storedRow(activityId);
    expect(stored).toMatchObject({ companyId: COMPANY, kind: 'call', teamId: 'team-1', teamVersion: 1, representativeEmail: 'grace@example.com', engine: 'test-keywords', score: 6, insightTokens: 1_234, isSuccessful: true, scriptMatch: null });
    const evaluation = Evaluation.fromJSON(stored!.evaluation);
    expect(evaluation.verdicts.map((verdict) => [verdict.criterionId, verdict.passed])).toEqual([['greeting', true], ['name', true], ['thanks', false]]);
    expect(evaluation.improvements).toEqual([{ groupId: 'closing', groupName: 'Closing', criteria: [{ criterionId: 'thanks', criterionName: 'Thanks', suggestion: 'Say “thank” before the call ends.' }] }]);
    expect(evaluation.statistics?.speakers.map((speaker) => speaker.speaker)).toEqual(['Grace', 'Sam']);

    const events = await eventsFor(activityId);
    expect(events.map((event) => event.type)).toEqual(['scoring.activity-scored.v1', 'scoring.insight-tokens-consumed.v1']);
    expect(events.every((event) => event.companyId === COMPANY)).toBe(true);
    const scored = ActivityScored.decode(events[0]!.payload);
    expect(scored.jobId).toBe(stored!.jobId);
    expect(Evaluation.toJSON(scored.evaluation!)).toEqual(stored!.evaluation);
    expect(InsightTokensConsumed.decode(events[1]!.payload)).toMatchObject({ activityId, teamId: 'team-1', tokens: 1_234, model: 'test-keywords', consumedAt: evaluation.evaluatedAt });
    expect(logs.text()).toContain('"msg":"scored"');
  });

  it('judges against the team as it stood when the transcript arrived, not as it changed since', async () => {
    await applyTeamCriteria(database.db, { companyId: COMPANY, teamId: 'team-1', version: 7, name: 'Support', department: 'support', criteriaGroups: [], successPrompt: '', callScript: '', reviewThreshold: 0.7, deletedAt: null, updatedAt: new Date() });
    const activityId = await queue({ team: team({ version: 3 }) });
    const engine = keywordEngine();
    start(engine);
    await settled(activityId);
    expect(engine.inputs[0]!.team.version).toBe(3);
    expect((await storedRow(activityId))?.teamVersion).toBe(3);
  });

  it('reads the team at claim time when it was unknown as the transcript arrived', async () => {
    const teamId = `team-${randomUUID()}`;
    const activityId = await queue({ team: null, teamId });
    await applyTeamCriteria(database.db, { companyId: COMPANY, teamId, version: 5, name: 'Late team', department: 'sales', criteriaGroups: GROUPS, successPrompt: '', callScript: '', reviewThreshold: 0.7, deletedAt: null, updatedAt: new Date() });
    const engine = keywordEngine();
    start(engine);
    await settled(activityId);
    expect(engine.inputs[0]!.team).toMatchObject({ id: teamId, version: 5, name: 'Late team' });
    expect((await storedRow(activityId))?.teamVersion).toBe(5);
  });

  it('marks verdicts for review by the team’s own threshold: the same 0.9 verdicts are sure for one team and unsure for another', async () => {
    const trusting = await queue({ team: team({ reviewThreshold: 0.5 }) });
    const doubting = await queue({ team: team({ reviewThreshold: 0.95 }) });
    start(keywordEngine());
    await settled(trusting);
    await settled(doubting);

    const trusted = Evaluation.fromJSON((await storedRow(trusting))!.evaluation);
    expect(trusted.reviewThreshold).toBe(0.5);
    expect(trusted.verdicts.map((verdict) => verdict.needsReview)).toEqual([false, false, false]);
    const doubted = Evaluation.fromJSON((await storedRow(doubting))!.evaluation);
    expect(doubted.reviewThreshold).toBe(0.95);
    expect(doubted.verdicts.map((verdict) => verdict.needsReview)).toEqual([true, true, true]);
    // The score counts a verdict awaiting review by the side it leans to: the threshold does not move it.
    expect(doubted.score).toBe(trusted.score);
    const announced = ActivityScored.decode((await eventsFor(doubting))[0]!.payload).evaluation!;
    expect(announced.reviewThreshold).toBe(0.95);
    expect(announced.verdicts.every((verdict) => verdict.needsReview)).toBe(true);
  });

  it('reads a team queued before teams had a review threshold as having the default', async () => {
    const activityId = await queue({ team: team({ reviewThreshold: 0.95 }) });
    await database.db.update(pendingEvaluations).set({ team: sql`${pendingEvaluations.team} - 'reviewThreshold'` }).where(eq(pendingEvaluations.activityId, activityId));
    expect((await pendingRow(activityId))?.team).not.toHaveProperty('reviewThreshold');
    const engine = keywordEngine();
    start(engine);
    await settled(activityId);
    expect(engine.inputs[0]!.team.reviewThreshold).toBe(DEFAULT_REVIEW_THRESHOLD);
    const evaluation = Evaluation.fromJSON((await storedRow(activityId))!.evaluation);
    expect(evaluation.reviewThreshold).toBe(DEFAULT_REVIEW_THRESHOLD);
    expect(evaluation.verdicts.map((verdict) => verdict.needsReview)).toEqual([false, false, false]);
  });

  it('waits a while for a team scoring does not know yet, then fails with a reason', async () => {
    const waiting = await queue({ team: null, teamId: 'team-on-its-way' });
    const engine = keywordEngine();
    start(engine, { teamWaitMs: 60_000, teamRetryMs: 100 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    await worker!.stop();
    // Looked at and put back, without counting an attempt.
    expect(await pendingRow(waiting)).toMatchObject({ attempts: 0, leaseExpiresAt: expect.any(Date) });
    expect(await failureReason(waiting)).toBeUndefined();

    const given = await queue({ team: null, teamId: 'team-never-saved', createdAt: new Date(Date.now() - 120_000) });
    start(engine, { teamWaitMs: 60_000 });
    await settled(given);
    expect(await failureReason(given)).toBe("the team's evaluation criteria never reached scoring");
    expect(engine.inputs).toEqual([]);
    await database.db.delete(pendingEvaluations).where(eq(pendingEvaluations.activityId, waiting));
  });

  it('fails a transcript with no words without asking the engine', async () => {
    const engine = keywordEngine();
    const silent = await queue({ transcript: transcriptOf([['Grace', ' … '], ['Sam', '']]) });
    const empty = await queue({ transcript: transcriptOf([]) });
    start(engine);
    await settled(silent);
    await settled(empty);
    expect(await failureReason(silent)).toBe(SCORING_REASONS.noWords);
    expect(await failureReason(empty)).toBe('the transcript has no words to evaluate');
    expect(engine.inputs).toEqual([]);
    expect(await storedRow(silent)).toBeUndefined();
  });

  it('stores an evaluation with no verdicts, a score of 0 and a warning for a team with no criteria', async () => {
    const activityId = await queue({ team: team({ criteriaGroups: [] }) });
    start(keywordEngine());
    await settled(activityId);
    const evaluation = Evaluation.fromJSON((await storedRow(activityId))!.evaluation);
    expect(evaluation).toMatchObject({ score: 0, verdicts: [], improvements: [] });
    expect(evaluation.warnings).toContain(EVALUATION_WARNINGS.noCriteria);
    expect((await eventsFor(activityId)).map((event) => event.type)).toEqual(['scoring.activity-scored.v1', 'scoring.insight-tokens-consumed.v1']);
  });

  it('fails with a general reason on an unexpected error, logging the error itself', async () => {
    const activityId = await queue();
    start(
      keywordEngine({
        judge: async () => {
          throw new Error('model server at 10.0.0.7 reset the connection');
        },
      }),
    );
    await settled(activityId);
    expect(await failureReason(activityId)).toBe('an unexpected error occurred while scoring');
    expect(logs.text()).toContain('10.0.0.7 reset the connection');
    expect(await storedRow(activityId)).toBeUndefined();
  });

  it('fails with the engine’s own reason when it cannot judge the activity at all', async () => {
    const activityId = await queue();
    start(
      keywordEngine({
        judge: async () => {
          throw new UnjudgeableActivityError('the transcript has 120,000 words, more than the 100,000 the offline evaluator reads');
        },
      }),
    );
    await settled(activityId);
    expect(await failureReason(activityId)).toBe('the transcript has 120,000 words, more than the 100,000 the offline evaluator reads');
  });

  it('takes up work whose worker was killed mid-evaluation once its lease runs out', async () => {
    const activityId = await queue();
    // A process took the work and died while the engine worked: nobody renews its lease.
    const claimed = await database.db.transaction((tx) => claimLeasedWork(tx, pendingEvaluationsQueue, 800));
    expect(claimed?.activityId).toBe(activityId);

    const engine = keywordEngine();
    start(engine);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(engine.inputs).toEqual([]);
    await settled(activityId);
    expect(engine.inputs).toHaveLength(1);
    expect((await storedRow(activityId))?.score).toBe(6);
    expect((await eventsFor(activityId)).map((event) => event.type)).toEqual(['scoring.activity-scored.v1', 'scoring.insight-tokens-consumed.v1']);
  });

  it('hands the work in hand back when it stops, for the next worker to take up at once', async () => {
    const activityId = await queue();
    const hanging = hangingEngine();
    const first = start(hanging);
    await expect.poll(() => hanging.started, { timeout: 5_000, interval: 20 }).toBe(1);
    await first.stop();
    expect(await pendingRow(activityId)).toMatchObject({ attempts: 0 });

    start(keywordEngine());
    await settled(activityId);
    expect(await storedRow(activityId)).toBeDefined();
  });

  it('drops work whose activity is deleted while the engine works: no evaluation, nothing announced', async () => {
    const activityId = await queue();
    const hanging = hangingEngine();
    start(hanging, { leaseMs: 300 });
    await expect.poll(() => hanging.started, { timeout: 5_000, interval: 20 }).toBe(1);
    await database.db.transaction((tx) => activityDeletedConsumer.handle(envelope('ingest.activity-deleted.v1', ActivityDeleted.encode({ activityId, kind: ActivityKind.ACTIVITY_KIND_CALL }).finish()), tx, undefined as never));
    await expect.poll(() => logs.text().includes('The activity was deleted.'), { timeout: 5_000, interval: 20 }).toBe(true);
    expect(await storedRow(activityId)).toBeUndefined();
    expect(await eventsFor(activityId)).toEqual([]);
  });

  it('gives up on work that keeps interrupting its worker, with a reason', async () => {
    const activityId = await queue();
    await database.db.update(pendingEvaluations).set({ attempts: 3, leaseExpiresAt: sql`now() - interval '1 second'` }).where(eq(pendingEvaluations.activityId, activityId));
    const engine = keywordEngine();
    start(engine);
    await settled(activityId);
    expect(await failureReason(activityId)).toBe(SCORING_REASONS.interrupted(3));
    expect(engine.inputs).toEqual([]);
  });

  it('keeps answering events while the engine is busy: the worker runs apart from the consumers', async () => {
    const busy = await queue();
    const hanging = hangingEngine();
    start(hanging);
    await expect.poll(() => hanging.started, { timeout: 5_000, interval: 20 }).toBe(1);
    const activityId = randomUUID();
    await database.db.transaction((tx) => transcriptReadyConsumer(() => {}).handle(transcriptReady(activityId), tx, undefined as never));
    expect(await pendingRow(activityId)).toMatchObject({ attempts: 0 });
    await database.db.delete(pendingEvaluations).where(sql`${pendingEvaluations.activityId} in (${busy}, ${activityId})`);
  });
});

describe('the consumers', () => {
  const ready = (activityId: string, teamId = 'team-1') => database.db.transaction((tx) => transcriptReadyConsumer(() => {}).handle(transcriptReady(activityId, teamId), tx, undefined as never));
  const deleted = (activityId: string) =>
    database.db.transaction((tx) => activityDeletedConsumer.handle(envelope('ingest.activity-deleted.v1', ActivityDeleted.encode({ activityId, kind: ActivityKind.ACTIVITY_KIND_CALL }).finish()), tx, undefined as never));

  it('queue a transcript with the team as scoring holds it at that moment', async () => {
    const teamId = `team-${randomUUID()}`;
    await applyTeamCriteria(database.db, { companyId: COMPANY, teamId, version: 2, name: 'Sales', department: 'sales', criteriaGroups: GROUPS, successPrompt: 'A sale.', callScript: 'Hello', reviewThreshold: 0.85, deletedAt: null, updatedAt: new Date() });
    const known = randomUUID();
    await ready(known, teamId);
    expect(await pendingRow(known)).toMatchObject({ kind: 'call', teamId, representativeEmail: 'grace@example.com', representativeName: 'Grace', team: { id: teamId, version: 2, callScript: 'Hello', criteriaGroups: GROUPS, reviewThreshold: 0.85 } });

    const unknown = randomUUID();
    await ready(unknown, 'team-nobody-announced');
    expect(await pendingRow(unknown)).toMatchObject({ team: null });
    await database.db.delete(pendingEvaluations).where(sql`${pendingEvaluations.activityId} in (${known}, ${unknown})`);
  });

  it('keep each team’s review threshold as identity.team-changed.v1 last said, reading an unset one as the default', async () => {
    const teamId = `team-${randomUUID()}`;
    const changed = (version: number, reviewThreshold: number) =>
      database.db.transaction((tx) =>
        teamChangedConsumer.handle(
          envelope(
            'identity.team-changed.v1',
            TeamChanged.encode({
              team: { id: teamId, name: 'Sales', department: 'sales', criteriaGroups: GROUPS, successPrompt: 'A sale.', callScript: '', crmId: '', memberEmails: [], version, createdAt: new Date(), updatedAt: new Date(), reviewThreshold },
              members: [],
              deleted: false,
            }).finish(),
          ),
          tx,
          undefined as never,
        ),
      );
    const held = async () => (await findTeamSnapshot(database.db, COMPANY, teamId))?.reviewThreshold;

    await changed(1, 0.85);
    expect(await held()).toBe(0.85);
    await changed(2, 0.6);
    expect(await held()).toBe(0.6);
    // An older version arriving late changes nothing.
    await changed(1, 0.9);
    expect(await held()).toBe(0.6);
    // A team announced before teams had a threshold says 0 (protobuf's unset).
    await changed(3, 0);
    expect(await held()).toBe(DEFAULT_REVIEW_THRESHOLD);

    // A transcript queued now carries it in the team snapshot.
    await changed(4, 0.9);
    const activityId = randomUUID();
    await ready(activityId, teamId);
    expect(await pendingRow(activityId)).toMatchObject({ team: { id: teamId, version: 4, reviewThreshold: 0.9 } });
    await database.db.delete(pendingEvaluations).where(eq(pendingEvaluations.activityId, activityId));
  });

  it('queue nothing for an activity already evaluated', async () => {
    const activityId = await queue();
    start(keywordEngine());
    await settled(activityId);
    await worker!.stop();
    await ready(activityId);
    expect(await pendingRow(activityId)).toBeUndefined();
    expect(await eventsFor(activityId)).toHaveLength(2);
  });

  it('remove a deletion’s evaluation and pending work, and ignore its transcript arriving later', async () => {
    const scored = await queue();
    start(keywordEngine());
    await settled(scored);
    await worker!.stop();
    const waiting = await queue();
    await Promise.all([deleted(scored), deleted(waiting)]);
    expect(await storedRow(scored)).toBeUndefined();
    expect(await pendingRow(waiting)).toBeUndefined();

    const late = randomUUID();
    await deleted(late);
    await ready(late);
    expect(await pendingRow(late)).toBeUndefined();
  });
});

describe('re-scoring', () => {
  /** An engine by another name: the keyword engine's verdicts, announced as `name`. */
  function renamed(name: string): EvaluationEngine {
    const inner = keywordEngine({ tokens: 10 });
    return { name, judge: async (input, signal) => ({ ...(await inner.judge(input, signal)), engine: name }) };
  }

  async function scoredBy(engineName: string): Promise<string> {
    const activityId = await queue();
    start(renamed(engineName));
    await settled(activityId);
    await worker!.stop();
    worker = undefined;
    return activityId;
  }

  it('replaces the stored evaluation, announces it as rescored, and charges nothing more', async () => {
    const activityId = await scoredBy('engine-before');
    await enqueueEvaluation(database.db, { activityId, companyId: COMPANY, jobId: randomUUID(), kind: 'call', teamId: 'team-1', representativeEmail: 'grace@example.com', representativeName: '', transcript: CALL, team: null, rescore: true });
    await applyTeamCriteria(database.db, { companyId: COMPANY, teamId: 'team-1', version: 9, name: 'Support', department: 'support', criteriaGroups: GROUPS, successPrompt: '', callScript: '', reviewThreshold: 0.7, deletedAt: null, updatedAt: new Date() });
    start(renamed('engine-after'));
    await settled(activityId);

    expect(await storedRow(activityId)).toMatchObject({ engine: 'engine-after', teamVersion: 9 });
    const events = await eventsFor(activityId);
    expect(events.map((event) => event.type)).toEqual(['scoring.activity-scored.v1', 'scoring.insight-tokens-consumed.v1', 'scoring.activity-scored.v1']);
    expect(events.filter((event) => event.type === 'scoring.activity-scored.v1').map((event) => ActivityScored.decode(event.payload)).map(({ rescored, evaluation }) => [rescored, evaluation?.engine])).toEqual([
      [false, 'engine-before'],
      [true, 'engine-after'],
    ]);
    expect(logs.text()).toContain('"msg":"scored again"');
  });

  it('keeps the earlier evaluation, announcing no failure, when the activity cannot be scored again', async () => {
    const activityId = await scoredBy('engine-kept');
    const silent = transcriptOf([['Grace', '']]);
    await enqueueEvaluation(database.db, { activityId, companyId: COMPANY, jobId: randomUUID(), kind: 'call', teamId: 'team-1', representativeEmail: 'grace@example.com', representativeName: '', transcript: silent, team: null, rescore: true });
    start(renamed('engine-never'));
    await settled(activityId);
    expect((await storedRow(activityId))?.engine).toBe('engine-kept');
    expect((await eventsFor(activityId)).map((event) => event.type)).toEqual(['scoring.activity-scored.v1', 'scoring.insight-tokens-consumed.v1']);
    expect(logs.text()).toContain('could not score again; the earlier evaluation stays');
  });

  it('queues every evaluation of a superseded engine a batch at a time, passes over those without a transcript, and asks transcription again when it fails', async () => {
    const superseded = `engine-old-${randomUUID()}`;
    const kept = await scoredBy(superseded);
    const gone = await scoredBy(superseded);
    const other = await scoredBy('engine-current');
    const asked: string[] = [];
    let failures = 1;
    start(renamed('engine-current'));
    const rescore = startRescore({
      db: database.db,
      superseded: [superseded],
      transcriptOf: async (companyId, activityId) => {
        expect(companyId).toBe(COMPANY);
        asked.push(activityId);
        if (activityId === gone) return undefined;
        if (failures-- > 0) throw new Error('transcription is starting');
        return CALL;
      },
      wake: () => undefined,
      logger,
      settings: { batchSize: 1, pollMs: 20, retryMs: 20, startDelayMs: 0 },
    });
    expect(await rescore.done).toEqual({ rescored: 1, passedOver: 1 });
    expect((await storedRow(kept))?.engine).toBe('engine-current');
    expect((await storedRow(gone))?.engine).toBe(superseded);
    expect(asked.filter((id) => id === other)).toEqual([]);
    expect(logs.text()).toContain('transcription did not answer; the re-score waits and asks again');
    expect(logs.text()).toContain('scored again 2 of 2');
    await rescore.stop();
  });
});

describe('the logs', () => {
  it('never carry transcript text', () => {
    expect(logs.text()).toContain('scoring');
    expect(logs.text()).not.toContain(SECRET_PHRASE);
  });
});

function envelope(type: string, payload: Uint8Array): EventEnvelope {
  return { id: randomUUID(), type, companyId: COMPANY, producer: 'test', occurredAt: new Date(), payload: Buffer.from(payload) };
}

function transcriptReady(activityId: string, teamId = 'team-1'): EventEnvelope {
  return envelope(
    'transcription.transcript-ready.v1',
    TranscriptReady.encode({
      activityId,
      jobId: randomUUID(),
      kind: ActivityKind.ACTIVITY_KIND_CALL,
      teamId,
      representativeEmail: 'grace@example.com',
      representativeName: 'Grace',
      transcript: { ...CALL, activityId },
    }).finish(),
  );
}
