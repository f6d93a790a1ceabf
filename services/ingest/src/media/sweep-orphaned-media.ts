/**
 * Media no activity names: a process that died between storing an upload's file and committing
 * its activity (the upload was never answered, so nothing was lost), or between deleting an
 * activity and removing its file. Only files older than a grace period are considered, so an
 * upload being committed right now, on this replica or another sharing the volume, is left alone.
 */
import { inArray } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { activities } from '../db/schema.js';
import type { MediaStore } from './media-store.js';

/** Far longer than any upload takes between storing its file and committing. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
const BATCH = 500;

export async function sweepOrphanedMedia(db: Executor, media: MediaStore, now = new Date()): Promise<{ removed: number; abandoned: number }> {
  const before = new Date(now.getTime() - ORPHAN_GRACE_MS);
  const abandoned = await media.dropAbandonedWrites(before);
  let removed = 0;
  let batch: string[] = [];
  const sweep = async () => {
    const keys = batch;
    batch = [];
    const named = new Set((await db.select({ key: activities.mediaKey }).from(activities).where(inArray(activities.mediaKey, keys))).map((row) => row.key));
    for (const key of keys.filter((candidate) => !named.has(candidate))) {
      await media.remove(key);
      removed += 1;
    }
  };
  for await (const key of media.storedBefore(before)) {
    batch.push(key);
    if (batch.length >= BATCH) await sweep();
  }
  if (batch.length > 0) await sweep();
  return { removed, abandoned };
}
