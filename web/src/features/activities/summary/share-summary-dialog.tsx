import { useId, useState } from 'react';
import { useShareCallMutation, useShareMeetingMutation } from '../../../lib/api/gateway-api.generated';
import { errorMessage, sentenceInBody, type CallError } from '../../../lib/api/error-message';
import { Modal } from '../../../components/modal';
import { Spinner } from '../../../components/spinner';
import { TextField } from '../../../components/text-field';
import type { ActivityKind } from '../activity-ids';
import { useActivityToast } from '../activity-toast';
import { isValidEmail, SUMMARY_MESSAGES } from './summary-rules';

type ShareSummaryDialogProps = {
  kind: ActivityKind;
  /** The call or meeting whose summary is shared. */
  id: string;
  open: boolean;
  onClose: () => void;
};

/**
 * Spec part 2 §2.6: sends the summary to one e-mail address. Send is disabled while the address
 * is empty, invalid or on its way; Enter sends too.
 */
export function ShareSummaryDialog({ kind, id, open, onClose }: ShareSummaryDialogProps) {
  const toast = useActivityToast();
  const formId = useId();
  const [email, setEmail] = useState('');
  const [checked, setChecked] = useState(false);
  const [shareCall, sharingCall] = useShareCallMutation();
  const [shareMeeting, sharingMeeting] = useShareMeetingMutation();
  const busy = sharingCall.isLoading || sharingMeeting.isLoading;
  const address = email.trim();
  const valid = isValidEmail(address);
  const fallback = SUMMARY_MESSAGES.shareFailed[kind];

  const send = async () => {
    setChecked(true);
    if (!valid || busy) return;
    try {
      const request = { id, body: { email: address } };
      const answer = await (kind === 'call' ? shareCall(request) : shareMeeting(request)).unwrap();
      if (answer.success === false) {
        toast({ kind: 'error', text: sentenceInBody({ error: (answer as { error?: unknown }).error }) ?? fallback });
        return;
      }
      toast({ kind: 'success', text: answer.message || SUMMARY_MESSAGES.shared });
      onClose();
    } catch (error) {
      toast({ kind: 'error', text: errorMessage(error as CallError, fallback) });
    }
  };

  const footer = (
    <div className="button-row">
      <button type="button" className="button" onClick={onClose}>
        Cancel
      </button>
      <button type="submit" form={formId} className="button button--primary" disabled={!valid || busy}>
        {busy ? (
          <>
            <Spinner /> Sending...
          </>
        ) : (
          'Send'
        )}
      </button>
    </div>
  );

  return (
    <Modal
      open={open}
      title="Share Summary"
      onClose={onClose}
      onClosed={() => {
        setEmail('');
        setChecked(false);
      }}
      footer={footer}
    >
      <form
        id={formId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <TextField
          id={`${formId}-email`}
          label="Recipient e-mail"
          type="email"
          autoComplete="email"
          placeholder="name@company.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          onBlur={() => setChecked(address !== '')}
          onKeyDown={(event) => {
            // Enter sends, and shows what is wrong when it cannot (a disabled Send would swallow it).
            if (event.key !== 'Enter') return;
            event.preventDefault();
            void send();
          }}
          error={checked && !valid ? SUMMARY_MESSAGES.invalidEmail : undefined}
          hint={`The ${kind} summary is sent to this address.`}
        />
      </form>
    </Modal>
  );
}
