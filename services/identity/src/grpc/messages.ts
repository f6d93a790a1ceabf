/** Rows to the protobuf messages of parlance.identity.v1. */
import type { Company, User } from '@parlance/proto/parlance/identity/v1/identity';
import type { Team } from '@parlance/proto/parlance/identity/v1/teams';
import type { CompanyRow, UserRow } from '../db/accounts.repository.js';
import type { StoredTeam } from '../db/teams.repository.js';

export function userMessage(user: UserRow): User {
  return { id: user.id, firstName: user.firstName, lastName: user.lastName, email: user.email, role: user.role ?? '' };
}

export function companyMessage(company: CompanyRow): Company {
  return { id: company.id, name: company.name, departments: [...company.departments] };
}

export function teamMessage(team: StoredTeam): Team {
  return {
    id: team.id,
    name: team.name,
    department: team.department,
    criteriaGroups: team.criteriaGroups,
    successPrompt: team.successPrompt,
    callScript: team.callScript,
    crmId: team.crmId,
    reviewThreshold: team.reviewThreshold,
    memberEmails: team.memberEmails,
    version: team.version,
    createdAt: team.createdAt,
    updatedAt: team.updatedAt,
  };
}
