/**
 * Whether an engine's confidence means what it says, pure. A verdict said with confidence 0.8
 * should be right 8 times in 10: the reliability table puts verdicts in bins of stated confidence
 * and shows how often each bin was right; the expected calibration error (ECE) is the gap between
 * the two, weighted by how many verdicts each bin holds. The risk–coverage rows say what a
 * confidence threshold buys: the share of verdicts at or above it, and how often those were right.
 */
import { ratio } from './classification.js';

export interface Judged {
  /** How sure the system said it was of its verdict, 0 to 1. */
  confidence: number;
  correct: boolean;
}

export interface ReliabilityBin {
  /** Confidence in [from, to); the last bin includes 1. */
  from: number;
  to: number;
  count: number;
  meanConfidence: number;
  accuracy: number;
}

export interface CoverageRow {
  threshold: number;
  /** Share of verdicts whose confidence is at least the threshold. */
  coverage: number | null;
  /** Accuracy of those verdicts. */
  accuracy: number | null;
  count: number;
}

export interface Calibration {
  verdicts: number;
  accuracy: number | null;
  /** Σ over bins of (bin size / verdicts) · |accuracy − mean confidence|; null with no verdicts. */
  ece: number | null;
  bins: ReliabilityBin[];
  riskCoverage: CoverageRow[];
}

/** Ten bins of width 0.1; empty bins are left out of the table. */
export const BIN_COUNT = 10;
/** Includes the product's default review threshold (0.7): the verdicts it calls confident. */
export const COVERAGE_THRESHOLDS: readonly number[] = [0.5, 0.6, 0.7, 0.8, 0.9];

export function calibration(judged: readonly Judged[], thresholds: readonly number[] = COVERAGE_THRESHOLDS): Calibration {
  const sums = Array.from({ length: BIN_COUNT }, () => ({ count: 0, confidence: 0, correct: 0 }));
  for (const { confidence, correct } of judged) {
    const clamped = Math.min(1, Math.max(0, confidence));
    const bin = sums[Math.min(BIN_COUNT - 1, Math.floor(clamped * BIN_COUNT))]!;
    bin.count += 1;
    bin.confidence += clamped;
    bin.correct += Number(correct);
  }
  const bins: ReliabilityBin[] = sums.flatMap((sum, index) =>
    sum.count === 0 ? [] : [{ from: index / BIN_COUNT, to: (index + 1) / BIN_COUNT, count: sum.count, meanConfidence: sum.confidence / sum.count, accuracy: sum.correct / sum.count }],
  );
  const total = judged.length;
  const ece = total === 0 ? null : bins.reduce((gap, bin) => gap + (bin.count / total) * Math.abs(bin.accuracy - bin.meanConfidence), 0);
  const riskCoverage = thresholds.map((threshold) => {
    const kept = judged.filter((item) => item.confidence >= threshold);
    return { threshold, count: kept.length, coverage: ratio(kept.length, total), accuracy: ratio(kept.filter((item) => item.correct).length, kept.length) };
  });
  return { verdicts: total, accuracy: ratio(judged.filter((item) => item.correct).length, total), ece, bins, riskCoverage };
}
