import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { FastifyRequest } from 'fastify';
import { DomainError, failedPrecondition } from '@parlance/platform/errors';
import { GrpcCallError } from '@parlance/platform/grpc/status-mapping';
import { ConnectionStatus, type CloseSettings, type HubSpotSettings, type Integration, type SyncError, type WorkspaceSettings } from '@parlance/proto/parlance/integration/v1/integrations';
import { callAs, type Sessions } from '../../../plugins/sessions.js';
import { ErrorResponse } from '../../../schemas/error.schema.js';
import {
  CloseSettingsChange,
  CloseSettingsView,
  ConnectCloseBody,
  DisconnectedResponse,
  DriveFolderList,
  HubSpotSettingsChange,
  HubSpotSettingsView,
  IntegrationList,
  IntegrationRequestBody,
  IntegrationRequested,
  IntegrationView,
  LeadStatusList,
  OAuthCallbackQuery,
  OAuthUrl,
  SyncStarted,
  WorkspaceConnectBody,
  WorkspaceReconnected,
  WorkspaceSignInState,
  WorkspaceSettingsChange,
  WorkspaceSettingsView,
} from '../../../schemas/integrations.schema.js';
import { SIGNED_IN } from '../../../schemas/security.schema.js';
import type { ServiceClients } from '../../../service-clients.js';

export const SYNC_STARTED = 'Sync started. New calls appear on the Calls screen once they are scored.';

export const HUBSPOT_CALLBACK_PATH = '/api/integrations/hubspot/callback';
export const HUBSPOT_CONNECTED_PAGE = '/hubspot-oauth-success';
export const HUBSPOT_FAILED_PAGE = '/hubspot-oauth-failed';
export const SESSION_NEEDED_FOR_OAUTH = 'HubSpot is connected from the web app: sign in there to connect it.';

export const INTEGRATION_REQUEST_RECEIVED = 'Thank you. Your request has been sent to the Parlance team.';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 503: ErrorResponse } as const;

/**
 * The integrations screen's calls (spec part 2 §2.12, §7). Every member of a company is an admin
 * or a manager, who may all manage its integrations; the session's company is the one acted on.
 */
export async function integrationsRoutes(app: FastifyInstance, options: { services: ServiceClients; sessions: Sessions; publicUrl?: string | undefined }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { integrations } = options.services.integration;
  const signedIn = { preHandler: options.sessions.requireCaller };
  // HubSpot sends the browser back here; the code is exchanged with the same address.
  const callbackUrl = (request: FastifyRequest) => `${(options.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '')}${HUBSPOT_CALLBACK_PATH}`;
  // The authorization is bound to the browser session that asked: its session token, hashed by the service.
  const sessionBinding = (request: FastifyRequest) => options.sessions.cookies.sessionToken(request) ?? '';

  typed.get(
    '/api/integrations/hubspot/oauth',
    {
      schema: {
        operationId: 'startHubSpotOAuth',
        summary: 'The URL of HubSpot’s consent page, to connect HubSpot',
        description:
          'The browser opens the URL; HubSpot sends it back to the callback. The authorization carries a single-use `state` bound to this session, valid ten minutes. 409 when this server has no HubSpot app configured, or without a browser session (a bearer token cannot come back from HubSpot).',
        security: SIGNED_IN,
        tags: ['integrations'],
        response: { 200: OAuthUrl, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      const binding = sessionBinding(request);
      if (binding === '') throw failedPrecondition(SESSION_NEEDED_FOR_OAUTH);
      return integrations.beginHubSpotOAuth({ redirectUri: callbackUrl(request), sessionBinding: binding }, callAs(request));
    },
  );

  typed.get(
    HUBSPOT_CALLBACK_PATH,
    {
      schema: {
        operationId: 'hubSpotOAuthCallback',
        summary: 'Where HubSpot sends the browser back after its consent page',
        description: `Redirects to ${HUBSPOT_CONNECTED_PAGE} once HubSpot is connected, else to ${HUBSPOT_FAILED_PAGE}?reason=… (a cancelled authorization, a state unknown, used, expired or from another session, HubSpot out of reach). Needs the session that asked.`,
        security: SIGNED_IN,
        tags: ['integrations'],
        querystring: OAuthCallbackQuery,
        response: { 302: Type.Null({ description: 'to the outcome page' }) },
      },
    },
    async (request, reply) => {
      const failed = (reason: string) => reply.redirect(`${HUBSPOT_FAILED_PAGE}?reason=${encodeURIComponent(reason)}`, 302);
      try {
        await options.sessions.requireCaller(request);
      } catch (error) {
        const signedOut = (error instanceof DomainError || error instanceof GrpcCallError) && error.kind === 'unauthenticated';
        if (signedOut) return failed('Sign in to Parlance, then connect HubSpot again from the integrations screen.');
        throw error;
      }
      const { user } = request.caller!;
      try {
        await integrations.completeHubSpotOAuth(
          {
            state: request.query.state ?? '',
            code: request.query.code ?? '',
            error: request.query.error ?? '',
            sessionBinding: sessionBinding(request),
            by: { firstName: user.firstName, lastName: user.lastName, email: user.email },
          },
          callAs(request),
        );
      } catch (error) {
        if (error instanceof GrpcCallError && (error.kind === 'failed-precondition' || error.kind === 'unavailable' || error.kind === 'invalid-argument')) return failed(error.message);
        throw error;
      }
      return reply.redirect(HUBSPOT_CONNECTED_PAGE, 302);
    },
  );

  typed.post(
    '/api/integrations/google-workspace/state',
    {
      schema: {
        operationId: 'startGoogleWorkspaceSignIn',
        summary: 'A state for the Google sign-in that connects Google Workspace',
        description:
          'The web app asks for it as Connect or Reconnect is clicked, passes it to Google Identity Services’ code client, checks that the code comes back with it, and sends both to connect or reconnect. Single-use, bound to this session, valid ten minutes. 409 when this server has no Google app configured, or without a browser session.',
        security: SIGNED_IN,
        tags: ['integrations'],
        response: { 200: WorkspaceSignInState, ...errors },
      },
      ...signedIn,
    },
    // Without a browser session the binding is empty, and integration refuses it in its own words.
    async (request) => integrations.beginWorkspaceSignIn({ sessionBinding: sessionBinding(request) }, callAs(request)),
  );

  typed.post(
    '/api/integrations/google-workspace/connect',
    {
      schema: {
        operationId: 'connectGoogleWorkspace',
        summary: 'Connect Google Workspace with the code Google Identity Services’ code client gave',
        description:
          'The code is exchanged on the server (redirect_uri postmessage) for tokens stored sealed, with read-only scopes for calendar, drive, documents and the e-mail. `state` is the one `POST /api/integrations/google-workspace/state` gave this session; it is used up here. 400 without a code or when Google refuses it; 409 when this server has no Google app configured, or for a state unknown, used, expired or from another session; 503 when Google cannot be reached. Connecting again keeps the settings.',
        security: SIGNED_IN,
        tags: ['integrations'],
        body: WorkspaceConnectBody,
        response: { 200: IntegrationView, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      const { integration } = await integrations.connectWorkspace(
        { code: request.body.code ?? '', state: request.body.state ?? '', sessionBinding: sessionBinding(request), by: byOf(request) },
        callAs(request),
      );
      return integrationView(integration!);
    },
  );

  typed.post(
    '/api/integrations/google-workspace/reconnect',
    {
      schema: {
        operationId: 'reconnectGoogleWorkspace',
        summary: 'Reconnect an expired Google Workspace, keeping its settings',
        description: 'As connect; `folderStatus` says whether the selected Drive folder still exists and is still accessible (both true when none is selected).',
        security: SIGNED_IN,
        tags: ['integrations'],
        body: WorkspaceConnectBody,
        response: { 200: WorkspaceReconnected, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      const { integration, folderStatus } = await integrations.reconnectWorkspace(
        { code: request.body.code ?? '', state: request.body.state ?? '', sessionBinding: sessionBinding(request), by: byOf(request) },
        callAs(request),
      );
      return { success: true as const, folderStatus: folderStatus ?? { exists: true, accessible: true }, integration: integrationView(integration!) };
    },
  );

  typed.put(
    '/api/integrations/google-workspace/settings',
    {
      schema: {
        operationId: 'updateGoogleWorkspaceSettings',
        summary: 'Change some of Google Workspace’s settings',
        description: 'Only the fields sent change; the folder’s id and name go together. 400 naming a field at fault; 409 when not connected.',
        security: SIGNED_IN,
        tags: ['integrations'],
        body: WorkspaceSettingsChange,
        response: { 200: WorkspaceSettingsView, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      const { settings } = await integrations.updateWorkspaceSettings(request.body, callAs(request));
      return workspaceSettingsView(settings!);
    },
  );

  typed.get(
    '/api/integrations/google-workspace/folders',
    {
      schema: {
        operationId: 'listGoogleDriveFolders',
        summary: 'The Drive folders the connected Google account can see, for the folder picker',
        description: '409 when Google Workspace is not connected, or Google no longer accepts its access (it is then marked expired); 503 when Google cannot be reached.',
        security: SIGNED_IN,
        tags: ['integrations'],
        response: { 200: DriveFolderList, ...errors },
      },
      ...signedIn,
    },
    async (request) => ({ success: true as const, folders: (await integrations.listDriveFolders({}, callAs(request))).folders }),
  );

  typed.post(
    '/api/integrations/google-workspace/sync',
    {
      schema: {
        operationId: 'syncGoogleWorkspace',
        summary: 'Sync Google Workspace now: import the new Meet transcripts of the selected folder',
        description: 'As Close’s: 202 at once, the sync runs in the background; 409 when not connected, expired, without a folder, or a sync is already running.',
        security: SIGNED_IN,
        tags: ['integrations'],
        response: { 202: SyncStarted, ...errors },
      },
      ...signedIn,
    },
    async (request, reply) => {
      await integrations.syncNow({ integrationId: 'google-workspace' }, callAs(request));
      return reply.code(202).send({ started: true as const, message: SYNC_STARTED });
    },
  );

  typed.delete(
    '/api/integrations/google-workspace/disconnect',
    {
      schema: {
        operationId: 'disconnectGoogleWorkspace',
        summary: 'Disconnect Google Workspace: its tokens are forgotten',
        security: SIGNED_IN,
        tags: ['integrations'],
        response: { 200: DisconnectedResponse, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      await integrations.disconnect({ integrationId: 'google-workspace' }, callAs(request));
      return { success: true as const };
    },
  );

  typed.put(
    '/api/integrations/hubspot/settings',
    {
      schema: {
        operationId: 'updateHubSpotSettings',
        summary: 'Change some of HubSpot’s settings',
        description: 'Only the fields sent change. 400 naming a field out of range; 409 when HubSpot is not connected.',
        security: SIGNED_IN,
        tags: ['integrations'],
        body: HubSpotSettingsChange,
        response: { 200: HubSpotSettingsView, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      const { settings } = await integrations.updateHubSpotSettings(request.body, callAs(request));
      return hubspotSettingsView(settings!);
    },
  );

  typed.post(
    '/api/integrations/hubspot/sync',
    {
      schema: {
        operationId: 'syncHubSpot',
        summary: 'Sync HubSpot now: import its calls modified since the last sync',
        description: 'As Close’s: 202 at once, the sync runs in the background; 409 when HubSpot is not connected, expired, or a sync is already running.',
        security: SIGNED_IN,
        tags: ['integrations'],
        response: { 202: SyncStarted, ...errors },
      },
      ...signedIn,
    },
    async (request, reply) => {
      await integrations.syncNow({ integrationId: 'hubspot-crm' }, callAs(request));
      return reply.code(202).send({ started: true as const, message: SYNC_STARTED });
    },
  );

  typed.delete(
    '/api/integrations/hubspot/disconnect',
    {
      schema: {
        operationId: 'disconnectHubSpot',
        summary: 'Disconnect HubSpot: its tokens are forgotten',
        security: SIGNED_IN,
        tags: ['integrations'],
        response: { 200: DisconnectedResponse, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      await integrations.disconnect({ integrationId: 'hubspot-crm' }, callAs(request));
      return { success: true as const };
    },
  );

  typed.get(
    '/api/integrations',
    {
      schema: {
        operationId: 'listIntegrations',
        summary: 'The three integrations, each with the company’s connection',
        security: SIGNED_IN,
        tags: ['integrations'],
        response: { 200: IntegrationList, ...errors },
      },
      ...signedIn,
    },
    async (request) => (await integrations.listIntegrations({}, callAs(request))).integrations.map(integrationView),
  );

  typed.post(
    '/api/integrations/close/connect',
    {
      schema: {
        operationId: 'connectClose',
        summary: 'Connect Close with an API key',
        description: 'Close is asked whether it accepts the key first: 400 when it refuses it, 503 when it cannot be reached. Connecting again replaces the key and keeps the settings.',
        security: SIGNED_IN,
        tags: ['integrations'],
        body: ConnectCloseBody,
        response: { 200: IntegrationView, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      const { user } = request.caller!;
      const { integration } = await integrations.connectClose(
        { apiKey: request.body.apiKey ?? '', by: { firstName: user.firstName, lastName: user.lastName, email: user.email } },
        callAs(request),
      );
      return integrationView(integration!);
    },
  );

  typed.put(
    '/api/integrations/close/settings',
    {
      schema: {
        operationId: 'updateCloseSettings',
        summary: 'Change some of Close’s settings',
        description: 'Only the fields sent change. 400 naming a field out of range; 409 when Close is not connected.',
        security: SIGNED_IN,
        tags: ['integrations'],
        body: CloseSettingsChange,
        response: { 200: CloseSettingsView, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      const { settings } = await integrations.updateCloseSettings(request.body, callAs(request));
      return closeSettingsView(settings!);
    },
  );

  typed.get(
    '/api/integrations/close/lead-statuses',
    {
      schema: {
        operationId: 'listCloseLeadStatuses',
        summary: 'The connected Close organization’s lead statuses, for the settings’ status choices',
        security: SIGNED_IN,
        tags: ['integrations'],
        response: { 200: LeadStatusList, ...errors },
      },
      ...signedIn,
    },
    async (request) => integrations.listCloseLeadStatuses({}, callAs(request)),
  );

  typed.post(
    '/api/integrations/close/sync',
    {
      schema: {
        operationId: 'syncClose',
        summary: 'Sync Close now: import its calls since the last sync',
        description:
          'Starts the sync in the background and answers 202 at once; the integration’s `connection.sync` shows it running, then what it did. Calls go through ingest like uploads, so they are transcribed and scored. 409 when Close is not connected, expired, or a sync is already running.',
        security: SIGNED_IN,
        tags: ['integrations'],
        response: { 202: SyncStarted, ...errors },
      },
      ...signedIn,
    },
    async (request, reply) => {
      await integrations.syncNow({ integrationId: 'close-crm' }, callAs(request));
      return reply.code(202).send({ started: true as const, message: SYNC_STARTED });
    },
  );

  typed.post(
    '/api/integrations/requests',
    {
      schema: {
        operationId: 'requestIntegration',
        summary: 'Ask for an integration Parlance does not have (‘Need another integration?’)',
        description: 'Stored, then e-mailed to the operators’ address (INTEGRATION_REQUESTS_TO) when one is configured, again later if the e-mail fails. 400 without a name.',
        security: SIGNED_IN,
        tags: ['integrations'],
        body: IntegrationRequestBody,
        response: { 200: IntegrationRequested, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      const { user } = request.caller!;
      const { requestId } = await integrations.requestIntegration(
        { integrationName: request.body.integrationName ?? '', details: request.body.details ?? '', by: { firstName: user.firstName, lastName: user.lastName, email: user.email } },
        callAs(request),
      );
      return { success: true as const, requestId, message: INTEGRATION_REQUEST_RECEIVED };
    },
  );

  typed.delete(
    '/api/integrations/close/disconnect',
    {
      schema: {
        operationId: 'disconnectClose',
        summary: 'Disconnect Close: its API key is forgotten',
        security: SIGNED_IN,
        tags: ['integrations'],
        response: { 200: DisconnectedResponse, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      await integrations.disconnect({ integrationId: 'close-crm' }, callAs(request));
      return { success: true as const };
    },
  );
}

function integrationView(integration: Integration) {
  const connection = integration.connection;
  const status = connection?.status ?? ConnectionStatus.CONNECTION_STATUS_NOT_CONNECTED;
  const chosen = connection?.settings;
  const settings =
    chosen?.$case === 'close'
      ? closeSettingsView(chosen.value)
      : chosen?.$case === 'hubspot'
        ? hubspotSettingsView(chosen.value)
        : chosen?.$case === 'workspace'
          ? workspaceSettingsView(chosen.value)
          : null;
  return {
    id: integration.id as 'close-crm' | 'hubspot-crm' | 'google-workspace',
    name: integration.name,
    description: integration.description,
    icon: integration.icon,
    connection: {
      connected: status === ConnectionStatus.CONNECTION_STATUS_CONNECTED || status === ConnectionStatus.CONNECTION_STATUS_EXPIRED,
      status:
        status === ConnectionStatus.CONNECTION_STATUS_EXPIRED ? ('expired' as const) : status === ConnectionStatus.CONNECTION_STATUS_CONNECTED ? ('connected' as const) : ('not_connected' as const),
      by: connection?.by ? { first_name: connection.by.firstName, last_name: connection.by.lastName, email: connection.by.email } : null,
      date: connection?.date?.toISOString() ?? null,
      settings,
      lastError: timedError(connection?.lastError),
      sync: { running: connection?.sync?.running ?? false, lastRun: connection?.sync?.lastRun ?? null },
      writeback: {
        pending: connection?.writeback?.pending ?? 0,
        lastWrittenAt: connection?.writeback?.lastWrittenAt?.toISOString() ?? null,
        lastError: timedError(connection?.writeback?.lastError),
      },
    },
  };
}

function timedError(error: SyncError | undefined) {
  return error ? { message: error.message, at: error.at!.toISOString() } : null;
}

function workspaceSettingsView(settings: WorkspaceSettings) {
  return { ...settings, lastSyncDate: settings.lastSyncDate?.toISOString() ?? null, selectedFolder: settings.selectedFolder ?? null };
}

/** The person acting, as the gateway's session knows them. */
function byOf(request: FastifyRequest) {
  const { user } = request.caller!;
  return { firstName: user.firstName, lastName: user.lastName, email: user.email };
}

function hubspotSettingsView(settings: HubSpotSettings) {
  return { ...settings, lastSyncDate: settings.lastSyncDate?.toISOString() ?? null };
}

function closeSettingsView(settings: CloseSettings) {
  return { ...settings, lastSyncDate: settings.lastSyncDate?.toISOString() ?? null };
}
