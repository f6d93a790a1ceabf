import { index, integer, jsonb, pgSchema, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { WriteRequest } from '../domain/writeback.js';
import { leasedWorkQueue, leasedWorkTable } from '@parlance/platform/work/leased-work';
import { inboxTable, outboxTable } from '@parlance/platform/outbox/tables';
import { probeTable } from '@parlance/platform/probe/probe-tables';

/** Everything integration stores lives in its own Postgres schema; no other service reads it. */
export const integrationSchema = pgSchema('integration');

export const outbox = outboxTable(integrationSchema);
export const inbox = inboxTable(integrationSchema);
export const probes = probeTable(integrationSchema);

/** What a sync did: calls sent to ingest, found already imported, not worth importing, refused by ingest. */
export interface SyncSummary {
  imported: number;
  alreadyImported: number;
  skipped: number;
  refused: number;
}

/**
 * A company's connection to one integration (its id from the catalogue, domain/integrations.ts).
 * `credentials` is sealed (domain/credential-cipher.ts): an API key or OAuth tokens, never stored
 * or logged in the clear. `settings` holds the integration's settings shape, as the domain
 * checked them. A row exists only while the integration is connected (or expired).
 */
export const connections = integrationSchema.table(
  'connections',
  {
    companyId: uuid('company_id').notNull(),
    integrationId: text('integration_id').notNull(),
    /** 'connected', or 'expired' once the vendor refused the credentials. */
    status: text('status').notNull(),
    connectedBy: jsonb('connected_by').$type<{ firstName: string; lastName: string; email: string }>().notNull(),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull(),
    /** The user who connected it: syncs act as them (identity answers a company's members only). */
    connectedByUserId: uuid('connected_by_user_id'),
    credentials: text('credentials').notNull(),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    lastError: text('last_error'),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
    /** Where the next sync reads from, in the integration's own terms (Close: the end of the last window read whole). */
    syncCursor: text('sync_cursor'),
    /** What the last sync did, for the settings view. */
    lastSyncSummary: jsonb('last_sync_summary').$type<SyncSummary>(),
    /** The connection's own id, for what hangs on it (its sync_work); kept when it is connected again. */
    id: uuid('id').notNull().defaultRandom().unique(),
    /** When a score was last written back to the vendor. */
    lastWritebackAt: timestamp('last_writeback_at', { withTimezone: true }),
    /** The last write-back given up, for the screen, until a write succeeds. */
    writebackError: text('writeback_error'),
    writebackErrorAt: timestamp('writeback_error_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.integrationId] })],
);

/**
 * The connection's next sync, at most one, due at `due_at`: queued when asked for (Sync now), when
 * autoSync is turned on, and after each sync while autoSync stays on. Taken by one replica under
 * the platform's lease (platform/work/leased-work.ts), which runs it again when its replica dies;
 * gone with its connection.
 */
export const syncWork = leasedWorkTable(integrationSchema, 'sync_work', {
  connectionId: uuid('connection_id')
    .primaryKey()
    .references(() => connections.id, { onDelete: 'cascade' }),
  integrationId: text('integration_id').notNull(),
  dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
});
export const syncQueue = leasedWorkQueue(syncWork, syncWork.connectionId);

/**
 * A score to write back to the vendor (domain/writeback.ts): queued when `scoring.activity-scored`
 * arrives, in the transaction that takes the event in, so it is neither lost nor queued twice;
 * keyed by the activity, the write's kind and the scoring time (a re-score is written again).
 * Taken by one replica under the platform's lease; a failed write is handed back to be tried again
 * later (`failures`, `last_error`), and given up after WRITE_MAX_FAILURES with its error kept on
 * the connection. Gone with its connection.
 */
export const writebackWork = leasedWorkTable(integrationSchema, 'writeback_work', {
  writeKey: text('write_key').primaryKey(),
  connectionId: uuid('connection_id')
    .notNull()
    .references(() => connections.id, { onDelete: 'cascade' }),
  activityId: uuid('activity_id').notNull(),
  request: jsonb('request').$type<WriteRequest>().notNull(),
  /** Failed tries so far; a retry after one first looks for what the failed try may have written. */
  failures: integer('failures').notNull().default(0),
  lastError: text('last_error'),
});
export const writebackQueue = leasedWorkQueue(writebackWork, writebackWork.writeKey);

/**
 * Every call or meeting a sync sent to ingest, by the vendor's id: a sync passes over what is
 * here, and write-back finds the vendor's record (Close's lead) of a scored activity. Kept when
 * the connection goes, so connecting again does not import the same calls twice.
 */
export const imports = integrationSchema.table(
  'imports',
  {
    companyId: uuid('company_id').notNull(),
    integrationId: text('integration_id').notNull(),
    externalId: text('external_id').notNull(),
    activityId: uuid('activity_id').notNull(),
    jobId: uuid('job_id').notNull(),
    /** Close: the call's lead, where notes and statuses go; '' when it has none. */
    leadId: text('lead_id').notNull().default(''),
    /** HubSpot: the call's contacts and owner, where notes and tasks go. */
    vendorRefs: jsonb('vendor_refs').$type<{ contactIds?: string[]; ownerId?: string }>().notNull().default({}),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.integrationId, table.externalId] }), index('imports_activity_idx').on(table.activityId)],
);

/**
 * The authorization requests under way (OAuth `state`, domain/oauth.ts): stored by its hash with
 * who asked and from which session, for ten minutes, and deleted as the callback reads it, so a
 * state is used once.
 */
export const oauthStates = integrationSchema.table('oauth_states', {
  stateHash: text('state_hash').primaryKey(),
  integrationId: text('integration_id').notNull(),
  companyId: uuid('company_id').notNull(),
  userId: uuid('user_id').notNull(),
  bindingHash: text('binding_hash').notNull(),
  /** The redirect the authorization was asked with: the code is exchanged with the same one. */
  redirectUri: text('redirect_uri').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Requests for integrations Parlance does not have ('Need another integration?'), kept whatever
 * happens to the e-mail: `emailed_at` stays null until the operators' address has taken it, and a
 * request not yet e-mailed is sent again later.
 */
export const integrationRequests = integrationSchema.table('integration_requests', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  integrationName: text('integration_name').notNull(),
  details: text('details').notNull(),
  requestedBy: jsonb('requested_by').$type<{ firstName: string; lastName: string; email: string }>().notNull(),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
  emailedAt: timestamp('emailed_at', { withTimezone: true }),
});
