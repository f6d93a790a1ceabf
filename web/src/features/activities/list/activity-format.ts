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

const wholeSeconds = (seconds: number) => (Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : 0);

/** Calls: m:ss, minutes not wrapped into hours ('62:05'). */
export function formatCallDuration(seconds: number): string {
  const total = wholeSeconds(seconds);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** Meetings: hours, minutes and seconds, leaving out leading zero parts ('1h 2m 5s', '2m 0s', '45s'). */
export function formatMeetingDuration(seconds: number): string {
  const total = wholeSeconds(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  if (hours > 0) return `${hours}h ${minutes}m ${rest}s`;
  if (minutes > 0) return `${minutes}m ${rest}s`;
  return `${rest}s`;
}

/** One decimal ('7.5'); '—' while there is none. */
export const formatScore = (score: number | null): string => (score === null || !Number.isFinite(score) ? '—' : score.toFixed(1));

/** Whole percent ('83%'); '—' while there is none. */
export const formatPercent = (value: number | null): string => (value === null || !Number.isFinite(value) ? '—' : `${Math.round(value)}%`);
