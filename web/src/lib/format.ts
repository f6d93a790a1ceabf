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
