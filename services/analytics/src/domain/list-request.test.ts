import { describe, expect, it } from 'vitest';
import { DomainError } from '@parlance/platform/errors';
import { Comparison, ListActivitiesRequest } from '@parlance/proto/parlance/analytics/v1/activities';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { LIST_MESSAGES, pageCount, readListRequest } from './list-request.js';

const request = (overrides: Partial<ListActivitiesRequest> = {}): ListActivitiesRequest =>
  ListActivitiesRequest.fromPartial({ kind: ActivityKind.ACTIVITY_KIND_CALL, page: 1, limit: 20, ...overrides });

function refusal(overrides: Partial<ListActivitiesRequest>): { message: string; field: unknown } {
  try {
    readListRequest(request(overrides));
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'invalid-argument') return { message: error.message, field: error.details.field };
    throw error;
  }
  throw new Error('the request was accepted');
}

describe('readListRequest', () => {
  it('reads an empty filter as no filter', () => {
    expect(readListRequest(request())).toEqual({
      kind: 'call',
      teamIds: [],
      department: null,
      start: null,
      end: null,
      isSuccessful: null,
      criteria: [],
      durationSeconds: null,
      score: null,
      scriptMatch: null,
      representativeEmails: [],
      contactIds: [],
      activityIds: [],
      needsReview: false,
      page: 1,
      limit: 20,
    });
  });

  it('reads every filter', () => {
    const query = readListRequest(
      request({
        kind: ActivityKind.ACTIVITY_KIND_MEETING,
        teamIds: ['team-a'],
        department: 'hr',
        start: new Date('2026-10-01T00:00:00Z'),
        end: new Date('2026-10-01T00:00:00Z'),
        isSuccessful: false,
        criteria: [{ groupId: 'opening', criterionId: 'greeting', passed: true }],
        durationSeconds: { value: 300, comparison: Comparison.COMPARISON_LTE },
        score: { value: 7.5, comparison: Comparison.COMPARISON_EQ },
        scriptMatch: { value: 80, comparison: Comparison.COMPARISON_GTE },
        representativeEmails: [' Anna.Lee@Example.COM '],
        contactIds: ['lead-42'],
        activityIds: ['a-1'],
        needsReview: true,
        page: 3,
        limit: 100,
      }),
    );
    expect(query).toMatchObject({
      kind: 'meeting',
      department: 'hr',
      isSuccessful: false,
      durationSeconds: { comparison: 'lte', value: 300 },
      score: { comparison: 'eq', value: 7.5 },
      scriptMatch: { comparison: 'gte', value: 80 },
      representativeEmails: ['anna.lee@example.com'],
      needsReview: true,
      page: 3,
      limit: 100,
    });
  });

  it('refuses a page below 1, naming the page', () => {
    expect(refusal({ page: 0 })).toEqual({ message: LIST_MESSAGES.page, field: 'page' });
    expect(LIST_MESSAGES.page).toBe('The page must be 1 or more.');
  });

  it('refuses a page size other than 10, 20, 50 or 100, naming the limit', () => {
    for (const limit of [0, 15, 200]) expect(refusal({ limit })).toEqual({ message: LIST_MESSAGES.limit, field: 'limit' });
    expect(LIST_MESSAGES.limit).toBe('The limit (page size) must be 10, 20, 50 or 100.');
  });

  it('refuses a range that ends before it starts', () => {
    expect(refusal({ start: new Date('2026-10-02T00:00:00Z'), end: new Date('2026-10-01T00:00:00Z') })).toEqual({ message: LIST_MESSAGES.range, field: 'end' });
  });

  it('refuses a number filter without a comparison, naming the filter', () => {
    expect(refusal({ score: { value: 5, comparison: Comparison.COMPARISON_UNSPECIFIED } })).toEqual({ message: 'The score filter needs a comparison: ≤, = or ≥.', field: 'score' });
    expect(refusal({ durationSeconds: { value: 5, comparison: Comparison.UNRECOGNIZED } })).toMatchObject({ field: 'durationSeconds' });
    expect(refusal({ scriptMatch: { value: Number.NaN, comparison: Comparison.COMPARISON_EQ } })).toEqual({ message: 'The script match filter needs a number.', field: 'scriptMatch' });
  });

  it('refuses an unknown kind or department, and a criterion filter naming no criterion', () => {
    expect(refusal({ kind: ActivityKind.ACTIVITY_KIND_UNSPECIFIED })).toEqual({ message: LIST_MESSAGES.kind, field: 'kind' });
    expect(refusal({ department: 'marketing' })).toEqual({ message: 'The department must be sales, hr or support.', field: 'department' });
    expect(refusal({ criteria: [{ groupId: 'opening', criterionId: '', passed: true }] })).toEqual({ message: LIST_MESSAGES.criterion, field: 'criteria' });
  });
});

describe('pageCount', () => {
  it('counts the pages the rows fill, none for no rows', () => {
    expect(pageCount(0, 20)).toBe(0);
    expect(pageCount(1, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
  });
});
