/** An activity that could not be transcribed or scored shows as failed, unless it gets scored after all. */
import type { EventConsumer } from '@parlance/platform/service/service-runtime';
import { ScoringFailed } from '@parlance/proto/parlance/scoring/v1/events';
import { TranscriptionFailed } from '@parlance/proto/parlance/transcription/v1/events';
import { applyActivityFact } from '../db/activities.repository.js';
import { eventTime } from './event-time.js';

export const TRANSCRIPTION_FAILED = 'transcription.transcription-failed.v1';
export const SCORING_FAILED = 'scoring.scoring-failed.v1';

export const processingFailedConsumer: EventConsumer = {
  consumer: 'processing-failed',
  eventTypes: [TRANSCRIPTION_FAILED, SCORING_FAILED],
  async handle(event, tx) {
    const { activityId } = event.type === SCORING_FAILED ? ScoringFailed.decode(event.payload) : TranscriptionFailed.decode(event.payload);
    await applyActivityFact(tx, event.companyId, activityId, { type: 'failed', at: eventTime(event) });
  },
};
