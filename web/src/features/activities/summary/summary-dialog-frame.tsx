import { useEffect, useState, type ReactNode } from 'react';
import { Modal } from '../../../components/modal';
import type { ActivityKind } from '../activity-ids';
import { downloadTextFile } from '../../../lib/download-file';
import { ReportIssueDialog } from './report-issue-dialog';
import { ShareSummaryDialog } from './share-summary-dialog';
import { summaryCsvRows, summaryFileName, toCsv, type SummaryExport } from './summary-csv';
import { improvementCount, improvementCountText, type SummaryImprovement } from './summary-model';
import './summary.css';

/**
 * The row a dialog shows: the one given, kept while the dialog animates closed (`row` is then
 * null). `forget` drops it once closed, so a reopened dialog asks the server again.
 */
export function useShownRow<Row>(row: Row | null) {
  const [shown, setShown] = useState(row);
  if (row && row !== shown) setShown(row);
  return { shown, forget: () => setShown(null) };
}

type SummaryDialogFrameProps = {
  kind: ActivityKind;
  title: string;
  /** The call or meeting shown; undefined once the dialog has closed. */
  id: string | undefined;
  open: boolean;
  onClose: () => void;
  /** Called once the closing animation has finished. */
  onClosed: () => void;
  /** What Export writes, and whose improvements the footer counts. */
  content: SummaryExport;
  exportDisabled: boolean;
  children: ReactNode;
};

/**
 * What both summary dialogs share (spec part 2 §2.5–2.7): the wide modal, its footer (the count
 * of improvements, Report Issue, Share, Export and Close) and the Share and Report Issue dialogs
 * it opens over itself. Closing the summary closes them too.
 */
export function SummaryDialogFrame({ kind, title, id, open, onClose, onClosed, content, exportDisabled, children }: SummaryDialogFrameProps) {
  const [side, setSide] = useState<'share' | 'report' | null>(null);

  useEffect(() => {
    if (!open) setSide(null);
  }, [open]);

  const exportCsv = () => {
    if (id) downloadTextFile(summaryFileName(kind, id, new Date()), toCsv(summaryCsvRows(content)));
  };

  return (
    <>
      <Modal
        open={open}
        size="wide"
        title={title}
        onClose={onClose}
        onClosed={onClosed}
        footer={
          <SummaryFooter
            improvements={content.improvements}
            exportDisabled={exportDisabled}
            onReport={() => setSide('report')}
            onShare={() => setSide('share')}
            onExport={exportCsv}
            onClose={onClose}
          />
        }
      >
        {children}
      </Modal>
      {id ? (
        <>
          <ShareSummaryDialog kind={kind} id={id} open={open && side === 'share'} onClose={() => setSide(null)} />
          <ReportIssueDialog kind={kind} id={id} open={open && side === 'report'} onClose={() => setSide(null)} />
        </>
      ) : null}
    </>
  );
}

/** The line above a summary: who and with whom (empty parts left out), then when, in local time. */
export function SummaryHeading({ parts, date }: { parts: readonly (string | null | undefined)[]; date: string }) {
  const at = new Date(date);
  const when = Number.isNaN(at.getTime()) ? '' : at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return <p className="summary-heading">{[...parts, when].filter(Boolean).join(' · ')}</p>;
}

type SummaryFooterProps = {
  improvements: readonly SummaryImprovement[];
  exportDisabled: boolean;
  onReport: () => void;
  onShare: () => void;
  onExport: () => void;
  onClose: () => void;
};

/** The count of improvements suggested, then Report Issue, Share, Export and Close. */
function SummaryFooter({ improvements, exportDisabled, onReport, onShare, onExport, onClose }: SummaryFooterProps) {
  return (
    <div className="summary-footer">
      <span className="summary-footer__count">{improvementCountText(improvementCount(improvements))}</span>
      <div className="button-row">
        <button type="button" className="button" onClick={onReport}>
          Report Issue
        </button>
        <button type="button" className="button" onClick={onShare}>
          Share
        </button>
        <button type="button" className="button" onClick={onExport} disabled={exportDisabled}>
          Export
        </button>
        <button type="button" className="button button--primary" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
