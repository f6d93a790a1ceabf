import { describe, expect, it } from 'vitest';
import { csvRecords, parseCsv } from './csv.js';

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, with CRLF or LF rows', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\n"two\nlines",\r\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\nlines', ''],
    ]);
  });

  it('keeps the last row without a final line break, and drops a byte-order mark', () => {
    expect(parseCsv('\ufeffa,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
});

describe('csvRecords', () => {
  it('keys each row by the header, an empty header name included', () => {
    expect(csvRecords(',Unit,Turn\n0,Hi,1\n1,Short')).toEqual([
      { '': '0', Unit: 'Hi', Turn: '1' },
      { '': '1', Unit: 'Short', Turn: '' },
    ]);
  });
});
