// How the app writes money and counts: US dollars and en-US digit grouping everywhere, so the
// pricing page, the calculator and billing read alike.
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** '$1,499.00'. */
export const formatUsd = (amount: number): string => dollars.format(amount);

/** '1,000,000'. */
export const formatCount = (value: number): string => count.format(value);
