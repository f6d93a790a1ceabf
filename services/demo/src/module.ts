import { fileURLToPath } from 'node:url';
import type { HostConfig } from '@parlance/platform/host/host-config';
import type { ModuleDefinition } from '@parlance/platform/host/module';
import { defineServiceModule, type ServiceRuntime } from '@parlance/platform/service/service-runtime';
import { loadDemoConfig } from './config.js';
import { inbox, outbox, probes } from './db/schema.js';
import { seedDemoData } from './seeding/seed-demo-data.js';

/**
 * The demo data: the demo company's calls and meetings, sent through the pipeline once, in the
 * background, when DEMO_DATA is on (make run). Registered by the host only then.
 */
export function demoModule(hostConfig: HostConfig, env: NodeJS.ProcessEnv = process.env): ModuleDefinition<ServiceRuntime> {
  const config = loadDemoConfig(hostConfig, env);
  return defineServiceModule({
    name: 'demo',
    description: `demo data: ${config.calls} calls (${config.recordedCalls} recorded) and ${config.meetings} meetings for the demo company, sent through ingest once`,
    tables: { outbox, inbox, probes },
    migrationsFolder: fileURLToPath(new URL('./db/migrations', import.meta.url)),

    async start(runtime) {
      const stopping = new AbortController();
      const seeding = seedDemoData(
        { db: runtime.database.db, identityAddress: config.identityAddress, ingestAddress: config.ingestAddress, logger: runtime.logger, signal: stopping.signal },
        config,
      ).catch((error: unknown) => {
        if (!stopping.signal.aborted) runtime.logger.error({ err: error }, 'demo data could not be sent; the next start resumes where it stopped');
      });
      // Stopped while the services still answer: every service quiesces after this module (the
      // host goes in reverse order), and the gRPC server last, so an upload in flight gets its
      // answer and is counted rather than cut off and sent again at the next start.
      const quiesce = async () => {
        stopping.abort();
        await seeding;
      };
      return { quiesce, stop: quiesce };
    },
  });
}
