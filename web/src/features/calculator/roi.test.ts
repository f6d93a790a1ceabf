import { describe, expect, it } from 'vitest';
import {
  calculateRoi,
  checkDraft,
  draftOf,
  formatCurrency,
  formatHours,
  formatPercent,
  parseAmount,
  ROI_DEFAULTS,
  ROI_MESSAGES,
  type RoiDraft,
} from './roi';

const defaults = (): RoiDraft => draftOf(ROI_DEFAULTS);

describe('calculateRoi', () => {
  it('applies the spec formulas to the default inputs', () => {
    expect(calculateRoi(ROI_DEFAULTS)).toEqual({
      percentUnreviewed: 86, // (500 - 70) / 500 × 100
      revenueLostPerWeek: 990, // 330 × 30 × 10 / 100
      qaHoursSavedPerWeek: 3.5, // 70 × 3 / 60
      qaCostSavedPerWeek: 122.5, // 3.5 × 35
      annualSavings: 57_850, // 52 × (990 + 122.5)
    });
  });

  it('leaves out only the outputs whose inputs are missing', () => {
    const { callsPerWeek: _calls, qaLaborCostPerHour: _cost, ...rest } = ROI_DEFAULTS;
    expect(calculateRoi(rest)).toEqual({
      percentUnreviewed: null,
      revenueLostPerWeek: 990,
      qaHoursSavedPerWeek: 3.5,
      qaCostSavedPerWeek: null,
      annualSavings: null,
    });
  });

  it('never divides by zero calls per week', () => {
    expect(calculateRoi({ ...ROI_DEFAULTS, callsPerWeek: 0 }).percentUnreviewed).toBeNull();
  });
});

describe('parseAmount', () => {
  it('accepts zero, decimals and surrounding spaces', () => {
    expect(parseAmount('0')).toEqual({ value: 0 });
    expect(parseAmount(' 12.5 ')).toEqual({ value: 12.5 });
  });

  it('rejects empty, non-numeric, infinite and negative input', () => {
    expect(parseAmount('')).toEqual({ error: ROI_MESSAGES.notANumber });
    expect(parseAmount('   ')).toEqual({ error: ROI_MESSAGES.notANumber });
    expect(parseAmount('abc')).toEqual({ error: ROI_MESSAGES.notANumber });
    expect(parseAmount('1e999')).toEqual({ error: ROI_MESSAGES.notANumber });
    expect(parseAmount('-1')).toEqual({ error: ROI_MESSAGES.negative });
  });
});

describe('checkDraft', () => {
  it('passes the defaults without errors', () => {
    expect(checkDraft(defaults())).toEqual({ values: ROI_DEFAULTS, errors: {} });
  });

  it('refuses zero calls per week with its own message', () => {
    const { values, errors } = checkDraft({ ...defaults(), callsPerWeek: '0' });
    expect(errors).toEqual({ callsPerWeek: 'Calls per week must be more than 0.' });
    expect(values.callsPerWeek).toBeUndefined();
  });

  it('refuses a percentage above 100', () => {
    expect(checkDraft({ ...defaults(), potentialDecreasePercent: '150' }).errors).toEqual({
      potentialDecreasePercent: 'Enter a percentage between 0 and 100.',
    });
  });

  it('refuses more evaluated calls than calls made', () => {
    expect(checkDraft({ ...defaults(), callsEvaluated: '501' }).errors).toEqual({
      callsEvaluated: 'Cannot be more than the calls per week.',
    });
    expect(checkDraft({ ...defaults(), callsEvaluated: '500' }).errors).toEqual({});
  });

  it('reports each bad field separately', () => {
    expect(checkDraft({ ...defaults(), avgRevenuePerCall: '', qaLaborCostPerHour: '-5' }).errors).toEqual({
      avgRevenuePerCall: 'Enter a number.',
      qaLaborCostPerHour: 'Enter 0 or more.',
    });
  });
});

describe('formatting', () => {
  it('formats currency, percentages and hours, and a dash for a missing value', () => {
    expect(formatCurrency(57_850)).toBe('$57,850.00');
    expect(formatCurrency(122.5)).toBe('$122.50');
    expect(formatPercent(86)).toBe('86%');
    expect(formatPercent(100 / 3)).toBe('33.3%');
    expect(formatHours(3.5)).toBe('3.5 hours');
    expect(formatHours(1)).toBe('1 hour');
    expect(formatHours(0.35)).toBe('0.35 hours');
    for (const format of [formatCurrency, formatPercent, formatHours]) expect(format(null)).toBe('—');
  });
});
