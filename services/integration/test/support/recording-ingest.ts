/**
 * Ingest as a sync sees it, for the syncs' tests: a recorder keyed by source and external id as
 * ingest is (a repeat answers the first import's ids), which can be told to refuse the next
 * import for good.
 */
import { randomUUID } from 'node:crypto';
import { ImportRefused, type ActivityImport } from '../../src/sync/import-call.js';

/** An MP3 frame header and padding: enough for ingest to tell MP3 by its content. */
export const RECORDING = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(2_000, 0)]);

/** Ingest as the sync sees it, keyed by source and external id as ingest is. */
export function recordingIngest() {
  const received = new Map<string, ActivityImport & { activityId: string; jobId: string }>();
  let refuse: string | undefined;
  return {
    received,
    refuseNext(reason: string) {
      refuse = reason;
    },
    async importCall(_companyId: string, activity: ActivityImport) {
      if (refuse) {
        const reason = refuse;
        refuse = undefined;
        throw new ImportRefused(reason);
      }
      const earlier = received.get(activity.externalId);
      if (earlier) return { activityId: earlier.activityId, jobId: earlier.jobId };
      const ids = { activityId: randomUUID(), jobId: randomUUID() };
      received.set(activity.externalId, { ...activity, ...ids });
      return ids;
    },
  };
}
