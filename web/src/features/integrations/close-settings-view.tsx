import { useId, useState } from 'react';
import {
  useListCloseLeadStatusesQuery,
  useListIntegrationsQuery,
  useSyncCloseMutation,
  useUpdateCloseSettingsMutation,
  type CloseSettings,
  type Integration,
  type UpdateCloseSettingsApiArg,
} from '../../lib/api/gateway-api.generated';
import { errorMessage, type CallError } from '../../lib/api/error-message';
import { IntegrationLogo } from './integration-logo';
import {
  badgeOf,
  formatApproxDuration,
  formatDateTime,
  formatLastRun,
  formatLastSync,
  formatWriteback,
  MIN_CALL_DURATION,
  parseMinCallDuration,
  type Connection,
} from './integration-rules';
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

/** How often the integrations are read again while a sync runs, to show when it ends and what it did. */
export const SYNC_POLL_MS = 2000;
/** Shown when Sync now fails and the server said nothing we can show. */
export const SYNC_NOT_STARTED = 'The sync could not be started. Please try again.';

type CloseSettingsViewProps = {
  integration: Integration;
  onBack: () => void;
  /** Opens the page's notification modal (Sync now's answer). */
  notify: (notification: Notification) => void;
};

/**
 * The full-page settings of the first CRM, Close (spec part 2 §2.12). A change applies at once
 * here, stamping the last sync date with now, and is then sent alone (§4); a failed update is
 * silent (§8). Sync now starts a sync; while one runs the integrations are read again every
 * SYNC_POLL_MS, so the last sync date, what the last run did and its error follow it.
 */
export function CloseSettingsView({ integration, onBack, notify }: CloseSettingsViewProps) {
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
          <CloseSettingsForm initial={settings} connection={integration.connection} notify={notify} />
        </>
      ) : (
        <p>Close is not connected. Connect it from the integrations list to choose its settings.</p>
      )}
    </div>
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
  const [settings, setSettings] = useState(initial);
  // §4: a change stamps the last sync date with now; a sync ending later (a reload) shows its own.
  const [changedAt, setChangedAt] = useState<string | null>(null);
  const lastSyncDate = laterOf(initial.lastSyncDate, changedAt);
  const [durationText, setDurationText] = useState(String(initial.minCallDuration));
  const [update] = useUpdateCloseSettingsMutation();
  const statuses = useListCloseLeadStatusesQuery();

  const apply = (change: SettingsChange) => {
    setSettings((current) => ({ ...current, ...change }));
    setChangedAt(new Date().toISOString());
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
        <CloseSync connection={connection} lastSyncDate={lastSyncDate} notify={notify} />
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
        <WritebackState writeback={connection.writeback} />
      </section>
    </div>
  );
}

/** The later of two times (ISO), either of which may be missing. */
function laterOf(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

type CloseSyncProps = {
  connection: Connection;
  /** The last sync date on screen (a settings change stamps it too). */
  lastSyncDate: string | null;
  notify: (notification: Notification) => void;
};

/**
 * Last sync, Sync now, what the last run did and the last sync's error. While a sync runs (the
 * server says so, or one was just started and no later reading has said it ended), the
 * integrations are read again every SYNC_POLL_MS; the polling stops when it ends or on unmount.
 */
function CloseSync({ connection, lastSyncDate, notify }: CloseSyncProps) {
  const [syncNow, { isLoading: starting }] = useSyncCloseMutation();
  // When a sync this view started was asked for; null once a reading after it says none runs.
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const { running, lastRun } = connection.sync;
  const { fulfilledTimeStamp } = useListIntegrationsQuery(undefined, { pollingInterval: running || startedAt !== null ? SYNC_POLL_MS : 0 });
  if (startedAt !== null && !running && fulfilledTimeStamp !== undefined && fulfilledTimeStamp > startedAt) setStartedAt(null);

  const syncing = running || starting || startedAt !== null;
  const lastError = connection.lastError;
  const summary = formatLastRun(lastRun);

  const start = async () => {
    const askedAt = Date.now();
    try {
      const { message } = await syncNow().unwrap();
      setStartedAt(askedAt);
      notify({ kind: 'info', title: 'Sync started', message });
    } catch (failure) {
      notify({ kind: 'error', title: 'Sync not started', message: errorMessage(failure as CallError, SYNC_NOT_STARTED) });
    }
  };

  return (
    <div className="integration-settings__sync">
      <div className="integration-settings__last-sync">
        <dl className="facts">
          <dt>Last sync</dt>
          <dd>{formatLastSync(lastSyncDate)}</dd>
        </dl>
        <button type="button" className="button integration-settings__sync-now" disabled={syncing} onClick={() => void start()}>
          {syncing ? 'Syncing…' : 'Sync now'}
        </button>
      </div>
      <p className="field__hint integration-settings__last-run" role="status">
        {summary}
      </p>
      {lastError ? <TimedAlert label="Sync error" error={lastError} /> : null}
    </div>
  );
}

/** When scores were last written back, how many wait, and the last write given up with its time. */
function WritebackState({ writeback }: { writeback: Connection['writeback'] }) {
  const lastError = writeback.lastError;
  return (
    <div className="integration-settings__writeback">
      <p className="field__hint" role="status">
        {formatWriteback(writeback)}
      </p>
      {lastError ? <TimedAlert label="Write-back error" error={lastError} /> : null}
    </div>
  );
}

/** A failure with its time: the last sync's, or the last write-back's. */
function TimedAlert({ label, error }: { label: string; error: { message: string; at: string } }) {
  const at = formatDateTime(error.at);
  return (
    <p className="alert integration-settings__error">
      <span className="visually-hidden">{`${label}: `}</span>
      {at ? (
        <>
          <time dateTime={error.at}>{at}</time>
          {' — '}
        </>
      ) : null}
      {error.message}
    </p>
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
