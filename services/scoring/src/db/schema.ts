import { bigint, jsonb, pgSchema, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@parlance/platform/outbox/tables';
import { probeTable } from '@parlance/platform/probe/probe-tables';
import type { CriteriaGroup } from '@parlance/proto/parlance/identity/v1/teams';

/** Everything scoring stores lives in its own Postgres schema; no other service reads it. */
export const scoringSchema = pgSchema('scoring');

export const outbox = outboxTable(scoringSchema);
export const inbox = inboxTable(scoringSchema);
export const probes = probeTable(scoringSchema);

/**
 * The criteria every team is scored against, as `identity.team-changed.v1` last said (a higher
 * version replaces a lower one, never the reverse). A deleted team stays, marked, so activities
 * scored against it still name their criteria.
 */
export const teamCriteria = scoringSchema.table(
  'team_criteria',
  {
    companyId: uuid('company_id').notNull(),
    teamId: text('team_id').notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
    name: text('name').notNull(),
    department: text('department').notNull(),
    criteriaGroups: jsonb('criteria_groups').$type<CriteriaGroup[]>().notNull(),
    successPrompt: text('success_prompt').notNull(),
    callScript: text('call_script').notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.teamId] })],
);
