import { useCallback, useState } from 'react';
import { downloadTextFile } from './download-file';
import { summaryCsvRows, summaryFileName, toCsv, type SummaryExport } from './summary-csv';
import type { ActivityKind } from './summary-rules';

/** Which of the summary's own dialogs is open over it. */
export type SummarySideDialog = 'share' | 'report' | null;

/** The footer's actions shared by both summary dialogs: the two side dialogs and the export. */
export function useSummaryActions(kind: ActivityKind) {
  const [side, setSide] = useState<SummarySideDialog>(null);
  const openShare = useCallback(() => setSide('share'), []);
  const openReport = useCallback(() => setSide('report'), []);
  const closeSide = useCallback(() => setSide(null), []);
  const exportCsv = useCallback(
    (id: string, content: SummaryExport) => downloadTextFile(summaryFileName(kind, id, new Date()), toCsv(summaryCsvRows(content))),
    [kind],
  );
  return { side, openShare, openReport, closeSide, exportCsv };
}
