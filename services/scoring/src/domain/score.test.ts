import { describe, expect, it } from 'vitest';
import type { CriteriaGroup } from '@parlance/proto/parlance/identity/v1/teams';
import { weightedScore } from './score.js';

const groups: CriteriaGroup[] = [
  {
    id: 'opening',
    name: 'Opening',
    criteria: [
      { id: 'greeting', name: 'Greeting', prompt: 'Greets the customer.', weight: 3.3 },
      { id: 'intro', name: 'Introduction', prompt: 'Names themselves and the company.', weight: 3.3 },
    ],
  },
  { id: 'closing', name: 'Closing', criteria: [{ id: 'next', name: 'Next steps', prompt: 'Agrees a next step.', weight: 3.4 }] },
];

describe('weightedScore', () => {
  it('adds the weights of the passed criteria', () => {
    const verdicts = [
      { groupId: 'opening', criterionId: 'greeting', passed: true },
      { groupId: 'opening', criterionId: 'intro', passed: false },
      { groupId: 'closing', criterionId: 'next', passed: true },
    ];
    expect(weightedScore(groups, verdicts)).toBe(6.7);
  });

  it('scores 10 when everything passed, exactly, despite decimal weights', () => {
    const verdicts = groups.flatMap((group) => group.criteria.map((criterion) => ({ groupId: group.id, criterionId: criterion.id, passed: true })));
    expect(weightedScore(groups, verdicts)).toBe(10);
  });

  it('counts a criterion without a verdict as not passed, and refuses two verdicts for one', () => {
    expect(weightedScore(groups, [{ groupId: 'closing', criterionId: 'next', passed: true }])).toBe(3.4);
    expect(() =>
      weightedScore(groups, [
        { groupId: 'closing', criterionId: 'next', passed: true },
        { groupId: 'closing', criterionId: 'next', passed: true },
      ]),
    ).toThrow(/two verdicts/);
  });

  it('refuses a verdict for a criterion the team does not have', () => {
    expect(() => weightedScore(groups, [{ groupId: 'opening', criterionId: 'pricing', passed: true }])).toThrow(/does not have/);
  });
});
