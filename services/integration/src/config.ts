import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Type from 'typebox';
import { ConfigError, loadConfig } from '@parlance/platform/config';
import { serviceAddress, type HostConfig } from '@parlance/platform/host/host-config';
import { CLOSE_API_URL } from './vendors/close-client.js';
import { GOOGLE_CALENDAR_URL, GOOGLE_DRIVE_URL, GOOGLE_MEET_URL, GOOGLE_TOKEN_URL, GOOGLE_USERINFO_URL } from './vendors/google-client.js';
import { HUBSPOT_API_URL, HUBSPOT_AUTHORIZE_URL } from './vendors/hubspot-client.js';

/** The integration service's settings, read from the environment. */
export const IntegrationConfigSchema = Type.Object({
  INTEGRATION_CREDENTIAL_KEYS: Type.Optional(
    Type.String({
      secret: () => '(hidden)',
      description:
        'keys sealing CRM and Workspace credentials at rest: comma-separated id:base64 (32 bytes each), the first seals and every one opens (rotation: domain/credential-cipher.ts). ' +
        'Required in distributed mode; standalone keeps a generated key in <DATA_DIR>/integration-credential-key',
    }),
  ),
  INTEGRATION_REQUESTS_TO: Type.Optional(
    Type.String({ format: 'email', description: 'the operators’ address the requests for other integrations are e-mailed to (with the MAIL_* settings); unset: they are stored only' }),
  ),
  INTEGRATION_SYNC_INTERVAL_SECONDS: Type.Integer({ minimum: 60, maximum: 86_400, default: 300, description: 'between the end of one automatic sync of a connection (Close’s autoSync) and the next' }),
  INTEGRATION_SYNC_TICK_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: 30, description: 'how often each replica looks for a connection whose automatic sync is due' }),
  INTEGRATION_SYNC_WORKERS: Type.Integer({ minimum: 0, maximum: 8, default: 1, description: 'syncs this process runs at once; 0 runs none (a replica that only answers, while others sync)' }),
  INTEGRATION_WRITEBACK_WORKERS: Type.Integer({
    minimum: 0,
    maximum: 8,
    default: 1,
    description: 'scores this process writes back to CRMs at once; 0 writes none (they wait for a replica that does). Idle writers look for work every INTEGRATION_SYNC_TICK_SECONDS',
  }),
  CLOSE_API_URL: Type.String({ default: CLOSE_API_URL, pattern: '^https?://', description: 'Close’s REST API (tests point it at a local stand-in)' }),
  HUBSPOT_CLIENT_ID: Type.Optional(Type.String({ minLength: 1, description: 'the client id of Parlance’s HubSpot public app; unset: HubSpot cannot be connected' })),
  HUBSPOT_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1, secret: () => '(hidden)', description: 'the HubSpot app’s client secret; required with HUBSPOT_CLIENT_ID; never logged' })),
  HUBSPOT_AUTHORIZE_URL: Type.String({ default: HUBSPOT_AUTHORIZE_URL, pattern: '^https?://', description: 'HubSpot’s consent page (tests point it at a local stand-in)' }),
  HUBSPOT_API_URL: Type.String({ default: HUBSPOT_API_URL, pattern: '^https?://', description: 'HubSpot’s REST API and token endpoint (tests point it at a local stand-in)' }),
  GOOGLE_CLIENT_ID: Type.Optional(Type.String({ minLength: 1, description: 'the OAuth client id of Parlance’s Google app (the one the web app’s sign-in uses); with GOOGLE_CLIENT_SECRET, Google Workspace can be connected' })),
  GOOGLE_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1, secret: () => '(hidden)', description: 'the Google app’s client secret, for exchanging the code client’s codes; never logged' })),
  GOOGLE_TOKEN_URL: Type.String({ default: GOOGLE_TOKEN_URL, pattern: '^https?://', description: 'Google’s OAuth token endpoint (tests point it at a local stand-in)' }),
  GOOGLE_USERINFO_URL: Type.String({ default: GOOGLE_USERINFO_URL, pattern: '^https?://', description: 'Google’s user-info endpoint (tests point it at a local stand-in)' }),
  GOOGLE_DRIVE_URL: Type.String({ default: GOOGLE_DRIVE_URL, pattern: '^https?://', description: 'Google Drive’s API (tests point it at a local stand-in)' }),
  GOOGLE_CALENDAR_URL: Type.String({ default: GOOGLE_CALENDAR_URL, pattern: '^https?://', description: 'Google Calendar’s API, where a Meet transcript’s event is found (tests point it at a local stand-in)' }),
  GOOGLE_MEET_URL: Type.String({ default: GOOGLE_MEET_URL, pattern: '^https?://', description: 'the Google Meet REST API, read when a connection holds its scope (tests point it at a local stand-in)' }),
});

export interface IntegrationConfig {
  /** The keyring's text, for parseKeyring (domain/credential-cipher.ts). */
  credentialKeys: string;
  closeApiUrl: string;
  /** Parlance's HubSpot app; undefined when HubSpot cannot be connected here. */
  hubspot: { clientId: string; clientSecret: string; authorizeUrl: string; apiUrl: string } | undefined;
  /** Parlance's Google app; undefined when Google Workspace cannot be connected here (no secret). */
  google: { clientId: string; clientSecret: string; tokenUrl: string; userinfoUrl: string; driveUrl: string; calendarUrl: string; meetUrl: string } | undefined;
  /** Where requests for other integrations are e-mailed; undefined: stored only. */
  requestsTo: string | undefined;
  syncIntervalMs: number;
  syncPollMs: number;
  syncWorkers: number;
  writebackWorkers: number;
  /** Whose teams a sync reads, and where it sends the calls it imports. */
  identityAddress: string;
  ingestAddress: string;
}

export function loadIntegrationConfig(hostConfig: HostConfig, env: NodeJS.ProcessEnv = process.env): IntegrationConfig {
  const raw = loadConfig(IntegrationConfigSchema, env);
  let credentialKeys = raw.INTEGRATION_CREDENTIAL_KEYS;
  if (!credentialKeys) {
    if (env.PARLANCE_MODE === 'distributed') throw new ConfigError(['INTEGRATION_CREDENTIAL_KEYS is required in distributed mode']);
    credentialKeys = standaloneKey(path.join(env.DATA_DIR || './.data', 'integration-credential-key'));
  }
  return {
    credentialKeys,
    closeApiUrl: raw.CLOSE_API_URL.replace(/\/+$/, ''),
    hubspot: hubspotApp(raw),
    // The client id alone is the web app's sign-in; the Workspace also needs the secret.
    google:
      raw.GOOGLE_CLIENT_ID && raw.GOOGLE_CLIENT_SECRET
        ? {
            clientId: raw.GOOGLE_CLIENT_ID,
            clientSecret: raw.GOOGLE_CLIENT_SECRET,
            tokenUrl: raw.GOOGLE_TOKEN_URL,
            userinfoUrl: raw.GOOGLE_USERINFO_URL,
            driveUrl: raw.GOOGLE_DRIVE_URL.replace(/\/+$/, ''),
            calendarUrl: raw.GOOGLE_CALENDAR_URL.replace(/\/+$/, ''),
            meetUrl: raw.GOOGLE_MEET_URL.replace(/\/+$/, ''),
          }
        : undefined,
    requestsTo: raw.INTEGRATION_REQUESTS_TO,
    syncIntervalMs: raw.INTEGRATION_SYNC_INTERVAL_SECONDS * 1000,
    syncPollMs: raw.INTEGRATION_SYNC_TICK_SECONDS * 1000,
    syncWorkers: raw.INTEGRATION_SYNC_WORKERS,
    writebackWorkers: raw.INTEGRATION_WRITEBACK_WORKERS,
    identityAddress: serviceAddress('identity', hostConfig, env),
    ingestAddress: serviceAddress('ingest', hostConfig, env),
  };
}

function hubspotApp(raw: { HUBSPOT_CLIENT_ID?: string; HUBSPOT_CLIENT_SECRET?: string; HUBSPOT_AUTHORIZE_URL: string; HUBSPOT_API_URL: string }): IntegrationConfig['hubspot'] {
  if (!raw.HUBSPOT_CLIENT_ID && !raw.HUBSPOT_CLIENT_SECRET) return undefined;
  if (!raw.HUBSPOT_CLIENT_ID || !raw.HUBSPOT_CLIENT_SECRET) throw new ConfigError(['HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET go together: set both, or neither']);
  return { clientId: raw.HUBSPOT_CLIENT_ID, clientSecret: raw.HUBSPOT_CLIENT_SECRET, authorizeUrl: raw.HUBSPOT_AUTHORIZE_URL, apiUrl: raw.HUBSPOT_API_URL.replace(/\/+$/, '') };
}

/** A standalone install's key, made on first start and kept beside its data (readable by its owner only). */
function standaloneKey(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const keys = `standalone:${randomBytes(32).toString('base64')}`;
  writeFileSync(file, `${keys}\n`, { mode: 0o600, flag: 'wx' });
  return keys;
}
