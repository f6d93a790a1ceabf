import { describe, expect, it } from 'vitest';
import { callListParams, EMPTY_FILTERS, meetingListParams, withCriterion, yesNoValue, type ColumnFilters, type ListContext } from './filter-params';

const context: ListContext = {
  department: 'sales',
  teamId: 'team-1',
  startDate: new Date('2025-07-01T00:00:00.000Z'),
  endDate: new Date('2025-09-30T23:59:59.999Z'),
  ids: [],
  page: 2,
  limit: 50,
};

const filters = (change: Partial<ColumnFilters>): ColumnFilters => ({ ...EMPTY_FILTERS, ...change });
const json = (text: string | undefined) => (text === undefined ? undefined : JSON.parse(text));

describe('filter → list query', () => {
  it('sends only the context when no filter filters', () => {
    expect(callListParams(context, EMPTY_FILTERS)).toEqual({
      department: 'sales',
      teamId: 'team-1',
      startDate: '2025-07-01T00:00:00.000Z',
      endDate: '2025-09-30T23:59:59.999Z',
      page: '2',
      limit: '50',
    });
  });

  it('sends a yes/no filter only when exactly one of the pair is ticked', () => {
    expect(yesNoValue({ yes: true, no: true })).toBeUndefined();
    expect(yesNoValue({ yes: false, no: false })).toBeUndefined();
    expect(yesNoValue({ yes: true, no: false })).toBe(true);
    expect(yesNoValue({ yes: false, no: true })).toBe(false);

    expect(callListParams(context, filters({ success: { yes: true, no: true } })).success).toBeUndefined();
    expect(callListParams(context, filters({ success: { yes: false, no: false } })).success).toBeUndefined();
    expect(callListParams(context, filters({ success: { yes: false, no: true } })).success).toBe('false');
    expect(meetingListParams(context, filters({ success: { yes: true, no: false } })).success).toBe('true');
  });

  it('sends the criteria with exactly one ticked as one JSON list', () => {
    let state = withCriterion(EMPTY_FILTERS, 'g1', 'c1', { yes: true, no: false });
    state = withCriterion(state, 'g1', 'c2', { yes: true, no: true });
    state = withCriterion(state, 'g2', 'c3', { yes: false, no: true });
    state = withCriterion(state, 'g2', 'c4', { yes: false, no: false });
    expect(json(callListParams(context, state).criterion)).toEqual([
      { criterionGroupId: 'g1', criterionId: 'c1', result: true },
      { criterionGroupId: 'g2', criterionId: 'c3', result: false },
    ]);
    // Ticking both again removes it; none left means no parameter at all.
    state = withCriterion(state, 'g1', 'c1', { yes: true, no: true });
    state = withCriterion(state, 'g2', 'c3', { yes: true, no: true });
    expect(callListParams(context, state).criterion).toBeUndefined();
    expect(state.criteria.map((entry) => entry.criterionId)).toEqual(['c1', 'c2', 'c3', 'c4']);
  });

  it('takes the duration in minutes, rounds it and sends seconds', () => {
    expect(json(callListParams(context, filters({ duration: { value: '2.4', operator: 'gte' } })).duration)).toEqual({ value: 120, operator: 'gte' });
    expect(json(callListParams(context, filters({ duration: { value: '2.5', operator: 'lte' } })).duration)).toEqual({ value: 180, operator: 'lte' });
    expect(json(callListParams(context, filters({ duration: { value: '1,6', operator: 'eq' } })).duration)).toEqual({ value: 120, operator: 'eq' });
    expect(callListParams(context, filters({ duration: { value: '', operator: 'eq' } })).duration).toBeUndefined();
    expect(callListParams(context, filters({ duration: { value: 'abc', operator: 'eq' } })).duration).toBeUndefined();
  });

  it('holds the duration within 0–100 minutes for calls and 0–500 for meetings', () => {
    const long = filters({ duration: { value: '700', operator: 'lte' } });
    expect(json(callListParams(context, long).duration)).toEqual({ value: 6000, operator: 'lte' });
    expect(json(meetingListParams(context, long).duration)).toEqual({ value: 30000, operator: 'lte' });
    expect(json(meetingListParams(context, filters({ duration: { value: '-3', operator: 'gte' } })).duration)).toEqual({ value: 0, operator: 'gte' });
  });

  it('holds the score within 0–1000 for calls and 0–100 for meetings, and script match within 0–100', () => {
    const high = filters({ score: { value: '5000', operator: 'gte' }, scriptMatch: { value: '250', operator: 'gte' } });
    expect(json(callListParams(context, high).score)).toEqual({ value: 1000, operator: 'gte' });
    expect(json(meetingListParams(context, high).score)).toEqual({ value: 100, operator: 'gte' });
    expect(json(callListParams(context, high).scriptMatch)).toEqual({ value: 100, operator: 'gte' });
    expect(json(callListParams(context, filters({ score: { value: '-1', operator: 'lte' } })).score)).toEqual({ value: 0, operator: 'lte' });
    expect(json(callListParams(context, filters({ score: { value: '7.5', operator: 'eq' } })).score)).toEqual({ value: 7.5, operator: 'eq' });
  });

  it('sends representatives, contact ids and the URL ids under each list’s names', () => {
    const state = filters({ representatives: ['ada@example.com', 'alan@example.com'], contactIds: ' k1, ,k2 ,k1' });
    const calls = callListParams({ ...context, ids: ['c1', 'c2'] }, state);
    expect(calls).toMatchObject({ representatives: 'ada@example.com,alan@example.com', contactIds: 'k1,k2', callIds: 'c1,c2' });
    const meetings = meetingListParams({ ...context, ids: ['m1'] }, state);
    expect(meetings).toMatchObject({ repEmails: 'ada@example.com,alan@example.com', contactIds: 'k1,k2', meetingIds: 'm1' });
    expect(meetings).not.toHaveProperty('representatives');
    expect(meetings).not.toHaveProperty('callIds');
  });

  it('sends needsReview=true to both lists only while the Needs review filter is on', () => {
    expect(callListParams(context, EMPTY_FILTERS)).not.toHaveProperty('needsReview');
    expect(callListParams(context, filters({ needsReview: true })).needsReview).toBe('true');
    expect(meetingListParams(context, filters({ needsReview: true })).needsReview).toBe('true');
    expect(meetingListParams(context, filters({ needsReview: false }))).not.toHaveProperty('needsReview');
  });

  it('leaves the department out when none is chosen', () => {
    expect(callListParams({ ...context, department: null }, EMPTY_FILTERS)).not.toHaveProperty('department');
  });
});
