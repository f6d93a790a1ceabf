/** analytics.feedback: the issues people report with an activity's analysis, per company. */
import { count, desc, eq } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { feedback } from './schema.js';

export type FeedbackRecord = typeof feedback.$inferSelect;

export async function insertFeedback(db: Executor, report: typeof feedback.$inferInsert): Promise<void> {
  await db.insert(feedback).values(report);
}

/** One page of the company's reports, newest first, and how many there are. */
export async function listFeedback(db: Executor, companyId: string, page: { page: number; limit: number }): Promise<{ reports: FeedbackRecord[]; total: number }> {
  const [reports, [counted]] = await Promise.all([
    db
      .select()
      .from(feedback)
      .where(eq(feedback.companyId, companyId))
      .orderBy(desc(feedback.createdAt), desc(feedback.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ total: count() }).from(feedback).where(eq(feedback.companyId, companyId)),
  ]);
  return { reports, total: counted?.total ?? 0 };
}
