/**
 * Members, roles and invitations (spec part 1 §6). Each function takes the facts the service has
 * loaded (the actor's role, the company's members) and returns a plan to apply, or throws the
 * DomainError to answer with.
 */
import { alreadyExists, failedPrecondition, invalidArgument, notFound, permissionDenied } from '@parlance/platform/errors';
import { normaliseEmail, parseEmail } from './accounts.js';

export const ROLES = ['admin', 'manager'] as const;
export type Role = (typeof ROLES)[number];

/** Spec §6: the invitable roles and how the invite form describes them. */
export const ROLE_DESCRIPTIONS: Readonly<Record<Role, string>> = {
  manager: 'Can view and edit content',
  admin: 'Full administrative access',
};

export const MEMBER_MESSAGES = {
  adminOnly: 'Members management is only available for Admin users',
  emailRequired: 'Email is required.',
  roleRequired: 'Role is required.',
  invalidRole: "Role must be either 'admin' or 'manager'.",
  notFound: (email: string) => `No member with the email ${email} was found in your company.`,
  lastAdminDemote: 'The last admin cannot be changed to manager. Make another member an admin first.',
  lastAdminRemove: 'The last admin cannot be removed. Make another member an admin first.',
  selfLastAdminRemove: 'You are the only admin, so you cannot remove yourself. Make another member an admin first.',
  alreadyMember: (email: string) => `${email} is already a member of your company.`,
  invitationInvalid: 'Invalid or expired invitation.',
  managedBySso: (company: string) =>
    `The members of ${company} are managed in your single sign-on provider: invite, remove and change roles there.`,
  onlyAdminLeaving: (company: string, joining: string) =>
    `You are the only admin of ${company}, which has other members. Make one of them an admin before joining ${joining}.`,
} as const;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** A missing role → 'Role is required.'; anything but admin or manager → invalid-argument. */
export function parseRole(input: unknown): Role {
  if (input === undefined || input === null || input === '') throw invalidArgument(MEMBER_MESSAGES.roleRequired, { field: 'role' });
  if (!isRole(input)) throw invalidArgument(MEMBER_MESSAGES.invalidRole, { field: 'role', allowed: ROLES });
  return input;
}

/**
 * Spec §6: only admins may invite, change roles or remove members. And the members of a company
 * that signs in through single sign-on are the provider's to manage (it re-applies them at every
 * sign-in), so Parlance refuses to, saying where to go instead.
 */
export function assertCanManageMembers(actorRole: Role, company?: ManagedCompany): void {
  if (actorRole !== 'admin') throw permissionDenied(MEMBER_MESSAGES.adminOnly);
  if (company?.managedBySso) throw failedPrecondition(MEMBER_MESSAGES.managedBySso(company.name), { reason: 'managed-by-sso' });
}

/** What member management needs to know of the company it acts on. */
export interface ManagedCompany {
  name: string;
  managedBySso: boolean;
}

export interface Member {
  userId: string;
  email: string;
  role: Role;
}

export interface Actor {
  userId: string;
  role: Role;
}

function targetEmail(input: unknown): string {
  const email = typeof input === 'string' ? normaliseEmail(input) : '';
  if (email === '') throw invalidArgument(MEMBER_MESSAGES.emailRequired, { field: 'email' });
  return email;
}

function findMember(members: readonly Member[], email: string): Member {
  const member = members.find((m) => normaliseEmail(m.email) === email);
  if (!member) throw notFound(MEMBER_MESSAGES.notFound(email), { email });
  return member;
}

const adminCount = (members: readonly Member[]) => members.filter((m) => m.role === 'admin').length;

export interface RoleChangePlan {
  userId: string;
  email: string;
  from: Role;
  to: Role;
  /** False when the member already has the role: nothing to write, and the call still succeeds. */
  changed: boolean;
}

/**
 * PUT /settings/members/{email} with { role }. Checks, in order: the actor is an admin, an e-mail
 * and a valid role are given, the member exists in the actor's company, and the change would not
 * leave the company without an admin (this also covers an only admin demoting themselves).
 */
export function planRoleChange(input: {
  actor: Actor;
  members: readonly Member[];
  email: unknown;
  role: unknown;
  company?: ManagedCompany;
}): RoleChangePlan {
  assertCanManageMembers(input.actor.role, input.company);
  const email = targetEmail(input.email);
  const role = parseRole(input.role);
  const target = findMember(input.members, email);
  if (target.role === role) return { userId: target.userId, email: target.email, from: target.role, to: role, changed: false };
  if (target.role === 'admin' && adminCount(input.members) <= 1) {
    throw failedPrecondition(MEMBER_MESSAGES.lastAdminDemote, { reason: 'last-admin' });
  }
  return { userId: target.userId, email: target.email, from: target.role, to: role, changed: true };
}

export interface RemovalPlan {
  userId: string;
  email: string;
  /** The actor removed their own membership: the gateway should end their session. */
  self: boolean;
}

/**
 * DELETE /settings/members/{email}. The actor must be an admin, the member must exist, and the
 * last admin cannot be removed: with a dedicated message when the actor is removing themselves.
 * An admin may remove themselves while another admin remains.
 */
export function planRemoval(input: { actor: Actor; members: readonly Member[]; email: unknown; company?: ManagedCompany }): RemovalPlan {
  assertCanManageMembers(input.actor.role, input.company);
  const email = targetEmail(input.email);
  const target = findMember(input.members, email);
  const self = target.userId === input.actor.userId;
  if (target.role === 'admin' && adminCount(input.members) <= 1) {
    throw failedPrecondition(self ? MEMBER_MESSAGES.selfLastAdminRemove : MEMBER_MESSAGES.lastAdminRemove, {
      reason: 'last-admin',
    });
  }
  return { userId: target.userId, email: target.email, self };
}

export interface InvitationPlan {
  email: string;
  role: Role;
}

/**
 * POST /auth/invite with { email, role }. Admin only; the e-mail must match the spec's pattern
 * ('Please enter a valid email address'); the role must be admin or manager; the person must not
 * already be a member of this company. Inviting an address that already has a pending
 * invitation is allowed: the service replaces the old invitation (and its link) with the new one.
 */
export function planInvitation(input: {
  actorRole: Role;
  members: readonly Member[];
  email: unknown;
  role: unknown;
  company?: ManagedCompany;
}): InvitationPlan {
  assertCanManageMembers(input.actorRole, input.company);
  const email = parseEmail(input.email);
  const role = parseRole(input.role);
  if (input.members.some((m) => normaliseEmail(m.email) === email)) {
    throw alreadyExists(MEMBER_MESSAGES.alreadyMember(email), { email });
  }
  return { email, role };
}

export interface InvitationTimes {
  expiresAt: Date;
  acceptedAt?: Date | null;
  /** Set when a newer invitation for the same address replaced this one. */
  revokedAt?: Date | null;
}

export type InvitationState = 'pending' | 'accepted' | 'revoked' | 'expired';

export function invitationState(invitation: InvitationTimes, now: Date): InvitationState {
  if (invitation.acceptedAt) return 'accepted';
  if (invitation.revokedAt) return 'revoked';
  if (now.getTime() >= invitation.expiresAt.getTime()) return 'expired';
  return 'pending';
}

/**
 * GET /auth/accept-invite?token=. Single use: an accepted, replaced or expired invitation gives
 * the spec's 'Invalid or expired invitation.' (an unknown token gives the same, so the answer
 * never tells which tokens exist).
 */
export function assertInvitationUsable(invitation: InvitationTimes | null, now: Date): void {
  if (invitation === null || invitationState(invitation, now) !== 'pending') {
    throw invalidArgument(MEMBER_MESSAGES.invitationInvalid);
  }
}

/**
 * A person belongs to one company. Accepting an invitation from another moves them, unless they
 * are the only admin of a company that has other members: it would be left with nobody able to
 * manage it. An only member may leave (their company keeps its data, with nobody in it).
 */
export function assertMayLeaveCompany(input: { userId: string; companyName: string; joiningName: string; members: readonly Member[] }): void {
  const leaving = input.members.find((m) => m.userId === input.userId);
  if (!leaving || leaving.role !== 'admin') return;
  if (input.members.length > 1 && adminCount(input.members) <= 1) {
    throw failedPrecondition(MEMBER_MESSAGES.onlyAdminLeaving(input.companyName, input.joiningName), { reason: 'last-admin' });
  }
}

/**
 * The role a single-sign-on user gets at sign-in. The identity provider is authoritative for
 * roles (its strongest application role wins), except that a company always keeps an admin: the
 * only member of a company is its admin, and the last admin is never demoted.
 */
export function ssoRole(input: { granted: Role | undefined; current: Role | undefined; onlyMember: boolean; admins: number }): Role {
  if (input.onlyMember) return 'admin';
  if (input.current === 'admin' && input.admins <= 1) return 'admin';
  return input.granted ?? input.current ?? 'manager';
}

/** The strongest application role among the provider's roles, if any ('Admin' counts as 'admin'). */
export function grantedRole(roles: readonly string[]): Role | undefined {
  const known = roles.map((role) => role.toLowerCase()).filter(isRole);
  if (known.includes('admin')) return 'admin';
  return known.includes('manager') ? 'manager' : undefined;
}
