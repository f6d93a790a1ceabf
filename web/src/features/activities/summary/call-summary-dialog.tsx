import { useEffect } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useGetCallSummaryQuery } from '../../../lib/api/gateway-api.generated';
import { Spinner } from '../../../components/spinner';
import { useActivityToast } from '../activity-toast';
import type { ActivityCall } from '../activity-types';
import { SummaryDialogFrame, SummaryHeading, useShownRow } from './summary-dialog-frame';
import { CALL_TEXTS, SUMMARY_MESSAGES } from './summary-rules';
import { SummaryView } from './summary-view';

type CallSummaryDialogProps = {
  /** The call to show; the dialog is open while it is set. */
  call: ActivityCall | null;
  onClose: () => void;
};

/** Where a recorded call's audio is streamed from (with Range support, so it can seek). */
const recordingUrl = (callId: string) => `/api/calls/${encodeURIComponent(callId)}/recording`;

/**
 * The Call Summary and Analysis dialog (spec part 2 §2.5): the transcript beside the summary,
 * the areas for improvement and every criterion's verdict with its evidence.
 */
export function CallSummaryDialog({ call, onClose }: CallSummaryDialogProps) {
  const toast = useActivityToast();
  const { shown, forget } = useShownRow(call);
  const { currentData, isError } = useGetCallSummaryQuery(shown ? { callId: shown.id } : skipToken, { refetchOnMountOrArgChange: true });

  useEffect(() => {
    if (isError) toast({ kind: 'error', text: SUMMARY_MESSAGES.loadFailed });
  }, [toast, isError]);

  const loading = currentData === undefined && !isError;
  const content = { summary: currentData?.summary ?? '', improvements: currentData?.improvements ?? [], evaluation: currentData?.evaluation ?? null };

  return (
    <SummaryDialogFrame
      kind="call"
      title="Call Summary and Analysis"
      id={shown?.id}
      open={call !== null}
      onClose={onClose}
      onClosed={forget}
      content={content}
      exportDisabled={loading}
    >
      {shown ? <SummaryHeading parts={[shown.representativeName || shown.representative, shown.contactName]} date={shown.audio_date} /> : null}
      {loading ? (
        <div className="summary-loading" role="status">
          <Spinner />
          <p className="summary-empty__title">{CALL_TEXTS.loading}</p>
        </div>
      ) : (
        <SummaryView
          key={shown?.id}
          segments={currentData?.segments ?? []}
          {...content}
          recordingUrl={shown?.media === 'audio' ? recordingUrl(shown.id) : null}
          texts={CALL_TEXTS}
        />
      )}
    </SummaryDialogFrame>
  );
}
