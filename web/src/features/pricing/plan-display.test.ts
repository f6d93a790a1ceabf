import { describe, expect, it } from 'vitest';
import { annualDiscount, callTimeEstimate, cycleUnit, overagePrice, planPrice, tokenAllowance, trialLength } from './plan-display';

describe('planPrice', () => {
  it('shows a null price as a custom, contact-sales price', () => {
    expect(planPrice(null, 'annual')).toEqual({ kind: 'custom', amount: 'Custom' });
  });

  it('shows a zero price as free', () => {
    expect(planPrice(0, 'monthly')).toEqual({ kind: 'free', amount: 'Free' });
  });

  it('divides cents by 100 and shows two decimals per billing cycle', () => {
    expect(planPrice(4900, 'monthly')).toEqual({ kind: 'paid', amount: '$49.00', period: '/ month' });
    expect(planPrice(14_950, 'annual')).toEqual({ kind: 'paid', amount: '$149.50', period: '/ year' });
    expect(planPrice(149_900, 'monthly')).toMatchObject({ amount: '$1,499.00' });
    expect(planPrice(1, 'monthly')).toMatchObject({ amount: '$0.01' });
  });
});

describe('cycleUnit', () => {
  it('names the usual cycles and passes unknown ones through', () => {
    expect(cycleUnit('monthly')).toBe('month');
    expect(cycleUnit('Annual')).toBe('year');
    expect(cycleUnit('quarter')).toBe('quarter');
  });
});

describe('tokenAllowance and callTimeEstimate', () => {
  it('formats the allowance with thousands separators, or Unlimited', () => {
    expect(tokenAllowance(20_000_000)).toBe('20,000,000 insight tokens');
    expect(tokenAllowance('unlimited')).toBe('Unlimited insight tokens');
  });

  it('estimates 2.5 hours of calls per million tokens, with at most one decimal', () => {
    expect(callTimeEstimate(1_000_000)).toBe('about 2.5 hours of calls');
    expect(callTimeEstimate(5_000_000)).toBe('about 12.5 hours of calls');
    expect(callTimeEstimate(75_000_000)).toBe('about 187.5 hours of calls');
    expect(callTimeEstimate(1_234_567)).toBe('about 3.1 hours of calls');
    expect(callTimeEstimate(400_000)).toBe('about 1 hour of calls');
    expect(callTimeEstimate(2_000_000_000)).toBe('about 5,000 hours of calls');
  });

  it('shows whole minutes under one hour', () => {
    expect(callTimeEstimate(100_000)).toBe('about 15 minutes of calls');
    expect(callTimeEstimate(350_000)).toBe('about 53 minutes of calls');
    expect(callTimeEstimate(6_667)).toBe('about 1 minute of calls');
    // 59.7 minutes would round to 60: shown as an hour instead.
    expect(callTimeEstimate(398_000)).toBe('about 1 hour of calls');
  });

  it('says unlimited for an unlimited allowance', () => {
    expect(callTimeEstimate('unlimited')).toBe('Unlimited call time');
  });
});

describe('overagePrice', () => {
  it('reads the price per 1,000 tokens in dollars', () => {
    expect(overagePrice(0.05)).toBe('$0.05 per 1,000 insight tokens beyond your allowance');
    expect(overagePrice(0.005)).toBe('$0.005 per 1,000 insight tokens beyond your allowance');
    expect(overagePrice(1)).toBe('$1.00 per 1,000 insight tokens beyond your allowance');
  });
});

describe('annualDiscount and trialLength', () => {
  it('mentions a discount only when there is one', () => {
    expect(annualDiscount(20)).toBe('Save 20% with annual billing');
    expect(annualDiscount(0)).toBeNull();
  });

  it('mentions trial days only for the trial type', () => {
    expect(trialLength('trial', 14)).toBe('14-day free trial');
    expect(trialLength('paid', 14)).toBeNull();
    expect(trialLength('trial', 0)).toBeNull();
  });
});
