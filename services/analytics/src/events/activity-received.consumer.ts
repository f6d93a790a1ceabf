/** An activity enters the lists when ingest has stored it: who, with whom, when, which team. */
import type { EventConsumer } from '@parlance/platform/service/service-runtime';
import { ActivityReceived } from '@parlance/proto/parlance/ingest/v1/events';
import { applyActivityFact } from '../db/activities.repository.js';
import { receivedFact } from '../domain/activity-facts.js';
import { eventTime } from './event-time.js';

export const ACTIVITY_RECEIVED = 'ingest.activity-received.v1';

export const activityReceivedConsumer: EventConsumer = {
  consumer: 'activity-received',
  eventTypes: [ACTIVITY_RECEIVED],
  async handle(event, tx) {
    const received = ActivityReceived.decode(event.payload);
    await applyActivityFact(tx, event.companyId, received.activityId, receivedFact(received, eventTime(event)));
  },
};
