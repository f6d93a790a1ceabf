import { fileURLToPath } from 'node:url';
import { defineServiceModule } from '@parlance/platform/service/service-runtime';
import { inbox, outbox, probes } from './db/schema.js';

export const identityModule = defineServiceModule({
  name: 'identity',
  description: 'companies, users, sessions, teams, criteria, plans and usage',
  tables: { outbox, inbox, probes },
  migrationsFolder: fileURLToPath(new URL('./db/migrations', import.meta.url)),
});
