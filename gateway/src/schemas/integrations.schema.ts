/**
 * The integrations screen (spec part 2 §2.12, §3 "Integration" and its settings shapes, §7
 * "Integrations"). The spec does not show Close's calls; they follow HubSpot's and Google
 * Workspace's: /api/integrations/close/{connect,settings,lead-statuses,sync,disconnect}.
 */
import Type from 'typebox';

const nullable = <T extends Type.TSchema>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });

const MinCallDuration = Type.Integer({ minimum: 0, maximum: 3600, description: 'seconds; calls shorter than this are not imported (default 60)' });
const LastSyncDate = nullable(Type.String({ format: 'date-time' }), 'when the last sync ended; null before the first');

export const CloseSettingsView = Type.Object(
  {
    syncUsersAndTeams: Type.Boolean({ description: 'import Close’s users as team members' }),
    autoSync: Type.Boolean({ description: 'import new calls on a schedule' }),
    createActivities: Type.Boolean({ description: 'write a note with the score on the call’s lead' }),
    updateLeadStatus: Type.Boolean({ description: 'set the lead’s status from the call’s outcome' }),
    minCallDuration: MinCallDuration,
    successfulCallStatus: Type.String({ description: 'a Close lead status id; empty when none is chosen' }),
    unsuccessfulCallStatus: Type.String({ description: 'a Close lead status id; empty when none is chosen' }),
    lastSyncDate: LastSyncDate,
  },
  { $id: 'CloseSettings' },
);

const TimedError = Type.Object({ message: Type.String(), at: Type.String({ format: 'date-time' }) });

export const HubSpotSettingsView = Type.Object(
  {
    syncCalls: Type.Boolean({ description: 'import new calls on a schedule' }),
    createTasks: Type.Boolean({ description: 'write a follow-up task with the top improvement after each scored call (a note is always written)' }),
    minCallDuration: MinCallDuration,
    lastSyncDate: LastSyncDate,
    account: Type.String({ description: 'the HubSpot account connected, e.g. acme.hubspot.com; empty when HubSpot did not say' }),
  },
  { $id: 'HubSpotSettings' },
);

export const HubSpotSettingsChange = Type.Partial(
  Type.Object({
    syncCalls: Type.Boolean(),
    createTasks: Type.Boolean(),
    minCallDuration: Type.Number({ description: 'a whole number of seconds from 0 to 3600' }),
  }),
);

export const WorkspaceSettingsView = Type.Object(
  {
    monitoringEnabled: Type.Boolean({ description: 'import new Meet transcripts of the selected folder on a schedule' }),
    minCallDuration: MinCallDuration,
    lastSyncDate: LastSyncDate,
    selectedFolder: nullable(Type.Object({ id: Type.String(), name: Type.String() }), 'the Drive folder watched; null before one is chosen'),
    tokenValid: Type.Boolean({ description: 'the access token has not expired (it is refreshed when used)' }),
    refreshTokenValid: Type.Boolean({ description: 'Google still accepts the refresh token; false when expired' }),
    scopes: Type.Array(Type.String(), { description: 'the scopes Google granted' }),
    account: Type.String({ description: 'the Google account connected' }),
  },
  { $id: 'WorkspaceSettings' },
);

export const WorkspaceSettingsChange = Type.Partial(
  Type.Object({
    monitoringEnabled: Type.Boolean(),
    minCallDuration: Type.Number({ description: 'a whole number of seconds from 0 to 3600' }),
    selectedFolderId: Type.String({ description: 'with selectedFolderName; empty clears the folder' }),
    selectedFolderName: Type.String(),
  }),
);

export const WorkspaceConnectBody = Type.Object({
  access_token: Type.Optional(Type.String({ description: 'sent by the web app as the spec has it; not used: the code is exchanged on the server' })),
  code: Type.Optional(Type.String({ description: 'the authorization code Google Identity Services’ code client gave' })),
  state: Type.Optional(Type.String({ description: 'the state of `POST /api/integrations/google-workspace/state`, as the code client gave it back with the code; required, single-use' })),
});

export const WorkspaceSignInState = Type.Object({
  state: Type.String({ description: 'single-use, bound to this session, valid ten minutes: the code client carries it to Google and back (`initCodeClient({ state })`)' }),
});

const FolderStatusView = Type.Object({ exists: Type.Boolean(), accessible: Type.Boolean() }, { description: 'the selected folder after reconnecting; both true when none is selected' });


export const DriveFolderList = Type.Object({
  success: Type.Literal(true),
  folders: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      isShared: Type.Boolean(),
      owners: Type.Array(Type.Object({ displayName: Type.String(), isMe: Type.Boolean() })),
    }),
  ),
});

export const OAuthUrl = Type.Object({ url: Type.String({ format: 'uri', description: 'HubSpot’s consent page; the browser opens it' }) });

export const OAuthCallbackQuery = Type.Object({
  code: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  error_description: Type.Optional(Type.String()),
});

export const IntegrationView = Type.Object(
  {
    id: Type.Union([Type.Literal('close-crm'), Type.Literal('hubspot-crm'), Type.Literal('google-workspace')]),
    name: Type.String(),
    description: Type.String(),
    icon: Type.String({ description: 'close, hubspot or google-workspace: the logo the web app draws' }),
    connection: Type.Object({
      connected: Type.Boolean({ description: 'true while connected, expired included' }),
      status: Type.Union([Type.Literal('not_connected'), Type.Literal('connected'), Type.Literal('expired')], {
        description: 'expired: the vendor refused the stored credentials; Reconnect repairs it and keeps the settings',
      }),
      by: nullable(Type.Object({ first_name: Type.String(), last_name: Type.String(), email: Type.String() }), 'who connected it'),
      date: nullable(Type.String({ format: 'date-time' }), 'when it was connected'),
      settings: nullable(Type.Union([CloseSettingsView, HubSpotSettingsView, WorkspaceSettingsView]), 'the integration’s settings; null when not connected'),
      lastError: nullable(TimedError, 'the last sync’s failure, until a sync succeeds'),
      sync: Type.Object({
        running: Type.Boolean({ description: 'a sync is running now' }),
        lastRun: nullable(
          Type.Object({
            imported: Type.Integer({ description: 'calls sent to be transcribed and scored' }),
            alreadyImported: Type.Integer({ description: 'calls found already imported, passed over' }),
            skipped: Type.Integer({ description: 'calls shorter than the minimum duration, without recording or transcript, or by someone in no team' }),
            refused: Type.Integer({ description: 'calls Parlance could not take (a recording it cannot read)' }),
          }),
          'what the last sync did; null before the first',
        ),
      }),
      writeback: Type.Object(
        {
          pending: Type.Integer({ description: 'scores waiting to be written back, or to be tried again after a failure' }),
          lastWrittenAt: nullable(Type.String({ format: 'date-time' }), 'when a score was last written back'),
          lastError: nullable(TimedError, 'the last write given up (refused by the vendor, or failing again and again), until one succeeds'),
        },
        { description: 'scores written back to the CRM after scoring: notes and lead statuses (Close), notes and tasks (HubSpot)' },
      ),
    }),
  },
  { $id: 'Integration' },
);

export const IntegrationList = Type.Array(IntegrationView);

export const WorkspaceReconnected = Type.Object({ success: Type.Literal(true), folderStatus: FolderStatusView, integration: IntegrationView });

export const ConnectCloseBody = Type.Object({
  apiKey: Type.Optional(Type.String({ description: 'a Close API key (Settings, Developer, API Keys); Close must accept it; missing or empty is 400' })),
});

export const CloseSettingsChange = Type.Partial(
  Type.Object({
    syncUsersAndTeams: Type.Boolean(),
    autoSync: Type.Boolean(),
    createActivities: Type.Boolean(),
    updateLeadStatus: Type.Boolean(),
    minCallDuration: Type.Number({ description: 'a whole number of seconds from 0 to 3600' }),
    successfulCallStatus: Type.String(),
    unsuccessfulCallStatus: Type.String(),
  }),
);

export const LeadStatusList = Type.Object({
  statuses: Type.Array(Type.Object({ id: Type.String(), label: Type.String() })),
});

export const SyncStarted = Type.Object({
  started: Type.Literal(true),
  message: Type.String(),
});

export const DisconnectedResponse = Type.Object({ success: Type.Literal(true) });

export const IntegrationRequestBody = Type.Object({
  integrationName: Type.Optional(Type.String({ description: 'the system wanted, e.g. Salesforce; 1 to 200 characters' })),
  details: Type.Optional(Type.String({ description: 'what it would be used for; at most 2,000 characters' })),
});

export const IntegrationRequested = Type.Object({
  success: Type.Literal(true),
  requestId: Type.String({ format: 'uuid' }),
  message: Type.String(),
});
