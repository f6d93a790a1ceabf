import { fileURLToPath } from 'node:url';
import { defineServiceModule } from '@parlance/platform/service/service-runtime';
import { inbox, outbox, probes } from './db/schema.js';

export const transcriptionModule = defineServiceModule({
  name: 'transcription',
  description: 'transcripts: segments, words, timings, speakers and their roles',
  tables: { outbox, inbox, probes },
  migrationsFolder: fileURLToPath(new URL('./db/migrations', import.meta.url)),
});
