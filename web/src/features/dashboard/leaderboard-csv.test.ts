import { describe, expect, it } from 'vitest';
import { csvField, leaderboardCsv, type LeaderboardRow } from './leaderboard-csv';

const row = (overrides: Partial<LeaderboardRow> = {}): LeaderboardRow => ({
  team_id: 'team-1',
  representative_name: 'Ada Lovelace',
  representative_email: 'ada@example.com',
  total_activities: 1234,
  successful_activities: 823,
  success_rate: 66.66666666666667,
  average_score: 7.456,
  ...overrides,
});

/** A simple RFC 4180 reader for the tests: quoted fields, doubled quotes, CRLF lines. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let field = '';
  let fields: string[] = [];
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      fields.push(field);
      rows.push(fields);
      fields = [];
      field = '';
      index++;
    } else field += char;
  }
  return rows;
}

describe('leaderboard CSV', () => {
  it('has the API fields as columns and the API values unchanged, one CRLF line per row', () => {
    const text = leaderboardCsv([row(), row({ team_id: 'team-2', representative_name: 'Alan Turing', representative_email: 'alan@example.com', total_activities: 0, successful_activities: 0, success_rate: null, average_score: null })]);
    expect(text).toBe(
      'team_id,representative_name,representative_email,total_activities,successful_activities,success_rate,average_score\r\n' +
        'team-1,Ada Lovelace,ada@example.com,1234,823,66.66666666666667,7.456\r\n' +
        'team-2,Alan Turing,alan@example.com,0,0,,\r\n',
    );
  });

  it('quotes fields holding commas, quotes or line breaks, so they read back as they were', () => {
    const tricky = row({ representative_name: 'Lovelace, Ada "The Countess"\nof Lovelace' });
    const text = leaderboardCsv([tricky]);
    expect(text).toContain('"Lovelace, Ada ""The Countess""\nof Lovelace"');
    expect(parseCsv(text)[1]![1]).toBe('Lovelace, Ada "The Countess"\nof Lovelace');
  });

  it('is only the header line without rows', () => {
    expect(leaderboardCsv([])).toBe('team_id,representative_name,representative_email,total_activities,successful_activities,success_rate,average_score\r\n');
  });

  it('keeps a spreadsheet from running a name as a formula, and never changes numbers', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('@sum')).toBe("'@sum");
    expect(csvField(-3)).toBe('-3');
    expect(csvField(null)).toBe('');
    expect(csvField(Number.NaN)).toBe('');
  });
});
