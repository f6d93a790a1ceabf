import { describe, expect, it } from 'vitest';
import { csvField, hasMembers, recommendationsCsv, recommendationsCsvHeader, recommendationsCsvRows, recommendationsFileName } from './recommendations-csv';
import { recommendations } from './performance-test-fixtures';

describe('recommendations CSV', () => {
  it('quotes fields with commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('')).toBe('');
  });

  it('makes a cell a spreadsheet would run as a formula plain text, and leaves numbers and a dash alone', () => {
    expect(csvField('=SUM(A1:A2)')).toBe("'=SUM(A1:A2)");
    expect(csvField('@cmd')).toBe("'@cmd");
    expect(csvField('+1 call')).toBe("'+1 call");
    expect(csvField('=1,2')).toBe(`"'=1,2"`);
    expect(csvField('-')).toBe('-');
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField('12.5')).toBe('12.5');
  });

  it('names the activity in the headers', () => {
    expect(recommendationsCsvHeader('meetings')).toContain('Successful meetings');
    expect(recommendationsCsvHeader('meetings')).toContain('Additional meetings needed');
    expect(recommendationsCsvHeader('calls')).toContain('Total calls');
  });

  it('writes one row per member with their group, team and every figure, criteria worst first, and the advice worded from them', () => {
    expect(recommendationsCsvRows(recommendations, 'calls')).toEqual([
      [
        'Group 1',
        '2025-07-01',
        '2025-09-30',
        'Inbound sales',
        'Ada',
        'Lovelace',
        'ada@example.com',
        '10',
        '11',
        '40',
        '30',
        '8',
        '82.5',
        'On target',
        '0',
        '75',
        '10',
        'Next steps, agreed: 50%; Greeting: 12.5%',
        "On target: 11 successful of 10. | Good average score (8.0/10): keep it there. | Most failed: 'Next steps, agreed' (50% of 8 calls).",
      ],
      [
        'Group 1',
        '2025-07-01',
        '2025-09-30',
        'Inbound sales',
        'Alan',
        'Turing',
        'alan@example.com',
        '30',
        '0',
        '40',
        '0',
        '7.3',
        'N/A',
        'Below target',
        '-',
        '75',
        '10',
        '',
        'No successful calls yet (target 30): review their last calls together and agree on how to close.',
      ],
    ]);
  });

  it('joins header and rows with CRLF, ending with one', () => {
    const text = recommendationsCsv(recommendations, 'calls');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.split('\r\n')).toHaveLength(4);
    expect(text.split('\r\n')[1]).toContain(`,"Next steps, agreed: 50%; Greeting: 12.5%","On target: 11 successful of 10. | Good average score (8.0/10): keep it there. | Most failed: 'Next steps, agreed' (50% of 8 calls)."`);
  });

  it('writes only the header when no group has a member, and says there is nothing to export', () => {
    const noMembers = [{ ...recommendations[0]!, teams: [{ ...recommendations[0]!.teams[0]!, members: [] }] }];
    expect(recommendationsCsv(noMembers, 'calls').split('\r\n').filter(Boolean)).toHaveLength(1);
    expect(hasMembers(noMembers)).toBe(false);
    expect(hasMembers(recommendations)).toBe(true);
  });

  it('is named recommendations_{local day}.csv', () => {
    expect(recommendationsFileName(new Date(2025, 0, 9, 23, 59))).toBe('recommendations_2025-01-09.csv');
  });
});
