// The pieces every CRM's full-page settings view is built from (spec part 2 §2.12, §4, §5): the
// page with its Back button and header, a section, a setting's switch, the minimum call duration,
// Sync now with the last sync and what it did, and the write-back's state. Close's view and
// HubSpot's add only their own settings.
import { useId, useState, type ReactNode } from 'react';
import { useListIntegrationsQuery, type Integration } from '../../lib/api/gateway-api.generated';
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
  type SyncedItem,
} from './integration-rules';
import type { Notification } from './notification-modal';

/** How often the integrations are read again while a sync runs, to show when it ends and what it did. */
export const SYNC_POLL_MS = 2000;
/** Shown when Sync now fails and the server said nothing we can show. */
export const SYNC_NOT_STARTED = 'The sync could not be started. Please try again.';

/** The settings view's way back to the cards. */
export function BackToIntegrations({ onBack }: { onBack: () => void }) {
  return (
    <button type="button" className="button button--link integration-settings__back" onClick={onBack}>
      ← Back to Integrations
    </button>
  );
}

type IntegrationSettingsPageProps = { integration: Integration; onBack: () => void; children: ReactNode };

/** The settings view's page: Back, then the integration's logo, '{name} Settings' and its badge. */
export function IntegrationSettingsPage({ integration, onBack, children }: IntegrationSettingsPageProps) {
  const badge = badgeOf(integration.connection);
  return (
    <div className="page integration-settings">
      <BackToIntegrations onBack={onBack} />
      <header className="integration-settings__header">
        <IntegrationLogo icon={integration.icon} />
        <h1>{integration.name} Settings</h1>
        <span className={`badge integration-badge integration-badge--${badge.tone}`}>{badge.label}</span>
      </header>
      {children}
    </div>
  );
}

/** A titled card of settings, named by its title (a region). */
export function SettingsSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="card integration-settings__section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * Settings that change at once (§4): `apply` shows the change, stamps the last sync date with
 * now, and then sends the change alone through `send`. A failed update is silent (§8): the change
 * stays on screen. `initial` is the settings as last read from the server; the last sync date is
 * the later of its own and the last change's, so a sync ending later shows its own.
 */
export function useAppliedSettings<Settings extends { lastSyncDate: string | null }, Change extends Partial<Settings>>(
  initial: Settings,
  send: (change: Change) => unknown,
) {
  const [settings, setSettings] = useState(initial);
  const [changedAt, setChangedAt] = useState<string | null>(null);
  const apply = (change: Change) => {
    setSettings((current) => ({ ...current, ...change }));
    setChangedAt(new Date().toISOString());
    void send(change);
  };
  return { settings, lastSyncDate: laterOf(initial.lastSyncDate, changedAt), apply };
}

/** The later of two times (ISO), either of which may be missing. */
function laterOf(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

type SettingSwitchProps = { id: string; label: string; description: string; checked: boolean; onChange: (checked: boolean) => void };

/** A setting that is on or off: its label and description, and the switch at the end of the row. */
export function SettingSwitch({ id, label, description, checked, onChange }: SettingSwitchProps) {
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

type MinCallDurationFieldProps = {
  /** The stored minimum, in seconds. */
  value: number;
  /** Called with the seconds read from the field when they differ from `value`. */
  onChange: (seconds: number) => void;
  /** What a shorter one is not imported: calls (the CRMs), or meetings (Google Workspace). */
  item?: SyncedItem;
};

/**
 * The minimum call duration (§5, §9): whole seconds from 0 to 3600, the approximate minutes and
 * seconds beside it. What is typed is read when the field is left or Enter is pressed:
 * non-numeric input becomes 0 and out of range is clamped; an unchanged value sends nothing.
 */
export function MinCallDurationField({ value, onChange, item = 'call' }: MinCallDurationFieldProps) {
  const id = useId();
  const [text, setText] = useState(String(value));

  const commit = () => {
    const seconds = parseMinCallDuration(text);
    setText(String(seconds));
    if (seconds !== value) onChange(seconds);
  };

  return (
    <div className="field integration-settings__duration">
      <label className="field__label" htmlFor={id}>
        Minimum call duration (seconds)
      </label>
      <div className="integration-settings__duration-row">
        <input
          id={id}
          className="field__input"
          type="number"
          inputMode="numeric"
          min={MIN_CALL_DURATION.min}
          max={MIN_CALL_DURATION.max}
          step={1}
          value={text}
          aria-describedby={`${id}-hint`}
          onChange={(event) => setText(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit();
          }}
        />
        <output htmlFor={id} className="integration-settings__approx" aria-live="polite">
          {formatApproxDuration(parseMinCallDuration(text))}
        </output>
      </div>
      <span id={`${id}-hint`} className="field__hint">
        {item === 'meeting' ? 'Meetings' : 'Calls'} shorter than this are not imported. From {MIN_CALL_DURATION.min} to {MIN_CALL_DURATION.max} seconds.
      </span>
    </div>
  );
}

type SyncStateProps = {
  connection: Connection;
  /** The last sync date on screen (a settings change stamps it too). */
  lastSyncDate: string | null;
  /** The integration's Sync now call (a mutation's trigger): 202 with the server's message. */
  startSync: () => { unwrap: () => Promise<{ message: string }> };
  /** The Sync now call is on its way. */
  starting: boolean;
  /** Opens the page's notification modal (Sync now's answer). */
  notify: (notification: Notification) => void;
  /** What a sync imports, as the last run's summary names it: calls (the CRMs) or meetings (Google Workspace). */
  item?: SyncedItem;
  /** Why Sync now cannot be used yet (e.g. no Drive folder chosen): it is disabled and this is said under it. */
  unavailable?: string | null;
};

/**
 * Last sync, Sync now, what the last run did and the last sync's error. While a sync runs (the
 * server says so, or one was just started and no later reading has said it ended), the
 * integrations are read again every SYNC_POLL_MS; the polling stops when it ends or on unmount.
 */
export function SyncState({ connection, lastSyncDate, startSync, starting, notify, item = 'call', unavailable = null }: SyncStateProps) {
  const id = useId();
  // When a sync this view started was asked for; null once a reading after it says none runs.
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const { running, lastRun } = connection.sync;
  const { fulfilledTimeStamp } = useListIntegrationsQuery(undefined, { pollingInterval: running || startedAt !== null ? SYNC_POLL_MS : 0 });
  if (startedAt !== null && !running && fulfilledTimeStamp !== undefined && fulfilledTimeStamp > startedAt) setStartedAt(null);

  const syncing = running || starting || startedAt !== null;
  const lastError = connection.lastError;
  const summary = formatLastRun(lastRun, item);

  const start = async () => {
    const askedAt = Date.now();
    try {
      const { message } = await startSync().unwrap();
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
        <button
          type="button"
          className="button integration-settings__sync-now"
          disabled={syncing || unavailable !== null}
          aria-describedby={unavailable !== null ? `${id}-unavailable` : undefined}
          onClick={() => void start()}
        >
          {syncing ? 'Syncing…' : 'Sync now'}
        </button>
      </div>
      {unavailable !== null ? (
        <p id={`${id}-unavailable`} className="field__hint integration-settings__sync-hint">
          {unavailable}
        </p>
      ) : null}
      <p className="field__hint integration-settings__last-run" role="status">
        {summary}
      </p>
      {lastError ? <TimedAlert label="Sync error" error={lastError} /> : null}
    </div>
  );
}

/** When scores were last written back, how many wait, and the last write given up with its time. */
export function WritebackState({ writeback }: { writeback: Connection['writeback'] }) {
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
