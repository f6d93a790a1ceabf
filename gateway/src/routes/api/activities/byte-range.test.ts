import { describe, expect, it } from 'vitest';
import { requestedRange, resolveRange } from './byte-range.js';

describe('requestedRange', () => {
  it('reads the forms an audio element sends', () => {
    expect(requestedRange('bytes=0-')).toEqual({ kind: 'from', start: 0 });
    expect(requestedRange('bytes=500-999')).toEqual({ kind: 'from', start: 500, end: 999 });
    expect(requestedRange('bytes=-500')).toEqual({ kind: 'suffix', length: 500 });
  });

  it('takes an absent, malformed, reversed or multiple range as the whole file', () => {
    for (const header of [undefined, '', 'bytes=-', 'items=0-5', 'bytes=5-1', 'bytes=0-5,10-20', 'bytes=a-b']) {
      expect(requestedRange(header)).toEqual({ kind: 'whole' });
    }
  });
});

describe('resolveRange', () => {
  it('clamps the end to the file and keeps both ends inclusive', () => {
    expect(resolveRange({ kind: 'from', start: 0 }, 1000)).toEqual({ kind: 'part', start: 0, end: 999 });
    expect(resolveRange({ kind: 'from', start: 900, end: 5000 }, 1000)).toEqual({ kind: 'part', start: 900, end: 999 });
    expect(resolveRange({ kind: 'suffix', length: 100 }, 1000)).toEqual({ kind: 'part', start: 900, end: 999 });
    expect(resolveRange({ kind: 'suffix', length: 5000 }, 1000)).toEqual({ kind: 'part', start: 0, end: 999 });
  });

  it('refuses a range that starts past the end', () => {
    expect(resolveRange({ kind: 'from', start: 1000 }, 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(resolveRange({ kind: 'suffix', length: 0 }, 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(resolveRange({ kind: 'suffix', length: 10 }, 0)).toEqual({ kind: 'unsatisfiable' });
  });
});
