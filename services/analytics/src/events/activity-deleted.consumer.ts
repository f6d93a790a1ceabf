/**
 * A deleted activity leaves the lists and keeps nothing: its row becomes a tombstone, so events
 * of other topics arriving later for it bring nothing back. Housekeeping forgets the tombstone
 * once the inbox has forgotten the events that could still arrive.
 */
import type { EventConsumer } from '@parlance/platform/service/service-runtime';
import { ActivityDeleted } from '@parlance/proto/parlance/ingest/v1/events';
import { applyActivityFact } from '../db/activities.repository.js';
import { eventTime } from './event-time.js';

export const ACTIVITY_DELETED = 'ingest.activity-deleted.v1';

export const activityDeletedConsumer: EventConsumer = {
  consumer: 'activity-deleted',
  eventTypes: [ACTIVITY_DELETED],
  async handle(event, tx) {
    const { activityId } = ActivityDeleted.decode(event.payload);
    await applyActivityFact(tx, event.companyId, activityId, { type: 'deleted', at: eventTime(event) });
  },
};
