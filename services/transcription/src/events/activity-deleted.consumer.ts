/** A deleted activity leaves no transcript behind, and its pending work is dropped. */
import type { EventConsumer } from '@parlance/platform/service/service-runtime';
import { ActivityDeleted } from '@parlance/proto/parlance/ingest/v1/events';
import { finishWork } from '../db/pending-work.repository.js';
import { deleteTranscript } from '../db/transcripts.repository.js';

export const ACTIVITY_DELETED = 'ingest.activity-deleted.v1';

export const activityDeletedConsumer: EventConsumer = {
  consumer: 'forget-deleted-activities',
  eventTypes: [ACTIVITY_DELETED],
  async handle(event, tx) {
    const { activityId } = ActivityDeleted.decode(event.payload);
    await finishWork(tx, event.companyId, activityId);
    await deleteTranscript(tx, event.companyId, activityId);
  },
};
