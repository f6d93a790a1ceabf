import { useId } from 'react';
import {
  useListCloseLeadStatusesQuery,
  useSyncCloseMutation,
  useUpdateCloseSettingsMutation,
  type CloseSettings,
  type Integration,
  type UpdateCloseSettingsApiArg,
} from '../../lib/api/gateway-api.generated';
import { closeSettingsOf, type Connection } from './integration-rules';
import {
  IntegrationSettingsPage,
  MinCallDurationField,
  SettingsSection,
  SettingSwitch,
  SyncState,
  useAppliedSettings,
  WritebackState,
} from './integration-settings-parts';
import type { Notification } from './notification-modal';

type SettingsChange = UpdateCloseSettingsApiArg['body'];
type Flag = 'syncUsersAndTeams' | 'autoSync' | 'createActivities' | 'updateLeadStatus';
type StatusField = 'successfulCallStatus' | 'unsuccessfulCallStatus';

const FLAGS: Record<Flag, { label: string; description: string }> = {
  syncUsersAndTeams: { label: 'Sync users and teams', description: 'Import Close’s users as team members.' },
  autoSync: { label: 'Auto sync', description: 'Import new Close calls on a schedule.' },
  createActivities: { label: 'Create activities', description: 'Write a note with the score on the call’s lead in Close.' },
  updateLeadStatus: { label: 'Update lead status', description: 'Set the lead’s status in Close from the call’s outcome.' },
};

type CloseSettingsViewProps = {
  integration: Integration;
  onBack: () => void;
  /** Opens the page's notification modal (Sync now's answer). */
  notify: (notification: Notification) => void;
};

/**
 * The full-page settings of the first CRM, Close (spec part 2 §2.12). A change applies at once
 * here, stamping the last sync date with now, and is then sent alone (§4); a failed update is
 * silent (§8). Sync now starts a sync; while one runs the integrations are read again, so the
 * last sync date, what the last run did and its error follow it.
 */
export function CloseSettingsView({ integration, onBack, notify }: CloseSettingsViewProps) {
  const settings = closeSettingsOf(integration.connection.settings);
  return (
    <IntegrationSettingsPage integration={integration} onBack={onBack}>
      {settings ? (
        <>
          {integration.connection.status === 'expired' ? (
            <p className="alert alert--warning">
              Close no longer accepts the API key Parlance holds, so nothing syncs. Reconnect Close from the integrations list; these settings are kept.
            </p>
          ) : null}
          <CloseSettingsForm initial={settings} connection={integration.connection} notify={notify} />
        </>
      ) : (
        <p>Close is not connected. Connect it from the integrations list to choose its settings.</p>
      )}
    </IntegrationSettingsPage>
  );
}

type CloseSettingsFormProps = {
  /** The settings as last read from the server. */
  initial: CloseSettings;
  connection: Connection;
  notify: (notification: Notification) => void;
};

function CloseSettingsForm({ initial, connection, notify }: CloseSettingsFormProps) {
  const id = useId();
  const [update] = useUpdateCloseSettingsMutation();
  const [syncNow, { isLoading: starting }] = useSyncCloseMutation();
  const { settings, lastSyncDate, apply } = useAppliedSettings(initial, (change: SettingsChange) => update({ body: change }));
  const statuses = useListCloseLeadStatusesQuery();

  const statusOptions = statuses.data?.statuses ?? [];
  const statusSelect = (field: StatusField, label: string) => {
    const value = settings[field];
    const known = value === '' || statusOptions.some((status) => status.id === value);
    return (
      <div className="field">
        <label className="field__label" htmlFor={`${id}-${field}`}>
          {label}
        </label>
        <select
          id={`${id}-${field}`}
          className="field__input"
          value={value}
          disabled={statuses.isLoading}
          aria-describedby={statuses.isError ? `${id}-statuses-error` : undefined}
          onChange={(event) => apply({ [field]: event.target.value })}
        >
          <option value="">No status change</option>
          {statusOptions.map((status) => (
            <option key={status.id} value={status.id}>
              {status.label}
            </option>
          ))}
          {known ? null : <option value={value}>{`Unknown status (${value})`}</option>}
        </select>
      </div>
    );
  };

  return (
    <div className="integration-settings__sections">
      <SettingsSection title="Sync">
        {(['syncUsersAndTeams', 'autoSync'] as const).map((flag) => (
          <SettingSwitch key={flag} id={`${id}-${flag}`} {...FLAGS[flag]} checked={settings[flag]} onChange={(checked) => apply({ [flag]: checked })} />
        ))}
        <MinCallDurationField value={settings.minCallDuration} onChange={(seconds) => apply({ minCallDuration: seconds })} />
        <SyncState connection={connection} lastSyncDate={lastSyncDate} startSync={syncNow} starting={starting} notify={notify} />
      </SettingsSection>

      <SettingsSection title="Write back to Close">
        {(['createActivities', 'updateLeadStatus'] as const).map((flag) => (
          <SettingSwitch key={flag} id={`${id}-${flag}`} {...FLAGS[flag]} checked={settings[flag]} onChange={(checked) => apply({ [flag]: checked })} />
        ))}
        {statusSelect('successfulCallStatus', 'Successful call status')}
        {statusSelect('unsuccessfulCallStatus', 'Unsuccessful call status')}
        {statuses.isError ? (
          <p id={`${id}-statuses-error`} className="field__error">
            Close’s lead statuses could not be loaded, so only the chosen ones are shown.
          </p>
        ) : null}
        <WritebackState writeback={connection.writeback} />
      </SettingsSection>
    </div>
  );
}
