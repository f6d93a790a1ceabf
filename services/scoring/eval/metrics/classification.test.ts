import { describe, expect, it } from 'vitest';
import { accuracy, addConfusions, binaryFigures, confusion, f1, macroF1, outcomeFigures, precision, recall } from './classification.js';

describe('binary figures', () => {
  const pairs = [
    { truth: true, predicted: true },
    { truth: true, predicted: true },
    { truth: true, predicted: false },
    { truth: false, predicted: true },
    { truth: false, predicted: false },
    { truth: false, predicted: false },
    { truth: false, predicted: false },
  ];

  it('counts the four cells of the confusion matrix', () => {
    expect(confusion(pairs)).toEqual({ tp: 2, fp: 1, fn: 1, tn: 3 });
  });

  it('computes accuracy, precision, recall and F1 from the counts (hand-computed)', () => {
    const c = confusion(pairs);
    expect(accuracy(c)).toBeCloseTo(5 / 7, 12);
    expect(precision(c)).toBeCloseTo(2 / 3, 12);
    expect(recall(c)).toBeCloseTo(2 / 3, 12);
    expect(f1(c)).toBeCloseTo(2 / 3, 12);
    expect(binaryFigures(c)).toMatchObject({ tp: 2, fp: 1, fn: 1, tn: 3 });
  });

  it('F1 is the harmonic mean of precision and recall', () => {
    const c = { tp: 3, fp: 1, fn: 5, tn: 0 };
    const p = precision(c)!;
    const r = recall(c)!;
    expect(f1(c)).toBeCloseTo((2 * p * r) / (p + r), 12);
  });

  it('leaves a figure undefined (null) when its denominator is zero, never NaN', () => {
    const nothingPredicted = { tp: 0, fp: 0, fn: 4, tn: 6 };
    expect(precision(nothingPredicted)).toBeNull();
    expect(recall(nothingPredicted)).toBe(0);
    expect(f1(nothingPredicted)).toBe(0);
    const empty = { tp: 0, fp: 0, fn: 0, tn: 0 };
    expect(binaryFigures(empty)).toEqual({ accuracy: null, precision: null, recall: null, f1: null, ...empty });
    expect(f1({ tp: 0, fp: 0, fn: 0 })).toBeNull();
  });

  it('adds confusions cell by cell (pooling subsets)', () => {
    expect(addConfusions([{ tp: 1, fp: 2, fn: 3, tn: 4 }, { tp: 10, fp: 20, fn: 30, tn: 40 }])).toEqual({ tp: 11, fp: 22, fn: 33, tn: 44 });
  });
});

describe('macroF1', () => {
  it('averages the defined per-class F1 values', () => {
    expect(macroF1([0.5, 1])).toBe(0.75);
    expect(macroF1([0.5, null])).toBe(0.5);
    expect(macroF1([null, null])).toBeNull();
  });
});

describe('outcomeFigures', () => {
  it('computes accuracy and macro-F1 of both classes (hand-computed)', () => {
    // truth:     S S S U U
    // predicted: S S U S U
    const f = outcomeFigures([
      { truth: true, predicted: true },
      { truth: true, predicted: true },
      { truth: true, predicted: false },
      { truth: false, predicted: true },
      { truth: false, predicted: false },
    ]);
    expect(f).toMatchObject({ tp: 2, fp: 1, fn: 1, tn: 1, na: 0 });
    expect(f.accuracy).toBeCloseTo(3 / 5, 12);
    expect(f.f1Positive).toBeCloseTo(4 / 6, 12); // 2·2 / (2·2 + 1 + 1)
    expect(f.f1Negative).toBeCloseTo(2 / 4, 12); // 2·1 / (2·1 + 1 + 1)
    expect(f.macroF1).toBeCloseTo((4 / 6 + 2 / 4) / 2, 12);
  });

  it('counts an N/A verdict as wrong: never correct, and a miss of its true class', () => {
    const f = outcomeFigures([
      { truth: true, predicted: true },
      { truth: true, predicted: undefined },
      { truth: false, predicted: undefined },
      { truth: false, predicted: false },
    ]);
    expect(f).toMatchObject({ tp: 1, fp: 0, fn: 0, tn: 1, naPositive: 1, naNegative: 1, na: 2 });
    expect(f.accuracy).toBe(0.5);
    expect(f.f1Positive).toBeCloseTo(2 / 3, 12); // 2·1 / (2·1 + 0 + 1)
    expect(f.f1Negative).toBeCloseTo(2 / 3, 12);
  });

  it('scores an all-N/A predictor 0, not undefined', () => {
    const f = outcomeFigures([
      { truth: true, predicted: undefined },
      { truth: false, predicted: undefined },
    ]);
    expect(f.accuracy).toBe(0);
    expect(f.macroF1).toBe(0);
  });
});
