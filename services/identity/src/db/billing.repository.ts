/** Subscriptions (one per company) and the insight-token usage ledger. */
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import type { Subscription } from '../domain/plans.js';
import { subscriptions, usageLedger } from './schema.js';

export async function insertSubscription(tx: Executor, companyId: string, subscription: Subscription): Promise<void> {
  await tx.insert(subscriptions).values({ companyId, ...subscription });
}

export async function findSubscription(db: Executor, companyId: string): Promise<Subscription | undefined> {
  const [row] = await db
    .select({ planId: subscriptions.planId, billingCycle: subscriptions.billingCycle, startedAt: subscriptions.startedAt })
    .from(subscriptions)
    .where(eq(subscriptions.companyId, companyId))
    .limit(1);
  return row;
}

export async function recordUsage(
  tx: Executor,
  entry: { eventId: string; companyId: string; activityId: string; teamId: string; model: string; tokens: number; occurredAt: Date },
): Promise<void> {
  await tx.insert(usageLedger).values(entry).onConflictDoNothing();
}

/** Insight tokens recorded for the company in [from, to). */
export async function usageBetween(db: Executor, companyId: string, from: Date, to: Date): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${usageLedger.tokens}), 0)` })
    .from(usageLedger)
    .where(and(eq(usageLedger.companyId, companyId), gte(usageLedger.occurredAt, from), lt(usageLedger.occurredAt, to)));
  return Number(row?.total ?? 0);
}
