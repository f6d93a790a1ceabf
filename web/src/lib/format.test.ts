import { describe, expect, it } from 'vitest';
import { formatCallDuration, formatMeetingDuration } from './format';

describe('durations (spec part 2 §9)', () => {
  it('writes call durations as m:ss, minutes past an hour not wrapped', () => {
    expect(formatCallDuration(0)).toBe('0:00');
    expect(formatCallDuration(5)).toBe('0:05');
    expect(formatCallDuration(125)).toBe('2:05');
    expect(formatCallDuration(124.6)).toBe('2:05');
    expect(formatCallDuration(3725)).toBe('62:05');
    expect(formatCallDuration(599.6)).toBe('10:00');
    expect(formatCallDuration(-3)).toBe('0:00');
    expect(formatCallDuration(null)).toBe('0:00');
  });

  it('writes meeting durations as hours, minutes and seconds without leading zero parts', () => {
    expect(formatMeetingDuration(45)).toBe('45s');
    expect(formatMeetingDuration(120)).toBe('2m 0s');
    expect(formatMeetingDuration(3725)).toBe('1h 2m 5s');
    expect(formatMeetingDuration(7200)).toBe('2h 0m 0s');
    expect(formatMeetingDuration(0)).toBe('0s');
    expect(formatMeetingDuration(-5)).toBe('0s');
  });
});
