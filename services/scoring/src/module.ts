import { fileURLToPath } from 'node:url';
import { defineServiceModule } from '@parlance/platform/service/service-runtime';
import { inbox, outbox, probes } from './db/schema.js';

export const scoringModule = defineServiceModule({
  name: 'scoring',
  description: 'evaluations of activities against team criteria, with evidence',
  tables: { outbox, inbox, probes },
  migrationsFolder: fileURLToPath(new URL('./db/migrations', import.meta.url)),
});
