import { describe, expect, it } from 'vitest';
import { transcriptText } from './transcript-text.js';

describe('transcriptText', () => {
  it('gives each segment its line, timed when the segment has a time', () => {
    const segments = [
      { startMs: 2_000, speaker: 'Grace', text: 'Hello.' },
      { speaker: 'Morgan', text: 'Hi.' },
      { startMs: 3_725_000, speaker: 'Grace', text: 'Bye.' },
    ];
    expect(transcriptText(segments)).toBe('[0:02] Grace: Hello.\nMorgan: Hi.\n[1:02:05] Grace: Bye.');
  });

  it('writes times from an hour on as h:mm:ss, and nothing for an empty transcript', () => {
    expect(transcriptText([{ speaker: 'Anna', startMs: 3_725_000, text: 'Still here?' }])).toBe('[1:02:05] Anna: Still here?');
    expect(transcriptText([])).toBe('');
  });
});
