/**
 * parlance.integration.v1.IntegrationsService: the company's integrations and their connections,
 * for the company in the call's metadata. Credentials are sealed before they are stored
 * (domain/credential-cipher.ts) and opened only to call the vendor; no answer carries them.
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '@parlance/platform/db/database';
import { DomainError, failedPrecondition, invalidArgument, notFound } from '@parlance/platform/errors';
import type { ServiceImplementation } from '@parlance/platform/grpc/grpc-server';
import { requestContext, requireCompanyId } from '@parlance/platform/grpc/request-context';
import {
  ConnectionStatus,
  type CloseSettings as CloseSettingsMessage,
  type Connection,
  type ConnectCloseRequest,
  type ConnectCloseResponse,
  type DisconnectRequest,
  type DisconnectResponse,
  type Integration,
  type IntegrationsServiceService,
  type ListCloseLeadStatusesRequest,
  type ListCloseLeadStatusesResponse,
  type ListIntegrationsRequest,
  type ListIntegrationsResponse,
  type RequestIntegrationRequest,
  type RequestIntegrationResponse,
  type SyncNowRequest,
  type SyncNowResponse,
  type UpdateCloseSettingsRequest,
  type UpdateCloseSettingsResponse,
  type BeginHubSpotOAuthRequest,
  type BeginHubSpotOAuthResponse,
  type BeginWorkspaceSignInRequest,
  type BeginWorkspaceSignInResponse,
  type CompleteHubSpotOAuthRequest,
  type CompleteHubSpotOAuthResponse,
  type HubSpotSettings as HubSpotSettingsMessage,
  type UpdateHubSpotSettingsRequest,
  type UpdateHubSpotSettingsResponse,
  type ConnectWorkspaceRequest,
  type ConnectWorkspaceResponse,
  type ListDriveFoldersRequest,
  type ListDriveFoldersResponse,
  type ReconnectWorkspaceRequest,
  type ReconnectWorkspaceResponse,
  type UpdateWorkspaceSettingsRequest,
  type UpdateWorkspaceSettingsResponse,
  type WorkspaceSettings as WorkspaceSettingsMessage,
} from '@parlance/proto/parlance/integration/v1/integrations';
import {
  companyConnections,
  deleteConnection,
  findConnection,
  insertIntegrationRequest,
  markExpired,
  saveConnection,
  saveSettings,
  type ConnectionRow,
} from '../db/connections.repository.js';
import { dropScheduledSync, runningSyncs, syncDueNow } from '../db/sync.repository.js';
import { insertOAuthState, takeOAuthState } from '../db/oauth.repository.js';
import { pendingWrites } from '../db/writeback.repository.js';
import { checkOAuthState, newOAuthState, OAUTH_STATE_TTL_MS, sha256, tokensOf, tokensText } from '../domain/oauth.js';
import { GOOGLE_POPUP_REDIRECT_URI, type DriveClient, type GoogleOAuth } from '../vendors/google-client.js';
import type { HubSpotOAuth } from '../vendors/hubspot-client.js';
import { openCredential, sealCredential, type Keyring } from '../domain/credential-cipher.js';
import {
  changedCloseSettings,
  changedHubSpotSettings,
  changedWorkspaceSettings,
  checkedIntegrationRequest,
  credentialsRefused,
  storedWorkspaceSettings,
  WORKSPACE_DEFAULTS,
  type WorkspaceSettings,
  CLOSE_DEFAULTS,
  HUBSPOT_DEFAULTS,
  storedHubSpotSettings,
  syncsOnSchedule,
  type HubSpotSettings,
  INTEGRATION_MESSAGES,
  INTEGRATIONS,
  isIntegrationId,
  SettingsError,
  storedCloseSettings,
  workspaceGrant,
  type CloseSettings,
  type IntegrationEntry,
  type IntegrationId,
  type IntegrationRequest,
} from '../domain/integrations.js';
import type { CloseClient } from '../vendors/close-client.js';
import { refusesCredentials, VendorHttpError } from '../vendors/vendor-http.js';

/** What the service needs of Close: to check a key, and to read its lead statuses. */
export type CloseAccess = Pick<CloseClient, 'me' | 'leadStatuses'>;

export interface IntegrationsServiceDependencies {
  db: Executor;
  keyring: Keyring;
  /** A Close client acting with `apiKey`. */
  close: (apiKey: string) => CloseAccess;
  /** Google's OAuth endpoints with Parlance's app, and a Drive client for a connection; undefined when no Google app is configured. */
  google?: {
    oauth: Pick<GoogleOAuth, 'exchangeCode' | 'userEmail'>;
    drive: (connection: ConnectionRow) => Pick<DriveClient, 'folders' | 'folderStatus'>;
  };
  /** HubSpot's OAuth endpoints with Parlance's app; undefined when no HubSpot app is configured. */
  hubspot?: Pick<HubSpotOAuth, 'authorizeUrl' | 'exchangeCode' | 'tokenInfo'>;
  /** Queues the connection's sync to run now (sync/sync-runner.ts); false when one is running. */
  syncNow: (connection: ConnectionRow) => Promise<boolean>;
  /** The connection works again: its writes waiting for it are made now (writeback/writeback-runner.ts). */
  resumeWrites: (connection: ConnectionRow) => Promise<void>;
  /** E-mails the requests for other integrations not yet e-mailed (integration-requests.ts). */
  sendIntegrationRequests: () => Promise<void>;
  now?: () => Date;
}

const API_KEY_MAX = 500;

export function integrationsService(dependencies: IntegrationsServiceDependencies): ServiceImplementation<typeof IntegrationsServiceService> {
  return integrationAnswers(dependencies);
}

/** The service's methods as plain functions of their request (what tests call, in a request context). */
export function integrationAnswers(dependencies: IntegrationsServiceDependencies) {
  const { db, keyring, close, hubspot, google, syncNow, resumeWrites, sendIntegrationRequests, now = () => new Date() } = dependencies;

  /** Whether an OAuth connection's access token is still good now (it is refreshed when next used). */
  const accessValid = (row: ConnectionRow): boolean => {
    try {
      return tokensOf(openCredential(keyring, row.credentials)).expiresAt.getTime() > now().getTime();
    } catch {
      return false;
    }
  };

  /**
   * Stores a new authorization request's state for the asking session (hashed, ten minutes) and
   * gives the state to carry to the vendor and back.
   */
  const beginAuthorization = async (integrationId: IntegrationId, sessionBinding: string, redirectUri: string, noSession: string): Promise<string> => {
    const companyId = requireCompanyId();
    const userId = requestContext().userId;
    if (!userId || sessionBinding === '') throw failedPrecondition(noSession);
    const { state, stateHash } = newOAuthState();
    await insertOAuthState(db, { stateHash, integrationId, companyId, userId, bindingHash: sha256(sessionBinding), redirectUri, expiresAt: new Date(now().getTime() + OAUTH_STATE_TTL_MS) });
    return state;
  };

  /** Takes the state an authorization came back with (once, whatever follows), or refuses it with the integration's sentence. */
  const takeAuthorization = async (integrationId: IntegrationId, state: string, sessionBinding: string, refusals: { unknown: string; foreign: string }) => {
    const stored = state === '' ? undefined : await takeOAuthState(db, integrationId, sha256(state));
    const check = checkOAuthState(stored, { companyId: requireCompanyId(), userId: requestContext().userId ?? '', binding: sessionBinding, now: now() });
    if (check !== 'accepted') throw failedPrecondition(refusals[check]);
    return stored!;
  };

  /** Connects Google Workspace (again) with a code from the code client and the state it carried; the settings are kept. */
  const connectWorkspace = async ({ code, by, state, sessionBinding }: ConnectWorkspaceRequest): Promise<ConnectionRow> => {
    const companyId = requireCompanyId();
    if (!google) throw failedPrecondition(INTEGRATION_MESSAGES.workspaceNotConfigured);
    if (code.trim() === '') throw invalidArgument(INTEGRATION_MESSAGES.workspaceCodeMissing, { field: 'code' });
    await takeAuthorization('google-workspace', state, sessionBinding, { unknown: INTEGRATION_MESSAGES.workspaceStateUnknown, foreign: INTEGRATION_MESSAGES.workspaceStateForeign });
    let tokens;
    let account;
    try {
      tokens = await google.oauth.exchangeCode(code.trim());
      account = await google.oauth.userEmail(tokens.accessToken);
    } catch (failure) {
      if (failure instanceof VendorHttpError && !failure.retryable) throw invalidArgument(`Google refused the sign-in: ${failure.message}`, { field: 'code' });
      if (failure instanceof VendorHttpError) throw new DomainError('unavailable', INTEGRATION_MESSAGES.workspaceUnreachable);
      throw failure;
    }
    const existing = await findConnection(db, companyId, 'google-workspace');
    const row = await saveConnection(db, {
      companyId,
      integrationId: 'google-workspace',
      connectedBy: { firstName: by?.firstName ?? '', lastName: by?.lastName ?? '', email: by?.email ?? '' },
      connectedByUserId: requestContext().userId ?? null,
      connectedAt: now(),
      credentials: sealCredential(keyring, tokensText(tokens)),
      settings: { ...WORKSPACE_DEFAULTS, ...(existing?.settings ?? {}), account, scopes: tokens.scopes },
    });
    await connectionWorksAgain(row);
    return row;
  };

  /** The connected workspace's Drive; a refusal of its tokens marks it expired. */
  const driveCall = async <T>(row: ConnectionRow, call: (drive: Pick<DriveClient, 'folders' | 'folderStatus'>) => Promise<T>): Promise<T> => {
    try {
      return await call(google!.drive(row));
    } catch (failure) {
      if (refusesCredentials(failure)) {
        await markExpired(db, row.companyId, 'google-workspace', INTEGRATION_MESSAGES.workspaceRevoked);
        throw failedPrecondition(INTEGRATION_MESSAGES.workspaceRevoked);
      }
      if (failure instanceof VendorHttpError) throw new DomainError('unavailable', INTEGRATION_MESSAGES.workspaceUnreachable);
      throw failure;
    }
  };

  /** Connected (again): syncing on a schedule starts now, stopped while it was expired; so do the writes waiting for it. */
  const connectionWorksAgain = async (row: ConnectionRow): Promise<void> => {
    if (syncsOnSchedule(row.integrationId, row.settings)) await syncDueNow(db, row);
    await resumeWrites(row);
  };

  /** Syncing on a schedule turned on syncs at once, then on its schedule; turned off, the next automatic sync is dropped. */
  const scheduleChanged = async (before: ConnectionRow, after: ConnectionRow): Promise<void> => {
    const wasOn = syncsOnSchedule(before.integrationId, before.settings);
    const isOn = syncsOnSchedule(after.integrationId, after.settings);
    if (isOn && !wasOn && after.status === 'connected') await syncDueNow(db, after);
    if (!isOn && wasOn) await dropScheduledSync(db, after.id);
  };

  const connectedClose = async (companyId: string): Promise<ConnectionRow> => {
    const row = await findConnection(db, companyId, 'close-crm');
    if (!row) throw failedPrecondition(INTEGRATION_MESSAGES.closeNotConnected);
    return row;
  };

  return {
    async listIntegrations(_request: ListIntegrationsRequest): Promise<ListIntegrationsResponse> {
      const companyId = requireCompanyId();
      const held = await companyConnections(db, companyId);
      const work = await workInHand(db, companyId, accessValid);
      return { integrations: INTEGRATIONS.map((entry) => integrationView(entry, held.get(entry.id), work)) };
    },

    async connectClose({ apiKey, by }: ConnectCloseRequest): Promise<ConnectCloseResponse> {
      const companyId = requireCompanyId();
      const key = apiKey.trim();
      if (key === '' || key.length > API_KEY_MAX) throw invalidArgument(INTEGRATION_MESSAGES.apiKeyMissing, { field: 'apiKey' });
      await close(key)
        .me()
        .catch((error: unknown) => {
          throw closeFailure(error);
        });
      const row = await saveConnection(db, {
        companyId,
        integrationId: 'close-crm',
        connectedBy: { firstName: by?.firstName ?? '', lastName: by?.lastName ?? '', email: by?.email ?? '' },
        connectedByUserId: requestContext().userId ?? null,
        connectedAt: now(),
        credentials: sealCredential(keyring, key),
        settings: { ...CLOSE_DEFAULTS },
      });
      await connectionWorksAgain(row);
      return { integration: integrationView(INTEGRATIONS[0]!, row, await workInHand(db, companyId, accessValid)) };
    },

    async beginHubSpotOAuth({ redirectUri, sessionBinding }: BeginHubSpotOAuthRequest): Promise<BeginHubSpotOAuthResponse> {
      if (!hubspot) throw failedPrecondition(INTEGRATION_MESSAGES.hubspotNotConfigured);
      if (!/^https?:\/\//.test(redirectUri)) throw invalidArgument('redirectUri must be an http(s) URL.', { field: 'redirectUri' });
      const state = await beginAuthorization('hubspot-crm', sessionBinding, redirectUri, INTEGRATION_MESSAGES.oauthStateForeign);
      return { url: hubspot.authorizeUrl({ redirectUri, state }) };
    },

    async completeHubSpotOAuth({ state, code, error, sessionBinding, by }: CompleteHubSpotOAuthRequest): Promise<CompleteHubSpotOAuthResponse> {
      const companyId = requireCompanyId();
      if (!hubspot) throw failedPrecondition(INTEGRATION_MESSAGES.hubspotNotConfigured);
      const stored = await takeAuthorization('hubspot-crm', state, sessionBinding, { unknown: INTEGRATION_MESSAGES.oauthStateUnknown, foreign: INTEGRATION_MESSAGES.oauthStateForeign });
      if (error !== '' || code === '') throw failedPrecondition(INTEGRATION_MESSAGES.oauthCancelled);
      let tokens;
      let account = '';
      try {
        tokens = await hubspot.exchangeCode({ code, redirectUri: stored.redirectUri });
        account = (await hubspot.tokenInfo(tokens.accessToken)).hubDomain;
      } catch (failure) {
        if (failure instanceof VendorHttpError && !failure.retryable) throw failedPrecondition(`HubSpot refused to connect: ${failure.message}`);
        if (failure instanceof VendorHttpError) throw new DomainError('unavailable', INTEGRATION_MESSAGES.hubspotUnreachable);
        throw failure;
      }
      const existing = await findConnection(db, companyId, 'hubspot-crm');
      const row = await saveConnection(db, {
        companyId,
        integrationId: 'hubspot-crm',
        connectedBy: { firstName: by?.firstName ?? '', lastName: by?.lastName ?? '', email: by?.email ?? '' },
        connectedByUserId: requestContext().userId ?? null,
        connectedAt: now(),
        credentials: sealCredential(keyring, tokensText(tokens)),
        settings: { ...HUBSPOT_DEFAULTS, ...(existing?.settings ?? {}), account },
      });
      await connectionWorksAgain(row);
      return { integration: integrationView(INTEGRATIONS[1]!, row, await workInHand(db, companyId, accessValid)) };
    },

    async beginWorkspaceSignIn({ sessionBinding }: BeginWorkspaceSignInRequest): Promise<BeginWorkspaceSignInResponse> {
      if (!google) throw failedPrecondition(INTEGRATION_MESSAGES.workspaceNotConfigured);
      return { state: await beginAuthorization('google-workspace', sessionBinding, GOOGLE_POPUP_REDIRECT_URI, INTEGRATION_MESSAGES.workspaceSessionNeeded) };
    },

    async connectWorkspace(request: ConnectWorkspaceRequest): Promise<ConnectWorkspaceResponse> {
      const row = await connectWorkspace(request);
      return { integration: integrationView(INTEGRATIONS[2]!, row, await workInHand(db, row.companyId, accessValid)) };
    },

    async reconnectWorkspace(request: ReconnectWorkspaceRequest): Promise<ReconnectWorkspaceResponse> {
      const row = await connectWorkspace(request);
      const folder = storedWorkspaceSettings(row.settings).selectedFolder;
      const folderStatus = folder ? await driveCall(row, (drive) => drive.folderStatus(folder.id)) : { exists: true, accessible: true };
      return { integration: integrationView(INTEGRATIONS[2]!, row, await workInHand(db, row.companyId, accessValid)), folderStatus };
    },

    async updateWorkspaceSettings(change: UpdateWorkspaceSettingsRequest): Promise<UpdateWorkspaceSettingsResponse> {
      const companyId = requireCompanyId();
      const row = await findConnection(db, companyId, 'google-workspace');
      if (!row) throw failedPrecondition(INTEGRATION_MESSAGES.workspaceNotConnected);
      let next: WorkspaceSettings;
      try {
        next = changedWorkspaceSettings(storedWorkspaceSettings(row.settings), change);
      } catch (error) {
        if (error instanceof SettingsError) throw invalidArgument(error.message);
        throw error;
      }
      const saved = await saveSettings(db, companyId, 'google-workspace', { ...row.settings, ...next });
      if (!saved) throw failedPrecondition(INTEGRATION_MESSAGES.workspaceNotConnected);
      await scheduleChanged(row, saved);
      return { settings: workspaceSettingsView(saved, accessValid(saved)) };
    },

    async listDriveFolders(_request: ListDriveFoldersRequest): Promise<ListDriveFoldersResponse> {
      const companyId = requireCompanyId();
      const row = await findConnection(db, companyId, 'google-workspace');
      if (!row || !google) throw failedPrecondition(INTEGRATION_MESSAGES.workspaceNotConnected);
      const folders = await driveCall(row, (drive) => drive.folders());
      return { folders: folders.map((folder) => ({ id: folder.id, name: folder.name, isShared: folder.isShared, owners: folder.owners })) };
    },

    async updateHubSpotSettings(change: UpdateHubSpotSettingsRequest): Promise<UpdateHubSpotSettingsResponse> {
      const companyId = requireCompanyId();
      const row = await findConnection(db, companyId, 'hubspot-crm');
      if (!row) throw failedPrecondition(INTEGRATION_MESSAGES.hubspotNotConnected);
      let next: HubSpotSettings;
      try {
        next = changedHubSpotSettings(storedHubSpotSettings(row.settings), definedFields(change));
      } catch (error) {
        if (error instanceof SettingsError) throw invalidArgument(error.message);
        throw error;
      }
      const saved = await saveSettings(db, companyId, 'hubspot-crm', { ...row.settings, ...next });
      if (!saved) throw failedPrecondition(INTEGRATION_MESSAGES.hubspotNotConnected);
      await scheduleChanged(row, saved);
      return { settings: hubspotSettingsView(saved.settings, saved.lastSyncAt) };
    },

    async updateCloseSettings(change: UpdateCloseSettingsRequest): Promise<UpdateCloseSettingsResponse> {
      const companyId = requireCompanyId();
      const row = await connectedClose(companyId);
      let next: CloseSettings;
      try {
        next = changedCloseSettings(storedCloseSettings(row.settings), definedFields(change));
      } catch (error) {
        if (error instanceof SettingsError) throw invalidArgument(error.message);
        throw error;
      }
      const saved = await saveSettings(db, companyId, 'close-crm', { ...next });
      if (!saved) throw failedPrecondition(INTEGRATION_MESSAGES.closeNotConnected);
      await scheduleChanged(row, saved);
      return { settings: closeSettingsView(next, saved.lastSyncAt) };
    },

    async listCloseLeadStatuses(_request: ListCloseLeadStatusesRequest): Promise<ListCloseLeadStatusesResponse> {
      const companyId = requireCompanyId();
      const row = await connectedClose(companyId);
      try {
        return { statuses: await close(openCredential(keyring, row.credentials)).leadStatuses() };
      } catch (error) {
        // The stored key refused (deleted in Close): the connection is expired until reconnected, settings kept.
        if (refusesCredentials(error)) {
          await markExpired(db, companyId, 'close-crm');
          throw failedPrecondition(INTEGRATION_MESSAGES.closeKeyRevoked);
        }
        throw closeFailure(error);
      }
    },

    async requestIntegration({ integrationName, details, by }: RequestIntegrationRequest): Promise<RequestIntegrationResponse> {
      const companyId = requireCompanyId();
      let request: IntegrationRequest;
      try {
        request = checkedIntegrationRequest({ integrationName, details });
      } catch (error) {
        if (error instanceof SettingsError) throw invalidArgument(error.message);
        throw error;
      }
      const id = randomUUID();
      await insertIntegrationRequest(db, {
        id,
        companyId,
        ...request,
        requestedBy: { firstName: by?.firstName ?? '', lastName: by?.lastName ?? '', email: by?.email ?? '' },
        requestedAt: now(),
      });
      // Stored first: an e-mail that fails now is sent again later, and the person is not asked to repeat it.
      await sendIntegrationRequests();
      return { requestId: id };
    },

    async syncNow({ integrationId }: SyncNowRequest): Promise<SyncNowResponse> {
      const companyId = requireCompanyId();
      if (!isIntegrationId(integrationId)) throw notFound(INTEGRATION_MESSAGES.unknown(integrationId));
      const row = await findConnection(db, companyId, integrationId);
      if (!row) throw failedPrecondition(notConnected(integrationId));
      if (row.status === 'expired') throw failedPrecondition(credentialsRefused(integrationId));
      if (integrationId === 'google-workspace' && !storedWorkspaceSettings(row.settings).selectedFolder) throw failedPrecondition(INTEGRATION_MESSAGES.workspaceFolderMissing);
      if (!(await syncNow(row))) throw failedPrecondition(INTEGRATION_MESSAGES.syncAlreadyRunning);
      return {};
    },

    async disconnect({ integrationId }: DisconnectRequest): Promise<DisconnectResponse> {
      const companyId = requireCompanyId();
      if (!isIntegrationId(integrationId)) throw notFound(INTEGRATION_MESSAGES.unknown(integrationId));
      await deleteConnection(db, companyId, integrationId);
      return {};
    },
  };
}

/** A failed call to Close, said in the user's terms: a refused key, or Close out of reach. */
function closeFailure(error: unknown): unknown {
  if (refusesCredentials(error)) return invalidArgument(INTEGRATION_MESSAGES.apiKeyRefused, { field: 'apiKey' });
  if (error instanceof VendorHttpError) return new DomainError('unavailable', INTEGRATION_MESSAGES.closeUnreachable);
  return error;
}

/** The fields a partial settings change names (proto3 `optional` leaves the others undefined). */
function definedFields<T extends object>(change: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

function notConnected(integrationId: string): string {
  if (integrationId === 'hubspot-crm') return INTEGRATION_MESSAGES.hubspotNotConnected;
  if (integrationId === 'google-workspace') return INTEGRATION_MESSAGES.workspaceNotConnected;
  return INTEGRATION_MESSAGES.closeNotConnected;
}

/** What the company's connections have in hand: the ids of those syncing now, the writes waiting per connection, and whose access token is good. */
interface WorkInHand {
  running: ReadonlySet<string>;
  pendingWrites: ReadonlyMap<string, number>;
  accessValid: (row: ConnectionRow) => boolean;
}

async function workInHand(db: Executor, companyId: string, accessValid: (row: ConnectionRow) => boolean): Promise<WorkInHand> {
  const [running, pending] = await Promise.all([runningSyncs(db, companyId), pendingWrites(db, companyId)]);
  return { running, pendingWrites: pending, accessValid };
}

/** The integration with the company's connection. */
function integrationView(entry: IntegrationEntry, row: ConnectionRow | undefined, work: WorkInHand): Integration {
  return { id: entry.id, name: entry.name, description: entry.description, icon: entry.icon, connection: connectionView(entry, row, work) };
}

function connectionView(entry: IntegrationEntry, row: ConnectionRow | undefined, work: WorkInHand): Connection {
  if (!row) return { status: ConnectionStatus.CONNECTION_STATUS_NOT_CONNECTED, settings: undefined, sync: { running: false, lastRun: undefined }, writeback: { pending: 0 } };
  return {
    status: row.status === 'expired' ? ConnectionStatus.CONNECTION_STATUS_EXPIRED : ConnectionStatus.CONNECTION_STATUS_CONNECTED,
    by: row.connectedBy,
    date: row.connectedAt,
    settings: settingsView(entry, row, work),
    lastError: row.lastError && row.lastErrorAt ? { message: row.lastError, at: row.lastErrorAt } : undefined,
    sync: { running: work.running.has(row.id), lastRun: row.lastSyncSummary ?? undefined },
    writeback: {
      pending: work.pendingWrites.get(row.id) ?? 0,
      lastWrittenAt: row.lastWritebackAt ?? undefined,
      lastError: row.writebackError && row.writebackErrorAt ? { message: row.writebackError, at: row.writebackErrorAt } : undefined,
    },
  };
}

function settingsView(entry: IntegrationEntry, row: ConnectionRow, work: WorkInHand): Connection['settings'] {
  if (entry.id === 'close-crm') return { $case: 'close', value: closeSettingsView(storedCloseSettings(row.settings), row.lastSyncAt) };
  if (entry.id === 'hubspot-crm') return { $case: 'hubspot', value: hubspotSettingsView(row.settings, row.lastSyncAt) };
  return { $case: 'workspace', value: workspaceSettingsView(row, work.accessValid(row)) };
}

function workspaceSettingsView(row: ConnectionRow, tokenValid: boolean): WorkspaceSettingsMessage {
  const { monitoringEnabled, minCallDuration, selectedFolder } = storedWorkspaceSettings(row.settings);
  const { account, scopes } = workspaceGrant(row.settings);
  return {
    monitoringEnabled,
    minCallDuration,
    lastSyncDate: row.lastSyncAt ?? undefined,
    selectedFolder: selectedFolder ?? undefined,
    tokenValid,
    refreshTokenValid: row.status !== 'expired',
    scopes,
    account,
  };
}

function hubspotSettingsView(stored: Record<string, unknown>, lastSyncAt: Date | null): HubSpotSettingsMessage {
  const { syncCalls, createTasks, minCallDuration } = storedHubSpotSettings(stored);
  return { syncCalls, createTasks, minCallDuration, lastSyncDate: lastSyncAt ?? undefined, account: typeof stored.account === 'string' ? stored.account : '' };
}

function closeSettingsView(settings: CloseSettings, lastSyncAt: Date | null): CloseSettingsMessage {
  return { ...settings, lastSyncDate: lastSyncAt ?? undefined };
}
