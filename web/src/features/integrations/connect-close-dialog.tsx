import { useId, useState } from 'react';
import { Modal } from '../../components/modal';
import { TextField } from '../../components/text-field';
import { useConnectCloseMutation, type ConnectCloseApiResponse } from '../../lib/api/gateway-api.generated';
import { errorMessage, type CallError } from '../../lib/api/error-message';

/** Shown when the connection fails and the server said nothing we can show. */
export const CONNECT_FAILED = 'Close could not be connected. Please try again.';

type ConnectCloseDialogProps = {
  open: boolean;
  /** Reconnect after Close refused the stored key: the settings are kept. */
  reconnect?: boolean;
  onClose: () => void;
  onConnected: (integration: ConnectCloseApiResponse) => void;
};

/**
 * Connect (or reconnect) Close with an API key. Close is asked whether it accepts the key before
 * anything is stored; when it refuses, or cannot be reached, the server's sentence shows here.
 */
export function ConnectCloseDialog({ open, reconnect = false, onClose, onConnected }: ConnectCloseDialogProps) {
  const formId = useId();
  const keyId = `${formId}-key`;
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [connect, { isLoading }] = useConnectCloseMutation();
  const key = apiKey.trim();

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!key || isLoading) return;
    setError(null);
    try {
      const integration = await connect({ body: { apiKey: key } }).unwrap();
      onConnected(integration);
    } catch (failure) {
      setError(errorMessage(failure as CallError, CONNECT_FAILED));
      // Back to the key (Connect was disabled while waiting, which loses focus), to correct it.
      document.getElementById(keyId)?.focus();
    }
  };

  return (
    <Modal
      open={open}
      title={reconnect ? 'Reconnect Close' : 'Connect Close'}
      onClose={onClose}
      onClosed={() => {
        setApiKey('');
        setError(null);
      }}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className="button button--primary" disabled={!key || isLoading}>
            {isLoading ? 'Connecting…' : reconnect ? 'Reconnect' : 'Connect'}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={(event) => void submit(event)} noValidate>
        <p className="connect-close__intro">
          {reconnect
            ? 'Close no longer accepts the API key Parlance holds. Enter a new key; your settings are kept.'
            : 'Parlance reads your Close calls with an API key of your Close organization.'}
        </p>
        {/* A live region: the error is read out when it appears. */}
        <div aria-live="polite">
          <TextField
            id={keyId}
            label="Close API key"
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={apiKey}
            onChange={(event) => {
              setApiKey(event.target.value);
              setError(null);
            }}
            hint="In Close, open Settings, then Developer, then API Keys, and create a new key or copy an existing one."
            error={error}
          />
        </div>
      </form>
    </Modal>
  );
}
