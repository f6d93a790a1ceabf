// How the app writes money, counts and days: US dollars, en-US digit grouping and en-US dates
// everywhere, so the pricing page, the calculator, billing and the activity screen read alike.
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** '$1,499.00'. */
export const formatUsd = (amount: number): string => dollars.format(amount);

/** '1,000,000'. */
export const formatCount = (value: number): string => count.format(value);

/** 'Mar 3, 2025', in local time. */
export const formatDay = (date: Date): string => day.format(date);

const wholeSeconds = (seconds: number | null | undefined) => (typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : 0);

/** Calls: m:ss, minutes not wrapped into hours ('62:05'); spec part 2 §9. */
export function formatCallDuration(seconds: number | null | undefined): string {
  const total = wholeSeconds(seconds);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** Meetings: hours, minutes and seconds, leaving out leading zero parts ('1h 2m 5s', '2m 0s', '45s'); spec part 2 §9. */
export function formatMeetingDuration(seconds: number | null | undefined): string {
  const total = wholeSeconds(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  if (hours > 0) return `${hours}h ${minutes}m ${rest}s`;
  if (minutes > 0) return `${minutes}m ${rest}s`;
  return `${rest}s`;
}
