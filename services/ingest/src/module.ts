import { fileURLToPath } from 'node:url';
import { defineServiceModule } from '@parlance/platform/service/service-runtime';
import { inbox, outbox, probes } from './db/schema.js';

export const ingestModule = defineServiceModule({
  name: 'ingest',
  description: 'activities as received: calls, meetings, stored media and processing jobs',
  tables: { outbox, inbox, probes },
  migrationsFolder: fileURLToPath(new URL('./db/migrations', import.meta.url)),
});
