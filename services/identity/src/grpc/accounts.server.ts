/**
 * parlance.identity.v1.AccountsService: the caller's company, its members, invitations and the
 * caller's profile. The company and user come from the call's metadata, never from the request,
 * and every query is scoped by that company.
 */
import { permissionDenied } from '@parlance/platform/errors';
import type { Database } from '@parlance/platform/db/database';
import type { Logger } from '@parlance/platform/logger';
import type { Mailer } from '@parlance/platform/mail/mailer';
import type { ServiceImplementation } from '@parlance/platform/grpc/grpc-server';
import type { AccountsServiceService } from '@parlance/proto/parlance/identity/v1/accounts';
import type { IdentityConfig } from '../config.js';
import { listMembers, lockMembers, updateUser, type Membership } from '../db/accounts.repository.js';
import { markInvitation, replaceInvitation } from '../db/invitations.repository.js';
import { retryOnConflict } from '@parlance/platform/db/conflict-retry';
import { revokeUserSessions } from '../db/sessions.repository.js';
import { planProfileUpdate } from '../domain/accounts.js';
import { planInvitation, planRemoval, planRoleChange, type ManagedCompany, type Member } from '../domain/members.js';
import { newToken, tokenExpiresAt } from '../domain/tokens.js';
import { publishCompanyChanged } from '../events/publishers.js';
import { deliver } from '../mail/deliver.js';
import { invitationLink, invitationMail } from '../mail/messages.js';
import { callerMembership, NO_LONGER_MEMBER_MESSAGE } from '../membership.js';
import { companyMessage, userMessage } from './messages.js';

export interface AccountsDependencies {
  db: Database<Record<string, unknown>>;
  mailer: Mailer;
  config: Pick<IdentityConfig, 'publicUrl'>;
  logger: Logger;
  now?: () => Date;
}

const asMember = (user: Membership['user']): Member => ({ userId: user.id, email: user.email, role: user.role });
const managed = (company: Membership['company']): ManagedCompany => ({ name: company.name, managedBySso: company.ssoIssuer !== null });

/** The caller among the locked members: a concurrent removal or demotion counts, not what was read before the lock. */
function lockedActor(members: Array<Membership['user']>, userId: string): Membership['user'] {
  const actor = members.find((member) => member.id === userId);
  if (!actor) throw permissionDenied(NO_LONGER_MEMBER_MESSAGE);
  return actor;
}

export function accountsService(deps: AccountsDependencies): ServiceImplementation<typeof AccountsServiceService> {
  const { db, config, logger } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    async getCompany() {
      const { company } = await callerMembership(db);
      return { company: companyMessage(company) };
    },

    async listMembers() {
      const { company } = await callerMembership(db);
      return { members: (await listMembers(db, company.id)).map(userMessage) };
    },

    async changeMemberRole(request) {
      const caller = await callerMembership(db);
      return retryOnConflict(() => db.transaction(async (tx) => {
        const members = await lockMembers(tx, caller.company.id);
        const actor = lockedActor(members, caller.user.id);
        const plan = planRoleChange({
          actor: { userId: actor.id, role: actor.role },
          members: members.map(asMember),
          email: request.email,
          role: request.role,
          company: managed(caller.company),
        });
        const target = members.find((m) => m.id === plan.userId)!;
        if (!plan.changed) return { member: userMessage(target) };
        const updated = await updateUser(tx, plan.userId, { role: plan.to });
        await publishCompanyChanged(tx, caller.company.id);
        return { member: userMessage(updated) };
      }));
    },

    async removeMember(request) {
      const caller = await callerMembership(db);
      const at = now();
      return retryOnConflict(() => db.transaction(async (tx) => {
        const members = await lockMembers(tx, caller.company.id);
        const actor = lockedActor(members, caller.user.id);
        const plan = planRemoval({ actor: { userId: actor.id, role: actor.role }, members: members.map(asMember), email: request.email, company: managed(caller.company) });
        // The account stays (the person may be invited again, here or elsewhere); the membership
        // and every session of it end now.
        await updateUser(tx, plan.userId, { companyId: null, role: null });
        await revokeUserSessions(tx, plan.userId, at);
        await publishCompanyChanged(tx, caller.company.id);
        return { removedSelf: plan.self };
      }));
    },

    async inviteMember(request) {
      const caller = await callerMembership(db);
      const members = await listMembers(db, caller.company.id);
      const plan = planInvitation({
        actorRole: caller.user.role,
        members: members.map(asMember),
        email: request.email,
        role: request.role,
        company: managed(caller.company),
      });
      const at = now();
      const { token, hash } = newToken();
      const expiresAt = tokenExpiresAt('invitation', at);
      const invitation = await db.transaction((tx) =>
        replaceInvitation(tx, { tokenHash: hash, companyId: caller.company.id, email: plan.email, role: plan.role, invitedBy: caller.user.id, expiresAt }, at),
      );
      const inviterName = `${caller.user.firstName} ${caller.user.lastName}`.trim() || caller.user.email;
      const mail = invitationMail({ to: plan.email, inviterName, companyName: caller.company.name, role: plan.role, link: invitationLink(config.publicUrl, token) });
      try {
        await deliver(deps.mailer, logger, mail, 'invitation');
      } catch (error) {
        // An invitation nobody received must not stay usable.
        await db.transaction((tx) => markInvitation(tx, invitation.id, { revokedAt: now() }));
        throw error;
      }
      return { email: plan.email, role: plan.role, expiresAt };
    },

    async updateProfile(request) {
      const caller = await callerMembership(db);
      const profile = planProfileUpdate(
        { firstName: caller.user.firstName, lastName: caller.user.lastName },
        { ...(request.firstName !== undefined ? { firstName: request.firstName } : {}), ...(request.lastName !== undefined ? { lastName: request.lastName } : {}) },
      );
      const user = await db.transaction(async (tx) => {
        const updated = await updateUser(tx, caller.user.id, profile);
        await publishCompanyChanged(tx, caller.company.id);
        return updated;
      });
      return { user: userMessage(user) };
    },
  };
}
