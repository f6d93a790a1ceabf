import { useMemo } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useGetMeetingSummaryQuery } from '../../../lib/api/gateway-api.generated';
import { Spinner } from '../../../components/spinner';
import type { ActivityMeeting } from '../activity-types';
import { SummaryDialogFrame, SummaryHeading, useShownRow } from './summary-dialog-frame';
import { segmentsFromTranscript } from './summary-model';
import { MEETING_TEXTS } from './summary-rules';
import { SummaryView } from './summary-view';

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
  const { shown, forget } = useShownRow(meeting);
  const { currentData, isFetching } = useGetMeetingSummaryQuery(shown ? { meetingId: shown.id } : skipToken, { refetchOnMountOrArgChange: true });

  const rowSegments = useMemo(() => segmentsFromTranscript(shown?.transcript ?? ''), [shown?.transcript]);
  const segments = currentData && currentData.segments.length > 0 ? currentData.segments : rowSegments;
  const content = {
    summary: currentData?.summary || shown?.summary?.summary || '',
    improvements: currentData && currentData.improvements.length > 0 ? currentData.improvements : (shown?.summary?.improvements ?? []),
    evaluation: currentData?.evaluation ?? null,
  };

  return (
    <SummaryDialogFrame
      kind="meeting"
      title="Meeting Summary & Analysis"
      id={shown?.id}
      open={meeting !== null}
      onClose={onClose}
      onClosed={forget}
      content={content}
      exportDisabled={false}
    >
      {shown ? (
        <SummaryHeading
          parts={[shown.title, shown.representativeName || shown.rep_email, [shown.contact?.name, shown.contact?.company].filter(Boolean).join(', ')]}
          date={shown.date}
        />
      ) : null}
      <SummaryView
        key={shown?.id}
        segments={segments}
        {...content}
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
    </SummaryDialogFrame>
  );
}
