/** Events identity publishes, written to its outbox in the caller's transaction. */
import { outboxMessageFor } from '@parlance/platform/events/event-envelope';
import type { Executor } from '@parlance/platform/db/database';
import { enqueue } from '@parlance/platform/outbox/enqueue';
import { CompanyChanged } from '@parlance/proto/parlance/identity/v1/events';
import { findCompany, listMembers } from '../db/accounts.repository.js';
import { outbox } from '../db/schema.js';
import { companyMessage, userMessage } from '../grpc/messages.js';

export const COMPANY_CHANGED = 'identity.company-changed.v1';

/** `identity.company-changed.v1` with the company and its members as they are inside `tx`. */
export async function publishCompanyChanged(tx: Executor, companyId: string): Promise<void> {
  const company = await findCompany(tx, companyId);
  if (!company) throw new Error(`company ${companyId} vanished inside its own transaction`);
  const members = await listMembers(tx, companyId);
  const payload = CompanyChanged.encode({ company: companyMessage(company), members: members.map(userMessage) }).finish();
  await enqueue(tx, outbox, [outboxMessageFor({ type: COMPANY_CHANGED, companyId, producer: 'identity', payload })]);
}
