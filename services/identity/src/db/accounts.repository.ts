/**
 * Companies, users and the outside identities linked to them. Every function takes the executor
 * to run on (the database, or the caller's open transaction) and touches only identity's tables.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import type { Role } from '../domain/members.js';
import { companies, externalIdentities, users } from './schema.js';

export type UserRow = typeof users.$inferSelect;
export type CompanyRow = typeof companies.$inferSelect;

/** A user who belongs to a company, with that company. */
export interface Membership {
  user: UserRow & { companyId: string; role: Role };
  company: CompanyRow;
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

/** Locks the user's row for the rest of the transaction (concurrent verifications, role changes). */
export async function lockUser(tx: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1).for('update');
  return row;
}

export async function findCompany(db: Executor, id: string): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id)).limit(1);
  return row;
}

export async function findCompanyBySso(db: Executor, issuer: string, organization: string): Promise<CompanyRow | undefined> {
  const [row] = await db
    .select()
    .from(companies)
    .where(and(eq(companies.ssoIssuer, issuer), eq(companies.ssoOrganization, organization)))
    .limit(1);
  return row;
}

/** The user with their company, or undefined when the user is unknown or belongs to none. */
export async function findMembership(db: Executor, userId: string): Promise<Membership | undefined> {
  const [row] = await db.select().from(users).innerJoin(companies, eq(users.companyId, companies.id)).where(eq(users.id, userId)).limit(1);
  if (!row) return undefined;
  return { user: row.users as Membership['user'], company: row.companies };
}

export async function listMembers(db: Executor, companyId: string): Promise<Array<Membership['user']>> {
  const rows = await db.select().from(users).where(eq(users.companyId, companyId)).orderBy(asc(users.lastName), asc(users.firstName), asc(users.email));
  return rows as Array<Membership['user']>;
}

/** Locks every member row of the company, so role and removal checks see a stable admin count. */
export async function lockMembers(tx: Executor, companyId: string): Promise<Array<Membership['user']>> {
  const rows = await tx.select().from(users).where(eq(users.companyId, companyId)).orderBy(asc(users.email)).for('update');
  return rows as Array<Membership['user']>;
}

/**
 * A new company, or undefined when it names an (issuer, organisation) that already has one (two
 * first single-sign-on sign-ins racing). Companies made at sign-up name none, and never clash.
 */
export async function insertCompany(
  tx: Executor,
  company: { name: string; departments: string[]; ssoIssuer?: string; ssoOrganization?: string },
): Promise<CompanyRow | undefined> {
  const [row] = await tx
    .insert(companies)
    .values({ id: randomUUID(), ...company })
    .onConflictDoNothing({ target: [companies.ssoIssuer, companies.ssoOrganization] })
    .returning();
  return row;
}

/**
 * The user with this address, created as given when there is none. Concurrent calls for one
 * address get the same row; `created` says whether this call made it.
 */
export async function insertUserIfAbsent(
  tx: Executor,
  user: { email: string; firstName: string; lastName: string; passwordHash: string | null; emailVerifiedAt: Date | null },
): Promise<{ user: UserRow; created: boolean }> {
  const [inserted] = await tx
    .insert(users)
    .values({ id: randomUUID(), ...user })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (inserted) return { user: inserted, created: true };
  const [existing] = await tx.select().from(users).where(eq(users.email, user.email)).limit(1).for('update');
  return { user: existing!, created: false };
}

export async function updateUser(
  tx: Executor,
  id: string,
  changes: Partial<Pick<UserRow, 'firstName' | 'lastName' | 'passwordHash' | 'emailVerifiedAt' | 'companyId' | 'role'>>,
): Promise<UserRow> {
  const [row] = await tx
    .update(users)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

/** The user linked to this account at an outside identity provider. */
export async function findUserByExternalIdentity(db: Executor, issuer: string, subject: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(externalIdentities)
    .innerJoin(users, eq(externalIdentities.userId, users.id))
    .where(and(eq(externalIdentities.issuer, issuer), eq(externalIdentities.subject, subject)))
    .limit(1);
  return row?.user;
}

export async function linkExternalIdentity(tx: Executor, link: { issuer: string; subject: string; userId: string }): Promise<void> {
  await tx.insert(externalIdentities).values(link).onConflictDoNothing();
}
