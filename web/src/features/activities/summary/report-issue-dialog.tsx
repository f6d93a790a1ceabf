import { useId, useState } from 'react';
import { useSendCallFeedbackMutation, useSendMeetingFeedbackMutation } from '../../../lib/api/gateway-api.generated';
import { errorMessage, type CallError } from '../../../lib/api/error-message';
import { Modal } from '../../../components/modal';
import { Spinner } from '../../../components/spinner';
import type { ActivityKind } from '../activity-ids';
import { useActivityToast } from '../activity-toast';
import { FEEDBACK_MAX_LENGTH, FEEDBACK_WARN_LENGTH, feedbackProblem, SUMMARY_MESSAGES } from './summary-rules';

type ReportIssueDialogProps = {
  kind: ActivityKind;
  /** The call or meeting the report is about. */
  id: string;
  open: boolean;
  onClose: () => void;
};

/**
 * Spec part 2 §2.7: a free-text description of what is wrong with a summary, at most 1000
 * characters; the counter warns above 900. Submit waits for something besides spaces.
 */
export function ReportIssueDialog({ kind, id, open, onClose }: ReportIssueDialogProps) {
  const toast = useActivityToast();
  const fieldId = useId();
  const [description, setDescription] = useState('');
  const [sendCallFeedback, sendingCall] = useSendCallFeedbackMutation();
  const [sendMeetingFeedback, sendingMeeting] = useSendMeetingFeedbackMutation();
  const busy = sendingCall.isLoading || sendingMeeting.isLoading;
  const problem = feedbackProblem(description);
  const warn = description.length > FEEDBACK_WARN_LENGTH;

  const submit = async () => {
    if (problem || busy) return;
    try {
      const request = { id, body: { description: description.trim() } };
      const answer = await (kind === 'call' ? sendCallFeedback(request) : sendMeetingFeedback(request)).unwrap();
      // The generated client resolves any 2xx; an answer that says it did not succeed is the
      // spec's "status other than 200".
      if (answer.success === false) {
        toast({ kind: 'error', text: SUMMARY_MESSAGES.feedbackNotOk });
        return;
      }
      toast({ kind: 'success', text: answer.message || SUMMARY_MESSAGES.feedbackSent });
      onClose();
    } catch (error) {
      toast({ kind: 'error', text: errorMessage(error as CallError, SUMMARY_MESSAGES.feedbackFailed[kind]) });
    }
  };

  const footer = (
    <div className="button-row">
      <button type="button" className="button" onClick={onClose}>
        Cancel
      </button>
      <button type="button" className="button button--primary" disabled={problem !== null || busy} onClick={() => void submit()}>
        {busy ? (
          <>
            <Spinner /> Submitting...
          </>
        ) : (
          'Submit'
        )}
      </button>
    </div>
  );

  return (
    <Modal open={open} title="Report Issue" onClose={onClose} onClosed={() => setDescription('')} footer={footer}>
      <div className="field">
        <label className="field__label" htmlFor={fieldId}>
          Describe the issue
        </label>
        <textarea
          id={fieldId}
          className="field__input summary-report__description"
          rows={6}
          maxLength={FEEDBACK_MAX_LENGTH}
          value={description}
          placeholder={`What is wrong with this ${kind} summary?`}
          aria-invalid={problem === 'too-long' ? true : undefined}
          aria-describedby={`${fieldId}-counter`}
          onChange={(event) => setDescription(event.target.value.slice(0, FEEDBACK_MAX_LENGTH))}
        />
        <span
          id={`${fieldId}-counter`}
          className={`summary-report__counter${warn ? ' summary-report__counter--warn' : ''}`}
          aria-live={warn ? 'polite' : undefined}
        >
          {description.length}/{FEEDBACK_MAX_LENGTH}
        </span>
        {problem === 'too-long' ? <span className="field__error">{SUMMARY_MESSAGES.feedbackTooLong}</span> : null}
      </div>
    </Modal>
  );
}
