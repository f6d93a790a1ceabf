/**
 * OAuth's state: the authorization requests under way (`oauth_states`), taken once by the
 * callback, and a connection's tokens stored again after a refresh.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import { connections, oauthStates } from './schema.js';

export type OAuthStateRow = typeof oauthStates.$inferSelect;

/** Stores a new authorization request, dropping those expired meanwhile. */
export async function insertOAuthState(db: Executor, row: OAuthStateRow): Promise<void> {
  await db.delete(oauthStates).where(lt(oauthStates.expiresAt, sql`now()`));
  await db.insert(oauthStates).values(row);
}

/** Takes the request of `stateHash` for the integration: it is deleted as it is read, so a state is used once. */
export async function takeOAuthState(db: Executor, integrationId: string, stateHash: string): Promise<OAuthStateRow | undefined> {
  const [taken] = await db
    .delete(oauthStates)
    .where(and(eq(oauthStates.stateHash, stateHash), eq(oauthStates.integrationId, integrationId)))
    .returning();
  return taken;
}

/**
 * Replaces the connection's sealed credentials after a refresh, unless another refresh replaced
 * them first (then false, and the caller reads what that one stored).
 */
export async function replaceCredentials(db: Executor, connectionId: string, previous: string, next: string): Promise<boolean> {
  const replaced = await db
    .update(connections)
    .set({ credentials: next })
    .where(and(eq(connections.id, connectionId), eq(connections.credentials, previous)))
    .returning({ id: connections.id });
  return replaced.length > 0;
}

export async function currentCredentials(db: Executor, connectionId: string): Promise<string | undefined> {
  const [row] = await db.select({ credentials: connections.credentials }).from(connections).where(eq(connections.id, connectionId));
  return row?.credentials;
}
