import { describe, expect, it } from 'vitest';
import {
  activityNoun,
  formatAverage,
  formatAverageScore,
  formatCount,
  formatDuration,
  formatRate,
  formatSuccessRate,
} from './format';

describe('dashboard number formats', () => {
  it('writes counts with thousands separators, and 0 when absent', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1234)).toBe('1,234');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(null)).toBe('0');
    expect(formatCount(Number.NaN)).toBe('0');
  });

  it('writes averages with at most one decimal and separators', () => {
    expect(formatAverage(12.46)).toBe('12.5');
    expect(formatAverage(12)).toBe('12');
    expect(formatAverage(1234.56)).toBe('1,234.6');
    expect(formatAverage(-0.01)).toBe('0');
    expect(formatAverage(undefined)).toBe('0');
  });

  it('shows a success rate of 0% when it is absent', () => {
    expect(formatSuccessRate(null)).toBe('0%');
    expect(formatSuccessRate(undefined)).toBe('0%');
    expect(formatSuccessRate(0)).toBe('0%');
    expect(formatSuccessRate(66.6667)).toBe('66.7%');
    expect(formatSuccessRate(50)).toBe('50%');
    expect(formatSuccessRate(100)).toBe('100%');
  });

  it('shows an average score with one decimal, or N/A when none is scored', () => {
    expect(formatAverageScore(7.46)).toBe('7.5');
    expect(formatAverageScore(7)).toBe('7.0');
    expect(formatAverageScore(10)).toBe('10.0');
    expect(formatAverageScore(0)).toBe('0.0');
    expect(formatAverageScore(null)).toBe('N/A');
    expect(formatAverageScore(Number.POSITIVE_INFINITY)).toBe('N/A');
  });

  it('shows a rate with one decimal, or N/A', () => {
    expect(formatRate(45)).toBe('45.0%');
    expect(formatRate(33.333)).toBe('33.3%');
    expect(formatRate(-0.04)).toBe('0.0%');
    expect(formatRate(null)).toBe('N/A');
  });

  it('picks the duration format of the tab', () => {
    expect(formatDuration(3725, 'calls')).toBe('62:05');
    expect(formatDuration(3725, 'meetings')).toBe('1h 2m 5s');
  });

  it('names one or more activities of a tab', () => {
    expect(activityNoun('calls')).toBe('calls');
    expect(activityNoun('calls', 1)).toBe('call');
    expect(activityNoun('meetings', 0)).toBe('meetings');
    expect(activityNoun('meetings', 1)).toBe('meeting');
  });
});
