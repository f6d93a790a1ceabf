import { fileURLToPath } from 'node:url';
import { defineServiceModule } from '@parlance/platform/service/service-runtime';
import { inbox, outbox, probes } from './db/schema.js';

export const analyticsModule = defineServiceModule({
  name: 'analytics',
  description: 'read models for lists, summaries, dashboards, leaderboards and recommendations',
  tables: { outbox, inbox, probes },
  migrationsFolder: fileURLToPath(new URL('./db/migrations', import.meta.url)),
});
