import { describe, expect, it } from 'vitest';
import { Comparison } from '@parlance/proto/parlance/analytics/v1/activities';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { DomainError } from '@parlance/platform/errors';
import { listRequestOf, type ListQuery } from './activity-filters.js';

const CALL = ActivityKind.ACTIVITY_KIND_CALL;
const query = (fields: Partial<ListQuery> = {}): ListQuery => ({ ...fields });
const refusal = (fields: Partial<ListQuery>) => {
  try {
    listRequestOf(CALL, query(fields));
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'invalid-argument') return error.message;
    throw error;
  }
  throw new Error('the filter was accepted');
};

describe('listRequestOf', () => {
  it('defaults to the first page of 20, with no filter', () => {
    expect(listRequestOf(CALL, query())).toEqual({
      kind: CALL,
      teamIds: [],
      department: '',
      start: undefined,
      end: undefined,
      isSuccessful: undefined,
      criteria: [],
      durationSeconds: undefined,
      score: undefined,
      scriptMatch: undefined,
      representativeEmails: [],
      contactIds: [],
      activityIds: [],
      needsReview: false,
      page: 1,
      limit: 20,
    });
  });

  it('reads every filter of the spec', () => {
    const request = listRequestOf(
      CALL,
      query({
        department: 'sales',
        teamId: 't1',
        teamIds: ['t2', 't1,t3'],
        startDate: '2026-10-01T00:00:00Z',
        endDate: '2026-12-31',
        success: 'false',
        criterion: JSON.stringify([{ criterionGroupId: 'g1', criterionId: 'c1', result: false }]),
        duration: '{"value":300,"operator":"gte"}',
        score: '{"value":"8","operator":"gte"}',
        scriptMatch: '{"value":50,"operator":"lte"}',
        representatives: ' Ann@Example.com , bob@example.com',
        contactIds: ['lead-1', ' ', 'lead-1'],
        ids: 'a, b,,a',
        needsReview: 'true',
        page: '3',
        limit: '50',
      }),
    );
    expect(request).toMatchObject({
      department: 'sales',
      teamIds: ['t1', 't2', 't3'],
      start: new Date('2026-10-01T00:00:00Z'),
      isSuccessful: false,
      criteria: [{ groupId: 'g1', criterionId: 'c1', passed: false }],
      durationSeconds: { value: 300, comparison: Comparison.COMPARISON_GTE },
      score: { value: 8, comparison: Comparison.COMPARISON_GTE },
      scriptMatch: { value: 50, comparison: Comparison.COMPARISON_LTE },
      representativeEmails: ['ann@example.com', 'bob@example.com'],
      contactIds: ['lead-1'],
      activityIds: ['a', 'b'],
      needsReview: true,
      page: 3,
      limit: 50,
    });
  });

  it('takes an end date without a time as the whole of that day', () => {
    expect(listRequestOf(CALL, query({ endDate: '2026-12-31' })).end).toEqual(new Date('2027-01-01T00:00:00.000Z'));
    expect(listRequestOf(CALL, query({ endDate: '2026-12-31T10:00:00Z' })).end).toEqual(new Date('2026-12-31T10:00:00Z'));
  });

  it('refuses each malformed filter with a sentence naming it', () => {
    expect(refusal({ page: '0' })).toBe('page must be a whole number from 1.');
    expect(refusal({ page: '1.5' })).toBe('page must be a whole number from 1.');
    expect(refusal({ limit: '25' })).toBe('limit must be 10, 20, 50 or 100.');
    expect(refusal({ startDate: 'yesterday' })).toMatch(/^startDate must be a date/);
    expect(refusal({ startDate: '2026-12-01', endDate: '2026-11-01' })).toBe('endDate must not be before startDate.');
    expect(refusal({ success: 'yes' })).toBe('success must be true or false.');
    expect(refusal({ criterion: '[{"criterionId":"c1"}]' })).toMatch(/^criterion must be a JSON list/);
    expect(refusal({ criterion: 'not json' })).toMatch(/^criterion must be a JSON list/);
    expect(refusal({ duration: '{"value":5,"operator":"lt"}' })).toMatch(/^duration must be a JSON object/);
    expect(refusal({ score: '{"value":"high","operator":"gte"}' })).toMatch(/^score must be a JSON object/);
    expect(refusal({ scriptMatch: '{"value":101,"operator":"gte"}' })).toBe('scriptMatch value must be between 0 and 100.');
    expect(refusal({ duration: '{"value":-1,"operator":"gte"}' })).toMatch(/^duration value must be between 0 and/);
    for (const needsReview of ['false', 'yes', '1', 'TRUE']) {
      expect(refusal({ needsReview })).toBe('needsReview must be true (only activities with a criterion that needs review), or left out.');
    }
  });

  it('filters on a criterion that needs review only for needsReview=true, and not when it is left out or empty', () => {
    expect(listRequestOf(CALL, query({ needsReview: ' true ' })).needsReview).toBe(true);
    expect(listRequestOf(CALL, query({ needsReview: '' })).needsReview).toBe(false);
    expect(listRequestOf(CALL, query()).needsReview).toBe(false);
  });
});
