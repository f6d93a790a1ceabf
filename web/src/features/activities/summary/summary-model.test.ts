import { describe, expect, it } from 'vitest';
import { formatOffset, improvementCount, improvementCountText, roleBadgeOf, segmentsFromTranscript } from './summary-model';

describe('summary helpers', () => {
  it('reads "[m:ss] Speaker: text" lines into segments, times and speakers optional', () => {
    expect(segmentsFromTranscript('[0:05] Ada: Hello there.\n\n[1:02:03] Charles: Hi: all good.\nNo speaker here\nBob: untimed')).toEqual([
      { index: 0, speaker: 'Ada', role: 'unknown', startMs: 5000, endMs: null, text: 'Hello there.' },
      { index: 1, speaker: 'Charles', role: 'unknown', startMs: 3723000, endMs: null, text: 'Hi: all good.' },
      { index: 2, speaker: '', role: 'unknown', startMs: null, endMs: null, text: 'No speaker here' },
      { index: 3, speaker: 'Bob', role: 'unknown', startMs: null, endMs: null, text: 'untimed' },
    ]);
    expect(segmentsFromTranscript('  \n')).toEqual([]);
  });

  it('writes offsets as m:ss, and h:mm:ss past the hour', () => {
    expect(formatOffset(0)).toBe('0:00');
    expect(formatOffset(75500)).toBe('1:15');
    expect(formatOffset(3723000)).toBe('1:02:03');
  });

  it('counts the suggestions across groups', () => {
    const improvements = [
      { id: 'g1', name: 'A', criteria: [{ id: 'c1', name: 'x', suggestion: 's' }] },
      { id: 'g2', name: 'B', criteria: [{ id: 'c2', name: 'y', suggestion: 's' }, { id: 'c3', name: 'z', suggestion: 's' }] },
    ];
    expect(improvementCount(improvements)).toBe(3);
    expect(improvementCountText(3)).toBe('3 improvements suggested');
    expect(improvementCountText(1)).toBe('1 improvement suggested');
    expect(improvementCountText(0)).toBe('0 improvements suggested');
  });

  it('names a speaker’s role unless the label already says it', () => {
    expect(roleBadgeOf('Ada', 'representative')).toBe('Representative');
    expect(roleBadgeOf('Agent', 'representative')).toBe('Representative');
    expect(roleBadgeOf('Customer', 'contact')).toBe('Contact');
    for (const label of ['Representative', 'REPRESENTATIVE', 'representative 2', 'Rep.', 'Sales Representative']) {
      expect(roleBadgeOf(label, 'representative'), label).toBe(label === 'Sales Representative' ? 'Representative' : null);
    }
    expect(roleBadgeOf('Contact', 'contact')).toBeNull();
    expect(roleBadgeOf('Contact', 'representative')).toBe('Representative');
    expect(roleBadgeOf('Ada', 'unknown')).toBeNull();
  });
});
