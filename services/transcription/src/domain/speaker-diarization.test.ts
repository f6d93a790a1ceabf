import { describe, expect, it } from 'vitest';
import { assignWordsToSpeakers, type DiarizedSegment } from './speaker-diarization.js';

const word = (text: string, startMs: number, endMs: number) => ({ text, startMs, endMs });

const SEGMENTS: DiarizedSegment[] = [
  { startMs: 500, endMs: 3_000, speaker: 'SPEAKER_01' },
  { startMs: 3_400, endMs: 6_000, speaker: 'SPEAKER_00' },
  { startMs: 6_000, endMs: 8_000, speaker: 'SPEAKER_01' },
];

describe('assignWordsToSpeakers', () => {
  it('numbers the speakers in the order the diarization lists them and gives each word the speaker it falls in', () => {
    const words = [word('hello', 600, 900), word('there', 3_500, 3_900), word('again', 7_000, 7_400)];
    expect(assignWordsToSpeakers(words, SEGMENTS, ['SPEAKER_01', 'SPEAKER_00']).map((item) => item.speaker)).toEqual([0, 1, 0]);
  });

  it('gives a word across a change of speaker to the one it overlaps most, keeping its times', () => {
    expect(assignWordsToSpeakers([word('across', 5_800, 6_300)], SEGMENTS, ['SPEAKER_01', 'SPEAKER_00'])).toEqual([{ text: 'across', startMs: 5_800, endMs: 6_300, speaker: 0 }]);
    expect(assignWordsToSpeakers([word('across', 5_500, 6_100)], SEGMENTS, ['SPEAKER_01', 'SPEAKER_00'])[0]!.speaker).toBe(1);
  });

  it('gives a word outside every segment to the nearest one', () => {
    const words = [word('early', 100, 300), word('gap-late', 3_050, 3_150), word('gap-early', 3_250, 3_350), word('after', 8_500, 8_700)];
    expect(assignWordsToSpeakers(words, SEGMENTS, ['SPEAKER_01', 'SPEAKER_00']).map((item) => item.speaker)).toEqual([0, 0, 1, 0]);
  });

  it('treats a word without length as the instant it names', () => {
    expect(assignWordsToSpeakers([word('blip', 4_000, 4_000)], SEGMENTS, ['SPEAKER_01', 'SPEAKER_00'])[0]!.speaker).toBe(1);
  });

  it('numbers speakers missing from the list by first segment, and puts everything on one speaker when there are no segments', () => {
    expect(assignWordsToSpeakers([word('a', 3_500, 3_600), word('b', 600, 700)], SEGMENTS).map((item) => item.speaker)).toEqual([1, 0]);
    expect(assignWordsToSpeakers([word('a', 0, 100)], []).map((item) => item.speaker)).toEqual([0]);
  });

  it('handles an hour of words against a thousand segments quickly', () => {
    const segments = Array.from({ length: 1_000 }, (_, index) => ({ startMs: index * 3_600, endMs: index * 3_600 + 3_000, speaker: `S${index % 3}` }));
    const words = Array.from({ length: 10_000 }, (_, index) => word(`w${index}`, index * 360, index * 360 + 300));
    const started = performance.now();
    const assigned = assignWordsToSpeakers(words, segments);
    expect(performance.now() - started).toBeLessThan(500);
    expect(assigned[0]!.speaker).toBe(0);
    expect(assigned[10]!.speaker).toBe(1);
  });
});
