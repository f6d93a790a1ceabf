import { describe, expect, it } from 'vitest';
import { coachingPath, readCoachingState } from './coaching-link';

describe('coaching links', () => {
  it('carry the e-mail as one path segment', () => {
    expect(coachingPath('ada@example.com')).toBe('/dashboard/representatives/ada%40example.com');
    expect(coachingPath('a/b+c@example.com')).toBe('/dashboard/representatives/a%2Fb%2Bc%40example.com');
  });

  it('read back the tab and period they carry, and nothing from other state', () => {
    const range = { from: '2025-03-01', to: '2025-03-31', preset: 'this-month' as const };
    expect(readCoachingState({ activityType: 'meetings', range })).toEqual({ activityType: 'meetings', range });
    expect(readCoachingState({ activityType: 'calls', range: { from: 1 } })).toEqual({ activityType: 'calls' });
    expect(readCoachingState({ activityType: 'emails' })).toBeUndefined();
    expect(readCoachingState(null)).toBeUndefined();
  });
});
