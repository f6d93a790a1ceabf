/**
 * How the dashboard and the coaching view write their numbers (spec part 2 §9): thousands
 * separators, success rate 0% when absent, scores with one decimal or N/A, durations as m:ss for
 * calls and h/m/s for meetings. en-US grouping, as the rest of the app (lib/format.ts).
 */
import { formatCallDuration, formatMeetingDuration } from '../../lib/format';
import type { ActivityType } from './metrics';

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const upToOneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export const isNumber = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

// Rounded before formatting, so a tiny negative value never shows as '-0.0'.
const rounded = (value: number, decimals: number) => {
  const factor = 10 ** decimals;
  const result = Math.round(value * factor) / factor;
  return result === 0 ? 0 : result;
};

/** '1,234'; '0' when absent. */
export const formatCount = (value: number | null | undefined): string => whole.format(isNumber(value) ? rounded(value, 0) : 0);

/** '12.5' or '1,234': at most one decimal, with separators; '0' when absent. */
export const formatAverage = (value: number | null | undefined): string => upToOneDecimal.format(isNumber(value) ? rounded(value, 1) : 0);

/** A percentage with at most one decimal: '66.7%', '50%'; '0%' when absent. */
export const formatPercent = (rate: number | null | undefined): string => `${formatAverage(rate)}%`;

/** Leaderboard success rate: '66.7%', '50%'; '0%' when absent (spec part 2 §9). */
export const formatSuccessRate = formatPercent;

/** A rate with one decimal ('45.0%'), or N/A when there is none. */
export const formatRate = (rate: number | null | undefined): string => (isNumber(rate) ? `${oneDecimal.format(rounded(rate, 1))}%` : 'N/A');

/** A 0–10 score with one decimal ('7.5'), or N/A when none is scored. */
export const formatAverageScore = (score: number | null | undefined): string => (isNumber(score) ? oneDecimal.format(rounded(score, 1)) : 'N/A');

export const formatDuration = (seconds: number | null | undefined, activityType: ActivityType): string =>
  activityType === 'meetings' ? formatMeetingDuration(seconds) : formatCallDuration(seconds);

/** What an activity of a tab is called in a sentence: 'call' or 'meeting', plural with a count other than one. */
export const activityNoun = (activityType: ActivityType, count = 2): string => `${activityType === 'meetings' ? 'meeting' : 'call'}${count === 1 ? '' : 's'}`;

/** 'Calls' or 'Meetings', as in headings. */
export const activityTitle = (activityType: ActivityType): string => (activityType === 'meetings' ? 'Meetings' : 'Calls');
