import { useEffect, useState, type ComponentType } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
import { Modal } from '../../components/modal';
import { PageLoading } from '../../components/page-loading';
import {
  gatewayApi,
  useDisconnectCloseMutation,
  useDisconnectGoogleWorkspaceMutation,
  useDisconnectHubSpotMutation,
  useListIntegrationsQuery,
  type Integration,
} from '../../lib/api/gateway-api.generated';
import { errorMessage, serverMessage } from '../../lib/api/error-message';
import { browserLocation } from './browser-location';
import { CloseSettingsView } from './close-settings-view';
import { ConnectCloseDialog } from './connect-close-dialog';
import { HubSpotSettingsView } from './hubspot-settings-view';
import { RequestIntegrationDialog } from './request-integration-dialog';
import { IntegrationCard } from './integration-card';
import { INTEGRATIONS_WITH_SETTINGS, settingsUnavailable } from './integration-rules';
import { BackToIntegrations } from './integration-settings-parts';
import { NotificationModal, type Notification } from './notification-modal';
import { useWorkspaceConnect } from './workspace-connect';
import { WorkspaceSettingsView } from './workspace-settings-view';
import './integrations.css';

/** Spec part 2 §8: the integration list could not be loaded. */
export const LOADING_ERROR = 'Loading Error';
export const LOAD_FAILED = 'Failed to load integrations.';
export const LOAD_FAILED_UNKNOWN = 'An unknown error occurred while fetching integration data.';
/** Spec part 2 §4: asked before an integration is disconnected. */
export const DISCONNECT_QUESTION = 'Are you sure you want to disconnect this integration?';
/** Shown when HubSpot's consent page could not be had and the server said nothing we can show. */
export const HUBSPOT_CONNECT_FAILED = 'Unable to connect your HubSpot integration. Please try again.';

/** What Disconnect says once done, by integration. */
const DISCONNECTED: Record<string, string> = {
  'close-crm': 'Close is disconnected. Parlance no longer holds its API key.',
  'hubspot-crm': 'HubSpot is disconnected. Parlance no longer holds its access to HubSpot.',
  'google-workspace': 'Google Workspace is disconnected. Parlance no longer holds its access to your Google account.',
};

/** The search parameter that opens an integration's settings view: /integrations?settings=close-crm. */
const SETTINGS_PARAM = 'settings';

/** Router state of a settings view opened from the list: Back then returns to it through history. */
type FromList = { fromList?: boolean } | null;

/**
 * /integrations (spec part 2 §2.12): the integrations as cards, and the full-page settings view of
 * one of them (?settings=<id>, so the browser's Back returns to the cards).
 */
export function IntegrationsPage() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { data, isLoading, isError, error, refetch } = useListIntegrationsQuery();
  const [notification, setNotification] = useState<Notification | null>(null);

  useEffect(() => {
    if (!isError) return;
    setNotification({ kind: 'error', title: LOADING_ERROR, message: LOAD_FAILED, detail: serverMessage(error) ?? LOAD_FAILED_UNKNOWN });
  }, [isError, error]);

  const settingsId = params.get(SETTINGS_PARAM);
  const openSettings = (id: string) => setParams({ [SETTINGS_PARAM]: id }, { state: { fromList: true } });
  const backToList = () => {
    if ((location.state as FromList)?.fromList) void navigate(-1);
    else setParams({}, { replace: true });
  };

  const notificationModal = <NotificationModal notification={notification} onClose={() => setNotification(null)} />;

  if (isLoading) return <PageLoading label="Loading integrations" />;

  if (settingsId !== null && data) {
    return (
      <>
        <SettingsView id={settingsId} integrations={data} onBack={backToList} notify={setNotification} />
        {notificationModal}
      </>
    );
  }

  return (
    <div className="page integrations-page">
      <header className="integrations-page__header">
        <h1>Integrations</h1>
        <p className="integrations-page__lead">Connect your CRM and workspace so calls and meetings reach Parlance by themselves.</p>
      </header>
      {data ? (
        <IntegrationGrid integrations={data} onSettings={openSettings} notify={setNotification} />
      ) : isError ? (
        <div className="integrations-page__failed">
          <p>The integrations could not be loaded.</p>
          <button type="button" className="button" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      ) : null}
      {notificationModal}
    </div>
  );
}

type SettingsViewProps = { id: string; integrations: Integration[]; onBack: () => void; notify: (notification: Notification) => void };
type IntegrationSettingsViewProps = { integration: Integration; onBack: () => void; notify: (notification: Notification) => void };

/** The full-page settings views there are (§2.12), by integration. */
const SETTINGS_VIEWS: Partial<Record<Integration['id'], ComponentType<IntegrationSettingsViewProps>>> = {
  'close-crm': CloseSettingsView,
  'hubspot-crm': HubSpotSettingsView,
  'google-workspace': WorkspaceSettingsView,
};

/** The settings of integration `id`, or the sentence saying it has none yet (§2.12, §8). */
function SettingsView({ id, integrations, onBack, notify }: SettingsViewProps) {
  const integration = integrations.find((candidate) => candidate.id === id);
  const View = integration && INTEGRATIONS_WITH_SETTINGS.includes(integration.id) ? SETTINGS_VIEWS[integration.id] : undefined;
  if (integration && View) return <View key={integration.id} integration={integration} onBack={onBack} notify={notify} />;
  return (
    <div className="page integration-settings">
      <BackToIntegrations onBack={onBack} />
      <p className="integration-settings__unavailable">{settingsUnavailable(integration?.name ?? id)}</p>
    </div>
  );
}

type IntegrationGridProps = {
  integrations: Integration[];
  onSettings: (id: string) => void;
  notify: (notification: Notification) => void;
};

function IntegrationGrid({ integrations, onSettings, notify }: IntegrationGridProps) {
  const dispatch = useAppDispatch();
  const [connectOpen, setConnectOpen] = useState(false);
  const [reconnecting, setReconnecting] = useState(false);
  // The integration connecting through its vendor (HubSpot's consent page, Google's popup); null when none is.
  const [connectingId, setConnectingId] = useState<Integration['id'] | null>(null);
  const [disconnectOpen, setDisconnectOpen] = useState(false);
  // The integration Disconnect asks about; kept while the question fades out.
  const [disconnectId, setDisconnectId] = useState<Integration['id']>('close-crm');
  const [requestOpen, setRequestOpen] = useState(false);
  const [disconnectClose, { isLoading: disconnectingClose }] = useDisconnectCloseMutation();
  const [disconnectHubSpot, { isLoading: disconnectingHubSpot }] = useDisconnectHubSpotMutation();
  const [disconnectWorkspace, { isLoading: disconnectingWorkspace }] = useDisconnectGoogleWorkspaceMutation();
  const disconnecting = disconnectingClose || disconnectingHubSpot || disconnectingWorkspace;
  const workspaceConnection = integrations.find((integration) => integration.id === 'google-workspace')?.connection;
  const workspace = useWorkspaceConnect({
    needed: workspaceConnection !== undefined && (!workspaceConnection.connected || workspaceConnection.status === 'expired'),
    notify,
    onChooseFolder: () => onSettings('google-workspace'),
  });
  const disconnectName = integrations.find((integration) => integration.id === disconnectId)?.name ?? disconnectId;

  // Back from HubSpot's consent page to this page as the browser kept it: Connect is ready again.
  useEffect(() => {
    const shown = (event: PageTransitionEvent) => {
      if (event.persisted) setConnectingId(null);
    };
    window.addEventListener('pageshow', shown);
    return () => window.removeEventListener('pageshow', shown);
  }, []);

  /** HubSpot connects through its consent page (§7): ask for its URL, then send the browser there. */
  const connectHubSpot = async (reconnect: boolean) => {
    setConnectingId('hubspot-crm');
    const answer = await dispatch(gatewayApi.endpoints.startHubSpotOAuth.initiate(undefined, { subscribe: false, forceRefetch: true }));
    if (answer.data?.url) {
      // The button keeps saying it is working while the browser leaves.
      browserLocation.assign(answer.data.url);
      return;
    }
    setConnectingId(null);
    notify({ kind: 'error', title: reconnect ? 'Reconnection Failed' : 'Connection Failed', message: errorMessage(answer.error, HUBSPOT_CONNECT_FAILED) });
  };

  /** Google Workspace connects through Google's popup (§4): the code it gives is sent to the gateway. */
  const connectWorkspace = async (reconnect: boolean) => {
    setConnectingId('google-workspace');
    try {
      await workspace.connect(reconnect);
    } finally {
      setConnectingId(null);
    }
  };

  const connect = (integration: Integration) => {
    const reconnect = integration.connection.status === 'expired';
    if (integration.id === 'hubspot-crm') {
      void connectHubSpot(reconnect);
      return;
    }
    if (integration.id === 'google-workspace') {
      void connectWorkspace(reconnect);
      return;
    }
    setReconnecting(reconnect);
    setConnectOpen(true);
  };

  const confirmDisconnect = async () => {
    try {
      const disconnect = { 'close-crm': disconnectClose, 'hubspot-crm': disconnectHubSpot, 'google-workspace': disconnectWorkspace }[disconnectId];
      await disconnect().unwrap();
      setDisconnectOpen(false);
      notify({ kind: 'success', title: 'Disconnected', message: DISCONNECTED[disconnectId] ?? `${disconnectName} is disconnected.` });
    } catch {
      // §8: a failed disconnect is silent; the card still shows the connection.
      setDisconnectOpen(false);
    }
  };

  return (
    <>
      <ul className="integrations-grid">
        {integrations.map((integration) => (
          <li key={integration.id} className="integrations-grid__item">
            <IntegrationCard
              integration={integration}
              connecting={connectingId === integration.id}
              connectUnavailable={integration.id === 'google-workspace' ? workspace.unavailable : null}
              onConnect={() => connect(integration)}
              onSettings={() => onSettings(integration.id)}
              onDisconnect={() => {
                setDisconnectId(integration.id);
                setDisconnectOpen(true);
              }}
            />
          </li>
        ))}
        <li className="integrations-grid__item">
          <article className="integration-request" aria-labelledby="integration-request-title">
            <h2 id="integration-request-title" className="integration-card__name">
              Need another integration?
            </h2>
            <p className="integration-card__description">Tell us which CRM or workspace your team works in.</p>
            <button type="button" className="button" onClick={() => setRequestOpen(true)}>
              Request Integration
            </button>
          </article>
        </li>
      </ul>

      <ConnectCloseDialog
        open={connectOpen}
        reconnect={reconnecting}
        onClose={() => setConnectOpen(false)}
        onConnected={() => {
          setConnectOpen(false);
          notify(
            reconnecting
              ? { kind: 'success', title: 'Reconnection Successful!', message: 'Close is connected again, and your settings are kept.' }
              : { kind: 'success', title: 'Connection Successful', message: 'Close is connected.', detail: 'Choose what Parlance imports and writes back in its Settings.' },
          );
        }}
      />

      <Modal
        open={disconnectOpen}
        title={`Disconnect ${disconnectName}`}
        onClose={() => setDisconnectOpen(false)}
        footer={
          <>
            <button type="button" className="button" onClick={() => setDisconnectOpen(false)}>
              Cancel
            </button>
            <button type="button" className="button button--danger" disabled={disconnecting} onClick={() => void confirmDisconnect()}>
              Disconnect
            </button>
          </>
        }
      >
        <p>{DISCONNECT_QUESTION}</p>
      </Modal>

      <RequestIntegrationDialog
        open={requestOpen}
        onClose={() => setRequestOpen(false)}
        onRequested={(message) => {
          setRequestOpen(false);
          notify({ kind: 'success', title: 'Request sent', message });
        }}
      />
    </>
  );
}
