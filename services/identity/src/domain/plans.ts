/**
 * The plan catalogue, subscription periods and usage (spec part 1 §2 "Pricing page", §3
 * "Pricing plans response" and "Subscription response", §9 overage price and 14-day trial).
 *
 * The catalogue is configured data: the service serves DEFAULT_PLAN_CATALOGUE unless its config
 * supplies another one of the same shape. Field names are the spec's (snake_case) because they
 * are the wire contract; prices are in cents, `price: null` means "contact sales".
 */
import Type, { type Static } from 'typebox';
import { notFound } from '@parlance/platform/errors';

export type BillingCycle = 'monthly' | 'annual';
export type PlanType = 'trial' | 'paid' | 'custom';

/** One plan, in the wire shape of GET /billing/plans; also what IDENTITY_PLANS_FILE must hold. */
export const PlanSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1 }),
    description: Type.String(),
    /** Cents per month on the monthly cycle; 0 is free; null is a custom price (contact sales). */
    price: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    contact_sales: Type.Boolean(),
    /** The cycle `price` is quoted for. */
    billing_cycle: Type.Union([Type.Literal('monthly'), Type.Literal('annual')]),
    /** Discount, in percent, for paying a year up front. */
    annual_discount_percent: Type.Integer({ minimum: 0, maximum: 100 }),
    popular: Type.Boolean(),
    /** Length of the free trial in days; 0 for plans that are not a trial. */
    trial_days: Type.Integer({ minimum: 0 }),
    type: Type.Union([Type.Literal('trial'), Type.Literal('paid'), Type.Literal('custom')]),
    features: Type.Object({
      /** Insight tokens included per billing period (per trial for the trial), or 'unlimited'. */
      insight_tokens_included: Type.Union([Type.Integer({ minimum: 0 }), Type.Literal('unlimited')]),
    }),
  },
  { additionalProperties: false },
);

export const PlanCatalogueSchema = Type.Object(
  {
    plans: Type.Array(PlanSchema, { minItems: 1 }),
    metadata: Type.Object({
      overage_pricing: Type.Object({
        /** US dollars per 1,000 insight tokens beyond the plan's allowance (spec §9: $0.05). */
        insight_tokens_per_1000: Type.Number({ minimum: 0 }),
      }),
    }),
  },
  { additionalProperties: false },
);

export type Plan = Static<typeof PlanSchema>;
export type PlanCatalogue = Static<typeof PlanCatalogueSchema>;

/**
 * Sizing. The pricing page estimates call time as tokens / 1,000,000 × 2.5 hours, and overage is
 * $0.05 per 1,000 tokens, i.e. $50 per million or $20 per hour of calls. Allowances are sized so
 * every tier's included tokens cost less than overage and less per token as the tier grows
 * (Starter $29.80, Growth $24.95, Business $19.99 per million), and the trial covers about 50
 * three-minute calls.
 */
export const DEFAULT_PLAN_CATALOGUE: PlanCatalogue = {
  plans: [
    {
      id: 'trial',
      name: 'Free Trial',
      description: 'Try every feature free for 14 days. No credit card required.',
      price: 0,
      contact_sales: false,
      billing_cycle: 'monthly',
      annual_discount_percent: 0,
      popular: false,
      trial_days: 14,
      type: 'trial',
      features: { insight_tokens_included: 1_000_000 },
    },
    {
      id: 'starter',
      name: 'Starter',
      description: 'For small teams starting to review their calls.',
      price: 14_900,
      contact_sales: false,
      billing_cycle: 'monthly',
      annual_discount_percent: 20,
      popular: false,
      trial_days: 0,
      type: 'paid',
      features: { insight_tokens_included: 5_000_000 },
    },
    {
      id: 'growth',
      name: 'Growth',
      description: 'For growing sales and support teams that score every conversation.',
      price: 49_900,
      contact_sales: false,
      billing_cycle: 'monthly',
      annual_discount_percent: 20,
      popular: true,
      trial_days: 0,
      type: 'paid',
      features: { insight_tokens_included: 20_000_000 },
    },
    {
      id: 'business',
      name: 'Business',
      description: 'For multi-department organisations with high call volumes.',
      price: 149_900,
      contact_sales: false,
      billing_cycle: 'monthly',
      annual_discount_percent: 20,
      popular: false,
      trial_days: 0,
      type: 'paid',
      features: { insight_tokens_included: 75_000_000 },
    },
    {
      id: 'enterprise',
      name: 'Enterprise',
      description: 'Unlimited analysis, single sign-on, audit log and a dedicated success manager.',
      price: null,
      contact_sales: true,
      billing_cycle: 'annual',
      annual_discount_percent: 0,
      popular: false,
      trial_days: 0,
      type: 'custom',
      features: { insight_tokens_included: 'unlimited' },
    },
  ],
  metadata: { overage_pricing: { insight_tokens_per_1000: 0.05 } },
};

export const TRIAL_PLAN_ID = 'trial';

export function findPlan(catalogue: PlanCatalogue, planId: string): Plan {
  const plan = catalogue.plans.find((p) => p.id === planId);
  if (!plan) throw notFound(`Unknown plan '${planId}'.`, { planId });
  return plan;
}

export interface Subscription {
  planId: string;
  billingCycle: BillingCycle;
  startedAt: Date;
}

/** One subscription per company; a new company starts on the trial. */
export function newCompanySubscription(now: Date): Subscription {
  return { planId: TRIAL_PLAN_ID, billingCycle: 'monthly', startedAt: now };
}

/**
 * What the company pays per billing cycle, in cents: the monthly price, or twelve months less the
 * annual discount (rounded to the cent); null for a contact-sales plan.
 */
export function subscriptionPriceCents(plan: Plan, cycle: BillingCycle): number | null {
  if (plan.price === null) return null;
  if (plan.type === 'trial' || cycle === 'monthly') return plan.price;
  return Math.round((plan.price * 12 * (100 - plan.annual_discount_percent)) / 100);
}

export interface Period {
  /** Inclusive. */
  from: Date;
  /** Exclusive: the start of the next period. */
  to: Date;
}

const daysInMonthUtc = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/**
 * `start` moved forward by whole months, in UTC, keeping its day of month where the target month
 * has it and otherwise using that month's last day (31 Jan → 28/29 Feb → 31 Mar: always measured
 * from the original start, so the anchor day is never lost).
 */
export function addMonthsUtc(start: Date, months: number): Date {
  const year = start.getUTCFullYear();
  const month = start.getUTCMonth() + months;
  const targetYear = year + Math.floor(month / 12);
  const targetMonth = ((month % 12) + 12) % 12;
  const day = Math.min(start.getUTCDate(), daysInMonthUtc(targetYear, targetMonth));
  return new Date(
    Date.UTC(
      targetYear,
      targetMonth,
      day,
      start.getUTCHours(),
      start.getUTCMinutes(),
      start.getUTCSeconds(),
      start.getUTCMilliseconds(),
    ),
  );
}

/**
 * The billing period containing `now` for a subscription started at `subscriptionStart`: periods
 * are anchored on the start date (monthly: same day each month; annual: same date each year),
 * like card processors do. Before the start, the first period is returned.
 */
export function billingPeriod(subscriptionStart: Date, now: Date, cycle: BillingCycle): Period {
  const step = cycle === 'monthly' ? 1 : 12;
  const anchor = (k: number) => addMonthsUtc(subscriptionStart, k * step);
  if (now.getTime() < subscriptionStart.getTime()) return { from: anchor(0), to: anchor(1) };
  const monthsApart =
    (now.getUTCFullYear() - subscriptionStart.getUTCFullYear()) * 12 + (now.getUTCMonth() - subscriptionStart.getUTCMonth());
  let k = Math.max(0, Math.floor(monthsApart / step));
  while (anchor(k).getTime() > now.getTime()) k -= 1;
  while (anchor(k + 1).getTime() <= now.getTime()) k += 1;
  return { from: anchor(k), to: anchor(k + 1) };
}

/** The trial runs trial_days from its start; after that it stays the last period until the plan changes. */
export function currentPeriod(subscription: Subscription, plan: Plan, now: Date): Period {
  if (plan.type === 'trial') {
    const from = subscription.startedAt;
    return { from, to: new Date(from.getTime() + plan.trial_days * 24 * 60 * 60 * 1000) };
  }
  return billingPeriod(subscription.startedAt, now, subscription.billingCycle);
}
