/** Company rules: the departments a new company starts with and how department keys are shown. */

/** Spec §1 and §3: work is organised by department; these three are the keys a new company gets. */
export const DEFAULT_DEPARTMENTS = ['sales', 'hr', 'support'] as const;

/** A fresh list each time, so a caller that edits its copy cannot change the default. */
export function newCompanyDepartments(): string[] {
  return [...DEFAULT_DEPARTMENTS];
}

const DEPARTMENT_NAMES: Readonly<Record<string, string>> = {
  sales: 'Sales',
  hr: 'HR',
  support: 'Customer Support',
};

/** Spec §3: sales → 'Sales', hr → 'HR', support → 'Customer Support'; other keys as given. */
export function departmentDisplayName(key: string): string {
  return Object.hasOwn(DEPARTMENT_NAMES, key) ? (DEPARTMENT_NAMES[key] as string) : key;
}

/**
 * The name of a company created at sign-up. Nothing but the person is known then, and the spec
 * never shows a company name, so it is named after them ("Ada Lovelace's company").
 */
export function defaultCompanyName(firstName: string, lastName: string): string {
  return `${`${firstName} ${lastName}`.trim()}'s company`;
}
