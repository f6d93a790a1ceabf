import { useEffect, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useAppDispatch } from '../../../app/hooks';
import { useGetCallSummaryQuery } from '../../../lib/api/gateway-api.generated';
import { toastShown } from '../../../lib/ui/toast-slice';
import { Modal } from '../../../components/modal';
import { Spinner } from '../../../components/spinner';
import type { ActivityCall } from '../activity-types';
import { ReportIssueDialog } from './report-issue-dialog';
import { ShareSummaryDialog } from './share-summary-dialog';
import { CALL_TEXTS, DIALOG_TOAST_MS, SUMMARY_MESSAGES } from './summary-rules';
import { SummaryFooter, SummaryView } from './summary-view';
import { useSummaryActions } from './use-summary-actions';
import './summary.css';

type CallSummaryDialogProps = {
  /** The call to show; the dialog is open while it is set. */
  call: ActivityCall | null;
  onClose: () => void;
};

/** Where a recorded call's audio is streamed from (with Range support, so it can seek). */
export const recordingUrl = (callId: string) => `/api/calls/${encodeURIComponent(callId)}/recording`;

/**
 * The Call Summary and Analysis dialog (spec part 2 §2.5): the transcript beside the summary,
 * the areas for improvement and every criterion's verdict with its evidence.
 */
export function CallSummaryDialog({ call, onClose }: CallSummaryDialogProps) {
  const dispatch = useAppDispatch();
  // The last call shown stays while the dialog animates closed.
  const [shown, setShown] = useState(call);
  if (call && call !== shown) setShown(call);
  const actions = useSummaryActions('call');
  const { closeSide } = actions;

  const { currentData, isError } = useGetCallSummaryQuery(shown ? { callId: shown.id } : skipToken, { refetchOnMountOrArgChange: true });

  useEffect(() => {
    if (isError) dispatch(toastShown({ kind: 'error', text: SUMMARY_MESSAGES.loadFailed, durationMs: DIALOG_TOAST_MS }));
  }, [dispatch, isError]);

  // Closing the summary closes whatever it opened.
  useEffect(() => {
    if (!call) closeSide();
  }, [call, closeSide]);

  const open = call !== null;
  const loading = currentData === undefined && !isError;
  const summary = currentData?.summary ?? '';
  const improvements = currentData?.improvements ?? [];
  const evaluation = currentData?.evaluation ?? null;

  return (
    <>
      <Modal
        open={open}
        size="wide"
        title="Call Summary and Analysis"
        onClose={onClose}
        // Forgetting the row once closed lets a reopened summary ask the server again.
        onClosed={() => setShown(null)}
        footer={
          <SummaryFooter
            improvements={improvements}
            exportDisabled={loading}
            onReport={actions.openReport}
            onShare={actions.openShare}
            onExport={() => shown && actions.exportCsv(shown.id, { summary, improvements, evaluation })}
            onClose={onClose}
          />
        }
      >
        {shown ? <CallHeading call={shown} /> : null}
        {loading ? (
          <div className="summary-loading" role="status">
            <Spinner />
            <p className="summary-empty__title">{CALL_TEXTS.loading}</p>
          </div>
        ) : (
          <SummaryView
            key={shown?.id}
            segments={currentData?.segments ?? []}
            summary={summary}
            improvements={improvements}
            evaluation={evaluation}
            recordingUrl={shown?.media === 'audio' ? recordingUrl(shown.id) : null}
            texts={CALL_TEXTS}
          />
        )}
      </Modal>
      {shown ? (
        <>
          <ShareSummaryDialog kind="call" id={shown.id} open={open && actions.side === 'share'} onClose={closeSide} />
          <ReportIssueDialog kind="call" id={shown.id} open={open && actions.side === 'report'} onClose={closeSide} />
        </>
      ) : null}
    </>
  );
}

function CallHeading({ call }: { call: ActivityCall }) {
  const date = new Date(call.audio_date);
  const when = Number.isNaN(date.getTime()) ? '' : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  const parts = [call.representativeName || call.representative, call.contactName, when].filter(Boolean);
  return <p className="summary-heading">{parts.join(' · ')}</p>;
}
