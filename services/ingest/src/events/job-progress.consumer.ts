/**
 * A job's status comes from the pipeline's events: transcription started (active), the
 * transcript is ready (still active: scoring comes next), the activity is scored (completed), or
 * transcription or scoring failed (failed, with 'Processing failed for {file}: {reason}'). A job
 * only moves forward, so a late or redelivered event changes nothing; events of a deleted activity
 * find no job and change nothing.
 */
import type { Executor } from '@parlance/platform/db/database';
import type { EventConsumer } from '@parlance/platform/service/service-runtime';
import { ActivityScored, ScoringFailed } from '@parlance/proto/parlance/scoring/v1/events';
import { TranscriptionFailed, TranscriptionStarted, TranscriptReady } from '@parlance/proto/parlance/transcription/v1/events';
import { advanceJob, findJob } from '../db/activities.repository.js';
import { UPLOAD_MESSAGES } from '../domain/upload-rules.js';

export const TRANSCRIPTION_STARTED = 'transcription.transcription-started.v1';
export const TRANSCRIPT_READY = 'transcription.transcript-ready.v1';
export const TRANSCRIPTION_FAILED = 'transcription.transcription-failed.v1';
export const ACTIVITY_SCORED = 'scoring.activity-scored.v1';
export const SCORING_FAILED = 'scoring.scoring-failed.v1';

export const jobProgressConsumer: EventConsumer = {
  consumer: 'job-progress',
  eventTypes: [TRANSCRIPTION_STARTED, TRANSCRIPT_READY, TRANSCRIPTION_FAILED, ACTIVITY_SCORED, SCORING_FAILED],
  async handle(event, tx) {
    switch (event.type) {
      case TRANSCRIPTION_STARTED:
        await advanceJob(tx, event.companyId, TranscriptionStarted.decode(event.payload).jobId, 'active');
        return;
      case TRANSCRIPT_READY:
        await advanceJob(tx, event.companyId, TranscriptReady.decode(event.payload).jobId, 'active');
        return;
      case ACTIVITY_SCORED:
        await advanceJob(tx, event.companyId, ActivityScored.decode(event.payload).jobId, 'completed');
        return;
      case TRANSCRIPTION_FAILED: {
        const { jobId, reason } = TranscriptionFailed.decode(event.payload);
        await failJob(tx, event.companyId, jobId, reason);
        return;
      }
      case SCORING_FAILED: {
        const { jobId, reason } = ScoringFailed.decode(event.payload);
        await failJob(tx, event.companyId, jobId, reason);
        return;
      }
    }
  },
};

async function failJob(tx: Executor, companyId: string, jobId: string, reason: string): Promise<void> {
  const job = await findJob(tx, companyId, jobId);
  if (job) await advanceJob(tx, companyId, jobId, 'failed', UPLOAD_MESSAGES.processingFailed(job.fileName, reason));
}
