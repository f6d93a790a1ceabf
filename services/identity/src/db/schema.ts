import { sql } from 'drizzle-orm';
import { bigint, check, doublePrecision, foreignKey, index, integer, pgSchema, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@parlance/platform/outbox/tables';
import { probeTable } from '@parlance/platform/probe/probe-tables';

/** Everything identity stores lives in its own Postgres schema; no other service reads it. */
export const identitySchema = pgSchema('identity');

export const outbox = outboxTable(identitySchema);
export const inbox = inboxTable(identitySchema);
export const probes = probeTable(identitySchema);

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A tenant. A company provisioned by single sign-on remembers the issuer and organisation claim it came from. */
export const companies = identitySchema.table(
  'companies',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    departments: text('departments').array().notNull(),
    ssoIssuer: text('sso_issuer'),
    ssoOrganization: text('sso_organization'),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('companies_sso_organization_idx').on(table.ssoIssuer, table.ssoOrganization)],
);

/**
 * A person. Before the e-mail is verified the account has no company and no password (each
 * pending sign-up keeps its own on its verification link); `role` is set exactly when
 * `company_id` is. `password_hash` is an argon2id PHC string, absent for Google- or SSO-only accounts.
 */
export const users = identitySchema.table(
  'users',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull().unique(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    passwordHash: text('password_hash'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    companyId: uuid('company_id').references(() => companies.id),
    role: text('role').$type<'admin' | 'manager'>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('users_company_id_idx').on(table.companyId),
    check('users_role_check', sql`${table.role} in ('admin', 'manager')`),
    check('users_role_with_company_check', sql`(${table.companyId} is null) = (${table.role} is null)`),
  ],
);

/** Accounts at an outside identity provider (Google, an SSO issuer) linked to a user: `iss` + `sub`. */
export const externalIdentities = identitySchema.table(
  'external_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.issuer, table.subject] }), index('external_identities_user_id_idx').on(table.userId)],
);

/**
 * Single-use e-mail verification links, keyed by the SHA-256 of the token in the link. Each link
 * carries the names and password of the sign-up that asked for it, applied only when that link is
 * followed: a second sign-up for the same address (perhaps not by its owner) never changes what
 * the first one set.
 */
export const emailVerifications = identitySchema.table(
  'email_verifications',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('email_verifications_user_id_idx').on(table.userId)],
);

/** Browser sessions, keyed by the SHA-256 of the cookie's token. */
export const sessions = identitySchema.table(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    /** The idle limit counts from here; the absolute one from created_at (domain/sessions.ts). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId), index('sessions_created_at_idx').on(table.createdAt)],
);

/**
 * Invitations to join a company. `opened_at` is set when the link is followed by someone without
 * an account yet: their sign-up with this address joins the company on verification.
 */
export const invitations = identitySchema.table(
  'invitations',
  {
    id: uuid('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
    email: text('email').notNull(),
    role: text('role').$type<'admin' | 'manager'>().notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    index('invitations_email_idx').on(table.email),
    index('invitations_company_id_idx').on(table.companyId),
    check('invitations_role_check', sql`${table.role} in ('admin', 'manager')`),
  ],
);

/** One subscription per company. */
export const subscriptions = identitySchema.table('subscriptions', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id),
  planId: text('plan_id').notNull(),
  billingCycle: text('billing_cycle').$type<'monthly' | 'annual'>().notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
});

/** Insight tokens consumed, one row per `scoring.insight-tokens-consumed.v1` event. */
export const usageLedger = identitySchema.table(
  'usage_ledger',
  {
    eventId: uuid('event_id').primaryKey(),
    companyId: uuid('company_id').notNull(),
    activityId: text('activity_id').notNull(),
    teamId: text('team_id').notNull(),
    model: text('model').notNull(),
    tokens: bigint('tokens', { mode: 'number' }).notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('usage_ledger_company_occurred_idx').on(table.companyId, table.occurredAt)],
);

/**
 * A company's teams. Ids are made by the team editor (so a retried create finds its team) and
 * mean something only inside their company. A deleted team keeps its row, criteria and members,
 * marked `deleted_at`, so activities scored against it still name what they were scored on.
 * `version` goes up by one with every change and is carried by `identity.team-changed.v1`.
 */
export const teams = identitySchema.table(
  'teams',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
    id: text('id').notNull(),
    name: text('name').notNull(),
    department: text('department').notNull(),
    successPrompt: text('success_prompt').notNull(),
    callScript: text('call_script').notNull(),
    crmId: text('crm_id').notNull(),
    /** A verdict below this confidence needs review (0.5 to 0.95); teams made before it was a setting have 0.7. */
    reviewThreshold: doublePrecision('review_threshold').notNull().default(0.7),
    version: bigint('version', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.companyId, table.id] }),
    index('teams_company_department_idx').on(table.companyId, table.department),
    check('teams_review_threshold_check', sql`${table.reviewThreshold} >= 0.5 and ${table.reviewThreshold} <= 0.95`),
  ],
);

export const criteriaGroups = identitySchema.table(
  'criteria_groups',
  {
    companyId: uuid('company_id').notNull(),
    teamId: text('team_id').notNull(),
    id: text('id').notNull(),
    position: integer('position').notNull(),
    name: text('name').notNull(),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.teamId, table.id] }), foreignKey({ name: 'criteria_groups_team_fk', columns: [table.companyId, table.teamId], foreignColumns: [teams.companyId, teams.id] }).onDelete('cascade')],
);

/** A criterion's id is unique within its team, so results can name it alone. */
export const criteria = identitySchema.table(
  'criteria',
  {
    companyId: uuid('company_id').notNull(),
    teamId: text('team_id').notNull(),
    groupId: text('group_id').notNull(),
    id: text('id').notNull(),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    prompt: text('prompt').notNull(),
    weight: doublePrecision('weight').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.companyId, table.teamId, table.id] }),
    foreignKey({
      name: 'criteria_group_fk',
      columns: [table.companyId, table.teamId, table.groupId],
      foreignColumns: [criteriaGroups.companyId, criteriaGroups.teamId, criteriaGroups.id],
    }).onDelete('cascade'),
    check('criteria_weight_check', sql`${table.weight} >= 0 and ${table.weight} <= 10`),
  ],
);

/** The representatives of a team (not necessarily Parlance users), with daily targets. */
export const teamMembers = identitySchema.table(
  'team_members',
  {
    companyId: uuid('company_id').notNull(),
    teamId: text('team_id').notNull(),
    email: text('email').notNull(),
    position: integer('position').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    crmId: text('crm_id').notNull(),
    target: integer('target').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.companyId, table.teamId, table.email] }),
    foreignKey({ name: 'team_members_team_fk', columns: [table.companyId, table.teamId], foreignColumns: [teams.companyId, teams.id] }).onDelete('cascade'),
    check('team_members_target_check', sql`${table.target} >= 0`),
  ],
);
