/**
 * A scored call that a CRM sync imported queues its write-back (issue 16, point 4): the writes the
 * connection's settings ask for as the score arrives (domain/writeback.ts: Close's note and lead
 * status, HubSpot's note and task), queued in the
 * transaction that takes the event in, so a redelivered event queues nothing more and a crash
 * loses nothing. Uploads, calls of a connection since disconnected, and re-scores (the CRM already
 * has its note) write nothing. An
 * expired connection's writes are queued and wait for it to be connected again.
 */
import type { EventConsumer } from '@parlance/platform/service/service-runtime';
import { ActivityScored } from '@parlance/proto/parlance/scoring/v1/events';
import { findConnection } from '../db/connections.repository.js';
import { findImportOfActivity, queueWrites } from '../db/writeback.repository.js';
import { isIntegrationId, storedCloseSettings, storedHubSpotSettings } from '../domain/integrations.js';
import { closeWrites, hubspotWrites } from '../domain/writeback.js';

export const ACTIVITY_SCORED = 'scoring.activity-scored.v1';

/** `onQueued` runs after the handler, before its transaction commits: a wake-up, not a promise. */
export function writebackConsumer(onQueued: () => void): EventConsumer {
  return {
    consumer: 'writeback',
    eventTypes: [ACTIVITY_SCORED],
    async handle(event, tx) {
      const { activityId, evaluation, rescored } = ActivityScored.decode(event.payload);
      if (!evaluation) throw new Error(`event ${event.id} carries no evaluation`);
      // A newer engine's second opinion replaces the score in Parlance; the CRM keeps its note.
      if (rescored) return;
      const imported = await findImportOfActivity(tx, event.companyId, activityId);
      if (!imported || !isIntegrationId(imported.integrationId)) return;
      const connection = await findConnection(tx, event.companyId, imported.integrationId);
      if (!connection) return;
      const scoredAt = evaluation.evaluatedAt ?? event.occurredAt;
      if (!scoredAt) throw new Error(`event ${event.id} carries no scoring time`);
      const scored = { ...evaluation, activityId, evaluatedAt: scoredAt };
      const writes =
        imported.integrationId === 'close-crm'
          ? closeWrites(storedCloseSettings(connection.settings), imported.leadId, scored)
          : imported.integrationId === 'hubspot-crm'
            ? hubspotWrites(storedHubSpotSettings(connection.settings), imported.externalId, imported.vendorRefs, scored)
            : [];
      const queued = await queueWrites(tx, { companyId: event.companyId, connectionId: connection.id, activityId, scoredAt }, writes);
      // Wakes the writers once the transaction has likely committed; they poll anyway.
      if (queued > 0) setTimeout(onQueued, 20).unref();
    },
  };
}
