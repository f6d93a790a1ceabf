import { useId } from 'react';
import type { Integration } from '../../lib/api/gateway-api.generated';
import { IntegrationLogo } from './integration-logo';
import { badgeOf, CONNECTABLE_INTEGRATIONS, connectedByName, formatConnectionDay, formatDateTime, notAvailableYet } from './integration-rules';

type IntegrationCardProps = {
  integration: Integration;
  onConnect: () => void;
  onSettings: () => void;
  onDisconnect: () => void;
  /** Connect (or Reconnect) is on its way, e.g. fetching HubSpot's consent page: the button says so and waits. */
  connecting?: boolean;
  /**
   * Why Connect (and Reconnect) cannot be used on this server, e.g. Google Workspace without a
   * Google client id: the button is disabled and this is said under it. Null when it can.
   */
  connectUnavailable?: string | null;
};

/**
 * One integration (spec part 2 §2.12): its logo, name, badge and description, who connected it
 * and when, the last sync's failure, and Connect, or Settings and Disconnect (Reconnect as well
 * when the vendor refused the stored credentials). An integration this version cannot connect yet,
 * or this server cannot (connectUnavailable), says so under a disabled Connect.
 */
export function IntegrationCard({ integration, onConnect, onSettings, onDisconnect, connecting = false, connectUnavailable = null }: IntegrationCardProps) {
  const id = useId();
  const { connection } = integration;
  const badge = badgeOf(connection);
  const connectable = CONNECTABLE_INTEGRATIONS.includes(integration.id);
  const connectedOn = formatConnectionDay(connection.date);
  const errorAt = connection.lastError ? formatDateTime(connection.lastError.at) : null;
  const expired = connection.status === 'expired';
  // What is said under a Connect or Reconnect that cannot be used; null when there is none.
  const note = !connectable ? (connection.connected ? null : notAvailableYet(integration.name)) : connection.connected && !expired ? null : connectUnavailable;
  const connectButton = (label: string, working: string) => (
    <button
      type="button"
      className="button button--primary"
      disabled={connecting || note !== null}
      aria-busy={connecting || undefined}
      aria-describedby={note !== null ? `${id}-note` : undefined}
      onClick={onConnect}
    >
      {connecting ? working : label}
    </button>
  );

  return (
    <article className="card integration-card" aria-labelledby={`${id}-name`}>
      <div className="integration-card__top">
        <IntegrationLogo icon={integration.icon} />
        <span className={`badge integration-badge integration-badge--${badge.tone}`}>{badge.label}</span>
      </div>
      <h2 id={`${id}-name`} className="integration-card__name">
        {integration.name}
      </h2>
      <p className="integration-card__description">{integration.description}</p>

      {connection.connected && (connection.by || connectedOn) ? (
        <p className="integration-card__meta">
          Connected
          {connection.by ? ` by ${connectedByName(connection.by)}` : ''}
          {connectedOn ? (
            <>
              {' on '}
              <time dateTime={connection.date ?? undefined}>{connectedOn}</time>
            </>
          ) : null}
        </p>
      ) : null}

      {connection.lastError ? (
        <p className="alert integration-card__error">
          <strong>Last sync failed</strong>
          {errorAt ? (
            <>
              {' on '}
              <time dateTime={connection.lastError.at}>{errorAt}</time>
            </>
          ) : null}
          {`: ${connection.lastError.message}`}
        </p>
      ) : null}

      <div className="button-row integration-card__actions">
        {!connectable ? (
          connection.connected ? (
            <button type="button" className="button" onClick={onSettings}>
              Settings
            </button>
          ) : (
            connectButton('Connect', 'Connecting…')
          )
        ) : connection.connected ? (
          <>
            {expired ? connectButton('Reconnect', 'Reconnecting…') : null}
            <button type="button" className="button" onClick={onSettings}>
              Settings
            </button>
            <button type="button" className="button integration-card__disconnect" onClick={onDisconnect}>
              Disconnect
            </button>
          </>
        ) : (
          connectButton('Connect', 'Connecting…')
        )}
      </div>
      {note !== null ? (
        <p id={`${id}-note`} className="integration-card__note">
          {note}
        </p>
      ) : null}
    </article>
  );
}
