import { describe, expect, it } from 'vitest';
import { forEachTally } from './dashboard-queries.js';

describe('forEachTally', () => {
  const known = [
    { teamId: 't', groupId: 'opening', criterionId: 'greeting', name: 'Greets' },
    { teamId: 't', groupId: 'closing', criterionId: 'next-steps', name: 'Next steps' },
  ];

  it('reads criteria named by position and criteria named by their ids, in the order they come', () => {
    const seen: unknown[] = [];
    forEachTally([1, 4, 2, 'old', 'gone "criterion"', 0, 3, 0, 5, 1], known, (criterion, groupId, criterionId, passed, failed) =>
      seen.push([criterion?.name, groupId, criterionId, passed, failed]),
    );
    expect(seen).toEqual([
      ['Next steps', 'closing', 'next-steps', 4, 2],
      [undefined, 'old', 'gone "criterion"', 0, 3],
      ['Greets', 'opening', 'greeting', 5, 1],
    ]);
  });

  it('reads nothing from no criteria', () => {
    let calls = 0;
    forEachTally([], known, () => calls++);
    expect(calls).toBe(0);
  });
});
