/**
 * Queues every transcribed activity for evaluation (the worker takes it from there), with the
 * team's criteria as scoring holds them at this moment. An activity already evaluated, or deleted
 * before its transcript arrived, is not queued: a redelivery or a late event changes nothing.
 */
import type { EventConsumer } from '@parlance/platform/service/service-runtime';
import { TranscriptReady } from '@parlance/proto/parlance/transcription/v1/events';
import { activityKindName } from '@parlance/platform/activity/activity-kind';
import { hasEvaluation, wasDeleted } from '../db/evaluations.repository.js';
import { enqueueEvaluation } from '../db/pending-evaluations.repository.js';
import { findTeamSnapshot } from '../db/team-criteria.repository.js';

export const TRANSCRIPT_READY = 'transcription.transcript-ready.v1';

/** `onQueued` runs after the handler, before its transaction commits: a wake-up, not a promise. */
export function transcriptReadyConsumer(onQueued: () => void): EventConsumer {
  return {
    consumer: 'evaluate-transcripts',
    eventTypes: [TRANSCRIPT_READY],
    async handle(event, tx) {
      const ready = TranscriptReady.decode(event.payload);
      if (!ready.activityId || !ready.transcript) throw new Error(`event ${event.id} carries no activity or no transcript`);
      const { companyId } = event;
      if ((await wasDeleted(tx, companyId, ready.activityId)) || (await hasEvaluation(tx, companyId, ready.activityId))) return;
      const queued = await enqueueEvaluation(tx, {
        activityId: ready.activityId,
        companyId,
        jobId: ready.jobId,
        kind: activityKindName(ready.kind),
        teamId: ready.teamId,
        representativeEmail: ready.representativeEmail,
        representativeName: ready.representativeName,
        transcript: ready.transcript,
        team: (await findTeamSnapshot(tx, companyId, ready.teamId)) ?? null,
      });
      // Wakes the worker once the transaction has likely committed; the worker polls anyway.
      if (queued) setTimeout(onQueued, 20).unref();
    },
  };
}
