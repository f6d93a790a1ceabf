import { describe, expect, it } from 'vitest';
import {
  canRemoveMember,
  canUpdateRole,
  isValidEmail,
  memberErrorText,
  periodDateText,
  priceText,
  profileChanges,
  roleBadgeClass,
  tabFromQuery,
  usagePercent,
  usageStatus,
} from './settings-rules';

describe('settings rules', () => {
  it('opens the tab named in the query and falls back to My Profile', () => {
    expect(tabFromQuery('members')).toBe('members');
    expect(tabFromQuery('audit-log')).toBe('audit-log');
    expect(tabFromQuery('nonsense')).toBe('profile');
    expect(tabFromQuery(null)).toBe('profile');
  });

  it('accepts e-mails of the form text@text.text and nothing else', () => {
    expect(isValidEmail('ana@example.com')).toBe(true);
    expect(isValidEmail('ana+sales@mail.example.co')).toBe(true);
    expect(isValidEmail('  ana@example.com  ')).toBe(true);
    expect(isValidEmail('')).toBe(false);
    expect(isValidEmail('ana')).toBe(false);
    expect(isValidEmail('ana@example')).toBe(false);
    expect(isValidEmail('@example.com')).toBe(false);
    expect(isValidEmail('ana@.com')).toBe(false);
    expect(isValidEmail('ana@example.')).toBe(false);
    expect(isValidEmail('an a@example.com')).toBe(false);
    expect(isValidEmail('ana@@example.com')).toBe(false);
  });

  it('reports no profile changes when the trimmed names are the same', () => {
    const current = { firstName: 'Ana', lastName: 'Lopez' };
    expect(profileChanges(current, { firstName: ' Ana ', lastName: 'Lopez' })).toBeNull();
    expect(profileChanges(current, { firstName: 'Ana', lastName: ' Lopez-Diaz ' })).toEqual({ firstName: 'Ana', lastName: 'Lopez-Diaz' });
  });

  it('gives Admin the primary badge and Manager the info badge', () => {
    expect(roleBadgeClass('admin')).toBe('badge badge--primary');
    expect(roleBadgeClass('manager')).toBe('badge badge--info');
  });

  it('allows a role update only with an e-mail and a different, known role', () => {
    const member = { email: 'sam@example.com', role: 'manager' };
    expect(canUpdateRole(member, 'manager')).toBe(false);
    expect(canUpdateRole(member, 'admin')).toBe(true);
    expect(canUpdateRole(member, 'owner')).toBe(false);
    expect(canUpdateRole({ email: '', role: 'manager' }, 'admin')).toBe(false);
    expect(canRemoveMember({ email: '' })).toBe(false);
    expect(canRemoveMember(member)).toBe(true);
  });

  it("prefers the server's sentence, then the default, then the retry advice for member errors", () => {
    const refused = {
      status: 409,
      data: {
        error: 'The last admin cannot be demoted.',
        message: 'The last admin cannot be demoted.',
      },
    };
    expect(memberErrorText(refused, 'update')).toBe('The last admin cannot be demoted.');
    expect(memberErrorText({ status: 500, data: {} }, 'update')).toBe('Error updating member');
    expect(memberErrorText({ status: 'PARSING_ERROR', originalStatus: 502, data: '<html>' }, 'remove')).toBe('Error deleting member');
    expect(memberErrorText({ status: 'FETCH_ERROR', error: 'TypeError: fetch failed' }, 'update')).toBe(
      'Failed to update member. Please try again.',
    );
    expect(memberErrorText({ status: 'CUSTOM_ERROR', error: 'Failed to obtain CSRF token' }, 'remove')).toBe(
      'Failed to remove member. Please try again.',
    );
  });

  it('shows null prices as contact sales, 0 as free, cents with two decimals otherwise', () => {
    expect(priceText(null)).toBe('Contact sales');
    expect(priceText(0)).toBe('Free');
    expect(priceText(49_900)).toBe('$499.00');
    expect(priceText(1_999)).toBe('$19.99');
  });

  it('caps the usage percentage at 100 and has none for unlimited plans', () => {
    expect(usagePercent(250_000, 1_000_000)).toBe(25);
    expect(usagePercent(999_999, 1_000_000)).toBe(99);
    expect(usagePercent(1_000_000, 1_000_000)).toBe(100);
    expect(usagePercent(3_000_000, 1_000_000)).toBe(100);
    expect(usagePercent(0, 1_000_000)).toBe(0);
    expect(usagePercent(10, 0)).toBe(100);
    expect(usagePercent(0, 0)).toBe(0);
    expect(usagePercent(5, 'unlimited')).toBeNull();
  });

  it('is grey with no usage, over limit above the allowance, active otherwise', () => {
    expect(usageStatus(0, 1_000)).toBe('unused');
    expect(usageStatus(0, 'unlimited')).toBe('unused');
    expect(usageStatus(1_000, 1_000)).toBe('active');
    expect(usageStatus(1_001, 1_000)).toBe('over-limit');
    expect(usageStatus(5_000_000, 'unlimited')).toBe('active');
  });

  it('formats period boundaries as UTC dates and hides the unknown epoch', () => {
    expect(periodDateText('2025-01-15T10:00:00.000Z')).toBe('Jan 15, 2025');
    expect(periodDateText('2025-02-14T23:30:00.000Z')).toBe('Feb 14, 2025');
    expect(periodDateText('1970-01-01T00:00:00.000Z')).toBe('Not set');
    expect(periodDateText('garbage')).toBe('Not set');
  });
});
