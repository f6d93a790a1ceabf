/**
 * Works through the activities waiting to be evaluated: claims one, has the engine judge its
 * transcript against the team's criteria, and in one transaction stores the evaluation, removes
 * the work and announces `scoring.activity-scored.v1` and `scoring.insight-tokens-consumed.v1` (a
 * re-score, pipeline/rescore.ts, replaces the evaluation and announces only the first, marked) —
 * or announces `scoring.scoring-failed.v1` with a reason a person can read. It runs apart from
 * the consumers, so a slow engine holds up no event. A claim is a lease renewed while the engine
 * works, so the work of a process that died is taken up by another; work whose activity is
 * deleted meanwhile is dropped.
 */
import type { Database } from '@parlance/platform/db/database';
import { outboxMessageFor } from '@parlance/platform/events/event-envelope';
import type { Logger } from '@parlance/platform/logger';
import { enqueue } from '@parlance/platform/outbox/enqueue';
import { deferLeasedWork, recordLeasedOutcome } from '@parlance/platform/work/leased-work';
import { startLeasedWorkers, type LeasedWorkerSettings, type LeasedWorkers } from '@parlance/platform/work/leased-workers';
import type { Evaluation } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { ActivityScored, InsightTokensConsumed, ScoringFailed } from '@parlance/proto/parlance/scoring/v1/events';
import { saveEvaluation } from '../db/evaluations.repository.js';
import { queuedTeamOf, transcriptOf, type PendingEvaluation } from '../db/pending-evaluations.repository.js';
import { outbox, pendingEvaluationsQueue } from '../db/schema.js';
import { findTeamSnapshot } from '../db/team-criteria.repository.js';
import { assembleEvaluation, hasWordsToEvaluate } from '../domain/assemble-evaluation.js';
import { UnjudgeableActivityError, type EvaluationEngine, type EvaluationInput, type TeamSnapshot } from '../engines/evaluation-engine.js';

export const ACTIVITY_SCORED = 'scoring.activity-scored.v1';
export const INSIGHT_TOKENS_CONSUMED = 'scoring.insight-tokens-consumed.v1';
export const SCORING_FAILED = 'scoring.scoring-failed.v1';

export interface ScoringWorkerSettings extends LeasedWorkerSettings {
  /**
   * How long work may wait for its team's criteria to reach scoring (`identity.team-changed.v1`
   * travels on another topic, so a transcript can overtake it) before it fails.
   */
  teamWaitMs: number;
  /** How long work waiting for its team is put back before it is looked at again. */
  teamRetryMs: number;
}

const DEFAULT_SCORING_WORKER_SETTINGS: ScoringWorkerSettings = {
  workers: 2,
  leaseMs: 60_000,
  pollMs: 1_000,
  maxAttempts: 3,
  teamWaitMs: 60_000,
  teamRetryMs: 1_000,
};

export const SCORING_REASONS = {
  noWords: 'the transcript has no words to evaluate',
  teamUnknown: "the team's evaluation criteria never reached scoring",
  interrupted: (times: number) => `scoring was interrupted ${times} times; the transcript may be too demanding to evaluate`,
  unexpected: 'an unexpected error occurred while scoring',
} as const;

export type ScoringWorker = LeasedWorkers;

export function startScoringWorker(deps: {
  db: Database<Record<string, unknown>>;
  engine: EvaluationEngine;
  logger: Logger;
  settings?: Partial<ScoringWorkerSettings>;
}): ScoringWorker {
  const settings = { ...DEFAULT_SCORING_WORKER_SETTINGS, ...deps.settings };
  const { db, engine, logger } = deps;
  const logFor = (work: PendingEvaluation) => logger.child({ activityId: work.activityId, jobId: work.jobId, companyId: work.companyId });

  async function process(work: PendingEvaluation, signal: AbortSignal): Promise<void> {
    const log = logFor(work);
    const started = performance.now();
    try {
      const transcript = transcriptOf(work);
      if (!hasWordsToEvaluate(transcript)) return await fail(work, SCORING_REASONS.noWords, log);
      const team = await teamFor(work);
      if (!team) {
        // The team may be on its way: look again shortly, and give up only after a while.
        if (Date.now() - work.createdAt.getTime() < settings.teamWaitMs) {
          await deferLeasedWork(db, pendingEvaluationsQueue, pendingEvaluationsQueue.claimOf(work), settings.teamRetryMs);
          return;
        }
        return await fail(work, SCORING_REASONS.teamUnknown, log);
      }
      const input: EvaluationInput = {
        activityId: work.activityId,
        kind: work.kind,
        transcript,
        team,
        representative: { email: work.representativeEmail, name: work.representativeName },
      };
      const judgement = await engine.judge(input, signal);
      signal.throwIfAborted();
      const evaluation = assembleEvaluation(input, judgement, new Date(), team.reviewThreshold);
      if (await complete(work, evaluation)) {
        log.info(
          { engine: evaluation.engine, score: evaluation.score, verdicts: evaluation.verdicts.length, insightTokens: evaluation.insightTokens, tookMs: Math.round(performance.now() - started) },
          work.rescore ? 'scored again' : 'scored',
        );
      }
    } catch (error) {
      // Deleted, taken over or stopping: the workers log it, and nothing is recorded.
      if (signal.aborted) throw error;
      // The engine says why it cannot judge this activity, for a person.
      if (error instanceof UnjudgeableActivityError) return await fail(work, error.message, log);
      log.error({ err: error }, 'scoring failed unexpectedly');
      await fail(work, SCORING_REASONS.unexpected, log);
    }
  }

  /** The team as it stood when the transcript arrived, or else as scoring holds it now. */
  async function teamFor(work: PendingEvaluation): Promise<TeamSnapshot | undefined> {
    return queuedTeamOf(work) ?? (await findTeamSnapshot(db, work.companyId, work.teamId));
  }

  /** Stores and announces the evaluation; false when the work is no longer this worker's (deleted or taken over). */
  async function complete(work: PendingEvaluation, evaluation: Evaluation): Promise<boolean> {
    const recorded = await recordLeasedOutcome(db, pendingEvaluationsQueue, work, async (tx) => {
      if (!(await saveEvaluation(tx, { companyId: work.companyId, jobId: work.jobId, kind: work.kind, evaluation }, work.rescore))) return false;
      const scored = ActivityScored.encode({ activityId: work.activityId, jobId: work.jobId, evaluation, rescored: work.rescore }).finish();
      const messages = [outboxMessageFor({ type: ACTIVITY_SCORED, companyId: work.companyId, producer: 'scoring', payload: scored })];
      // A re-score is Parlance's own upgrade: the company paid for the activity's evaluation once.
      if (!work.rescore) {
        const consumed = InsightTokensConsumed.encode({
          activityId: work.activityId,
          teamId: evaluation.teamId,
          tokens: evaluation.insightTokens,
          model: evaluation.engine,
          consumedAt: evaluation.evaluatedAt,
        }).finish();
        messages.push(outboxMessageFor({ type: INSIGHT_TOKENS_CONSUMED, companyId: work.companyId, producer: 'scoring', payload: consumed }));
      }
      await enqueue(tx, outbox, messages);
      return true;
    });
    return recorded ?? false;
  }

  async function fail(work: PendingEvaluation, reason: string, log: Logger): Promise<void> {
    if (work.rescore) {
      // The activity keeps the evaluation it has: nothing failed that anyone was waiting for.
      log.warn({ reason }, 'could not score again; the earlier evaluation stays');
      await recordLeasedOutcome(db, pendingEvaluationsQueue, work);
      return;
    }
    log.info({ reason }, 'scoring failed');
    await recordLeasedOutcome(db, pendingEvaluationsQueue, work, async (tx) => {
      const payload = ScoringFailed.encode({ activityId: work.activityId, jobId: work.jobId, reason }).finish();
      await enqueue(tx, outbox, [outboxMessageFor({ type: SCORING_FAILED, companyId: work.companyId, producer: 'scoring', payload })]);
    });
  }

  return startLeasedWorkers({
    name: 'scoring',
    db,
    queue: pendingEvaluationsQueue,
    logger,
    settings,
    removedMessage: 'The activity was deleted.',
    process,
    giveUp: (work, interruptions) => fail(work, SCORING_REASONS.interrupted(interruptions), logFor(work)),
  });
}
