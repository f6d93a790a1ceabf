import { and, eq } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import type { IntegrationId } from '../domain/integrations.js';
import { connections } from './schema.js';

export type ConnectionRow = typeof connections.$inferSelect;

/** The company's connections, by integration id. */
export async function companyConnections(db: Executor, companyId: string): Promise<Map<string, ConnectionRow>> {
  const rows = await db.select().from(connections).where(eq(connections.companyId, companyId));
  return new Map(rows.map((row) => [row.integrationId, row]));
}

export async function findConnection(db: Executor, companyId: string, integrationId: IntegrationId): Promise<ConnectionRow | undefined> {
  const [row] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.companyId, companyId), eq(connections.integrationId, integrationId)));
  return row;
}

/**
 * Connects (or connects again): new credentials, who connected and when, status connected and the
 * last error cleared. A connection made again keeps its settings and last sync; a new one starts
 * from `settings`.
 */
export async function saveConnection(
  db: Executor,
  connection: Pick<ConnectionRow, 'companyId' | 'integrationId' | 'connectedBy' | 'connectedAt' | 'credentials' | 'settings'>,
): Promise<ConnectionRow> {
  const [row] = await db
    .insert(connections)
    .values({ ...connection, status: 'connected' })
    .onConflictDoUpdate({
      target: [connections.companyId, connections.integrationId],
      set: { status: 'connected', connectedBy: connection.connectedBy, connectedAt: connection.connectedAt, credentials: connection.credentials, lastError: null, lastErrorAt: null },
    })
    .returning();
  return row!;
}

export async function saveSettings(db: Executor, companyId: string, integrationId: IntegrationId, settings: Record<string, unknown>): Promise<ConnectionRow | undefined> {
  const [row] = await db
    .update(connections)
    .set({ settings })
    .where(and(eq(connections.companyId, companyId), eq(connections.integrationId, integrationId)))
    .returning();
  return row;
}

export async function deleteConnection(db: Executor, companyId: string, integrationId: IntegrationId): Promise<void> {
  await db.delete(connections).where(and(eq(connections.companyId, companyId), eq(connections.integrationId, integrationId)));
}
