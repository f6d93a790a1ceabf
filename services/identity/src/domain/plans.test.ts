import Value from 'typebox/value';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PLAN_CATALOGUE,
  addMonthsUtc,
  billingPeriod,
  currentPeriod,
  findPlan,
  newCompanySubscription,
  subscriptionPriceCents,
  PlanCatalogueSchema,
} from './plans.js';

const d = (iso: string) => new Date(iso);
const iso = (p: { from: Date; to: Date }) => ({ from: p.from.toISOString(), to: p.to.toISOString() });
const plan = (id: string) => findPlan(DEFAULT_PLAN_CATALOGUE, id);

describe('plan catalogue', () => {
  const { plans, metadata } = DEFAULT_PLAN_CATALOGUE;

  it('is a valid catalogue by the schema a plans file is checked against', () => {
    expect(Value.Check(PlanCatalogueSchema, DEFAULT_PLAN_CATALOGUE)).toBe(true);
  });

  it('has every field of the spec’s pricing plans response on every plan', () => {
    for (const p of plans) {
      expect(Object.keys(p).sort()).toEqual(
        [
          'annual_discount_percent',
          'billing_cycle',
          'contact_sales',
          'description',
          'features',
          'id',
          'name',
          'popular',
          'price',
          'trial_days',
          'type',
        ].sort(),
      );
      expect(p.features).toHaveProperty('insight_tokens_included');
    }
  });

  it('offers a 14-day free trial', () => {
    const trials = plans.filter((p) => p.type === 'trial');
    expect(trials).toHaveLength(1);
    expect(trials[0]).toMatchObject({ trial_days: 14, price: 0, contact_sales: false });
  });

  it('marks exactly one plan popular, a paid one', () => {
    const popular = plans.filter((p) => p.popular);
    expect(popular).toHaveLength(1);
    expect(popular[0]?.type).toBe('paid');
  });

  it('prices paid tiers in whole cents, cheaper per included token as the tier grows', () => {
    const paid = plans.filter((p) => p.type === 'paid');
    expect(paid.length).toBeGreaterThanOrEqual(3);
    const perMillion = paid.map((p) => (p.price as number) / ((p.features.insight_tokens_included as number) / 1e6));
    for (const p of paid) expect(Number.isInteger(p.price)).toBe(true);
    expect([...perMillion].sort((a, b) => b - a)).toEqual(perMillion);
  });

  it('keeps every included token cheaper than paying overage for it', () => {
    const overagePerToken = (metadata.overage_pricing.insight_tokens_per_1000 * 100) / 1000;
    for (const p of plans.filter((p) => p.type === 'paid')) {
      expect((p.price as number) / (p.features.insight_tokens_included as number)).toBeLessThan(overagePerToken);
    }
  });

  it('has an enterprise tier with price null, contact sales and unlimited tokens', () => {
    expect(plan('enterprise')).toMatchObject({ price: null, contact_sales: true, features: { insight_tokens_included: 'unlimited' } });
  });

  it('publishes the overage price of $0.05 per 1,000 insight tokens', () => {
    expect(metadata).toEqual({ overage_pricing: { insight_tokens_per_1000: 0.05 } });
  });

  it('fails clearly on an unknown plan id', () => {
    expect(() => findPlan(DEFAULT_PLAN_CATALOGUE, 'platinum')).toThrow("Unknown plan 'platinum'.");
  });
});

describe('prices', () => {
  it('charges the monthly price monthly and twelve months less the discount yearly', () => {
    expect(subscriptionPriceCents(plan('growth'), 'monthly')).toBe(49_900);
    expect(subscriptionPriceCents(plan('growth'), 'annual')).toBe(Math.round(49_900 * 12 * 0.8));
  });

  it('has no price for contact-sales plans and nothing to pay on the trial', () => {
    expect(subscriptionPriceCents(plan('enterprise'), 'annual')).toBeNull();
    expect(subscriptionPriceCents(plan('trial'), 'annual')).toBe(0);
  });
});

describe('billingPeriod', () => {
  it('runs monthly periods from the subscription day to the same day next month', () => {
    expect(iso(billingPeriod(d('2025-01-15T10:00:00Z'), d('2025-03-20T00:00:00Z'), 'monthly'))).toEqual({
      from: '2025-03-15T10:00:00.000Z',
      to: '2025-04-15T10:00:00.000Z',
    });
  });

  it('starts a new period exactly at the anchor (from inclusive, to exclusive)', () => {
    const start = d('2025-01-15T10:00:00Z');
    expect(billingPeriod(start, d('2025-02-15T10:00:00Z'), 'monthly').from.toISOString()).toBe('2025-02-15T10:00:00.000Z');
    expect(billingPeriod(start, d('2025-02-15T09:59:59.999Z'), 'monthly').from.toISOString()).toBe('2025-01-15T10:00:00.000Z');
  });

  it('uses the last day of shorter months and goes back to the 31st after', () => {
    const start = d('2024-01-31T00:00:00Z');
    expect(iso(billingPeriod(start, d('2024-02-29T12:00:00Z'), 'monthly'))).toEqual({
      from: '2024-02-29T00:00:00.000Z',
      to: '2024-03-31T00:00:00.000Z',
    });
    expect(iso(billingPeriod(start, d('2025-02-10T00:00:00Z'), 'monthly'))).toEqual({
      from: '2025-01-31T00:00:00.000Z',
      to: '2025-02-28T00:00:00.000Z',
    });
  });

  it('runs annual periods from the same date each year, 29 February becoming 28 February', () => {
    expect(iso(billingPeriod(d('2024-02-29T00:00:00Z'), d('2026-06-01T00:00:00Z'), 'annual'))).toEqual({
      from: '2026-02-28T00:00:00.000Z',
      to: '2027-02-28T00:00:00.000Z',
    });
  });

  it('gives the first period when now is before the start, or within the first day', () => {
    const start = d('2025-05-10T00:00:00Z');
    expect(billingPeriod(start, d('2025-05-01T00:00:00Z'), 'monthly').from).toEqual(start);
    expect(billingPeriod(start, start, 'monthly').from).toEqual(start);
  });

  it('handles the turn of the year and periods many years on', () => {
    expect(billingPeriod(d('2024-12-05T00:00:00Z'), d('2025-01-04T23:59:59Z'), 'monthly').from.toISOString()).toBe(
      '2024-12-05T00:00:00.000Z',
    );
    expect(billingPeriod(d('2000-03-31T00:00:00Z'), d('2030-04-30T00:00:00Z'), 'monthly').from.toISOString()).toBe(
      '2030-04-30T00:00:00.000Z',
    );
  });

  it('adds months in UTC keeping the original anchor day', () => {
    expect(addMonthsUtc(d('2025-01-31T08:30:00Z'), 1).toISOString()).toBe('2025-02-28T08:30:00.000Z');
    expect(addMonthsUtc(d('2025-01-31T08:30:00Z'), 2).toISOString()).toBe('2025-03-31T08:30:00.000Z');
    expect(addMonthsUtc(d('2025-11-15T00:00:00Z'), 14).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });
});

describe('trial subscription', () => {
  const start = d('2025-06-01T09:00:00Z');
  const subscription = newCompanySubscription(start);

  it('puts a new company on the trial', () => {
    expect(subscription).toEqual({ planId: 'trial', billingCycle: 'monthly', startedAt: start });
  });

  it('runs the trial period for 14 days from sign-up', () => {
    expect(iso(currentPeriod(subscription, plan('trial'), d('2025-06-05T00:00:00Z')))).toEqual({
      from: '2025-06-01T09:00:00.000Z',
      to: '2025-06-15T09:00:00.000Z',
    });
  });
});
