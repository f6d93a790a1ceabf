/**
 * analytics' schema, migrated, on both databases it runs on: the test PostgreSQL (distributed
 * mode) and an in-memory PGlite (standalone). Events reach the consumers as the service runtime
 * hands them over: once per event id (the inbox), in one transaction with their effect.
 */
import { fileURLToPath } from 'node:url';
import { openDatabase, type DatabaseHandle } from '@parlance/platform/db/database';
import { migrate } from '@parlance/platform/db/migrate';
import { applyOnce } from '@parlance/platform/outbox/inbox';
import { testDatabaseUrl } from '@parlance/platform/testing/infra';
import type { EventEnvelope } from '@parlance/proto/parlance/events/v1/envelope';
import { ensureActivityRollups } from '../../src/db/activity-rollups.js';
import { inbox } from '../../src/db/schema.js';
import { ANALYTICS_CONSUMERS } from '../../src/module.js';

export type AnalyticsDatabase = DatabaseHandle<Record<string, unknown>>;

export const DRIVERS = [
  { driver: 'postgres', open: () => openDatabase({ driver: 'postgres', url: testDatabaseUrl(), schema: 'analytics', poolSize: 8 }) },
  { driver: 'pglite', open: () => openDatabase({ driver: 'pglite', dataDir: 'memory', schema: 'analytics' }) },
] as const;

/** Migrated, with the lists' rollups built, as the service leaves it when it starts. */
export async function openAnalyticsDatabase(open: () => Promise<AnalyticsDatabase>): Promise<AnalyticsDatabase> {
  const handle = await open();
  await migrate(handle, { migrationsFolder: fileURLToPath(new URL('../../src/db/migrations', import.meta.url)) });
  await ensureActivityRollups(handle.db);
  return handle;
}

/** Applies the event with the consumer of its type, unless that consumer applied its id before. */
export async function deliver(database: AnalyticsDatabase, event: EventEnvelope): Promise<void> {
  const consumer = ANALYTICS_CONSUMERS.find((candidate) => candidate.eventTypes.includes(event.type));
  if (!consumer) throw new Error(`no analytics consumer reads ${event.type}`);
  await applyOnce(database.db, inbox, `analytics.${consumer.consumer}`, event.id, (tx) => consumer.handle(event, tx, undefined as never));
}
