import { fileURLToPath } from 'node:url';
import { ConfigError } from '@parlance/platform/config';
import type { ModuleDefinition } from '@parlance/platform/host/module';
import { defineServiceModule, type ServiceRuntime } from '@parlance/platform/service/service-runtime';
import { IntegrationsServiceService } from '@parlance/proto/parlance/integration/v1/integrations';
import { loadIntegrationConfig } from './config.js';
import { inbox, outbox, probes } from './db/schema.js';
import { CredentialCipherError, parseKeyring, type Keyring } from './domain/credential-cipher.js';
import { integrationsService } from './grpc/integrations.server.js';
import { createCloseClient } from './vendors/close-client.js';

/** The integration service. Its settings (the credential keys, the vendors' addresses) are read when the process registers its modules. */
export function integrationModule(env: NodeJS.ProcessEnv = process.env): ModuleDefinition<ServiceRuntime> {
  const config = loadIntegrationConfig(env);
  let keyring: Keyring;
  try {
    keyring = parseKeyring(config.credentialKeys);
  } catch (error) {
    if (error instanceof CredentialCipherError) throw new ConfigError([`INTEGRATION_CREDENTIAL_KEYS: ${error.message}`]);
    throw error;
  }
  return defineServiceModule({
    name: 'integration',
    description: 'CRM and Google Workspace connections, tokens (sealed at rest), settings, sync cursors and write-back',
    tables: { outbox, inbox, probes },
    migrationsFolder: fileURLToPath(new URL('./db/migrations', import.meta.url)),

    async start(runtime) {
      const logger = runtime.logger.child({ part: 'close' });
      const close = (apiKey: string) => createCloseClient({ baseUrl: config.closeApiUrl, apiKey, logger });
      runtime.serve(IntegrationsServiceService, integrationsService({ db: runtime.database.db, keyring, close }));
    },
  });
}
