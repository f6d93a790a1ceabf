import { eq, sql } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { seedRuns, type SeedPlan } from './schema.js';

export type SeedRun = typeof seedRuns.$inferSelect;

/** The company's run, started with this plan when there is none yet (a restart keeps the first plan). */
export async function startSeedRun(db: Executor, companyId: string, plan: SeedPlan, now: Date): Promise<SeedRun> {
  await db.insert(seedRuns).values({ companyId, plan, startedAt: now }).onConflictDoNothing();
  const [run] = await db.select().from(seedRuns).where(eq(seedRuns.companyId, companyId));
  if (!run) throw new Error(`no seed run for company ${companyId}`);
  return run;
}

/** Moves the count of activities sent in sequence; never backwards. */
export async function recordSent(db: Executor, companyId: string, sent: number, skipped: number): Promise<void> {
  await db
    .update(seedRuns)
    .set({ sent: sql`greatest(${seedRuns.sent}, ${sent})`, skipped })
    .where(eq(seedRuns.companyId, companyId));
}

export async function finishSeedRun(db: Executor, companyId: string, now: Date): Promise<void> {
  await db.update(seedRuns).set({ finishedAt: now }).where(eq(seedRuns.companyId, companyId));
}
