/**
 * A queue of work in a service's own table, taken by workers under a lease. A worker claims the
 * oldest row nobody holds for `leaseMs` and keeps renewing the lease while it works; the row goes
 * in the transaction that records the outcome. Work whose lease ran out (its process died) is
 * claimed again. Each claim counts an attempt, and the attempt number is the claim's token: only
 * the latest claimant can renew or finish, so a worker that lost its lease learns it and stops.
 *
 * A service declares its table with the lease columns and its own:
 *
 *   export const pendingWork = leasedWorkTable(scoringSchema, 'pending_work', {
 *     activityId: uuid('activity_id').primaryKey(),
 *     request: jsonb('request').$type<Request>().notNull(),
 *   });
 *   export const pendingWorkQueue = leasedWorkQueue(pendingWork, pendingWork.activityId);
 *
 * so drizzle-kit generates it into that service's migrations.
 */
import { and, asc, eq, getTableColumns, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { index, integer, timestamp, uuid, type PgColumn, type PgColumnBuilderBase, type PgSchema, type PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/database.js';

/** The columns every leased work table has, next to the service's own. */
function leasedWorkColumns() {
  return {
    /** Whose work it is: every query that names a row is scoped by it. */
    companyId: uuid('company_id').notNull(),
    /** Claims so far; the current claim's token. */
    attempts: integer('attempts').notNull().default(0),
    /** Unset: never claimed. In the past: its worker is gone, and anyone may claim it. */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    /** Work is claimed oldest first. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  };
}

/** A table `name` in `schema` with the service's `columns` and the lease columns. */
export function leasedWorkTable<TName extends string, TColumns extends Record<string, PgColumnBuilderBase>>(schema: PgSchema, name: TName, columns: TColumns) {
  return schema.table(name, { ...columns, ...leasedWorkColumns() }, (table) => [index(`${name}_created_idx`).on(table.createdAt)]);
}

/** What the queries need of a leased work table. */
export type LeasedWorkTable = PgTable & {
  companyId: PgColumn;
  attempts: PgColumn;
  leaseExpiresAt: PgColumn;
  createdAt: PgColumn;
};

export type LeasedWork<TTable extends LeasedWorkTable> = TTable['$inferSelect'];

/** The claim a worker holds: its row's key and company, and the attempt that is its token. */
interface WorkClaim {
  key: string;
  companyId: string;
  attempts: number;
}

export interface LeasedWorkQueue<TTable extends LeasedWorkTable> {
  table: TTable;
  /** The primary key: what the work is about (e.g. an activity). */
  key: PgColumn;
  /** The claim a claimed row stands for. */
  claimOf(work: LeasedWork<TTable>): WorkClaim;
}

export function leasedWorkQueue<TTable extends LeasedWorkTable>(table: TTable, key: PgColumn): LeasedWorkQueue<TTable> {
  const property = Object.entries(getTableColumns(table)).find(([, column]) => column === key)?.[0];
  if (!property) throw new Error(`the key ${key.name} is not a column of the work table`);
  return {
    table,
    key,
    claimOf(work) {
      const row = work as Record<string, unknown> & { companyId: string; attempts: number };
      return { key: String(row[property]), companyId: row.companyId, attempts: row.attempts };
    },
  };
}

// The table type is generic, so Drizzle cannot check column names in set() and values(); the
// shapes are fixed by leasedWorkColumns.
/* eslint-disable @typescript-eslint/no-explicit-any */

const leaseUntil = (leaseMs: number) => sql`now() + make_interval(secs => ${leaseMs / 1000})`;

/** Queues work; false when a row with its key is already queued (nothing changes then). */
export async function enqueueLeasedWork<TTable extends LeasedWorkTable>(tx: Executor, queue: LeasedWorkQueue<TTable>, row: TTable['$inferInsert']): Promise<boolean> {
  const inserted = await tx
    .insert(queue.table)
    .values(row as any)
    .onConflictDoNothing()
    .returning({ key: queue.key });
  return inserted.length > 0;
}

/**
 * Claims the oldest work nobody holds (never claimed, or its lease ran out) for `leaseMs`,
 * counting an attempt; only work `claimable` holds for, when given. SKIP LOCKED lets replicas
 * claim side by side without waiting on each other.
 */
export async function claimLeasedWork<TTable extends LeasedWorkTable>(
  tx: Executor,
  queue: LeasedWorkQueue<TTable>,
  leaseMs: number,
  claimable?: SQL,
): Promise<LeasedWork<TTable> | undefined> {
  const { table, key } = queue;
  const [next] = await tx
    .select({ key })
    .from(table as PgTable)
    .where(and(or(isNull(table.leaseExpiresAt), lt(table.leaseExpiresAt, sql`now()`)), claimable))
    .orderBy(asc(table.createdAt))
    .limit(1)
    .for('update', { skipLocked: true });
  if (!next) return undefined;
  const claimed = (await tx
    .update(table)
    .set({ attempts: sql`${table.attempts} + 1`, leaseExpiresAt: leaseUntil(leaseMs) } as any)
    .where(eq(key, next.key))
    .returning()) as LeasedWork<TTable>[];
  return claimed[0];
}

type LeaseRenewal = 'held' | 'removed' | 'taken';

/**
 * Keeps a claim alive: 'held' when renewed; 'removed' when the work is gone (e.g. its activity was
 * deleted); 'taken' when another worker claimed it since (this claim's lease had run out).
 */
export async function renewLeasedWork<TTable extends LeasedWorkTable>(db: Executor, queue: LeasedWorkQueue<TTable>, claim: WorkClaim, leaseMs: number): Promise<LeaseRenewal> {
  const { table, key } = queue;
  const renewed = await db
    .update(table)
    .set({ leaseExpiresAt: leaseUntil(leaseMs) } as any)
    .where(and(eq(table.companyId, claim.companyId), eq(key, claim.key), eq(table.attempts, claim.attempts)))
    .returning({ key });
  if (renewed.length > 0) return 'held';
  const [present] = await db
    .select({ key })
    .from(table as PgTable)
    .where(and(eq(table.companyId, claim.companyId), eq(key, claim.key)));
  return present ? 'taken' : 'removed';
}

/**
 * Hands claimed work back without counting the attempt, to be claimed again after `delayMs`
 * (it cannot be done yet). False when the claim is no longer held.
 */
export async function deferLeasedWork<TTable extends LeasedWorkTable>(db: Executor, queue: LeasedWorkQueue<TTable>, claim: WorkClaim, delayMs: number): Promise<boolean> {
  const { table, key } = queue;
  const deferred = await db
    .update(table)
    .set({ attempts: sql`${table.attempts} - 1`, leaseExpiresAt: leaseUntil(delayMs) } as any)
    .where(and(eq(table.companyId, claim.companyId), eq(key, claim.key), eq(table.attempts, claim.attempts)))
    .returning({ key });
  return deferred.length > 0;
}

/**
 * Removes the work, in the transaction that records its outcome. With a claim, only while that
 * claim is held (a worker that lost its lease records nothing); without, whoever holds it (the
 * work is cancelled). False when there was nothing to remove.
 */
export async function finishLeasedWork<TTable extends LeasedWorkTable>(
  tx: Executor,
  queue: LeasedWorkQueue<TTable>,
  work: { companyId: string; key: string; attempts?: number },
): Promise<boolean> {
  const { table, key } = queue;
  const held = work.attempts === undefined ? [] : [eq(table.attempts, work.attempts)];
  const removed = await tx
    .delete(table)
    .where(and(eq(table.companyId, work.companyId), eq(key, work.key), ...held))
    .returning({ key });
  return removed.length > 0;
}

/**
 * Finishes claimed work and, while its claim still held, has `record` store the outcome in the
 * same transaction; undefined (and nothing recorded) when the work was deleted or taken over.
 */
export async function recordLeasedOutcome<TTable extends LeasedWorkTable, TResult = undefined>(
  db: Executor,
  queue: LeasedWorkQueue<TTable>,
  work: LeasedWork<TTable>,
  record?: (tx: Executor) => Promise<TResult>,
): Promise<TResult | undefined> {
  return db.transaction(async (tx) => ((await finishLeasedWork(tx, queue, queue.claimOf(work))) ? record?.(tx) : undefined));
}
