import { describe, expect, it } from 'vitest';
import { formatNeeded, formatRate, formatScore, formatScriptMatch, recommendationsError, targetStatus, worstFirst } from './recommendations-format';

describe('recommendations error', () => {
  it('joins a list the server sent as its error', () => {
    expect(recommendationsError({ status: 400, data: { error: ['teamIds is not valid', 'from is not a day'] } })).toBe(
      'Error loading recommendations: teamIds is not valid, from is not a day',
    );
  });

  it('takes the server’s error sentence, else its message', () => {
    expect(recommendationsError({ status: 503, data: { error: 'Analytics is unavailable.', message: 'ignored' } })).toBe(
      'Error loading recommendations: Analytics is unavailable.',
    );
    expect(recommendationsError({ status: 500, data: { message: 'Internal Server Error' } })).toBe('Error loading recommendations: Internal Server Error');
    expect(recommendationsError({ status: 500, data: { error: [], message: 'From the message' } })).toBe('Error loading recommendations: From the message');
  });

  it('takes the failure’s own message when the server said nothing', () => {
    expect(recommendationsError({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe('Error loading recommendations: TypeError: Failed to fetch');
    expect(recommendationsError({ name: 'Error', message: 'Aborted' })).toBe('Error loading recommendations: Aborted');
  });

  it('says Unknown error otherwise', () => {
    expect(recommendationsError({ status: 500, data: {} })).toBe('Error loading recommendations: Unknown error');
    expect(recommendationsError({ status: 502, data: null })).toBe('Error loading recommendations: Unknown error');
    expect(recommendationsError({})).toBe('Error loading recommendations: Unknown error');
    expect(recommendationsError(undefined)).toBe('Error loading recommendations: Unknown error');
  });
});

describe('recommendation figures', () => {
  it('words rates, scores, script match, needed counts and status', () => {
    expect(formatRate(33.333)).toBe('33.3%');
    expect(formatScore(7.25)).toBe('7.3');
    expect(formatScriptMatch(null)).toBe('N/A');
    expect(formatScriptMatch(80)).toBe('80.0%');
    expect(formatNeeded('-')).toBe('-');
    expect(formatNeeded(1200)).toBe('1,200');
    expect(targetStatus(true)).toBe('On target');
    expect(targetStatus(false)).toBe('Below target');
  });

  it('puts the most failed criteria first, keeping ties in order', () => {
    const criterion = (criterionName: string, failureRate: number) => ({ criterionName, failureRate, failed: 0, judged: 0, groupId: 'g', criterionId: criterionName, teamId: 't' });
    expect(worstFirst([criterion('a', 10), criterion('b', 60), criterion('c', 10)]).map((entry) => entry.criterionName)).toEqual(['b', 'a', 'c']);
  });
});
