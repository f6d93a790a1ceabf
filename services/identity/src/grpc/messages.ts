/** Rows to the protobuf messages of parlance.identity.v1. */
import type { Company, User } from '@parlance/proto/parlance/identity/v1/identity';
import type { CompanyRow, UserRow } from '../db/accounts.repository.js';

export function userMessage(user: UserRow): User {
  return { id: user.id, firstName: user.firstName, lastName: user.lastName, email: user.email, role: user.role ?? '' };
}

export function companyMessage(company: CompanyRow): Company {
  return { id: company.id, name: company.name, departments: [...company.departments] };
}
