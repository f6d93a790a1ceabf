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
import { sweepOrphanedMedia } from './media/sweep-orphaned-media.js';
import { identityTeamDirectory } from './uploads/identity-teams.js';

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

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
      const sweep = () =>
        sweepOrphanedMedia(runtime.database.db, media)
          .then(({ removed, abandoned }) => {
            if (removed + abandoned > 0) runtime.logger.info({ removed, abandoned }, 'removed media no activity names');
          })
          .catch((error: unknown) => runtime.logger.warn({ err: error }, 'could not sweep orphaned media; will try again'));
      void sweep();
      const sweeping = setInterval(sweep, SWEEP_INTERVAL_MS);
      sweeping.unref();
      return {
        stop: async () => {
          clearInterval(sweeping);
          teams.close();
        },
      };
    },
  });
}
