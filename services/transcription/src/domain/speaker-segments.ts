/**
 * Transcript segments from recognised words that already know their speaker: the channel of a
 * stereo call (one speaker per channel) or the speaker turn of a mono call. The words of all
 * speakers are put in order of their start time and read off in runs; a segment ends when the
 * speaker changes or when the speaker pauses longer than `maxPauseMs`. Where two people speak at
 * once their words interleave by time, so a remark made over someone else's sentence sits between
 * the two halves of that sentence, as it happened.
 */
import type { TimedWord } from './transcript-words.js';

export type SpeakerWord = TimedWord & { speaker: number };

export interface SpeakerSegment {
  speaker: number;
  startMs: number;
  endMs: number;
  /** The words' texts joined by single spaces. */
  text: string;
  words: TimedWord[];
}

export interface SegmentOptions {
  /** A silence longer than this inside one speaker's speech starts a new segment. Default 1500. */
  maxPauseMs?: number;
}

export const DEFAULT_MAX_PAUSE_MS = 1500;

export function segmentsFromWords(words: readonly SpeakerWord[], options: SegmentOptions = {}): SpeakerSegment[] {
  const maxPause = options.maxPauseMs ?? DEFAULT_MAX_PAUSE_MS;
  const ordered = words
    .map((word, index) => ({ word, index }))
    .filter(({ word }) => word.text.trim() !== '')
    .sort((a, b) => a.word.startMs - b.word.startMs || a.word.endMs - b.word.endMs || a.index - b.index)
    .map(({ word }) => word);

  const segments: SpeakerSegment[] = [];
  let current: SpeakerSegment | undefined;
  for (const { speaker, ...word } of ordered) {
    if (!current || current.speaker !== speaker || word.startMs - current.endMs > maxPause) {
      current = { speaker, startMs: word.startMs, endMs: word.endMs, text: '', words: [] };
      segments.push(current);
    }
    current.words.push({ ...word, text: word.text.trim() });
    current.endMs = Math.max(current.endMs, word.endMs);
  }
  for (const segment of segments) segment.text = segment.words.map((word) => word.text).join(' ');
  return segments;
}
