import { describe, expect, it } from 'vitest';
import { clockToMs } from './clock.js';

describe('clockToMs', () => {
  it('reads hours, minutes and seconds', () => {
    expect(clockToMs('00:00:00')).toBe(0);
    expect(clockToMs('00:01:02')).toBe(62_000);
    expect(clockToMs('1:02:03')).toBe(3_723_000);
    expect(clockToMs('12:00:00')).toBe(43_200_000);
  });

  it('reads minutes and seconds without an hour field', () => {
    expect(clockToMs('0:03')).toBe(3_000);
    expect(clockToMs('59:59')).toBe(3_599_000);
    expect(clockToMs('75:12')).toBe(4_512_000);
  });

  it('reads a fraction after a dot or a comma as written', () => {
    expect(clockToMs('00:00:01.250')).toBe(1_250);
    expect(clockToMs('00:00:01,250')).toBe(1_250);
    expect(clockToMs('00:01.5')).toBe(1_500);
    expect(clockToMs('00:01.05')).toBe(1_050);
  });

  it('refuses what is not a clock reading', () => {
    for (const text of ['', '10', '1:1', '00:60', '01:60:00', '00:00:61', 'ab:cd', '00:00:01.2345', '10:30 am']) {
      expect(clockToMs(text), text).toBeUndefined();
    }
  });
});
