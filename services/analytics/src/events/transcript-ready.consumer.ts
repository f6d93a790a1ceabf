/** A transcribed activity gains its duration and, for a meeting, its transcript text. */
import type { EventConsumer } from '@parlance/platform/service/service-runtime';
import { TranscriptReady } from '@parlance/proto/parlance/transcription/v1/events';
import { applyActivityFact } from '../db/activities.repository.js';
import { transcribedFact } from '../domain/activity-facts.js';
import { eventTime } from './event-time.js';

export const TRANSCRIPT_READY = 'transcription.transcript-ready.v1';

export const transcriptReadyConsumer: EventConsumer = {
  consumer: 'transcript-ready',
  eventTypes: [TRANSCRIPT_READY],
  async handle(event, tx) {
    const ready = TranscriptReady.decode(event.payload);
    if (!ready.transcript) throw new Error(`event ${event.id} carries no transcript`);
    await applyActivityFact(tx, event.companyId, ready.activityId, transcribedFact(ready.kind, ready.transcript, eventTime(event)));
  },
};
