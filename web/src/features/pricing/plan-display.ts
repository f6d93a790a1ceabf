/**
 * How a plan from GET /billing/plans reads on the pricing page (spec part 1 §2 "Pricing page",
 * §3 "Pricing plans response"). Pure functions, so the rules are tested without rendering.
 */
import { formatCount, formatUsd } from '../../lib/format';

/** Spec part 1 §2: tokens / 1,000,000 × 2.5 hours of calls. */
export const CALL_HOURS_PER_MILLION_TOKENS = 2.5;

// Overage prices are fractions of a dollar ($0.05); keep up to four decimals so $0.005 stays exact.
const usdFine = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 4 });
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export type PlanPrice =
  | { kind: 'custom'; amount: 'Custom' }
  | { kind: 'free'; amount: 'Free' }
  | { kind: 'paid'; amount: string; period: string };

/** null → contact sales ('Custom'); 0 → 'Free'; otherwise cents / 100 with two decimals per billing cycle. */
export function planPrice(priceCents: number | null, billingCycle: string): PlanPrice {
  if (priceCents === null) return { kind: 'custom', amount: 'Custom' };
  if (priceCents === 0) return { kind: 'free', amount: 'Free' };
  return { kind: 'paid', amount: formatUsd(priceCents / 100), period: `/ ${cycleUnit(billingCycle)}` };
}

/** 'monthly' → 'month', 'annual' → 'year'; an unknown cycle is shown as the server sends it. */
export function cycleUnit(billingCycle: string): string {
  switch (billingCycle.toLowerCase()) {
    case 'monthly':
    case 'month':
      return 'month';
    case 'annual':
    case 'annually':
    case 'yearly':
    case 'year':
      return 'year';
    default:
      return billingCycle;
  }
}

/** '20,000,000 insight tokens' or 'Unlimited insight tokens'. */
export function tokenAllowance(tokens: number | 'unlimited'): string {
  if (tokens === 'unlimited') return 'Unlimited insight tokens';
  return `${formatCount(tokens)} insight ${tokens === 1 ? 'token' : 'tokens'}`;
}

/**
 * About how much call time an allowance covers: hours with at most one decimal ('about 12.5
 * hours of calls'), or whole minutes under one hour ('about 15 minutes of calls').
 */
export function callTimeEstimate(tokens: number | 'unlimited'): string {
  if (tokens === 'unlimited') return 'Unlimited call time';
  const hours = (tokens / 1_000_000) * CALL_HOURS_PER_MILLION_TOKENS;
  const minutes = Math.round(hours * 60);
  // 59.6 minutes rounds to 60: say '1 hour' rather than '60 minutes'.
  if (minutes < 60) return `about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} of calls`;
  const shown = oneDecimal.format(Math.max(hours, 1));
  return `about ${shown} ${shown === '1' ? 'hour' : 'hours'} of calls`;
}

/** '$0.05 per 1,000 insight tokens beyond your allowance', from metadata.overage_pricing. */
export function overagePrice(usdPer1000Tokens: number): string {
  return `${usdFine.format(usdPer1000Tokens)} per 1,000 insight tokens beyond your allowance`;
}

/** 'Save 20% with annual billing', or null when there is no discount. */
export function annualDiscount(percent: number): string | null {
  return percent > 0 ? `Save ${percent}% with annual billing` : null;
}

/** '14-day free trial' for the trial type, or null. */
export function trialLength(type: string, trialDays: number): string | null {
  if (type !== 'trial' || trialDays <= 0) return null;
  return `${trialDays}-day free trial`;
}
