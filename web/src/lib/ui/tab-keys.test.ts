import { describe, expect, it } from 'vitest';
import { tabIndexAfterKey } from './tab-keys';

describe('tabIndexAfterKey', () => {
  it('steps with the arrow keys and wraps around at both ends', () => {
    expect(tabIndexAfterKey('ArrowRight', 0, 3)).toBe(1);
    expect(tabIndexAfterKey('ArrowRight', 2, 3)).toBe(0);
    expect(tabIndexAfterKey('ArrowLeft', 0, 3)).toBe(2);
    expect(tabIndexAfterKey('ArrowLeft', 2, 3)).toBe(1);
  });

  it('goes to the ends with Home and End', () => {
    expect(tabIndexAfterKey('Home', 2, 3)).toBe(0);
    expect(tabIndexAfterKey('End', 0, 3)).toBe(2);
  });

  it('takes Up and Down only in a vertical list, and ignores other keys', () => {
    expect(tabIndexAfterKey('ArrowDown', 0, 3)).toBeUndefined();
    expect(tabIndexAfterKey('ArrowDown', 0, 3, 'vertical')).toBe(1);
    expect(tabIndexAfterKey('ArrowUp', 0, 3, 'vertical')).toBe(2);
    expect(tabIndexAfterKey('Enter', 0, 3)).toBeUndefined();
  });
});
