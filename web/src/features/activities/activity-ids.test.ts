import { describe, expect, it } from 'vitest';
import { activityLink, activitySelection, idsParam, parseIds } from './activity-ids';

describe('activity ids in the URL', () => {
  it('trims ids, drops empty entries and removes duplicates', () => {
    expect(parseIds(' a1 , ,b2,a1,, c3 ,b2')).toEqual(['a1', 'b2', 'c3']);
    expect(parseIds('')).toEqual([]);
    expect(parseIds(' , ')).toEqual([]);
    expect(parseIds(null)).toEqual([]);
  });

  it('opens the Calls tab for callId and the Meetings tab for meetingId', () => {
    expect(activitySelection(new URLSearchParams('callId=c1,c2'))).toEqual({ tab: 'calls', callIds: ['c1', 'c2'], meetingIds: [] });
    expect(activitySelection(new URLSearchParams('meetingId=%20m1%20,m1'))).toEqual({ tab: 'meetings', callIds: [], meetingIds: ['m1'] });
    expect(activitySelection(new URLSearchParams('meetingId='))).toEqual({ tab: 'meetings', callIds: [], meetingIds: [] });
  });

  it('opens Calls without ids, and Calls when a link carries both', () => {
    expect(activitySelection(new URLSearchParams(''))).toEqual({ tab: 'calls', callIds: [], meetingIds: [] });
    expect(activitySelection(new URLSearchParams('meetingId=m1&callId=c1')).tab).toBe('calls');
  });

  it('writes ids back as one comma list, or nothing', () => {
    expect(idsParam(['a', 'b'])).toBe('a,b');
    expect(idsParam([])).toBeNull();
  });

  it('builds the copied link with the id parameter of the tab', () => {
    expect(activityLink('https://app.example.com', 'calls', 'c 1')).toBe('https://app.example.com/activities?callId=c%201');
    expect(activityLink('https://app.example.com', 'meetings', 'm1')).toBe('https://app.example.com/activities?meetingId=m1');
  });
});
