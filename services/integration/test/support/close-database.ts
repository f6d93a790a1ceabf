/**
 * A database with integration's tables for the tests of one describe block (PostgreSQL or PGlite),
 * and companies connected to the Close stand-in (support/close-standin.ts) with its API key,
 * sealed as the service seals it. What the tests made is removed after them.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import type { DatabaseHandle } from '@parlance/platform/db/database';
import { migrate } from '@parlance/platform/db/migrate';
import { connections, imports } from '../../src/db/schema.js';
import { sealCredential, type Keyring } from '../../src/domain/credential-cipher.js';
import { CLOSE_DEFAULTS, type CloseSettings } from '../../src/domain/integrations.js';
import { STANDIN_SEED } from './close-standin.js';

export function closeTestDatabase(open: () => Promise<DatabaseHandle<Record<string, unknown>>>, keyring: Keyring) {
  let database: DatabaseHandle<Record<string, unknown>>;
  const companies: string[] = [];

  beforeAll(async () => {
    database = await open();
    await migrate(database, { migrationsFolder: fileURLToPath(new URL('../../src/db/migrations', import.meta.url)) });
  });

  afterAll(async () => {
    for (const companyId of companies) {
      await database.db.delete(connections).where(eq(connections.companyId, companyId));
      await database.db.delete(imports).where(eq(imports.companyId, companyId));
    }
    await database.close();
  });

  return {
    get db() {
      return database.db;
    },

    /** A new company with Close connected, with these settings over the defaults; its id. */
    async connectedCompany(settings: Partial<CloseSettings> = {}): Promise<string> {
      const companyId = randomUUID();
      companies.push(companyId);
      await database.db.insert(connections).values({
        companyId,
        integrationId: 'close-crm',
        status: 'connected',
        connectedBy: { firstName: 'Anna', lastName: 'Lee', email: 'anna.lee@example.com' },
        connectedAt: new Date(),
        credentials: sealCredential(keyring, STANDIN_SEED.apiKey),
        settings: { ...CLOSE_DEFAULTS, ...settings },
      });
      return companyId;
    },

    async connection(companyId: string) {
      return (await database.db.select().from(connections).where(and(eq(connections.companyId, companyId), eq(connections.integrationId, 'close-crm'))))[0]!;
    },
  };
}
