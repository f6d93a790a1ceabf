// Connecting and reconnecting Google Workspace from its card (spec part 2 §4, §7, §8): Google's
// code client gives an authorization code in a popup, the gateway exchanges it, and the page's
// notification modal says how it went.
import { useEffect } from 'react';
import { gatewayApi, useConnectGoogleWorkspaceMutation, useReconnectGoogleWorkspaceMutation, useStartGoogleWorkspaceSignInMutation } from '../../lib/api/gateway-api.generated';
import { serverMessage, type CallError } from '../../lib/api/error-message';
import { GoogleCodeError, googleCodeClient } from './google-code-client';
import { reconnectOutcome, WORKSPACE_NOT_SET_UP, workspaceSettingsOf } from './integration-rules';
import type { Notification } from './notification-modal';

/** §8: what Connect and Reconnect say when they fail, in the spec's words. */
export const WORKSPACE_MESSAGES = {
  connect: {
    failedTitle: 'Connection Failed',
    failed: 'Unable to connect your Google Workspace integration.',
    errorTitle: 'Connection Error',
    error: 'An error occurred while connecting...',
    authenticationDetail: 'Please try the connection process again.',
  },
  reconnect: {
    failedTitle: 'Reconnection Failed',
    failed: 'Unable to reconnect your Google Workspace integration.',
    errorTitle: 'Reconnection Error',
    error: 'An error occurred while reconnecting...',
    authenticationDetail: 'Please try the reconnection process again.',
  },
  failedDetail: 'Please try again or contact support if the problem persists.',
  errorDetail: 'Please check your internet connection and try again.',
  authenticationTitle: 'Authentication Error',
  authentication: 'Failed to authenticate with Google Workspace.',
  connectedTitle: 'Connection Successful',
  connected: 'Google Workspace is connected.',
  connectedDetail: 'Choose the Drive folder of your Meet transcripts in its Settings.',
  reconnectedTitle: 'Reconnection Successful!',
  chooseFolder: 'Choose a new folder',
} as const;

/** The call never reached the gateway, or took too long: a network failure rather than a refusal. */
const isNetworkFailure = (error: CallError) => error !== undefined && 'status' in error && (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR');

type WorkspaceConnectOptions = {
  /** The card offers Connect or Reconnect (not connected, or expired): Google's script is loaded ahead. */
  needed: boolean;
  notify: (notification: Notification) => void;
  /** Opens Workspace's settings view, where a new Drive folder is chosen. */
  onChooseFolder: () => void;
};

/**
 * Workspace's Connect and Reconnect. `unavailable` says why they cannot be used on this server
 * (the web config names no Google client id), null when they can or while the config loads.
 * `connect` resolves once the outcome has been notified.
 */
export function useWorkspaceConnect({ needed, notify, onChooseFolder }: WorkspaceConnectOptions) {
  const config = gatewayApi.endpoints.getWebConfig.useQuery(undefined, { refetchOnMountOrArgChange: false });
  const clientId = config.data?.googleClientId ?? null;
  const settled = config.isSuccess || config.isError;
  const [startSignIn] = useStartGoogleWorkspaceSignInMutation();
  const [connectWorkspace] = useConnectGoogleWorkspaceMutation();
  const [reconnectWorkspace] = useReconnectGoogleWorkspaceMutation();

  useEffect(() => {
    if (needed && clientId) googleCodeClient.preload();
  }, [needed, clientId]);

  const connect = async (reconnect: boolean): Promise<void> => {
    if (!clientId) return;
    const words = reconnect ? WORKSPACE_MESSAGES.reconnect : WORKSPACE_MESSAGES.connect;

    const failed = (failure: unknown) => {
      const error = failure as CallError;
      notify(
        isNetworkFailure(error)
          ? { kind: 'error', title: words.errorTitle, message: words.error, detail: WORKSPACE_MESSAGES.errorDetail }
          : { kind: 'error', title: words.failedTitle, message: words.failed, detail: serverMessage(error) ?? WORKSPACE_MESSAGES.failedDetail },
      );
    };

    // The sign-in's state, bound to this session: Google carries it back with the code, and the gateway takes it once.
    let state: string;
    try {
      ({ state } = await startSignIn().unwrap());
    } catch (failure) {
      failed(failure);
      return;
    }

    let code: string;
    try {
      code = await googleCodeClient.requestCode(clientId, state);
    } catch (failure) {
      notify(
        failure instanceof GoogleCodeError && failure.kind === 'load'
          ? { kind: 'error', title: words.errorTitle, message: words.error, detail: WORKSPACE_MESSAGES.errorDetail }
          : { kind: 'error', title: WORKSPACE_MESSAGES.authenticationTitle, message: WORKSPACE_MESSAGES.authentication, detail: words.authenticationDetail },
      );
      return;
    }

    try {
      if (!reconnect) {
        await connectWorkspace({ body: { code, state } }).unwrap();
        notify({ kind: 'success', title: WORKSPACE_MESSAGES.connectedTitle, message: WORKSPACE_MESSAGES.connected, detail: WORKSPACE_MESSAGES.connectedDetail });
        return;
      }
      const { folderStatus, integration } = await reconnectWorkspace({ body: { code, state } }).unwrap();
      const folderName = workspaceSettingsOf(integration.connection.settings)?.selectedFolder?.name ?? null;
      const outcome = reconnectOutcome(folderStatus, folderName);
      notify(
        outcome.pickFolder
          ? // A next step to take: it stays until closed rather than leaving on a timer.
            { kind: 'warning', title: WORKSPACE_MESSAGES.reconnectedTitle, message: outcome.message, autoCloseMs: null, action: { label: WORKSPACE_MESSAGES.chooseFolder, onClick: onChooseFolder } }
          : { kind: 'success', title: WORKSPACE_MESSAGES.reconnectedTitle, message: outcome.message },
      );
    } catch (failure) {
      failed(failure);
    }
  };

  return { unavailable: settled && !clientId ? WORKSPACE_NOT_SET_UP : null, connect };
}
