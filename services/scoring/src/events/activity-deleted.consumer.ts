/**
 * A deleted activity leaves no evaluation behind: a stored one is removed, pending work is dropped
 * (a worker evaluating it abandons it at its next lease renewal and stores nothing), and the
 * deletion is remembered so that a transcript arriving later is not evaluated.
 */
import type { EventConsumer } from '@parlance/platform/service/service-runtime';
import { ActivityDeleted } from '@parlance/proto/parlance/ingest/v1/events';
import { deleteEvaluation, recordDeletion } from '../db/evaluations.repository.js';
import { finishEvaluation } from '../db/pending-evaluations.repository.js';
import { isUuid } from '@parlance/platform/db/uuid';

export const ACTIVITY_DELETED = 'ingest.activity-deleted.v1';

export const activityDeletedConsumer: EventConsumer = {
  consumer: 'forget-deleted-activities',
  eventTypes: [ACTIVITY_DELETED],
  async handle(event, tx) {
    const { activityId } = ActivityDeleted.decode(event.payload);
    // Ingest's activity ids are UUIDs; anything else names nothing scoring could hold.
    if (!isUuid(activityId)) return;
    await recordDeletion(tx, event.companyId, activityId);
    await finishEvaluation(tx, event.companyId, activityId);
    await deleteEvaluation(tx, event.companyId, activityId);
  },
};
