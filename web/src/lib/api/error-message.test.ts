import { describe, expect, it } from 'vitest';
import { serverMessage } from './error-message';

describe('serverMessage', () => {
  it("reads the gateway's sentence, the base query's, or nothing", () => {
    expect(serverMessage({ status: 400, data: { error: 'Please enter a team name' } })).toBe('Please enter a team name');
    expect(serverMessage({ status: 'CUSTOM_ERROR', error: 'Failed to obtain CSRF token' })).toBe('Failed to obtain CSRF token');
    expect(serverMessage({ status: 500, data: { error: '  ' } })).toBeUndefined();
    expect(serverMessage({ status: 'FETCH_ERROR', error: 'TypeError: fetch failed' })).toBeUndefined();
    expect(serverMessage({ message: 'oops' })).toBeUndefined();
    expect(serverMessage(undefined)).toBeUndefined();
  });
});
