import { describe, expect, it } from 'vitest';
import { formatCallDuration, formatMeetingDuration, formatPercent, formatScore } from './activity-format';

describe('activity table values', () => {
  it('writes call durations as m:ss', () => {
    expect(formatCallDuration(0)).toBe('0:00');
    expect(formatCallDuration(65)).toBe('1:05');
    expect(formatCallDuration(599.6)).toBe('10:00');
    expect(formatCallDuration(3725)).toBe('62:05');
  });

  it('writes meeting durations in hours, minutes and seconds', () => {
    expect(formatMeetingDuration(45)).toBe('45s');
    expect(formatMeetingDuration(120)).toBe('2m 0s');
    expect(formatMeetingDuration(3725)).toBe('1h 2m 5s');
    expect(formatMeetingDuration(7200)).toBe('2h 0m 0s');
    expect(formatMeetingDuration(-5)).toBe('0s');
  });

  it('writes scores with one decimal and script match as a whole percent, or a dash', () => {
    expect(formatScore(7)).toBe('7.0');
    expect(formatScore(8.26)).toBe('8.3');
    expect(formatScore(null)).toBe('—');
    expect(formatPercent(83.4)).toBe('83%');
    expect(formatPercent(null)).toBe('—');
  });
});
