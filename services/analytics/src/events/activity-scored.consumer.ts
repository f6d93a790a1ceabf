/** A scored activity gains its score, verdicts, success and, for a meeting, summary and improvements. */
import type { EventConsumer } from '@parlance/platform/service/service-runtime';
import { ActivityScored } from '@parlance/proto/parlance/scoring/v1/events';
import { applyActivityFact } from '../db/activities.repository.js';
import { evaluatedFact } from '../domain/activity-facts.js';
import { eventTime } from './event-time.js';

export const ACTIVITY_SCORED = 'scoring.activity-scored.v1';

export const activityScoredConsumer: EventConsumer = {
  consumer: 'activity-scored',
  eventTypes: [ACTIVITY_SCORED],
  async handle(event, tx) {
    const scored = ActivityScored.decode(event.payload);
    if (!scored.evaluation) throw new Error(`event ${event.id} carries no evaluation`);
    await applyActivityFact(tx, event.companyId, scored.activityId, evaluatedFact(scored.evaluation, eventTime(event)));
  },
};
