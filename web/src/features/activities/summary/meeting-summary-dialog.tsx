import { useEffect, useMemo, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useGetMeetingSummaryQuery } from '../../../lib/api/gateway-api.generated';
import { Modal } from '../../../components/modal';
import { Spinner } from '../../../components/spinner';
import type { ActivityMeeting } from '../activity-types';
import { ReportIssueDialog } from './report-issue-dialog';
import { ShareSummaryDialog } from './share-summary-dialog';
import { segmentsFromTranscript } from './summary-model';
import { MEETING_TEXTS } from './summary-rules';
import { SummaryFooter, SummaryView } from './summary-view';
import { useSummaryActions } from './use-summary-actions';
import './summary.css';

type MeetingSummaryDialogProps = {
  /** The meeting to show; the dialog is open while it is set. */
  meeting: ActivityMeeting | null;
  onClose: () => void;
};

/**
 * The Meeting Summary & Analysis dialog (spec part 2 §2.5). The meeting row's own transcript and
 * summary show at once; the analysed segments and verdicts replace them once they arrive. A
 * failed analysis request leaves the row's content in place (spec §8 names no message for it).
 */
export function MeetingSummaryDialog({ meeting, onClose }: MeetingSummaryDialogProps) {
  const [shown, setShown] = useState(meeting);
  if (meeting && meeting !== shown) setShown(meeting);
  const actions = useSummaryActions('meeting');
  const { closeSide } = actions;

  const { currentData, isFetching } = useGetMeetingSummaryQuery(shown ? { meetingId: shown.id } : skipToken, { refetchOnMountOrArgChange: true });

  useEffect(() => {
    if (!meeting) closeSide();
  }, [meeting, closeSide]);

  const rowSegments = useMemo(() => segmentsFromTranscript(shown?.transcript ?? ''), [shown?.transcript]);
  const segments = currentData && currentData.segments.length > 0 ? currentData.segments : rowSegments;
  const summary = currentData?.summary || shown?.summary?.summary || '';
  const improvements = currentData && currentData.improvements.length > 0 ? currentData.improvements : (shown?.summary?.improvements ?? []);
  const evaluation = currentData?.evaluation ?? null;
  const open = meeting !== null;

  return (
    <>
      <Modal
        open={open}
        size="wide"
        title="Meeting Summary & Analysis"
        onClose={onClose}
        // Forgetting the row once closed lets a reopened summary ask the server again.
        onClosed={() => setShown(null)}
        footer={
          <SummaryFooter
            improvements={improvements}
            exportDisabled={false}
            onReport={actions.openReport}
            onShare={actions.openShare}
            onExport={() => shown && actions.exportCsv(shown.id, { summary, improvements, evaluation })}
            onClose={onClose}
          />
        }
      >
        {shown ? <MeetingHeading meeting={shown} /> : null}
        <SummaryView
          key={shown?.id}
          segments={segments}
          summary={summary}
          improvements={improvements}
          evaluation={evaluation}
          recordingUrl={null}
          texts={MEETING_TEXTS}
          analysisNote={
            isFetching && !currentData ? (
              <p className="summary-note" role="status">
                <Spinner /> Loading the detailed analysis…
              </p>
            ) : null
          }
        />
      </Modal>
      {shown ? (
        <>
          <ShareSummaryDialog kind="meeting" id={shown.id} open={open && actions.side === 'share'} onClose={closeSide} />
          <ReportIssueDialog kind="meeting" id={shown.id} open={open && actions.side === 'report'} onClose={closeSide} />
        </>
      ) : null}
    </>
  );
}

function MeetingHeading({ meeting }: { meeting: ActivityMeeting }) {
  const date = new Date(meeting.date);
  const when = Number.isNaN(date.getTime()) ? '' : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  const contact = [meeting.contact?.name, meeting.contact?.company].filter(Boolean).join(', ');
  const parts = [meeting.title, meeting.representativeName || meeting.rep_email, contact, when].filter(Boolean);
  return <p className="summary-heading">{parts.join(' · ')}</p>;
}
