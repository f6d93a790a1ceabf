/** Terminal formatting of figures: fixed decimals, "—" for a figure that is not defined. */
import { DEFAULT_REVIEW_THRESHOLD } from '../src/domain/review.js';
import type { Calibration } from './metrics/calibration.js';

export function fixed(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : value.toFixed(digits);
}

export function percent(part: number, whole: number): string {
  return whole === 0 ? '—' : `${((100 * part) / whole).toFixed(0)}% (${part}/${whole})`;
}

/** Columns padded to their widest cell; the first `leftColumns` are left-aligned, the rest right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[], leftColumns = 1, indent = '  '): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  return all.map(
    (row) =>
      indent +
      row
        .map((cell, column) => (column < leftColumns ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
        .join('  ')
        .trimEnd(),
  );
}

/** A system's reliability table, its expected calibration error and its risk–coverage rows. */
export function calibrationLines(what: string, figures: Calibration): string[] {
  const bins = figures.bins.map((bin) => [`${bin.from.toFixed(1)}–${bin.to.toFixed(1)}`, String(bin.count), fixed(bin.meanConfidence, 2), fixed(bin.accuracy, 2)]);
  const coverage = figures.riskCoverage.map((row) => [
    `≥ ${row.threshold.toFixed(2)}${row.threshold === DEFAULT_REVIEW_THRESHOLD ? ' (confident: below it needs review)' : ''}`,
    row.coverage === null ? '—' : `${(100 * row.coverage).toFixed(0)}% (${row.count})`,
    fixed(row.accuracy),
  ]);
  return [
    `  Confidence of ${what}: ECE ${fixed(figures.ece)} over ${figures.verdicts} verdicts (accuracy ${fixed(figures.accuracy)}). Reliability:`,
    ...table(['confidence', 'verdicts', 'said', 'right'], bins, 1, '    '),
    '  Risk–coverage (verdicts at or above a confidence: how many, how often right):',
    ...table(['confidence', 'kept', 'accuracy'], coverage, 1, '    '),
  ];
}
