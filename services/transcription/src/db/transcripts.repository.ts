/** Stored transcripts. Every query is scoped by the company. */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { isUuid } from '@parlance/platform/db/uuid';
import { transcripts } from './schema.js';

export type TranscriptRow = typeof transcripts.$inferSelect;

export async function saveTranscript(tx: Executor, row: typeof transcripts.$inferInsert): Promise<void> {
  await tx.insert(transcripts).values(row).onConflictDoNothing();
}

export async function findTranscript(db: Executor, companyId: string, activityId: string): Promise<TranscriptRow | undefined> {
  if (!isUuid(activityId)) return undefined;
  const [row] = await db
    .select()
    .from(transcripts)
    .where(and(eq(transcripts.companyId, companyId), eq(transcripts.activityId, activityId)));
  return row;
}

export async function deleteTranscript(tx: Executor, companyId: string, activityId: string): Promise<void> {
  await tx.delete(transcripts).where(and(eq(transcripts.companyId, companyId), eq(transcripts.activityId, activityId)));
}
