import { useId, useState } from 'react';
import {
  useListCloseLeadStatusesQuery,
  useUpdateCloseSettingsMutation,
  type CloseSettings,
  type Integration,
  type UpdateCloseSettingsApiArg,
} from '../../lib/api/gateway-api.generated';
import { IntegrationLogo } from './integration-logo';
import { badgeOf, formatApproxDuration, formatLastSync, MIN_CALL_DURATION, parseMinCallDuration } from './integration-rules';

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
};

/**
 * The full-page settings of the first CRM, Close (spec part 2 §2.12). A change applies at once
 * here, stamping the last sync date with now, and is then sent alone (§4); a failed update is
 * silent (§8).
 */
export function CloseSettingsView({ integration, onBack }: CloseSettingsViewProps) {
  const badge = badgeOf(integration.connection);
  const settings = integration.connection.settings;
  return (
    <div className="page integration-settings">
      <button type="button" className="button button--link integration-settings__back" onClick={onBack}>
        ← Back to Integrations
      </button>
      <header className="integration-settings__header">
        <IntegrationLogo icon={integration.icon} />
        <h1>{integration.name} Settings</h1>
        <span className={`badge integration-badge integration-badge--${badge.tone}`}>{badge.label}</span>
      </header>
      {settings ? (
        <>
          {integration.connection.status === 'expired' ? (
            <p className="alert alert--warning">
              Close no longer accepts the API key Parlance holds, so nothing syncs. Reconnect Close from the integrations list; these settings are kept.
            </p>
          ) : null}
          <CloseSettingsForm initial={settings} />
        </>
      ) : (
        <p>Close is not connected. Connect it from the integrations list to choose its settings.</p>
      )}
    </div>
  );
}

function CloseSettingsForm({ initial }: { initial: CloseSettings }) {
  const id = useId();
  const [settings, setSettings] = useState(initial);
  const [durationText, setDurationText] = useState(String(initial.minCallDuration));
  const [update] = useUpdateCloseSettingsMutation();
  const statuses = useListCloseLeadStatusesQuery();

  const apply = (change: SettingsChange) => {
    setSettings((current) => ({ ...current, ...change, lastSyncDate: new Date().toISOString() }));
    // §8: a failed settings update is silent; the change stays on screen.
    void update({ body: change });
  };

  const commitDuration = () => {
    const seconds = parseMinCallDuration(durationText);
    setDurationText(String(seconds));
    if (seconds !== settings.minCallDuration) apply({ minCallDuration: seconds });
  };

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
      <section className="card integration-settings__section" aria-labelledby={`${id}-sync`}>
        <h2 id={`${id}-sync`}>Sync</h2>
        {(['syncUsersAndTeams', 'autoSync'] as const).map((flag) => (
          <SettingSwitch key={flag} id={`${id}-${flag}`} {...FLAGS[flag]} checked={settings[flag]} onChange={(checked) => apply({ [flag]: checked })} />
        ))}
        <div className="field integration-settings__duration">
          <label className="field__label" htmlFor={`${id}-duration`}>
            Minimum call duration (seconds)
          </label>
          <div className="integration-settings__duration-row">
            <input
              id={`${id}-duration`}
              className="field__input"
              type="number"
              inputMode="numeric"
              min={MIN_CALL_DURATION.min}
              max={MIN_CALL_DURATION.max}
              step={1}
              value={durationText}
              aria-describedby={`${id}-duration-hint`}
              onChange={(event) => setDurationText(event.target.value)}
              onBlur={commitDuration}
              onKeyDown={(event) => {
                if (event.key === 'Enter') commitDuration();
              }}
            />
            <output htmlFor={`${id}-duration`} className="integration-settings__approx" aria-live="polite">
              {formatApproxDuration(parseMinCallDuration(durationText))}
            </output>
          </div>
          <span id={`${id}-duration-hint`} className="field__hint">
            Calls shorter than this are not imported. From {MIN_CALL_DURATION.min} to {MIN_CALL_DURATION.max} seconds.
          </span>
        </div>
        <dl className="facts">
          <dt>Last sync</dt>
          <dd>{formatLastSync(settings.lastSyncDate)}</dd>
        </dl>
      </section>

      <section className="card integration-settings__section" aria-labelledby={`${id}-write-back`}>
        <h2 id={`${id}-write-back`}>Write back to Close</h2>
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
      </section>
    </div>
  );
}

type SettingSwitchProps = { id: string; label: string; description: string; checked: boolean; onChange: (checked: boolean) => void };

function SettingSwitch({ id, label, description, checked, onChange }: SettingSwitchProps) {
  return (
    <div className="setting-switch">
      <div className="setting-switch__text">
        <label className="setting-switch__label" htmlFor={id}>
          {label}
        </label>
        <span id={`${id}-description`} className="field__hint">
          {description}
        </span>
      </div>
      <input
        id={id}
        className="setting-switch__input"
        type="checkbox"
        role="switch"
        checked={checked}
        aria-describedby={`${id}-description`}
        onChange={(event) => onChange(event.target.checked)}
      />
    </div>
  );
}
