import { describe, expect, it } from 'vitest';
import { clockTime } from './clock-time.js';

describe('clockTime', () => {
  it('reads m:ss below the hour and h:mm:ss from it', () => {
    expect([clockTime(0), clockTime(9_999), clockTime(600_000), clockTime(3_599_999), clockTime(3_600_000), clockTime(3_725_000)]).toEqual([
      '0:00',
      '0:09',
      '10:00',
      '59:59',
      '1:00:00',
      '1:02:05',
    ]);
  });

  it('reads a time before the start as the start', () => {
    expect(clockTime(-1_500)).toBe('0:00');
  });
});
