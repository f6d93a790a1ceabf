import { describe, expect, it } from 'vitest';
import { DomainError } from '@parlance/platform/errors';
import {
  assertCanManageMembers,
  assertInvitationUsable,
  assertMayLeaveCompany,
  grantedRole,
  invitationState,
  parseRole,
  planInvitation,
  planRemoval,
  planRoleChange,
  ssoRole,
  type Member,
} from './members.js';

function thrown(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError, nothing was thrown');
}

const ada: Member = { userId: 'u-ada', email: 'ada@example.com', role: 'admin' };
const grace: Member = { userId: 'u-grace', email: 'grace@example.com', role: 'manager' };
const alan: Member = { userId: 'u-alan', email: 'alan@example.com', role: 'admin' };
const adminActor = { userId: ada.userId, role: 'admin' as const };
const managerActor = { userId: grace.userId, role: 'manager' as const };

const ADMIN_ONLY = 'Members management is only available for Admin users';

describe('roles', () => {
  it('accepts admin and manager only', () => {
    expect(parseRole('admin')).toBe('admin');
    expect(parseRole('manager')).toBe('manager');
    expect(thrown(() => parseRole('owner'))).toMatchObject({ kind: 'invalid-argument', message: "Role must be either 'admin' or 'manager'." });
    expect(thrown(() => parseRole('Admin')).kind).toBe('invalid-argument');
  });

  it('requires a role', () => {
    expect(thrown(() => parseRole(undefined)).message).toBe('Role is required.');
    expect(thrown(() => parseRole('')).message).toBe('Role is required.');
  });

  it('lets admins manage members and denies managers with the spec message', () => {
    expect(() => assertCanManageMembers('admin')).not.toThrow();
    expect(thrown(() => assertCanManageMembers('manager'))).toMatchObject({ kind: 'permission-denied', message: ADMIN_ONLY });
  });
});

describe('planRoleChange', () => {
  it('changes a manager to admin', () => {
    expect(planRoleChange({ actor: adminActor, members: [ada, grace], email: 'grace@example.com', role: 'admin' })).toEqual({
      userId: 'u-grace',
      email: 'grace@example.com',
      from: 'manager',
      to: 'admin',
      changed: true,
    });
  });

  it('finds the member whatever the case of the e-mail in the path', () => {
    expect(planRoleChange({ actor: adminActor, members: [ada, grace], email: ' Grace@Example.com ', role: 'admin' }).userId).toBe('u-grace');
  });

  it('is a no-op, not an error, when the member already has the role', () => {
    expect(planRoleChange({ actor: adminActor, members: [ada, grace], email: grace.email, role: 'manager' }).changed).toBe(false);
  });

  it('denies a manager', () => {
    expect(thrown(() => planRoleChange({ actor: managerActor, members: [ada, grace], email: ada.email, role: 'manager' })).message).toBe(
      ADMIN_ONLY,
    );
  });

  it('requires an e-mail and a role', () => {
    expect(thrown(() => planRoleChange({ actor: adminActor, members: [ada], email: '', role: 'admin' })).message).toBe('Email is required.');
    expect(thrown(() => planRoleChange({ actor: adminActor, members: [ada, grace], email: grace.email, role: undefined })).message).toBe(
      'Role is required.',
    );
  });

  it('answers not found for someone outside the company', () => {
    expect(thrown(() => planRoleChange({ actor: adminActor, members: [ada], email: 'eve@other.com', role: 'admin' }))).toMatchObject({
      kind: 'not-found',
      message: 'No member with the email eve@other.com was found in your company.',
    });
  });

  it('refuses to demote the last admin, including an admin demoting themselves', () => {
    const error = thrown(() => planRoleChange({ actor: adminActor, members: [ada, grace], email: ada.email, role: 'manager' }));
    expect(error).toMatchObject({
      kind: 'failed-precondition',
      message: 'The last admin cannot be changed to manager. Make another member an admin first.',
    });
  });

  it('allows demoting an admin while another admin remains', () => {
    expect(planRoleChange({ actor: adminActor, members: [ada, alan, grace], email: ada.email, role: 'manager' }).changed).toBe(true);
  });
});

describe('planRemoval', () => {
  it('removes a manager', () => {
    expect(planRemoval({ actor: adminActor, members: [ada, grace], email: grace.email })).toEqual({
      userId: 'u-grace',
      email: 'grace@example.com',
      self: false,
    });
  });

  it('denies a manager with the spec message', () => {
    expect(thrown(() => planRemoval({ actor: managerActor, members: [ada, grace], email: ada.email })).kind).toBe('permission-denied');
  });

  it('requires an e-mail and an existing member', () => {
    expect(thrown(() => planRemoval({ actor: adminActor, members: [ada], email: undefined })).message).toBe('Email is required.');
    expect(thrown(() => planRemoval({ actor: adminActor, members: [ada], email: 'nobody@example.com' })).kind).toBe('not-found');
  });

  it('refuses to remove the last admin', () => {
    const actor = { userId: 'u-someone-else', role: 'admin' as const };
    expect(thrown(() => planRemoval({ actor, members: [ada, grace], email: ada.email }))).toMatchObject({
      kind: 'failed-precondition',
      message: 'The last admin cannot be removed. Make another member an admin first.',
    });
  });

  it('tells the only admin they cannot remove themselves', () => {
    expect(thrown(() => planRemoval({ actor: adminActor, members: [ada, grace], email: ada.email })).message).toBe(
      'You are the only admin, so you cannot remove yourself. Make another member an admin first.',
    );
  });

  it('lets an admin remove themselves while another admin remains, and says so', () => {
    expect(planRemoval({ actor: adminActor, members: [ada, alan], email: ada.email })).toMatchObject({ self: true });
  });

  it('lets one admin remove another while one remains', () => {
    expect(planRemoval({ actor: adminActor, members: [ada, alan], email: alan.email }).self).toBe(false);
  });
});

describe('planInvitation', () => {
  it('returns the normalised e-mail and the role', () => {
    expect(planInvitation({ actorRole: 'admin', members: [ada], email: ' New.Person@Example.com ', role: 'manager' })).toEqual({
      email: 'new.person@example.com',
      role: 'manager',
    });
  });

  it('is admin only', () => {
    expect(thrown(() => planInvitation({ actorRole: 'manager', members: [ada], email: 'x@example.com', role: 'manager' }))).toMatchObject({
      kind: 'permission-denied',
      message: ADMIN_ONLY,
    });
  });

  it("rejects an invalid e-mail with 'Please enter a valid email address'", () => {
    expect(thrown(() => planInvitation({ actorRole: 'admin', members: [ada], email: 'x@example', role: 'manager' })).message).toBe(
      'Please enter a valid email address',
    );
  });

  it('rejects a role other than admin or manager', () => {
    expect(thrown(() => planInvitation({ actorRole: 'admin', members: [ada], email: 'x@example.com', role: 'owner' })).kind).toBe(
      'invalid-argument',
    );
  });

  it('refuses to invite an existing member of the company', () => {
    expect(thrown(() => planInvitation({ actorRole: 'admin', members: [ada, grace], email: 'GRACE@example.com', role: 'admin' }))).toMatchObject({
      kind: 'already-exists',
      message: 'grace@example.com is already a member of your company.',
    });
  });
});

describe('invitation state', () => {
  const now = new Date('2025-06-10T12:00:00Z');
  const expiresAt = new Date('2025-06-17T12:00:00Z');

  it('is pending until it expires, then expired', () => {
    expect(invitationState({ expiresAt }, now)).toBe('pending');
    expect(invitationState({ expiresAt }, expiresAt)).toBe('expired');
  });

  it('is single use: accepted or replaced invitations are no longer usable', () => {
    expect(invitationState({ expiresAt, acceptedAt: now }, now)).toBe('accepted');
    expect(invitationState({ expiresAt, revokedAt: now }, now)).toBe('revoked');
    expect(thrown(() => assertInvitationUsable({ expiresAt, acceptedAt: now }, now)).message).toBe('Invalid or expired invitation.');
  });

  it("answers an unknown or expired token with 'Invalid or expired invitation.'", () => {
    expect(thrown(() => assertInvitationUsable(null, now))).toMatchObject({ kind: 'invalid-argument', message: 'Invalid or expired invitation.' });
    expect(thrown(() => assertInvitationUsable({ expiresAt }, expiresAt)).message).toBe('Invalid or expired invitation.');
    expect(() => assertInvitationUsable({ expiresAt }, now)).not.toThrow();
  });
});

describe('assertMayLeaveCompany', () => {
  const ada = { userId: 'u-ada', email: 'ada@acme.test', role: 'admin' as const };
  const bob = { userId: 'u-bob', email: 'bob@acme.test', role: 'manager' as const };
  const eve = { userId: 'u-eve', email: 'eve@acme.test', role: 'admin' as const };
  const leave = (userId: string, members: Array<typeof ada | typeof bob>) =>
    () => assertMayLeaveCompany({ userId, companyName: 'Acme', joiningName: 'Globex', members });

  it('keeps the only admin of a company with other members from leaving it', () => {
    expect(thrown(leave('u-ada', [ada, bob]))).toMatchObject({
      kind: 'failed-precondition',
      message: 'You are the only admin of Acme, which has other members. Make one of them an admin before joining Globex.',
    });
  });

  it('lets a manager, an admin with another admin beside them, or the only member leave', () => {
    expect(leave('u-bob', [ada, bob])).not.toThrow();
    expect(leave('u-ada', [ada, bob, eve])).not.toThrow();
    expect(leave('u-ada', [ada])).not.toThrow();
  });
});

describe('ssoRole and grantedRole', () => {
  it('takes the strongest application role the provider grants, ignoring others', () => {
    expect(grantedRole(['offline_access', 'Manager', 'ADMIN'])).toBe('admin');
    expect(grantedRole(['manager', 'uma_authorization'])).toBe('manager');
    expect(grantedRole(['viewer'])).toBeUndefined();
  });

  it('follows the provider, defaulting a newcomer to manager', () => {
    expect(ssoRole({ granted: 'manager', current: 'admin', onlyMember: false, admins: 2 })).toBe('manager');
    expect(ssoRole({ granted: 'admin', current: 'manager', onlyMember: false, admins: 1 })).toBe('admin');
    expect(ssoRole({ granted: undefined, current: undefined, onlyMember: false, admins: 1 })).toBe('manager');
    expect(ssoRole({ granted: undefined, current: 'admin', onlyMember: false, admins: 2 })).toBe('admin');
  });

  it('never leaves a company without an admin', () => {
    expect(ssoRole({ granted: 'manager', current: undefined, onlyMember: true, admins: 0 })).toBe('admin');
    expect(ssoRole({ granted: 'manager', current: 'admin', onlyMember: false, admins: 1 })).toBe('admin');
  });
});

describe('member management of a single-sign-on company', () => {
  const company = { name: 'Acme', managedBySso: true };
  const admin = { userId: 'u-1', email: 'ada@acme.test', role: 'admin' as const };
  const manager = { userId: 'u-2', email: 'bob@acme.test', role: 'manager' as const };

  it('is left to the provider, after the admin-only rule', () => {
    const managedMessage = 'The members of Acme are managed in your single sign-on provider: invite, remove and change roles there.';
    expect(thrown(() => planRemoval({ actor: admin, members: [admin, manager], email: manager.email, company }))).toMatchObject({
      kind: 'failed-precondition',
      message: managedMessage,
    });
    expect(thrown(() => planRoleChange({ actor: manager, members: [admin, manager], email: admin.email, role: 'manager', company })).message).toBe(
      'Members management is only available for Admin users',
    );
    expect(() => planInvitation({ actorRole: 'admin', members: [admin], email: 'new@acme.test', role: 'manager', company: { ...company, managedBySso: false } })).not.toThrow();
  });
});
