import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { openCredential, sealCredential, sealedWithCurrentKey, type Keyring } from '../domain/credential-cipher.js';
import type { IntegrationId } from '../domain/integrations.js';
import { connections, integrationRequests } from './schema.js';

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

/** The connection by its own id (what queued work names), within the company. */
export async function findConnectionById(db: Executor, companyId: string, id: string): Promise<ConnectionRow | undefined> {
  const [row] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.companyId, companyId), eq(connections.id, id)));
  return row;
}

/**
 * Connects (or connects again): new credentials, who connected and when, status connected and the
 * last error cleared. A connection made again keeps its settings and last sync; a new one starts
 * from `settings`.
 */
export async function saveConnection(
  db: Executor,
  connection: Pick<ConnectionRow, 'companyId' | 'integrationId' | 'connectedBy' | 'connectedByUserId' | 'connectedAt' | 'credentials' | 'settings'>,
): Promise<ConnectionRow> {
  const [row] = await db
    .insert(connections)
    .values({ ...connection, status: 'connected' })
    .onConflictDoUpdate({
      target: [connections.companyId, connections.integrationId],
      set: { status: 'connected', connectedBy: connection.connectedBy, connectedByUserId: connection.connectedByUserId, connectedAt: connection.connectedAt, credentials: connection.credentials, lastError: null, lastErrorAt: null },
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

/** The vendor refused the stored credentials: shown as expired, settings kept, until connected again. */
/** The vendor refused the credentials: expired until connected again; `why`, when given, is shown as the last error. */
export async function markExpired(db: Executor, companyId: string, integrationId: IntegrationId, why?: string): Promise<void> {
  await db
    .update(connections)
    .set({ status: 'expired', ...(why ? { lastError: why, lastErrorAt: sql`now()` } : {}) })
    .where(and(eq(connections.companyId, companyId), eq(connections.integrationId, integrationId)));
}

export async function deleteConnection(db: Executor, companyId: string, integrationId: IntegrationId): Promise<void> {
  await db.delete(connections).where(and(eq(connections.companyId, companyId), eq(connections.integrationId, integrationId)));
}

export type IntegrationRequestRow = typeof integrationRequests.$inferSelect;

export async function insertIntegrationRequest(db: Executor, request: Omit<IntegrationRequestRow, 'emailedAt'>): Promise<void> {
  await db.insert(integrationRequests).values({ ...request, emailedAt: null });
}

/** Requests the operators have not been e-mailed yet, oldest first. */
export async function unsentIntegrationRequests(db: Executor, limit: number): Promise<IntegrationRequestRow[]> {
  return db.select().from(integrationRequests).where(isNull(integrationRequests.emailedAt)).orderBy(asc(integrationRequests.requestedAt)).limit(limit);
}

export async function markIntegrationRequestEmailed(db: Executor, id: string, at: Date): Promise<void> {
  await db.update(integrationRequests).set({ emailedAt: at }).where(eq(integrationRequests.id, id));
}

/**
 * Step 2 of a key rotation (credential-cipher.ts), run when the service starts: every credential
 * sealed with an older key of the ring is sealed again with the current one. A value changed
 * meanwhile (connected again, or sealed again by another replica) keeps its new seal. A value
 * whose key is no longer in the ring cannot be opened: it is counted, left as it is, and the
 * connection will need connecting again.
 */
export async function resealCredentials(db: Executor, keyring: Keyring): Promise<{ resealed: number; unopenable: number }> {
  const current = `v1.${keyring.currentKeyId}.`;
  const older = await db
    .select({ companyId: connections.companyId, integrationId: connections.integrationId, credentials: connections.credentials })
    .from(connections)
    .where(sql`left(${connections.credentials}, ${current.length}) <> ${current}`);
  let resealed = 0;
  let unopenable = 0;
  for (const row of older) {
    if (sealedWithCurrentKey(keyring, row.credentials)) continue;
    let secret: string;
    try {
      secret = openCredential(keyring, row.credentials);
    } catch {
      unopenable += 1;
      continue;
    }
    const updated = await db
      .update(connections)
      .set({ credentials: sealCredential(keyring, secret) })
      .where(and(eq(connections.companyId, row.companyId), eq(connections.integrationId, row.integrationId), eq(connections.credentials, row.credentials)))
      .returning({ companyId: connections.companyId });
    resealed += updated.length;
  }
  return { resealed, unopenable };
}
