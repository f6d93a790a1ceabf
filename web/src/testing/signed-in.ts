import type { Company, User } from '../lib/api/gateway-api.generated';
import type { RootState } from '../app/store';

export const testAdmin: User = { id: 'u-1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', role: 'admin' };
export const testCompany: Company = { id: 'c-1', name: 'Analytical Engines Ltd', departments: ['sales', 'support'] };

type SignedInOverrides = {
  user?: Partial<User>;
  company?: Partial<Company>;
  department?: string;
  /** A CSRF token already in hand: change requests go out without fetching one first. */
  csrfToken?: string;
};

/** Preloaded state of a signed-in person (admin unless told otherwise), with a department chosen. */
export function signedInState(overrides: SignedInOverrides = {}): Partial<RootState> {
  const user = { ...testAdmin, ...overrides.user };
  const company = { ...testCompany, ...overrides.company };
  return {
    auth: { status: 'authenticated', user, company },
    department: { active: overrides.department ?? company.departments[0] ?? null },
    ...(overrides.csrfToken ? { csrf: { token: overrides.csrfToken } } : {}),
  };
}
