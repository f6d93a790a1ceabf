import { jsonb, pgSchema, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@parlance/platform/outbox/tables';
import { probeTable } from '@parlance/platform/probe/probe-tables';

/** Everything integration stores lives in its own Postgres schema; no other service reads it. */
export const integrationSchema = pgSchema('integration');

export const outbox = outboxTable(integrationSchema);
export const inbox = inboxTable(integrationSchema);
export const probes = probeTable(integrationSchema);

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
    credentials: text('credentials').notNull(),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    lastError: text('last_error'),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.integrationId] })],
);

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
