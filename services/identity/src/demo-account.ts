/**
 * The demo sign-in `make run` prints: a verified admin in a company of its own (with five demo
 * teams), created at start when IDENTITY_DEMO_ACCOUNT is on (standalone development only; the
 * password is public).
 */
import type { Database } from '@parlance/platform/db/database';
import { findCompany, findUserByEmail, insertUserIfAbsent, updateUser } from './db/accounts.repository.js';
import { createDemoTeams } from './demo-teams.js';
import { hashPassword, verifyPassword } from './domain/passwords.js';
import { publishCompanyChanged } from './events/publishers.js';
import { createCompany } from './membership.js';

export const DEMO_ACCOUNT = {
  email: 'demo@parlance.local',
  password: 'Listen-and-learn-26',
  firstName: 'Dana',
  lastName: 'Demo',
  company: 'Parlance Demo Company',
} as const;

/** Creates the demo account if missing, and restores its password and admin role if someone changed them. */
export async function ensureDemoAccount(db: Database<Record<string, unknown>>, now: Date): Promise<void> {
  const existing = await findUserByEmail(db, DEMO_ACCOUNT.email);
  const passwordOk = existing?.passwordHash ? await verifyPassword(existing.passwordHash, DEMO_ACCOUNT.password) : false;
  if (existing?.companyId && existing.role === 'admin' && existing.emailVerifiedAt && passwordOk) return;
  const passwordHash = passwordOk ? existing!.passwordHash! : await hashPassword(DEMO_ACCOUNT.password);
  await db.transaction(async (tx) => {
    const { user } = await insertUserIfAbsent(tx, {
      email: DEMO_ACCOUNT.email,
      firstName: DEMO_ACCOUNT.firstName,
      lastName: DEMO_ACCOUNT.lastName,
      passwordHash,
      emailVerifiedAt: now,
    });
    let companyId = user.companyId;
    if (!companyId) {
      companyId = (await createCompany(tx, { name: DEMO_ACCOUNT.company }, now))!;
      await createDemoTeams(tx, (await findCompany(tx, companyId))!, now);
    }
    await updateUser(tx, user.id, { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now, companyId, role: 'admin' });
    await publishCompanyChanged(tx, companyId);
  });
}
