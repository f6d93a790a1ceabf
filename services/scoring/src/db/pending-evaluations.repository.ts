/** The queue of activities to evaluate (see `pendingEvaluations`); workers claim from it in pipeline/. */
import { count, eq } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { enqueueLeasedWork, finishLeasedWork } from '@parlance/platform/work/leased-work';
import { Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';
import { reviewThresholdOf } from '../domain/review.js';
import type { TeamSnapshot } from '../engines/evaluation-engine.js';
import { pendingEvaluations, pendingEvaluationsQueue } from './schema.js';

export type PendingEvaluation = typeof pendingEvaluations.$inferSelect;

export interface EvaluationRequest {
  activityId: string;
  companyId: string;
  jobId: string;
  kind: ActivityKindName;
  teamId: string;
  representativeEmail: string;
  representativeName: string;
  transcript: Transcript;
  /** Null when scoring does not know the team yet. */
  team: TeamSnapshot | null;
  /** Scored before: the new evaluation replaces the stored one (pipeline/rescore.ts). */
  rescore?: boolean;
}

/** Queues the activity; false when it is already queued (nothing changes then). */
export async function enqueueEvaluation(tx: Executor, request: EvaluationRequest): Promise<boolean> {
  return enqueueLeasedWork(tx, pendingEvaluationsQueue, { ...request, transcript: Transcript.toJSON(request.transcript) });
}

export function transcriptOf(work: PendingEvaluation): Transcript {
  return Transcript.fromJSON(work.transcript);
}

/** The team queued with the work, null when there was none; one queued before teams had a review threshold gets the default. */
export function queuedTeamOf(work: PendingEvaluation): TeamSnapshot | null {
  return work.team && { ...work.team, reviewThreshold: reviewThresholdOf(work.team.reviewThreshold) };
}

/** Re-scores queued and not yet done, across companies. */
export async function countPendingRescores(db: Executor): Promise<number> {
  const [row] = await db.select({ count: count() }).from(pendingEvaluations).where(eq(pendingEvaluations.rescore, true));
  return row?.count ?? 0;
}

/**
 * Removes the work; false when it was already gone. With `attempts` (the worker's claim), only
 * while that claim holds. Call in the transaction that records the outcome.
 */
export async function finishEvaluation(tx: Executor, companyId: string, activityId: string, attempts?: number): Promise<boolean> {
  return finishLeasedWork(tx, pendingEvaluationsQueue, { companyId, key: activityId, attempts });
}
