import { useId } from 'react';
import {
  useSyncHubSpotMutation,
  useUpdateHubSpotSettingsMutation,
  type HubSpotSettings,
  type Integration,
  type UpdateHubSpotSettingsApiArg,
} from '../../lib/api/gateway-api.generated';
import { hubSpotSettingsOf, type Connection } from './integration-rules';
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

type SettingsChange = UpdateHubSpotSettingsApiArg['body'];
type Flag = 'syncCalls' | 'createTasks';

const FLAGS: Record<Flag, { label: string; description: string }> = {
  syncCalls: { label: 'Sync calls', description: 'Import new HubSpot calls on a schedule.' },
  createTasks: {
    label: 'Create tasks',
    description: 'Write a follow-up task with the top improvement after each scored call. A note with the score is always written.',
  },
};

type HubSpotSettingsViewProps = {
  integration: Integration;
  onBack: () => void;
  /** Opens the page's notification modal (Sync now's answer). */
  notify: (notification: Notification) => void;
};

/**
 * The full-page settings of the second CRM, HubSpot (spec part 2 §2.12): the account connected,
 * syncCalls and createTasks, the minimum call duration and the last sync date, with Sync now and
 * the write-back's state. As in Close's view, a change applies at once, stamping the last sync
 * date with now, and is then sent alone (§4); a failed update is silent (§8).
 */
export function HubSpotSettingsView({ integration, onBack, notify }: HubSpotSettingsViewProps) {
  const settings = hubSpotSettingsOf(integration.connection.settings);
  return (
    <IntegrationSettingsPage integration={integration} onBack={onBack}>
      {settings ? (
        <>
          {integration.connection.status === 'expired' ? (
            <p className="alert alert--warning">
              HubSpot no longer accepts the access Parlance holds, so nothing syncs. Reconnect HubSpot from the integrations list; these settings are kept.
            </p>
          ) : null}
          {settings.account ? (
            <dl className="facts integration-settings__account">
              <dt>HubSpot account</dt>
              <dd>{settings.account}</dd>
            </dl>
          ) : null}
          <HubSpotSettingsForm initial={settings} connection={integration.connection} notify={notify} />
        </>
      ) : (
        <p>HubSpot is not connected. Connect it from the integrations list to choose its settings.</p>
      )}
    </IntegrationSettingsPage>
  );
}

type HubSpotSettingsFormProps = {
  /** The settings as last read from the server. */
  initial: HubSpotSettings;
  connection: Connection;
  notify: (notification: Notification) => void;
};

function HubSpotSettingsForm({ initial, connection, notify }: HubSpotSettingsFormProps) {
  const id = useId();
  const [update] = useUpdateHubSpotSettingsMutation();
  const [syncNow, { isLoading: starting }] = useSyncHubSpotMutation();
  const { settings, lastSyncDate, apply } = useAppliedSettings(initial, (change: SettingsChange) => update({ body: change }));

  const flagSwitch = (flag: Flag) => (
    <SettingSwitch id={`${id}-${flag}`} {...FLAGS[flag]} checked={settings[flag]} onChange={(checked) => apply({ [flag]: checked })} />
  );

  return (
    <div className="integration-settings__sections">
      <SettingsSection title="Sync">
        {flagSwitch('syncCalls')}
        <MinCallDurationField value={settings.minCallDuration} onChange={(seconds) => apply({ minCallDuration: seconds })} />
        <SyncState connection={connection} lastSyncDate={lastSyncDate} startSync={syncNow} starting={starting} notify={notify} />
      </SettingsSection>

      <SettingsSection title="Write back to HubSpot">
        {flagSwitch('createTasks')}
        <WritebackState writeback={connection.writeback} />
      </SettingsSection>
    </div>
  );
}
