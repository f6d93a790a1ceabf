/** How the activity tables write their values (spec part 2 §2.1, §9). */
import { formatDay } from '../../../lib/format';

const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

const parsed = (iso: string): Date | null => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** 'Mar 3, 2025' in local time; '—' when the date is missing or unreadable. */
export const formatDate = (iso: string): string => {
  const date = parsed(iso);
  return date ? formatDay(date) : '—';
};

/** '2:05 PM' in local time; '—' when missing or unreadable. */
export const formatTime = (iso: string): string => {
  const date = parsed(iso);
  return date ? timeFormat.format(date) : '—';
};

/** One decimal ('7.5'); '—' while there is none. */
export const formatScore = (score: number | null): string => (score === null || !Number.isFinite(score) ? '—' : score.toFixed(1));

/** Whole percent ('83%'); '—' while there is none. */
export const formatPercent = (value: number | null): string => (value === null || !Number.isFinite(value) ? '—' : `${Math.round(value)}%`);
