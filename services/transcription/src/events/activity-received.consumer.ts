/** Queues every received activity for transcription (the worker takes it from there). */
import type { EventConsumer } from '@parlance/platform/service/service-runtime';
import { ActivityReceived } from '@parlance/proto/parlance/ingest/v1/events';
import { MediaKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { activityKindName } from '@parlance/platform/activity/activity-kind';
import { enqueueWork } from '../db/pending-work.repository.js';

export const ACTIVITY_RECEIVED = 'ingest.activity-received.v1';

/** `onQueued` runs after the handler, before its transaction commits: a wake-up, not a promise. */
export function activityReceivedConsumer(onQueued: () => void): EventConsumer {
  return {
    consumer: 'transcribe-activities',
    eventTypes: [ACTIVITY_RECEIVED],
    async handle(event, tx) {
      const received = ActivityReceived.decode(event.payload);
      if (!received.activityId) throw new Error(`event ${event.id} carries no activity`);
      await enqueueWork(tx, {
        activityId: received.activityId,
        companyId: event.companyId,
        jobId: received.jobId,
        request: {
          kind: activityKindName(received.kind),
          teamId: received.teamId,
          representativeEmail: received.representativeEmail,
          representativeName: received.representativeName,
          fileName: received.fileName,
          mediaKind: received.mediaKind === MediaKind.MEDIA_KIND_AUDIO ? 'audio' : 'text',
          mediaFormat: received.mediaFormat,
          teamMembers: received.teamMembers.map((member) => ({ email: member.email, firstName: member.firstName, lastName: member.lastName })),
        },
      });
      setTimeout(onQueued, 20).unref();
    },
  };
}
