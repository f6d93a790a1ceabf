/** Events identity publishes, written to its outbox in the caller's transaction. */
import { outboxMessageFor } from '@parlance/platform/events/event-envelope';
import type { Executor } from '@parlance/platform/db/database';
import { enqueue } from '@parlance/platform/outbox/enqueue';
import { CompanyChanged, TeamChanged } from '@parlance/proto/parlance/identity/v1/events';
import { findCompany, listMembers } from '../db/accounts.repository.js';
import { outbox } from '../db/schema.js';
import type { StoredTeam } from '../db/teams.repository.js';
import type { TeamMember } from '../domain/teams.js';
import { companyMessage, teamMessage, userMessage } from '../grpc/messages.js';

export const COMPANY_CHANGED = 'identity.company-changed.v1';
export const TEAM_CHANGED = 'identity.team-changed.v1';

/** `identity.company-changed.v1` with the company and its members as they are inside `tx`. */
export async function publishCompanyChanged(tx: Executor, companyId: string): Promise<void> {
  const company = await findCompany(tx, companyId);
  if (!company) throw new Error(`company ${companyId} vanished inside its own transaction`);
  const members = await listMembers(tx, companyId);
  const payload = CompanyChanged.encode({ company: companyMessage(company), members: members.map(userMessage) }).finish();
  await enqueue(tx, outbox, [outboxMessageFor({ type: COMPANY_CHANGED, companyId, producer: 'identity', payload })]);
}

/**
 * `identity.team-changed.v1` with the whole team (criteria, prompts, script, members and targets)
 * as the caller has just read it back inside `tx`, deleted or not. A domain team member already has
 * the shape of the message's.
 */
export async function publishTeamChanged(tx: Executor, companyId: string, team: StoredTeam, members: TeamMember[]): Promise<void> {
  const payload = TeamChanged.encode({ team: teamMessage(team), members, deleted: team.deletedAt !== null }).finish();
  await enqueue(tx, outbox, [outboxMessageFor({ type: TEAM_CHANGED, companyId, producer: 'identity', payload })]);
}
