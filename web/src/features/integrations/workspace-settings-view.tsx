import { useId } from 'react';
import {
  useSyncGoogleWorkspaceMutation,
  useUpdateGoogleWorkspaceSettingsMutation,
  type Integration,
  type UpdateGoogleWorkspaceSettingsApiArg,
  type WorkspaceSettings,
} from '../../lib/api/gateway-api.generated';
import { DriveFolderPicker } from './drive-folder-picker';
import { describeScopes, missingWorkspaceScopes, workspaceSettingsOf, workspaceTokenStatus, type Connection } from './integration-rules';
import { IntegrationSettingsPage, MinCallDurationField, SettingsSection, SettingSwitch, SyncState, useAppliedSettings } from './integration-settings-parts';
import type { Notification } from './notification-modal';

/** The settings this view changes, as the screen keeps them; the folder goes to the server as its id and name. */
type SettingsChange = Partial<Pick<WorkspaceSettings, 'monitoringEnabled' | 'minCallDuration' | 'selectedFolder'>>;

/** What Sync now says while no Drive folder is chosen. */
export const CHOOSE_FOLDER_FIRST = 'Choose a Drive folder first';

const MONITORING = { label: 'Monitoring', description: 'Import new Google Meet transcripts from the selected Drive folder on a schedule.' };

/** A change as the gateway takes it: the folder as selectedFolderId and selectedFolderName (empty clears it). */
function changeBody({ selectedFolder, ...rest }: SettingsChange): UpdateGoogleWorkspaceSettingsApiArg['body'] {
  if (selectedFolder === undefined) return rest;
  return { ...rest, selectedFolderId: selectedFolder?.id ?? '', selectedFolderName: selectedFolder?.name ?? '' };
}

type WorkspaceSettingsViewProps = {
  integration: Integration;
  onBack: () => void;
  /** Opens the page's notification modal (Sync now's answer). */
  notify: (notification: Notification) => void;
};

/**
 * The full-page settings of the workspace suite, Google Workspace (spec part 2 §2.12): the Google
 * account with its token status and the access granted, the Drive folder watched (chosen from the
 * folders the account can see), Monitoring, the minimum duration, and Sync now with the last sync.
 * As in the CRMs' views a change applies at once, stamping the last sync date with now, and is then
 * sent alone (§4); a failed update, like a failed folder list, is silent (§8). Workspace writes
 * nothing back, so there is no write-back section.
 */
export function WorkspaceSettingsView({ integration, onBack, notify }: WorkspaceSettingsViewProps) {
  const settings = workspaceSettingsOf(integration.connection.settings);
  return (
    <IntegrationSettingsPage integration={integration} onBack={onBack}>
      {settings ? (
        <>
          {integration.connection.status === 'expired' ? (
            <p className="alert alert--warning">
              Google no longer accepts the access Parlance holds, so nothing syncs. Reconnect Google Workspace from the integrations list; these settings are kept.
            </p>
          ) : null}
          <WorkspaceSettingsForm initial={settings} connection={integration.connection} notify={notify} />
        </>
      ) : (
        <p>Google Workspace is not connected. Connect it from the integrations list to choose its settings.</p>
      )}
    </IntegrationSettingsPage>
  );
}

type WorkspaceSettingsFormProps = {
  /** The settings as last read from the server (the account, token status and access shown follow each reading). */
  initial: WorkspaceSettings;
  connection: Connection;
  notify: (notification: Notification) => void;
};

function WorkspaceSettingsForm({ initial, connection, notify }: WorkspaceSettingsFormProps) {
  const id = useId();
  const [update] = useUpdateGoogleWorkspaceSettingsMutation();
  const [syncNow, { isLoading: starting }] = useSyncGoogleWorkspaceMutation();
  const { settings, lastSyncDate, apply } = useAppliedSettings(initial, (change: SettingsChange) => update({ body: changeBody(change) }));

  return (
    <div className="integration-settings__sections">
      <SettingsSection title="Google account">
        <AccountFacts settings={initial} />
      </SettingsSection>

      <SettingsSection title="Drive folder">
        <DriveFolderPicker selected={settings.selectedFolder} onChoose={(folder) => apply({ selectedFolder: folder })} />
      </SettingsSection>

      <SettingsSection title="Sync">
        <SettingSwitch id={`${id}-monitoring`} {...MONITORING} checked={settings.monitoringEnabled} onChange={(checked) => apply({ monitoringEnabled: checked })} />
        <MinCallDurationField item="meeting" value={settings.minCallDuration} onChange={(seconds) => apply({ minCallDuration: seconds })} />
        <SyncState
          connection={connection}
          lastSyncDate={lastSyncDate}
          startSync={syncNow}
          starting={starting}
          notify={notify}
          item="meeting"
          unavailable={settings.selectedFolder ? null : CHOOSE_FOLDER_FIRST}
        />
      </SettingsSection>
    </div>
  );
}

/** The Google account, its token status (§3) and the access Google granted, in plain words. */
function AccountFacts({ settings }: { settings: WorkspaceSettings }) {
  const granted = describeScopes(settings.scopes);
  const missing = missingWorkspaceScopes(settings.scopes);
  return (
    <>
      <dl className="facts integration-settings__account">
        {settings.account ? (
          <>
            <dt>Google account</dt>
            <dd>{settings.account}</dd>
          </>
        ) : null}
        <dt>Token status</dt>
        <dd>{workspaceTokenStatus(settings)}</dd>
        <dt>Access granted</dt>
        <dd>
          {granted.length > 0 ? (
            <ul className="integration-settings__scopes">
              {granted.map((words) => (
                <li key={words}>{words}</li>
              ))}
            </ul>
          ) : (
            'None'
          )}
        </dd>
      </dl>
      {missing.length > 0 ? (
        <p className="field__error integration-settings__missing-scopes">
          {`Google did not grant: ${missing.join('; ')}. Meetings cannot be imported without it: disconnect Google Workspace and connect it again, allowing it.`}
        </p>
      ) : null}
    </>
  );
}
