/**
 * The Performance Analysis export (spec part 2 §2.10): recommendations_{YYYY-MM-DD}.csv, one row
 * per member with their group, team and every figure. Pure; the download is lib/download-file.ts's.
 */
import type { ActivityType } from '../metrics';
import { dayOf } from './period-presets';
import { adviceFor } from './advice';
import { activityNoun, targetStatus, worstFirst, type RecommendationGroup } from './recommendations-format';

// A cell a spreadsheet would read as a formula (=, +, -, @, or a leading tab or carriage return)
// is made plain text by a leading apostrophe: names and advice are typed by people. A number, or
// the '-' of a count that cannot be worked out, is left as it is.
const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER_OR_DASH = /^-?\d*(\.\d+)?$/;

/** One field: guarded against formula injection, then quoted per RFC 4180 when it must be. */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) && !NUMBER_OR_DASH.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Numbers go out plain (no grouping, one decimal at most), so spreadsheets read them as numbers. */
const number = (value: number): string => String(Math.round(value * 10) / 10);

export function recommendationsCsvHeader(activityType: ActivityType): string[] {
  const noun = activityNoun(activityType);
  return [
    'Group',
    'From',
    'To',
    'Team',
    'First name',
    'Last name',
    'E-mail',
    'Target',
    `Successful ${noun}`,
    `Total ${noun}`,
    'Conversion rate (%)',
    'Average score',
    'Script match (%)',
    'Status',
    `Additional ${noun} needed`,
    'Required conversion rate (%)',
    'Required average score',
    'Criteria failure rates',
    'Advice',
  ];
}

/** The rows: one per member of each team of each group, in the order the API sends them. */
export function recommendationsCsvRows(groups: readonly RecommendationGroup[], activityType: ActivityType): string[][] {
  return groups.flatMap((group) =>
    group.teams.flatMap((team) =>
      team.members.map((member) => [
        group.groupName,
        group.from,
        group.to,
        team.teamName,
        member.firstName,
        member.lastName,
        member.email,
        number(member.target),
        number(member.successfulCalls),
        number(member.totalCalls),
        number(member.conversionRate),
        number(member.averageScore),
        member.scriptMatch === null ? 'N/A' : number(member.scriptMatch),
        targetStatus(member.onTarget),
        member.additionalNeeded === '-' ? '-' : number(member.additionalNeeded),
        number(member.requiredConversionRate),
        number(member.requiredAverageScore),
        worstFirst(member.criteria)
          .map((criterion) => `${criterion.criterionName}: ${number(criterion.failureRate)}%`)
          .join('; '),
        adviceFor(member, activityType).join(' | '),
      ]),
    ),
  );
}

/** The whole file: header and rows, CRLF line ends as RFC 4180 asks. */
export function recommendationsCsv(groups: readonly RecommendationGroup[], activityType: ActivityType): string {
  return [recommendationsCsvHeader(activityType), ...recommendationsCsvRows(groups, activityType)].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** recommendations_{YYYY-MM-DD}.csv, the day in the viewer's own time zone. */
export const recommendationsFileName = (today: Date): string => `recommendations_${dayOf(today)}.csv`;

/** Whether there is any member to write a row for. */
export const hasMembers = (groups: readonly RecommendationGroup[]): boolean => groups.some((group) => group.teams.some((team) => team.members.length > 0));
