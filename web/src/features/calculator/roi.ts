/**
 * The ROI calculator's inputs, checks and formulas (spec part 1 §2 "ROI calculator", §9
 * "Calculator formulas"). Pure: the page keeps what the visitor typed and asks this module what
 * it means, so nothing on screen can read NaN or Infinity.
 */
import { formatUsd } from '../../lib/format';

export const ROI_FIELDS = [
  'callsPerWeek',
  'callsEvaluated',
  'successfulCallsReviewed',
  'unsuccessfulCallsReviewed',
  'avgRevenuePerCall',
  'potentialDecreasePercent',
  'avgQATimePerCall',
  'qaLaborCostPerHour',
] as const;

export type RoiField = (typeof ROI_FIELDS)[number];
export type RoiInputs = Record<RoiField, number>;
/** What the visitor typed, field by field (input values are strings). */
export type RoiDraft = Record<RoiField, string>;

/** Spec part 1 §2: the calculator's starting values. avgQATimePerCall is in minutes. */
export const ROI_DEFAULTS: RoiInputs = {
  callsPerWeek: 500,
  callsEvaluated: 70,
  successfulCallsReviewed: 100,
  unsuccessfulCallsReviewed: 330,
  avgRevenuePerCall: 30,
  potentialDecreasePercent: 10,
  avgQATimePerCall: 3,
  qaLaborCostPerHour: 35,
};

export const WEEKS_PER_YEAR = 52;

export const ROI_MESSAGES = {
  notANumber: 'Enter a number.',
  negative: 'Enter 0 or more.',
  noCalls: 'Calls per week must be more than 0.',
  percentRange: 'Enter a percentage between 0 and 100.',
  moreEvaluatedThanCalls: 'Cannot be more than the calls per week.',
} as const;

export type RoiResults = {
  /** (callsPerWeek - callsEvaluated) / callsPerWeek × 100 */
  percentUnreviewed: number | null;
  /** unsuccessfulCallsReviewed × avgRevenuePerCall × potentialDecreasePercent / 100 */
  revenueLostPerWeek: number | null;
  /** callsEvaluated × avgQATimePerCall / 60 */
  qaHoursSavedPerWeek: number | null;
  /** QA hours saved × qaLaborCostPerHour */
  qaCostSavedPerWeek: number | null;
  /** 52 × (revenue lost per week + QA cost saved per week) */
  annualSavings: number | null;
};

export function draftOf(inputs: RoiInputs): RoiDraft {
  return Object.fromEntries(ROI_FIELDS.map((field) => [field, String(inputs[field])])) as RoiDraft;
}

/** A number the visitor typed, or why it cannot be used. */
export function parseAmount(raw: string): { value: number } | { error: string } {
  const text = raw.trim();
  const value = text === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(value)) return { error: ROI_MESSAGES.notANumber };
  if (value < 0) return { error: ROI_MESSAGES.negative };
  return { value };
}

/** Checks every field; a field with an error has no value. */
export function checkDraft(draft: RoiDraft): { values: Partial<RoiInputs>; errors: Partial<Record<RoiField, string>> } {
  const values: Partial<RoiInputs> = {};
  const errors: Partial<Record<RoiField, string>> = {};
  for (const field of ROI_FIELDS) {
    const parsed = parseAmount(draft[field]);
    if ('error' in parsed) errors[field] = parsed.error;
    else values[field] = parsed.value;
  }
  if (values.callsPerWeek === 0) {
    delete values.callsPerWeek;
    errors.callsPerWeek = ROI_MESSAGES.noCalls;
  }
  if (values.potentialDecreasePercent !== undefined && values.potentialDecreasePercent > 100) {
    delete values.potentialDecreasePercent;
    errors.potentialDecreasePercent = ROI_MESSAGES.percentRange;
  }
  // More evaluated than made would give a negative share of unreviewed calls.
  if (values.callsEvaluated !== undefined && values.callsPerWeek !== undefined && values.callsEvaluated > values.callsPerWeek) {
    delete values.callsEvaluated;
    errors.callsEvaluated = ROI_MESSAGES.moreEvaluatedThanCalls;
  }
  return { values, errors };
}

/** The spec's formulas; an output is null when any input it needs is missing. */
export function calculateRoi(values: Partial<RoiInputs>): RoiResults {
  const { callsPerWeek, callsEvaluated, unsuccessfulCallsReviewed, avgRevenuePerCall, potentialDecreasePercent, avgQATimePerCall, qaLaborCostPerHour } =
    values;

  const percentUnreviewed =
    callsPerWeek !== undefined && callsPerWeek > 0 && callsEvaluated !== undefined
      ? ((callsPerWeek - callsEvaluated) / callsPerWeek) * 100
      : null;
  const revenueLostPerWeek =
    unsuccessfulCallsReviewed !== undefined && avgRevenuePerCall !== undefined && potentialDecreasePercent !== undefined
      ? (unsuccessfulCallsReviewed * avgRevenuePerCall * potentialDecreasePercent) / 100
      : null;
  const qaHoursSavedPerWeek =
    callsEvaluated !== undefined && avgQATimePerCall !== undefined ? (callsEvaluated * avgQATimePerCall) / 60 : null;
  const qaCostSavedPerWeek =
    qaHoursSavedPerWeek !== null && qaLaborCostPerHour !== undefined ? qaHoursSavedPerWeek * qaLaborCostPerHour : null;
  const annualSavings =
    revenueLostPerWeek !== null && qaCostSavedPerWeek !== null ? WEEKS_PER_YEAR * (revenueLostPerWeek + qaCostSavedPerWeek) : null;

  return { percentUnreviewed, revenueLostPerWeek, qaHoursSavedPerWeek, qaCostSavedPerWeek, annualSavings };
}

const percent = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const hours = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** Shown where an output cannot be calculated from the current inputs. */
export const NOT_AVAILABLE = '—';

export function formatCurrency(value: number | null): string {
  return value === null ? NOT_AVAILABLE : formatUsd(value);
}

export function formatPercent(value: number | null): string {
  return value === null ? NOT_AVAILABLE : `${percent.format(value)}%`;
}

export function formatHours(value: number | null): string {
  if (value === null) return NOT_AVAILABLE;
  const shown = hours.format(value);
  return `${shown} ${shown === '1' ? 'hour' : 'hours'}`;
}
