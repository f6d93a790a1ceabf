import { fileURLToPath } from 'node:url';
import type { ModuleDefinition } from '@parlance/platform/host/module';
import { createMailer, describeMailer } from '@parlance/platform/mail/create-mailer';
import { loadMailConfig } from '@parlance/platform/mail/mail-config';
import { defineServiceModule, INBOX_RETENTION_MS, type EventConsumer, type ServiceRuntime } from '@parlance/platform/service/service-runtime';
import { purgeTombstones } from './db/activities.repository.js';
import { ensureActivityRollups } from './db/activity-rollups.js';
import { inbox, outbox, probes } from './db/schema.js';
import { activityDeletedConsumer } from './events/activity-deleted.consumer.js';
import { activityReceivedConsumer } from './events/activity-received.consumer.js';
import { activityScoredConsumer } from './events/activity-scored.consumer.js';
import { processingFailedConsumer } from './events/processing-failed.consumer.js';
import { teamChangedConsumer } from './events/team-changed.consumer.js';
import { transcriptReadyConsumer } from './events/transcript-ready.consumer.js';
import { ActivitiesServiceService } from '@parlance/proto/parlance/analytics/v1/activities';
import { activitiesService } from './grpc/activities.server.js';
import { DashboardServiceService } from '@parlance/proto/parlance/analytics/v1/dashboard';
import { dashboardService } from './grpc/dashboard.server.js';

const HOUR_MS = 3_600_000;
/** Deletions are remembered as long as the inbox remembers event ids (a late event is still recognised). */
const TOMBSTONE_RETENTION_MS = INBOX_RETENTION_MS;

/** Every event analytics reads, one consumer (and inbox key) per kind of fact. */
export const ANALYTICS_CONSUMERS: readonly EventConsumer[] = [
  teamChangedConsumer,
  activityReceivedConsumer,
  transcriptReadyConsumer,
  activityScoredConsumer,
  processingFailedConsumer,
  activityDeletedConsumer,
];

/** The analytics service. Its mail settings (for shared summaries) are read when the process registers its modules. */
export function analyticsModule(env: NodeJS.ProcessEnv = process.env): ModuleDefinition<ServiceRuntime> {
  const mail = loadMailConfig(env);
  return defineServiceModule({
    name: 'analytics',
    description: `the calls and meetings lists and the dashboard’s figures (daily rollups per time zone), read from the pipeline’s events and the teams’ changes; shared summaries by ${describeMailer(mail)}; issue reports`,
    tables: { outbox, inbox, probes },
    migrationsFolder: fileURLToPath(new URL('./db/migrations', import.meta.url)),

    async start(runtime) {
      const db = runtime.database.db;
      // The lists' per-day counts, built once from the activities the migrations found (activity-rollups.ts).
      await ensureActivityRollups(db);
      const mailer = createMailer(mail, runtime.logger.child({ part: 'mailer' }));
      runtime.serve(ActivitiesServiceService, activitiesService({ db, lists: runtime.database.preparedReads, mailer }));
      runtime.serve(DashboardServiceService, dashboardService({ database: runtime.database, logger: runtime.logger.child({ part: 'dashboard' }) }));
      for (const consumer of ANALYTICS_CONSUMERS) await runtime.consume(consumer);
      const housekeeping = setInterval(() => {
        purgeTombstones(db, new Date(Date.now() - TOMBSTONE_RETENTION_MS)).catch((error: unknown) => runtime.logger.warn({ err: error }, 'could not purge old deletions; will try again'));
      }, HOUR_MS);
      housekeeping.unref();
      return {
        stop: async () => {
          clearInterval(housekeeping);
          await mailer.close();
        },
      };
    },
  });
}
