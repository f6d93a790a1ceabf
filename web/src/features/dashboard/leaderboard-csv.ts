/**
 * The leaderboard's CSV export (spec part 2 §2.9), built in the browser from the rows shown. The
 * columns are the API's fields and the values are the API's values (nothing rounded or relabelled),
 * so the file can be checked against the response; a missing value is an empty field.
 */
import type { GetLeaderboardApiResponse } from '../../lib/api/gateway-api.generated';

export type LeaderboardRow = GetLeaderboardApiResponse[number];

export const LEADERBOARD_FILE_NAME = 'leaderboard.csv';

export const LEADERBOARD_CSV_COLUMNS = [
  'team_id',
  'representative_name',
  'representative_email',
  'total_activities',
  'successful_activities',
  'success_rate',
  'average_score',
] as const satisfies readonly (keyof LeaderboardRow)[];

// A text a spreadsheet would run as a formula (=, +, -, @, or a leading tab or carriage return)
// is made plain text by a leading apostrophe. Numbers are never changed.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field, quoted per RFC 4180 when it holds a comma, a quote or a line break. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The header line and a line per row, CRLF-separated as RFC 4180 asks. */
export function leaderboardCsv(rows: readonly LeaderboardRow[]): string {
  const lines = [LEADERBOARD_CSV_COLUMNS.join(','), ...rows.map((row) => LEADERBOARD_CSV_COLUMNS.map((column) => csvField(row[column])).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}
