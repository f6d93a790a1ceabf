import { describe, expect, it } from 'vitest';
import { calibration } from './calibration.js';

const judged = (confidence: number, rightOutOf: [number, number]) =>
  Array.from({ length: rightOutOf[1] }, (_, index) => ({ confidence, correct: index < rightOutOf[0] }));

describe('calibration', () => {
  it('is perfect when each bin is right as often as it says', () => {
    const figures = calibration([...judged(0.55, [11, 20]), ...judged(0.95, [19, 20])]);
    expect(figures.ece).toBeCloseTo(0, 12);
    expect(figures.bins.map(({ from, count }) => [from, count])).toEqual([
      [0.5, 20],
      [0.9, 20],
    ]);
  });

  it('weighs each bin’s gap by its size (hand-computed)', () => {
    // 30 said 0.9 and were right 15 times (gap 0.4); 10 said 0.6 and were right 6 times (gap 0).
    const figures = calibration([...judged(0.9, [15, 30]), ...judged(0.6, [6, 10])]);
    expect(figures.ece).toBeCloseTo((30 / 40) * 0.4, 12);
    expect(figures.accuracy).toBeCloseTo(21 / 40, 12);
  });

  it('puts a confidence of 1 in the last bin and clamps what is out of range', () => {
    const figures = calibration([
      { confidence: 1, correct: true },
      { confidence: 1.2, correct: true },
      { confidence: -0.1, correct: false },
    ]);
    expect(figures.bins.map(({ from, to, count }) => [from, to, count])).toEqual([
      [0, 0.1, 1],
      [0.9, 1, 2],
    ]);
  });

  it('gives the share kept and its accuracy at each threshold', () => {
    const figures = calibration([...judged(0.55, [5, 10]), ...judged(0.85, [9, 10])], [0.5, 0.8, 0.9]);
    expect(figures.riskCoverage).toEqual([
      { threshold: 0.5, count: 20, coverage: 1, accuracy: 0.7 },
      { threshold: 0.8, count: 10, coverage: 0.5, accuracy: 0.9 },
      { threshold: 0.9, count: 0, coverage: 0, accuracy: null },
    ]);
  });

  it('has no figures without verdicts', () => {
    expect(calibration([])).toMatchObject({ verdicts: 0, accuracy: null, ece: null, bins: [] });
  });
});
