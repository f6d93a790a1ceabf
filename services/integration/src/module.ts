import { fileURLToPath } from 'node:url';
import { ConfigError } from '@parlance/platform/config';
import type { HostConfig } from '@parlance/platform/host/host-config';
import type { ModuleDefinition } from '@parlance/platform/host/module';
import { createMailer } from '@parlance/platform/mail/create-mailer';
import { loadMailConfig } from '@parlance/platform/mail/mail-config';
import { defineServiceModule, type ServiceRuntime } from '@parlance/platform/service/service-runtime';
import { IntegrationsServiceService } from '@parlance/proto/parlance/integration/v1/integrations';
import { loadIntegrationConfig } from './config.js';
import { resealCredentials, type ConnectionRow } from './db/connections.repository.js';
import { inbox, outbox, probes } from './db/schema.js';
import { CredentialCipherError, parseKeyring, type Keyring } from './domain/credential-cipher.js';
import { INTEGRATION_MESSAGES } from './domain/integrations.js';
import { writebackConsumer } from './events/writeback.consumer.js';
import { integrationsService } from './grpc/integrations.server.js';
import { integrationRequestSender } from './integration-requests.js';
import { syncCloseCalls } from './sync/close-sync.js';
import { syncHubSpotCalls } from './sync/hubspot-sync.js';
import { syncWorkspaceMeetings } from './sync/workspace-sync.js';
import { identityRosters, ingestImporter } from './sync/pipeline-clients.js';
import { syncRunner } from './sync/sync-runner.js';
import { createCloseClient } from './vendors/close-client.js';
import { oauthAccessToken } from './vendors/oauth-access.js';
import { createCalendarClient, createDriveClient, createGoogleOAuth, createMeetClient } from './vendors/google-client.js';
import { createHubSpotClient, createHubSpotOAuth } from './vendors/hubspot-client.js';
import { writebackRunner } from './writeback/writeback-runner.js';

const RESEND_EVERY_MS = 5 * 60_000;

/** The integration service. Its settings (the credential keys, the vendors' addresses) are read when the process registers its modules. */
export function integrationModule(hostConfig: HostConfig, env: NodeJS.ProcessEnv = process.env): ModuleDefinition<ServiceRuntime> {
  const config = loadIntegrationConfig(hostConfig, env);
  let keyring: Keyring;
  try {
    keyring = parseKeyring(config.credentialKeys);
  } catch (error) {
    if (error instanceof CredentialCipherError) throw new ConfigError([`INTEGRATION_CREDENTIAL_KEYS: ${error.message}`]);
    throw error;
  }
  // Mail is read only when requests are to be e-mailed, so a deployment without SMTP still starts.
  const mail = config.requestsTo ? loadMailConfig(env) : undefined;
  return defineServiceModule({
    name: 'integration',
    description: 'CRM and Google Workspace connections, tokens (sealed at rest), settings, sync cursors and write-back',
    tables: { outbox, inbox, probes },
    migrationsFolder: fileURLToPath(new URL('./db/migrations', import.meta.url)),

    async start(runtime) {
      const { db } = runtime.database;
      const { resealed, unopenable } = await resealCredentials(db, keyring);
      if (resealed > 0) runtime.logger.info({ resealed, keyId: keyring.currentKeyId }, 'credentials sealed again with the current key');
      if (unopenable > 0) runtime.logger.warn({ unopenable, keyIds: keyring.keyIds }, 'credentials sealed with a key no longer in INTEGRATION_CREDENTIAL_KEYS: those connections must be connected again');
      const logger = runtime.logger.child({ part: 'close' });
      const close = (apiKey: string) => createCloseClient({ baseUrl: config.closeApiUrl, apiKey, logger });
      const mailer = mail ? createMailer(mail, runtime.logger.child({ part: 'mailer' })) : undefined;
      const sendIntegrationRequests = integrationRequestSender({ db, mailer, to: config.requestsTo, logger: runtime.logger.child({ part: 'integration-requests' }) });
      if (!mailer) runtime.logger.info('requests for other integrations are stored, not e-mailed: set INTEGRATION_REQUESTS_TO to send them to the operators');
      const rosters = identityRosters(config.identityAddress);
      const ingest = ingestImporter(config.ingestAddress);
      const syncLogger = runtime.logger.child({ part: 'sync' });
      const app = config.hubspot;
      const hubspotLogger = runtime.logger.child({ part: 'hubspot' });
      const hubspotOAuth = app
        ? createHubSpotOAuth({ clientId: app.clientId, clientSecret: app.clientSecret, authorizeUrl: app.authorizeUrl, baseUrl: app.apiUrl, logger: hubspotLogger })
        : undefined;
      // A client for a connection, its access token refreshed (and stored sealed again) as it nears expiry.
      const hubspot = hubspotOAuth
        ? (connection: ConnectionRow) => createHubSpotClient({ baseUrl: app!.apiUrl, accessToken: oauthAccessToken({ db, keyring, oauth: hubspotOAuth }, connection), logger: hubspotLogger })
        : undefined;
      const googleApp = config.google;
      const googleLogger = runtime.logger.child({ part: 'google' });
      const googleOAuth = googleApp
        ? createGoogleOAuth({ clientId: googleApp.clientId, clientSecret: googleApp.clientSecret, tokenUrl: googleApp.tokenUrl, userinfoUrl: googleApp.userinfoUrl, logger: googleLogger })
        : undefined;
      const drive = googleOAuth
        ? (connection: ConnectionRow) => createDriveClient({ baseUrl: googleApp!.driveUrl, accessToken: oauthAccessToken({ db, keyring, oauth: googleOAuth }, connection), logger: googleLogger })
        : undefined;
      // A sync's Google clients share the connection's access token, so it is refreshed once for all three.
      const workspace = googleOAuth
        ? (connection: ConnectionRow) => {
            const accessToken = oauthAccessToken({ db, keyring, oauth: googleOAuth }, connection);
            return {
              drive: createDriveClient({ baseUrl: googleApp!.driveUrl, accessToken, logger: googleLogger }),
              calendar: createCalendarClient({ baseUrl: googleApp!.calendarUrl, accessToken, logger: googleLogger }),
              meet: createMeetClient({ baseUrl: googleApp!.meetUrl, accessToken, logger: googleLogger }),
            };
          }
        : undefined;
      const syncs = syncRunner({
        db,
        logger: syncLogger,
        workers: config.syncWorkers,
        intervalMs: config.syncIntervalMs,
        pollMs: config.syncPollMs,
        sync: (connection, counts, signal) => {
          const deps = { db, keyring, teams: rosters.teams, ingest, logger: syncLogger, signal };
          if (connection.integrationId === 'hubspot-crm') {
            if (!hubspot) throw new Error(INTEGRATION_MESSAGES.hubspotNotConfigured);
            return syncHubSpotCalls({ ...deps, hubspot }, connection, counts);
          }
          if (connection.integrationId === 'google-workspace') {
            if (!workspace) throw new Error(INTEGRATION_MESSAGES.workspaceNotConfigured);
            return syncWorkspaceMeetings({ ...deps, workspace }, connection, counts);
          }
          return syncCloseCalls({ ...deps, close, rosters: rosters.keeper }, connection, counts);
        },
      });
      const writebacks = writebackRunner({ db, keyring, close, hubspot, logger: runtime.logger.child({ part: 'write-back' }), workers: config.writebackWorkers, pollMs: config.syncPollMs });
      await runtime.consume(writebackConsumer(writebacks.wake));
      runtime.serve(
        IntegrationsServiceService,
        integrationsService({ db, keyring, close, hubspot: hubspotOAuth, google: googleOAuth && drive ? { oauth: googleOAuth, drive } : undefined, syncNow: syncs.syncNow, resumeWrites: writebacks.resume, sendIntegrationRequests }),
      );
      // Requests whose e-mail failed go out on a later round.
      const resend = setInterval(() => void sendIntegrationRequests(), RESEND_EVERY_MS);
      resend.unref();
      return {
        // Before the gRPC server and the database close: the sync in hand stops after its current call and is handed back;
        // a write in hand is finished.
        quiesce: async () => {
          await Promise.all([syncs.stop(), writebacks.stop()]);
        },
        stop: async () => {
          await Promise.all([syncs.stop(), writebacks.stop()]);
          rosters.close();
          ingest.close();
          clearInterval(resend);
          await sendIntegrationRequests();
          await mailer?.close();
        },
      };
    },
  });
}
