/**
 * Binary classification figures, pure. A figure whose denominator is zero is `null` ("not
 * defined"), never 0 or NaN, so a report can print "—" instead of a number that means nothing.
 */

export interface Confusion {
  /** Predicted positive, truly positive. */
  tp: number;
  /** Predicted positive, truly negative. */
  fp: number;
  /** Predicted negative, truly positive. */
  fn: number;
  /** Predicted negative, truly negative. */
  tn: number;
}

export interface BinaryFigures extends Confusion {
  accuracy: number | null;
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

export interface Labelled {
  truth: boolean;
  predicted: boolean;
}

export function confusion(pairs: Iterable<Labelled>): Confusion {
  const counts: Confusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const { truth, predicted } of pairs) {
    if (predicted) counts[truth ? 'tp' : 'fp'] += 1;
    else counts[truth ? 'fn' : 'tn'] += 1;
  }
  return counts;
}

export function accuracy(c: Confusion): number | null {
  return ratio(c.tp + c.tn, c.tp + c.fp + c.fn + c.tn);
}

export function precision(c: Confusion): number | null {
  return ratio(c.tp, c.tp + c.fp);
}

export function recall(c: Confusion): number | null {
  return ratio(c.tp, c.tp + c.fn);
}

/** 2·tp / (2·tp + fp + fn): 0 when nothing positive was found right, null when there was nothing positive on either side. */
export function f1(c: Pick<Confusion, 'tp' | 'fp' | 'fn'>): number | null {
  return ratio(2 * c.tp, 2 * c.tp + c.fp + c.fn);
}

export function binaryFigures(c: Confusion): BinaryFigures {
  return { accuracy: accuracy(c), precision: precision(c), recall: recall(c), f1: f1(c), ...c };
}

export function addConfusions(parts: Iterable<Confusion>): Confusion {
  const total: Confusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const part of parts) {
    total.tp += part.tp;
    total.fp += part.fp;
    total.fn += part.fn;
    total.tn += part.tn;
  }
  return total;
}

/** A binary outcome where the predictor may also abstain (undefined: N/A). */
export interface Outcome {
  truth: boolean;
  predicted: boolean | undefined;
}

export interface OutcomeFigures {
  /** Share predicted right; an N/A is never right. */
  accuracy: number | null;
  /** Mean of the F1 of the positive and of the negative class (over the classes whose F1 is defined). */
  macroF1: number | null;
  f1Positive: number | null;
  f1Negative: number | null;
  /** Positive = true. N/A predictions are not in tp/fp/fn/tn; they are counted in naPositive and naNegative. */
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  /** N/A predictions where the truth was positive, and negative. */
  naPositive: number;
  naNegative: number;
  na: number;
}

/**
 * Accuracy and macro-F1 where N/A counts as wrong: it is never correct, and it takes recall away
 * from its true class without adding a false positive to either class.
 */
export function outcomeFigures(outcomes: Iterable<Outcome>): OutcomeFigures {
  let tp = 0, fp = 0, fn = 0, tn = 0, naPositive = 0, naNegative = 0;
  for (const { truth, predicted } of outcomes) {
    if (predicted === undefined) {
      if (truth) naPositive += 1;
      else naNegative += 1;
    } else if (predicted) {
      if (truth) tp += 1;
      else fp += 1;
    } else if (truth) fn += 1;
    else tn += 1;
  }
  const total = tp + fp + fn + tn + naPositive + naNegative;
  // For the negative class, a true negative is its tp, a false negative (said negative, was positive) its fp.
  const f1Positive = f1({ tp, fp, fn: fn + naPositive });
  const f1Negative = f1({ tp: tn, fp: fn, fn: fp + naNegative });
  return {
    accuracy: ratio(tp + tn, total),
    macroF1: macroF1([f1Positive, f1Negative]),
    f1Positive,
    f1Negative,
    tp,
    fp,
    fn,
    tn,
    naPositive,
    naNegative,
    na: naPositive + naNegative,
  };
}

/** The mean of the defined per-class F1 values; null when none is defined. */
export function macroF1(perClass: readonly (number | null)[]): number | null {
  const defined = perClass.filter((value): value is number => value !== null);
  if (defined.length === 0) return null;
  return defined.reduce((sum, value) => sum + value, 0) / defined.length;
}

export function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}
