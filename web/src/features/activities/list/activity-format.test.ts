import { describe, expect, it } from 'vitest';
import { formatPercent, formatScore } from './activity-format';

describe('activity table values', () => {
  it('writes scores with one decimal and script match as a whole percent, or a dash', () => {
    expect(formatScore(7)).toBe('7.0');
    expect(formatScore(8.26)).toBe('8.3');
    expect(formatScore(null)).toBe('—');
    expect(formatPercent(83.4)).toBe('83%');
    expect(formatPercent(null)).toBe('—');
  });
});
