import { describe, expect, it } from 'vitest';
import { jobAnswerOf, meetingSendAnswerOf, statusOf, textFailureReason } from './api-answers';

describe('answers of the generated endpoints', () => {
  it('reads a job status or the status of a failed request', () => {
    const job = { isCompleted: true, isFailed: false, failedReason: '' };
    expect(jobAnswerOf({ data: job })).toEqual({ ok: true, job });
    expect(jobAnswerOf({ error: { status: 404, data: { error: 'Job j not found.' } } })).toEqual({ ok: false, status: 404 });
    expect(jobAnswerOf({ error: { status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' } })).toEqual({ ok: false, status: 'FETCH_ERROR' });
    expect(statusOf({ status: 'PARSING_ERROR', originalStatus: 502, data: '<html>', error: 'SyntaxError' })).toBe(502);
  });

  it("gives a text upload's reason: the gateway's sentence, else the status, else the request's error", () => {
    expect(textFailureReason({ status: 400, data: { error: 'Please select a team.' } })).toBe('Please select a team.');
    expect(textFailureReason({ status: 500, data: {} })).toBe('Unexpected status code 500');
    expect(textFailureReason({ status: 'CUSTOM_ERROR', error: 'Failed to obtain CSRF token' })).toBe('Failed to obtain CSRF token');
    expect(textFailureReason({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe('TypeError: Failed to fetch');
  });

  it('takes a meeting as accepted only with a jobId, else keeps the status or the error', () => {
    expect(meetingSendAnswerOf({ data: { jobId: 'j-1' } })).toEqual({ ok: true, jobId: 'j-1' });
    expect(meetingSendAnswerOf({ error: { status: 400, data: { error: 'Please select a team.' } } })).toEqual({ ok: false, status: 400 });
    expect(meetingSendAnswerOf({ error: { status: 'CUSTOM_ERROR', error: 'Failed to obtain CSRF token' } })).toEqual({
      ok: false,
      error: 'Failed to obtain CSRF token',
    });
  });
});
