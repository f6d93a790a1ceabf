import { describe, expect, it } from 'vitest';
import { failureRates, median, sortShort, standingOf } from './recommendations.js';

describe('standingOf (spec part 2 §9)', () => {
  it('is on target when successful reaches the target, needing nothing more', () => {
    const standing = standingOf({ target: 5, successful: 5, total: 20, averageScore: 7 });
    expect(standing).toMatchObject({ onTarget: true, additionalNeeded: 0, conversionRate: 25, requiredConversionRate: 25 });
    expect(standingOf({ target: 5, successful: 6, total: 20, averageScore: 7 }).onTarget).toBe(true);
  });

  it('needs ceil(remaining ÷ (rate ÷ 100)) more activities, exactly where floats would round up', () => {
    // 3 short at 30 %: 3 ÷ 0.3 is 10.000000000000002 in floating point, and 10 calls make 3 successes.
    expect(standingOf({ target: 6, successful: 3, total: 10, averageScore: 5 }).additionalNeeded).toBe(10);
    // 1 short at 40 %: 2.5, so 3.
    expect(standingOf({ target: 3, successful: 2, total: 5, averageScore: 5 }).additionalNeeded).toBe(3);
  });

  it("gives no figure ('-') for additional activities when the conversion rate is 0", () => {
    expect(standingOf({ target: 4, successful: 0, total: 12, averageScore: 6 }).additionalNeeded).toBeNull();
    expect(standingOf({ target: 4, successful: 0, total: 0, averageScore: 0 }).additionalNeeded).toBeNull();
  });

  it('requires remaining ÷ total × 100 + the current rate, at most 100, and 100 with no activities', () => {
    expect(standingOf({ target: 6, successful: 3, total: 10, averageScore: 5 }).requiredConversionRate).toBeCloseTo(60, 10);
    expect(standingOf({ target: 30, successful: 3, total: 10, averageScore: 5 }).requiredConversionRate).toBe(100);
    expect(standingOf({ target: 2, successful: 0, total: 0, averageScore: 0 }).requiredConversionRate).toBe(100);
  });

  it('requires an average score of averageScore × target ÷ max(1, successful), at most 10', () => {
    expect(standingOf({ target: 4, successful: 2, total: 10, averageScore: 4 }).requiredAverageScore).toBe(8);
    expect(standingOf({ target: 4, successful: 0, total: 10, averageScore: 2 }).requiredAverageScore).toBe(8);
    expect(standingOf({ target: 10, successful: 2, total: 10, averageScore: 6 }).requiredAverageScore).toBe(10);
  });

  it('with a target of 0 is always on target and requires nothing', () => {
    expect(standingOf({ target: 0, successful: 0, total: 0, averageScore: 0 })).toEqual({
      target: 0,
      successfulCalls: 0,
      totalCalls: 0,
      conversionRate: 0,
      averageScore: 0,
      onTarget: true,
      additionalNeeded: 0,
      requiredConversionRate: 100,
      requiredAverageScore: 0,
    });
  });
});

describe('failureRates and median', () => {
  it('orders criteria by failure rate, leaving out those never judged', () => {
    expect(
      failureRates([
        { criterionName: 'B', failed: 1, judged: 4 },
        { criterionName: 'A', failed: 0, judged: 0 },
        { criterionName: 'C', failed: 3, judged: 4 },
      ]).map((criterion) => [criterion.criterionName, criterion.failureRate]),
    ).toEqual([
      ['C', 75],
      ['B', 25],
    ]);
  });

  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('sortShort', () => {
  it('sorts in place, keeping equal items in their order', () => {
    const items = [
      { key: 2, name: 'a' },
      { key: 1, name: 'b' },
      { key: 2, name: 'c' },
      { key: 0, name: 'd' },
      { key: 1, name: 'e' },
    ];
    const sorted = sortShort(items, (a, b) => a.key - b.key);
    expect(sorted).toBe(items);
    expect(sorted.map((item) => item.name)).toEqual(['d', 'b', 'e', 'a', 'c']);
  });

  it('leaves empty and single lists as they are', () => {
    expect(sortShort([], (a: number, b: number) => a - b)).toEqual([]);
    expect(sortShort([7], (a, b) => a - b)).toEqual([7]);
  });
});
