import { fileURLToPath } from 'node:url';
import type { HostConfig } from '@parlance/platform/host/host-config';
import type { ModuleDefinition } from '@parlance/platform/host/module';
import { createMailer, describeMailer } from '@parlance/platform/mail/create-mailer';
import { defineServiceModule, type ServiceRuntime } from '@parlance/platform/service/service-runtime';
import { AccountsServiceService } from '@parlance/proto/parlance/identity/v1/accounts';
import { AuthServiceService } from '@parlance/proto/parlance/identity/v1/auth';
import { BillingServiceService } from '@parlance/proto/parlance/identity/v1/billing';
import { TeamsServiceService } from '@parlance/proto/parlance/identity/v1/teams';
import { loadIdentityConfig } from './config.js';
import { purgeInvitations } from './db/invitations.repository.js';
import { inbox, outbox, probes } from './db/schema.js';
import { purgeEndedSessions } from './db/sessions.repository.js';
import { purgeVerifications } from './db/verifications.repository.js';
import { ensureDemoAccount } from './demo-account.js';
import { DEFAULT_SESSION_POLICY } from './domain/sessions.js';
import { insightTokensConsumer } from './events/insight-tokens-consumed.consumer.js';
import { accountsService } from './grpc/accounts.server.js';
import { authService } from './grpc/auth.server.js';
import { billingService } from './grpc/billing.server.js';
import { teamsService } from './grpc/teams.server.js';

const HOUR_MS = 60 * 60 * 1000;
/** Used verification links and expired invitations are kept a while for support questions. */
const TOKEN_RETENTION_MS = 30 * 24 * HOUR_MS;

/**
 * The identity service. Its settings (public URL, Google, plans, mail) are read when the process
 * registers its modules, so a bad one stops the process before anything starts.
 */
export function identityModule(hostConfig: HostConfig, env: NodeJS.ProcessEnv = process.env): ModuleDefinition<ServiceRuntime> {
  const config = loadIdentityConfig(hostConfig, env);
  return defineServiceModule({
    name: 'identity',
    description: `companies, users, sessions, invitations, teams and criteria, plans and usage; ${describeMailer(config.mail)}`,
    tables: { outbox, inbox, probes },
    migrationsFolder: fileURLToPath(new URL('./db/migrations', import.meta.url)),

    async start(runtime) {
      const db = runtime.database.db;
      const logger = runtime.logger;
      const mailer = createMailer(config.mail, logger.child({ part: 'mailer' }));

      runtime.serve(AuthServiceService, authService({ db, mailer, config, logger }));
      runtime.serve(AccountsServiceService, accountsService({ db, mailer, config, logger }));
      runtime.serve(BillingServiceService, billingService({ db, plans: config.plans }));
      runtime.serve(TeamsServiceService, teamsService({ db }));
      await runtime.consume(insightTokensConsumer);

      if (config.demoAccount) await ensureDemoAccount(db, new Date());

      const housekeeping = setInterval(() => {
        const now = new Date();
        const retained = new Date(now.getTime() - TOKEN_RETENTION_MS);
        Promise.all([purgeEndedSessions(db, now, DEFAULT_SESSION_POLICY), purgeVerifications(db, retained), purgeInvitations(db, retained)]).catch(
          (error: unknown) => logger.warn({ err: error }, 'identity housekeeping failed; will try again'),
        );
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
