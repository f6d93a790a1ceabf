/**
 * The integrations a company can connect (spec part 2 §2.12, §3 "Integration"), their settings'
 * shapes and defaults, and the rules a settings change must follow (§5, §9: a minimum call
 * duration from 0 to 3600 seconds, 60 by default). Pure: the service stores what these return.
 */

export const INTEGRATION_IDS = ['close-crm', 'hubspot-crm', 'google-workspace'] as const;
export type IntegrationId = (typeof INTEGRATION_IDS)[number];

export interface IntegrationEntry {
  id: IntegrationId;
  name: string;
  description: string;
  /** A name the web app draws a logo for. */
  icon: 'close' | 'hubspot' | 'google-workspace';
}

/** The cards of the integrations screen, in its order. */
export const INTEGRATIONS: readonly IntegrationEntry[] = [
  {
    id: 'close-crm',
    name: 'Close',
    description: 'Import Close calls with their recordings, score them, and write notes and lead statuses back to Close.',
    icon: 'close',
  },
  {
    id: 'hubspot-crm',
    name: 'HubSpot',
    description: 'Import HubSpot calls with their recordings, score them, and write notes and follow-up tasks back to HubSpot.',
    icon: 'hubspot',
  },
  {
    id: 'google-workspace',
    name: 'Google Workspace',
    description: 'Import Google Meet transcripts from a Drive folder as meetings, scored against your team’s criteria.',
    icon: 'google-workspace',
  },
];

export function isIntegrationId(id: string): id is IntegrationId {
  return (INTEGRATION_IDS as readonly string[]).includes(id);
}

export const MIN_CALL_DURATION = { min: 0, max: 3600, default: 60 } as const;

/** The first CRM's settings as stored (lastSyncDate is the connection's, not a setting). */
export interface CloseSettings {
  syncUsersAndTeams: boolean;
  autoSync: boolean;
  createActivities: boolean;
  updateLeadStatus: boolean;
  minCallDuration: number;
  successfulCallStatus: string;
  unsuccessfulCallStatus: string;
}

/** A new Close connection's settings: nothing is written to Close until a manager turns it on. */
export const CLOSE_DEFAULTS: CloseSettings = {
  syncUsersAndTeams: false,
  autoSync: false,
  createActivities: false,
  updateLeadStatus: false,
  minCallDuration: MIN_CALL_DURATION.default,
  successfulCallStatus: '',
  unsuccessfulCallStatus: '',
};

/** The second CRM's settings as stored: syncCalls imports its calls on a schedule; a note is always written back, a task when createTasks. */
export interface HubSpotSettings {
  syncCalls: boolean;
  createTasks: boolean;
  minCallDuration: number;
}

export const HUBSPOT_DEFAULTS: HubSpotSettings = { syncCalls: false, createTasks: false, minCallDuration: MIN_CALL_DURATION.default };

/** The workspace suite's settings as stored: monitoringEnabled imports new transcripts of the selected Drive folder on a schedule. */
export interface WorkspaceSettings {
  monitoringEnabled: boolean;
  minCallDuration: number;
  selectedFolder: { id: string; name: string } | null;
}

export const WORKSPACE_DEFAULTS: WorkspaceSettings = { monitoringEnabled: false, minCallDuration: MIN_CALL_DURATION.default, selectedFolder: null };

/** A settings change as the screen sends it: the folder as its id and name. */
export interface WorkspaceSettingsChange {
  monitoringEnabled?: boolean;
  minCallDuration?: number;
  selectedFolderId?: string;
  selectedFolderName?: string;
}

const FOLDER_ID_MAX = 200;
const FOLDER_NAME_MAX = 500;

const STATUS_ID_MAX = 200;
const REQUEST_NAME_MAX = 200;
const REQUEST_DETAILS_MAX = 2000;

export const INTEGRATION_MESSAGES = {
  unknown: (id: string) => `There is no integration "${id}".`,
  apiKeyMissing: 'Enter your Close API key.',
  apiKeyRefused: 'Close did not accept this API key. Copy it again from Close (Settings, Developer, API Keys).',
  closeUnreachable: 'Close could not be reached. Try again in a few minutes.',
  closeNotConnected: 'Close is not connected.',
  syncStopped: (reason: string) => `The last sync stopped: ${reason}. The next sync resumes where it stopped.`,
  connectorLeft: 'The person who connected this integration is no longer a member of the company. Reconnect it; the settings are kept.',
  syncAlreadyRunning: 'A sync is already running.',
  writebackFailed: (reason: string) => `A call’s score could not be written back: ${reason.replace(/\.$/, '')}.`,
  hubspotNotConnected: 'HubSpot is not connected.',
  hubspotNotConfigured: 'HubSpot cannot be connected on this Parlance server yet: its administrator must set HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET.',
  hubspotRevoked: 'HubSpot no longer accepts the access Parlance holds (the app was uninstalled or its access revoked). Reconnect HubSpot; your settings are kept.',
  hubspotUnreachable: 'HubSpot could not be reached. Try again in a few minutes.',
  oauthStateUnknown: 'This HubSpot sign-in link is unknown, already used or expired. Start again from the integrations screen.',
  oauthStateForeign: 'This HubSpot sign-in was started in another session. Start again from the integrations screen.',
  oauthCancelled: 'HubSpot was not connected: the authorization was cancelled.',
  workspaceNotConnected: 'Google Workspace is not connected.',
  workspaceNotConfigured: 'Google Workspace cannot be connected on this Parlance server yet: its administrator must set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET.',
  workspaceRevoked: 'Google no longer accepts the access Parlance holds (it was revoked or has expired). Reconnect Google Workspace; your settings are kept.',
  workspaceUnreachable: 'Google could not be reached. Try again in a few minutes.',
  workspaceCodeMissing: 'Sign in with Google to connect Google Workspace.',
  workspaceStateUnknown: 'This Google sign-in is unknown, already used or expired. Connect Google Workspace again.',
  workspaceStateForeign: 'This Google sign-in was started in another session. Connect Google Workspace again.',
  workspaceSessionNeeded: 'Google Workspace is connected from the web app: sign in there to connect it.',
  workspaceFolderMissing: 'Choose a Drive folder for Parlance to watch.',
  selectedFolder: `selectedFolderId and selectedFolderName go together: a Drive folder id of at most ${FOLDER_ID_MAX} characters and its name of at most ${FOLDER_NAME_MAX}; an empty id clears the folder.`,
  closeKeyRevoked: 'Close no longer accepts the API key Parlance holds. Reconnect Close with a new key; your settings are kept.',
  minCallDuration: `minCallDuration must be a whole number of seconds from ${MIN_CALL_DURATION.min} to ${MIN_CALL_DURATION.max}.`,
  statusTooLong: (field: string) => `${field} must be a Close lead status id of at most ${STATUS_ID_MAX} characters.`,
  statusNotFound: (field: string, id: string) => `${field}: Close has no lead status "${id}".`,
  requestNameMissing: `Name the integration you need (at most ${REQUEST_NAME_MAX} characters).`,
  requestDetailsTooLong: `Describe what you need in at most ${REQUEST_DETAILS_MAX} characters.`,
} as const;


export interface IntegrationRequest {
  integrationName: string;
  details: string;
}

/** A request for another integration, trimmed; a SettingsError naming what is wrong otherwise. */
export function checkedIntegrationRequest(request: IntegrationRequest): IntegrationRequest {
  const integrationName = request.integrationName.trim();
  const details = request.details.trim();
  if (integrationName === '' || [...integrationName].length > REQUEST_NAME_MAX) throw new SettingsError(INTEGRATION_MESSAGES.requestNameMissing);
  if ([...details].length > REQUEST_DETAILS_MAX) throw new SettingsError(INTEGRATION_MESSAGES.requestDetailsTooLong);
  return { integrationName, details };
}

/** The operators' e-mail about a request: who asked, from which company, for what. */
export function integrationRequestMail(
  to: string,
  request: IntegrationRequest & { companyId: string; requestedBy: { firstName: string; lastName: string; email: string }; requestedAt: Date },
): { to: string; subject: string; text: string } {
  const who = `${request.requestedBy.firstName} ${request.requestedBy.lastName}`.trim() || request.requestedBy.email;
  return {
    to,
    subject: `Integration request: ${request.integrationName}`,
    text: [
      `${who} <${request.requestedBy.email}> asked for an integration with ${request.integrationName}.`,
      '',
      `Company: ${request.companyId}`,
      `Asked at: ${request.requestedAt.toISOString()}`,
      '',
      request.details === '' ? '(No details given.)' : request.details,
    ].join('\n'),
  };
}

export class SettingsError extends Error {}

/** The settings after `change` (only the fields it has), or a SettingsError naming the field at fault. */
export function changedCloseSettings(current: CloseSettings, change: Partial<CloseSettings>): CloseSettings {
  const next = { ...current };
  for (const flag of ['syncUsersAndTeams', 'autoSync', 'createActivities', 'updateLeadStatus'] as const) {
    if (change[flag] !== undefined) next[flag] = change[flag];
  }
  if (change.minCallDuration !== undefined) next.minCallDuration = checkedMinCallDuration(change.minCallDuration);
  for (const status of ['successfulCallStatus', 'unsuccessfulCallStatus'] as const) {
    const value = change[status];
    if (value === undefined) continue;
    if (value.length > STATUS_ID_MAX) throw new SettingsError(INTEGRATION_MESSAGES.statusTooLong(status));
    next[status] = value.trim();
  }
  return next;
}

/** The HubSpot settings after `change` (only the fields it has), or a SettingsError naming the field at fault. */
export function changedHubSpotSettings(current: HubSpotSettings, change: Partial<HubSpotSettings>): HubSpotSettings {
  const next = { ...current };
  if (change.syncCalls !== undefined) next.syncCalls = change.syncCalls;
  if (change.createTasks !== undefined) next.createTasks = change.createTasks;
  if (change.minCallDuration !== undefined) next.minCallDuration = checkedMinCallDuration(change.minCallDuration);
  return next;
}

export function storedHubSpotSettings(stored: Record<string, unknown>): HubSpotSettings {
  return { ...HUBSPOT_DEFAULTS, ...stored } as HubSpotSettings;
}

/** What the screen says when the vendor refuses the credentials held: reconnect, the settings are kept. */
export function credentialsRefused(integrationId: string): string {
  if (integrationId === 'hubspot-crm') return INTEGRATION_MESSAGES.hubspotRevoked;
  if (integrationId === 'google-workspace') return INTEGRATION_MESSAGES.workspaceRevoked;
  return INTEGRATION_MESSAGES.closeKeyRevoked;
}

/** The workspace settings after `change`, or a SettingsError naming the field at fault. */
export function changedWorkspaceSettings(current: WorkspaceSettings, change: WorkspaceSettingsChange): WorkspaceSettings {
  const next = { ...current };
  if (change.monitoringEnabled !== undefined) next.monitoringEnabled = change.monitoringEnabled;
  if (change.minCallDuration !== undefined) next.minCallDuration = checkedMinCallDuration(change.minCallDuration);
  if (change.selectedFolderId !== undefined || change.selectedFolderName !== undefined) {
    const id = (change.selectedFolderId ?? '').trim();
    const name = (change.selectedFolderName ?? '').trim();
    if (id === '') {
      next.selectedFolder = null;
    } else {
      if (id.length > FOLDER_ID_MAX || name === '' || name.length > FOLDER_NAME_MAX) throw new SettingsError(INTEGRATION_MESSAGES.selectedFolder);
      next.selectedFolder = { id, name };
    }
  }
  return next;
}

export function storedWorkspaceSettings(stored: Record<string, unknown>): WorkspaceSettings {
  return { ...WORKSPACE_DEFAULTS, ...stored } as WorkspaceSettings;
}

/** What a Google Workspace connection keeps beside its settings: the account it acts as, and the scopes Google granted ([] when not kept). */
export function workspaceGrant(stored: Record<string, unknown>): { account: string; scopes: string[] } {
  return {
    account: typeof stored.account === 'string' ? stored.account : '',
    scopes: Array.isArray(stored.scopes) ? stored.scopes.filter((scope): scope is string => typeof scope === 'string') : [],
  };
}

/** Whether the connection's calls are imported on a schedule: Close's autoSync, HubSpot's syncCalls. */
export function syncsOnSchedule(integrationId: string, settings: Record<string, unknown>): boolean {
  if (integrationId === 'close-crm') return storedCloseSettings(settings).autoSync;
  if (integrationId === 'hubspot-crm') return storedHubSpotSettings(settings).syncCalls;
  if (integrationId === 'google-workspace') {
    const workspace = storedWorkspaceSettings(settings);
    return workspace.monitoringEnabled && workspace.selectedFolder !== null;
  }
  return false;
}

/** Settings as stored, completed with the defaults (a setting added after a connection was made has its default). */
export function storedCloseSettings(stored: Record<string, unknown>): CloseSettings {
  return { ...CLOSE_DEFAULTS, ...stored } as CloseSettings;
}

export function checkedMinCallDuration(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < MIN_CALL_DURATION.min || seconds > MIN_CALL_DURATION.max) {
    throw new SettingsError(INTEGRATION_MESSAGES.minCallDuration);
  }
  return seconds;
}
