/** The queue of activities to transcribe (see `pendingWork`); workers claim from it in pipeline/. */
import type { Executor } from '@parlance/platform/db/database';
import { enqueueLeasedWork, finishLeasedWork } from '@parlance/platform/work/leased-work';
import { pendingWorkQueue, type pendingWork, type WorkRequest } from './schema.js';

export type PendingWork = typeof pendingWork.$inferSelect;

export async function enqueueWork(tx: Executor, work: { activityId: string; companyId: string; jobId: string; request: WorkRequest }): Promise<void> {
  await enqueueLeasedWork(tx, pendingWorkQueue, work);
}

/**
 * Removes the work; false when it was already gone. With `attempts` (the worker's claim), only
 * while that claim holds. Call in the transaction that records the outcome.
 */
export async function finishWork(tx: Executor, companyId: string, activityId: string, attempts?: number): Promise<boolean> {
  return finishLeasedWork(tx, pendingWorkQueue, { companyId, key: activityId, attempts });
}
