import { useId, useState } from 'react';
import { Modal } from '../../components/modal';
import { TextField } from '../../components/text-field';
import { useRequestIntegrationMutation } from '../../lib/api/gateway-api.generated';
import { errorMessage, type CallError } from '../../lib/api/error-message';

/** Shown when the request fails and the server said nothing we can show. */
export const REQUEST_FAILED = 'Your request could not be sent. Please try again.';

type RequestIntegrationDialogProps = {
  open: boolean;
  onClose: () => void;
  /** The server's thanks, once the request is stored. */
  onRequested: (message: string) => void;
};

/**
 * 'Need another integration?': the system wanted and what for. The request is stored and e-mailed
 * to the Parlance team; a refusal (no name, too long) shows here.
 */
export function RequestIntegrationDialog({ open, onClose, onRequested }: RequestIntegrationDialogProps) {
  const formId = useId();
  const [integrationName, setIntegrationName] = useState('');
  const [details, setDetails] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [request, { isLoading }] = useRequestIntegrationMutation();
  const name = integrationName.trim();

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!name || isLoading) return;
    setError(null);
    try {
      const { message } = await request({ body: { integrationName: name, details: details.trim() } }).unwrap();
      onRequested(message);
    } catch (failure) {
      setError(errorMessage(failure as CallError, REQUEST_FAILED));
    }
  };

  return (
    <Modal
      open={open}
      title="Request Integration"
      onClose={onClose}
      onClosed={() => {
        setIntegrationName('');
        setDetails('');
        setError(null);
      }}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className="button button--primary" disabled={!name || isLoading}>
            {isLoading ? 'Sending…' : 'Send request'}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={(event) => void submit(event)} noValidate>
        <div aria-live="polite">
          <TextField
            id={`${formId}-name`}
            label="Integration"
            placeholder="e.g. Salesforce"
            maxLength={200}
            value={integrationName}
            onChange={(event) => {
              setIntegrationName(event.target.value);
              setError(null);
            }}
            error={error}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${formId}-details`}>
            What would you use it for? (optional)
          </label>
          <textarea id={`${formId}-details`} className="field__input" rows={4} maxLength={2000} value={details} onChange={(event) => setDetails(event.target.value)} />
        </div>
      </form>
    </Modal>
  );
}
