/**
 * The pure rules of the settings screen (spec part 1 §2, §5, §8, §9): tabs, e-mail pattern,
 * profile changes, member roles and error texts, subscription price and usage.
 */
import { sentenceInBody } from '../../lib/api/error-message';
import { formatCount, formatUsd } from '../../lib/format';

/** The tabs, in order, as they appear in the URL (?tab=…). */
export const SETTINGS_TABS = ['profile', 'notifications', 'security', 'billing', 'members', 'audit-log'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

export const TAB_LABELS: Record<SettingsTab, string> = {
  profile: 'My Profile',
  notifications: 'Notifications',
  security: 'Security and Data',
  billing: 'Billing and Usage',
  members: 'Members',
  'audit-log': 'Audit Log',
};

/** An unknown or missing ?tab= opens the first tab rather than an empty page. */
export function tabFromQuery(value: string | null): SettingsTab {
  return (SETTINGS_TABS as readonly string[]).includes(value ?? '') ? (value as SettingsTab) : 'profile';
}

// ---- E-mail and profile ----

/** Spec §5: text, @, text, dot, text (no spaces). The server checks addresses properly. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(text: string): boolean {
  return EMAIL_PATTERN.test(text.trim());
}

export type ProfileDraft = { firstName: string; lastName: string };

/** The PUT body for a profile save, or null when nothing differs (names compared trimmed). */
export function profileChanges(current: ProfileDraft | null, draft: ProfileDraft): ProfileDraft | null {
  const next = {
    firstName: draft.firstName.trim(),
    lastName: draft.lastName.trim(),
  };
  if (current && next.firstName === current.firstName && next.lastName === current.lastName) return null;
  return next;
}

// ---- Members ----

export type Role = 'admin' | 'manager';

/** Spec §6: the roles an Admin can give, Manager first (the least access is the default). */
export const ROLE_OPTIONS: readonly {
  value: Role;
  label: string;
  description: string;
}[] = [
  {
    value: 'manager',
    label: 'Manager',
    description: 'Can view and edit content',
  },
  { value: 'admin', label: 'Admin', description: 'Full administrative access' },
];

export function roleLabel(role: string): string {
  return ROLE_OPTIONS.find((option) => option.value === role)?.label ?? role;
}

/** Spec §2: Admin badges in the primary colour, Manager badges in the info colour. */
export function roleBadgeClass(role: string): string {
  if (role === 'admin') return 'badge badge--primary';
  if (role === 'manager') return 'badge badge--info';
  return 'badge';
}

export const isRole = (value: string): value is Role => value === 'admin' || value === 'manager';

/** Spec §4 and §5: a role change needs the member's e-mail and a role different from theirs. */
export function canUpdateRole(member: { email: string; role: string }, chosen: string): boolean {
  return member.email.trim() !== '' && isRole(chosen) && chosen !== member.role;
}

/** Spec §5: removing a member needs their e-mail. */
export function canRemoveMember(member: { email: string }): boolean {
  return member.email.trim() !== '';
}

export const MEMBER_MESSAGES = {
  loadFailed: 'Failed to load members. Please try again.',
  invited: (email: string) => `Invitation sent to ${email}`,
  inviteFailed: 'Failed to invite user. Please try again.',
  invalidEmail: 'Please enter a valid email address',
  adminOnly: 'Members management is only available for Admin users',
  roleUpdated: 'Member role updated successfully',
  removed: 'Member removed successfully',
} as const;

const MEMBER_ERROR_TEXTS = {
  update: {
    serverDefault: 'Error updating member',
    unreachable: 'Failed to update member. Please try again.',
  },
  remove: {
    serverDefault: 'Error deleting member',
    unreachable: 'Failed to remove member. Please try again.',
  },
} as const;

/**
 * Spec §8 lists three texts for a failed role change (and likewise for a removal): the server's
 * message when present, 'Error updating member' as its default, and 'Failed to update member.
 * Please try again.'. Read together: the server's sentence says best what went wrong (e.g. the
 * last admin cannot be demoted), so it wins; a server answer with no sentence gets the default;
 * and when no answer came at all (network down, no CSRF token) the retry advice is the honest one.
 */
export function memberErrorText(error: unknown, action: 'update' | 'remove'): string {
  const texts = MEMBER_ERROR_TEXTS[action];
  const failure = error as { status?: unknown; originalStatus?: unknown; data?: unknown } | null | undefined;
  const said = sentenceInBody(failure?.data);
  if (said) return said;
  const answered = typeof failure?.status === 'number' || typeof failure?.originalStatus === 'number';
  return answered ? texts.serverDefault : texts.unreachable;
}

// ---- Billing and usage ----

export type TokenAllowance = number | 'unlimited';

/** Spec §9, fixed on this screen (the pricing page reads it from the server). */
export const OVERAGE_PRICE_TEXT = '$0.05 per 1,000 insight tokens';

/** Spec §3: null means contact sales, 0 means free, otherwise cents / 100 with two decimals. */
export function priceText(cents: number | null): string {
  if (cents === null) return 'Contact sales';
  if (cents === 0) return 'Free';
  return formatUsd(cents / 100);
}

export function allowanceText(included: TokenAllowance): string {
  return included === 'unlimited' ? 'unlimited' : formatCount(included);
}

/**
 * Share of the allowance used, whole percent, capped at 100 (spec §2). Rounded down so a bar
 * reads 100% only once the allowance is really used up. Null for an unlimited allowance.
 */
export function usagePercent(used: number, included: TokenAllowance): number | null {
  if (included === 'unlimited') return null;
  if (included <= 0) return used > 0 ? 100 : 0;
  return Math.min(100, Math.floor((used / included) * 100));
}

export type UsageStatus = 'unused' | 'active' | 'over-limit';

/** Spec §2: grey when nothing is used, warning once usage exceeds the allowance, green otherwise. */
export function usageStatus(used: number, included: TokenAllowance): UsageStatus {
  if (used <= 0) return 'unused';
  if (included !== 'unlimited' && used > included) return 'over-limit';
  return 'active';
}

// 'Active' and 'Over Limit' are the spec's; the grey state's text is ours: with nothing used
// there is nothing to call active, and 'No usage yet' says exactly that.
export const USAGE_STATUS_LABELS: Record<UsageStatus, string> = {
  unused: 'No usage yet',
  active: 'Active',
  'over-limit': 'Over Limit',
};

export const USAGE_STATUS_BADGES: Record<UsageStatus, string> = {
  unused: 'badge',
  active: 'badge badge--success',
  'over-limit': 'badge badge--warning',
};

export function billingCycleText(cycle: string): string {
  if (cycle === 'monthly') return 'Monthly';
  if (cycle === 'annual') return 'Annual';
  return cycle;
}

/**
 * A period boundary as a date ('Jan 15, 2025'), in UTC because the server cuts periods in UTC.
 * The gateway sends the epoch when a boundary is unknown; that reads 'Not set', not 1970.
 */
export function periodDateText(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime()) || date.getTime() <= 0) return 'Not set';
  return date.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}
