import { fileURLToPath } from 'node:url';
import type { HostConfig } from '@parlance/platform/host/host-config';
import type { ModuleDefinition } from '@parlance/platform/host/module';
import { defineServiceModule, type ServiceRuntime } from '@parlance/platform/service/service-runtime';
import { IngestServiceService } from '@parlance/proto/parlance/ingest/v1/ingest';
import { loadIngestConfig } from './config.js';
import { inbox, outbox, probes } from './db/schema.js';
import { jobProgressConsumer } from './events/job-progress.consumer.js';
import { ingestService } from './grpc/ingest.server.js';
import { diskMediaStore } from './media/media-store.js';
import { identityTeamDirectory } from './uploads/identity-teams.js';

/** The ingest service. Its settings are read when the process registers its modules. */
export function ingestModule(hostConfig: HostConfig, env: NodeJS.ProcessEnv = process.env): ModuleDefinition<ServiceRuntime> {
  const config = loadIngestConfig(hostConfig, env);
  return defineServiceModule({
    name: 'ingest',
    description: `activities as received: calls, meetings, their media (in ${config.mediaDir}) and processing jobs`,
    tables: { outbox, inbox, probes },
    migrationsFolder: fileURLToPath(new URL('./db/migrations', import.meta.url)),

    async start(runtime) {
      const teams = identityTeamDirectory(config.identityAddress);
      const media = diskMediaStore(config.mediaDir);
      runtime.serve(IngestServiceService, ingestService({ db: runtime.database.db, media, teams, logger: runtime.logger }));
      await runtime.consume(jobProgressConsumer);
      return { stop: async () => teams.close() };
    },
  });
}
