/** Invitations to join a company, keyed by the SHA-256 of the token in the link. */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, isNull, lt } from 'drizzle-orm';
import type { Executor } from '@parlance/platform/db/database';
import type { Role } from '../domain/members.js';
import { invitations } from './schema.js';

export type InvitationRow = typeof invitations.$inferSelect;

/** A new invitation; earlier pending ones from this company to the same address stop working. */
export async function replaceInvitation(
  tx: Executor,
  invitation: { tokenHash: string; companyId: string; email: string; role: Role; invitedBy: string; expiresAt: Date },
  now: Date,
): Promise<InvitationRow> {
  await tx
    .update(invitations)
    .set({ revokedAt: now })
    .where(
      and(
        eq(invitations.companyId, invitation.companyId),
        eq(invitations.email, invitation.email),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    );
  const [row] = await tx
    .insert(invitations)
    .values({ id: randomUUID(), ...invitation })
    .returning();
  return row!;
}

export async function findInvitationByToken(tx: Executor, tokenHash: string, lock = false): Promise<InvitationRow | undefined> {
  const query = tx.select().from(invitations).where(eq(invitations.tokenHash, tokenHash)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function markInvitation(tx: Executor, id: string, changes: Partial<Pick<InvitationRow, 'openedAt' | 'acceptedAt' | 'revokedAt'>>): Promise<void> {
  await tx.update(invitations).set(changes).where(eq(invitations.id, id));
}

/**
 * The newest invitation to this address that was opened through its link and is still pending:
 * a person who followed it and then signed up joins that company on verification.
 */
export async function findOpenedInvitation(tx: Executor, email: string, now: Date): Promise<InvitationRow | undefined> {
  const [row] = await tx
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.email, email),
        isNotNull(invitations.openedAt),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, now),
      ),
    )
    .orderBy(desc(invitations.openedAt))
    .limit(1)
    .for('update');
  return row;
}

/** Deletes invitations that expired before `before` (accepted or not: they can no longer be used). */
export async function purgeInvitations(db: Executor, before: Date): Promise<void> {
  await db.delete(invitations).where(lt(invitations.expiresAt, before));
}
