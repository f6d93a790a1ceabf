import { describe, expect, it } from 'vitest';
import { adviceFor, type AdviceFigures } from './advice';

/** A member 3 successful calls short of 5, at a 20 % conversion rate, as the API words the figures. */
const figures = (overrides: Partial<AdviceFigures> = {}): AdviceFigures => ({
  target: 5,
  successfulCalls: 2,
  totalCalls: 10,
  onTarget: false,
  additionalNeeded: 15,
  requiredConversionRate: 50,
  averageScore: 7,
  scoredCalls: 10,
  scriptMatch: 90,
  criteria: [],
  ...overrides,
});

describe('adviceFor', () => {
  it('says how far from the target and what it takes', () => {
    expect(adviceFor(figures(), 'calls')[0]).toBe(
      '3 successful calls short of the target of 5: about 15 more calls at the current conversion rate, or a conversion rate of 50% on the calls made.',
    );
    expect(adviceFor(figures({ successfulCalls: 5, onTarget: true, additionalNeeded: 0 }), 'calls')[0]).toBe('On target: 5 successful of 5.');
    expect(adviceFor(figures({ successfulCalls: 0, additionalNeeded: '-', requiredConversionRate: 50 }), 'calls')[0]).toBe(
      'No successful calls yet (target 5): review their last calls together and agree on how to close.',
    );
  });

  it('says when nothing happened, against a target or none', () => {
    const idle = { successfulCalls: 0, totalCalls: 0, additionalNeeded: '-' as const, requiredConversionRate: 100, averageScore: 0, scoredCalls: 0, scriptMatch: null };
    expect(adviceFor(figures(idle), 'calls')).toEqual(['No calls in this period against a target of 5 successful: check their pipeline and schedule.']);
    expect(adviceFor(figures({ ...idle, target: 0, onTarget: true, additionalNeeded: 0 }), 'calls')).toEqual(['No calls in this period.']);
  });

  it('reads the score against §9’s thresholds: 10 perfect, 8 good, below that coaching', () => {
    expect(adviceFor(figures({ averageScore: 10 }), 'calls')[1]).toBe('Perfect average score (10/10): ask them to share what works with the team.');
    expect(adviceFor(figures({ averageScore: 8 }), 'calls')[1]).toBe('Good average score (8.0/10): keep it there.');
    // One decimal rounded down: 7.96 never reads as the 8 it has not reached.
    expect(adviceFor(figures({ averageScore: 7.96 }), 'calls')[1]).toBe('Average score 7.9/10 is below 8: coach on the criteria they fail most.');
  });

  it('says nothing of the score when nothing was scored (its average is 0 then)', () => {
    expect(adviceFor(figures({ averageScore: 0, scoredCalls: 0 }), 'calls').some((line) => line.includes('score'))).toBe(false);
    expect(adviceFor(figures({ averageScore: 0, scoredCalls: 1 }), 'calls')[1]).toBe('Average score 0.0/10 is below 8: coach on the criteria they fail most.');
  });

  it('asks for the script when the match is not above 80 %', () => {
    expect(adviceFor(figures({ scriptMatch: 80 }), 'calls')).toContain('Script match 80% should stay above 80%: go through the call script with them.');
    expect(adviceFor(figures({ scriptMatch: 80.5 }), 'calls').some((line) => line.startsWith('Script match'))).toBe(false);
    expect(adviceFor(figures({ scriptMatch: null }), 'calls').some((line) => line.startsWith('Script match'))).toBe(false);
  });

  it('names the criterion failed most, never one that was never failed', () => {
    const criteria = [
      { criterionName: 'Greets the customer', failureRate: 25, failed: 1, judged: 4 },
      { criterionName: 'Agrees next steps', failureRate: 75, failed: 3, judged: 4 },
    ];
    expect(adviceFor(figures({ criteria }), 'calls').at(-1)).toBe("Most failed: 'Agrees next steps' (75% of 4 calls).");
    expect(adviceFor(figures({ criteria: [{ criterionName: 'Greets the customer', failureRate: 0, failed: 0, judged: 4 }] }), 'calls').some((line) => line.startsWith('Most failed'))).toBe(
      false,
    );
  });

  it('names meetings on the Meetings tab', () => {
    const advice = adviceFor(figures({ criteria: [{ criterionName: 'Sets the agenda', failureRate: 50, failed: 1, judged: 2 }] }), 'meetings');
    expect(advice[0]).toBe('3 successful meetings short of the target of 5: about 15 more meetings at the current conversion rate, or a conversion rate of 50% on the meetings made.');
    expect(advice.at(-1)).toBe("Most failed: 'Sets the agenda' (50% of 2 meetings).");
  });
});
