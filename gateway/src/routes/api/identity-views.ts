/** identity's protobuf messages in the API's JSON shapes (spec part 1, §3). */
import type { Company, User } from '@parlance/proto/parlance/identity/v1/identity';
import type { TokenAllowance } from '@parlance/proto/parlance/identity/v1/billing';

type RoleName = 'admin' | 'manager';
const role = (value: string): RoleName => (value === 'admin' ? 'admin' : 'manager');

export const userView = (user: User | undefined) => ({
  id: user?.id ?? '',
  firstName: user?.firstName ?? '',
  lastName: user?.lastName ?? '',
  email: user?.email ?? '',
  role: role(user?.role ?? ''),
});

export const companyView = (company: Company | undefined) => ({
  id: company?.id ?? '',
  name: company?.name ?? '',
  departments: company?.departments ?? [],
});

/** Spec §3 "Company member": snake_case, unlike User. */
export const memberView = (user: User | undefined) => ({
  first_name: user?.firstName ?? '',
  last_name: user?.lastName ?? '',
  email: user?.email ?? '',
  role: role(user?.role ?? ''),
});

export function allowanceView(allowance: TokenAllowance | undefined): number | 'unlimited' {
  const value = allowance?.allowance;
  if (value?.$case === 'unlimited') return 'unlimited';
  return value?.$case === 'tokens' ? value.value : 0;
}
