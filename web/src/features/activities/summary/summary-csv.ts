// The Export button's spreadsheet (spec part 2 §2.5): pure functions from a summary to CSV text
// and a file name. The download itself lives in lib/download-file.ts.
import type { ActivityKind } from '../activity-ids';
import { formatShare, type SummaryImprovement, type SummaryEvaluation } from './summary-model';

export const CSV_COLUMNS = ['Section', 'Category', 'Item', 'Content'] as const;

export type CsvRow = readonly [section: string, category: string, item: string, content: string];

// A cell a spreadsheet would read as a formula (=, +, -, @, or a leading tab or carriage return,
// which some spreadsheets strip before looking) is made plain text by a leading apostrophe.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: guarded against formula injection, then quoted per RFC 4180 when it must be. */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The header line and one line per row, separated by CRLF as RFC 4180 asks. */
export function toCsv(rows: readonly CsvRow[]): string {
  return [CSV_COLUMNS, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Today (or `date`) as YYYY-MM-DD in the viewer's own time zone. */
export function isoDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** call-summary-{callId}-{date}.csv or meeting-summary-{id}-{date}.csv. */
export function summaryFileName(kind: ActivityKind, id: string, today: Date): string {
  return `${kind}-summary-${id}-${isoDay(today)}.csv`;
}

export type SummaryExport = {
  summary: string;
  improvements: readonly SummaryImprovement[];
  evaluation: SummaryEvaluation | null;
};

const seconds = (ms: number) => `${Math.round(ms / 1000)}s`;

/**
 * The rows of the export: the overall summary (and its details), each improvement as
 * Improvement / group / criterion / suggestion, each verdict as Verdict / group / criterion /
 * 'Passed — reason' or 'Failed — reason', then the score and the conversation statistics.
 */
export function summaryCsvRows({ summary, improvements, evaluation }: SummaryExport): CsvRow[] {
  const rows: CsvRow[] = [['Summary', 'Overall', 'Summary', summary]];

  const details = evaluation?.summaryDetails;
  if (details) {
    if (details.participants.length > 0) rows.push(['Summary', 'Details', 'Participants', details.participants.join(', ')]);
    if (details.discussion) rows.push(['Summary', 'Details', 'Discussion', details.discussion]);
    if (details.outcome) rows.push(['Summary', 'Details', 'Outcome', details.outcome]);
    details.nextSteps.forEach((step) => rows.push(['Summary', 'Details', 'Next Step', step]));
  }

  for (const group of improvements) {
    for (const criterion of group.criteria) rows.push(['Improvement', group.name, criterion.name, criterion.suggestion]);
  }

  for (const verdict of evaluation?.verdicts ?? []) {
    const result = verdictResult(verdict);
    rows.push(['Verdict', verdict.groupName, verdict.criterionName, verdict.reason ? `${result} — ${verdict.reason}` : result]);
  }

  if (evaluation) {
    rows.push(['Statistics', 'Overall', 'Score', String(evaluation.score)]);
    if (evaluation.criteriaNeedingReview > 0) rows.push(['Statistics', 'Overall', 'Criteria Needing Review', String(evaluation.criteriaNeedingReview)]);
    if (evaluation.scriptMatch !== null) rows.push(['Statistics', 'Overall', 'Script Match', `${evaluation.scriptMatch}%`]);
    const side = evaluation.isSuccessful === null ? 'N/A' : evaluation.isSuccessful ? 'Yes' : 'No';
    const outcome = evaluation.successNeedsReview ? `Needs review (leans to ${side.toLowerCase()})` : side;
    rows.push(['Statistics', 'Overall', 'Successful', evaluation.successReason ? `${outcome} — ${evaluation.successReason}` : outcome]);
    const statistics = evaluation.statistics;
    if (statistics) {
      if (statistics.timed) rows.push(['Statistics', 'Overall', 'Duration', seconds(statistics.durationMs)]);
      for (const speaker of statistics.speakers) {
        const name = `${speaker.speaker} (${speaker.role})`;
        rows.push(['Statistics', name, 'Talk Share', formatShare(speaker.talkShare)]);
        rows.push(['Statistics', name, 'Words', String(speaker.words)]);
        rows.push(['Statistics', name, 'Questions', String(speaker.questions)]);
        rows.push(['Statistics', name, 'Interruptions', String(speaker.interruptions)]);
        rows.push(['Statistics', name, 'Filler Words', String(speaker.fillerWords)]);
        if (speaker.wordsPerMinute !== null) rows.push(['Statistics', name, 'Words per Minute', String(Math.round(speaker.wordsPerMinute))]);
      }
    }
  }

  return rows;
}

/** "Passed", "Failed", or, when the evaluator is unsure, "Needs review (leans to failed)". */
export function verdictResult(verdict: { passed: boolean; needsReview: boolean }): string {
  const side = verdict.passed ? 'Passed' : 'Failed';
  return verdict.needsReview ? `Needs review (leans to ${side.toLowerCase()})` : side;
}
