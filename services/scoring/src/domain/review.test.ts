import { describe, expect, it } from 'vitest';
import { DEFAULT_REVIEW_THRESHOLD, reviewThresholdOf } from './review.js';

describe('reviewThresholdOf', () => {
  it('keeps the threshold a team chose', () => {
    expect(reviewThresholdOf(0.5)).toBe(0.5);
    expect(reviewThresholdOf(0.85)).toBe(0.85);
    expect(reviewThresholdOf(0.95)).toBe(0.95);
  });

  it('reads none (a snapshot queued before teams had one) and 0 (protobuf’s unset) as the default', () => {
    expect(DEFAULT_REVIEW_THRESHOLD).toBe(0.7);
    expect(reviewThresholdOf(undefined)).toBe(DEFAULT_REVIEW_THRESHOLD);
    expect(reviewThresholdOf(0)).toBe(DEFAULT_REVIEW_THRESHOLD);
  });

  it('reads a value that cannot be a confidence as the default', () => {
    for (const value of [-0.5, 1.5, 70, Number.NaN]) expect(reviewThresholdOf(value)).toBe(DEFAULT_REVIEW_THRESHOLD);
  });
});
