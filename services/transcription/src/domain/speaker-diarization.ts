/**
 * The words of a mono recording given to the speakers a diarization found: the speech server's
 * `POST /audio/diarization` answers with speech segments, each with a speaker label, sorted and
 * not overlapping. Each word goes to the speaker whose segments overlap it most; a word in no
 * segment (recognition and diarization rarely agree to the millisecond on where speech starts
 * and ends) goes to the speaker of the nearest segment. Speakers are numbered in the order the
 * diarization lists them, which is the order they first speak in.
 */
import type { TimedWord } from './transcript-words.js';

export interface DiarizedSegment {
  startMs: number;
  endMs: number;
  /** The diarization's label, e.g. SPEAKER_00. */
  speaker: string;
}

export type DiarizedWord = TimedWord & { speaker: number };

export function assignWordsToSpeakers(words: readonly TimedWord[], segments: readonly DiarizedSegment[], speakers: readonly string[] = []): DiarizedWord[] {
  const sorted = [...segments].filter((segment) => segment.endMs > segment.startMs).sort((a, b) => a.startMs - b.startMs);
  const numbers = new Map<string, number>();
  for (const label of [...speakers, ...sorted.map((segment) => segment.speaker)]) if (!numbers.has(label)) numbers.set(label, numbers.size);
  if (sorted.length === 0) return words.map((word) => ({ ...word, speaker: 0 }));
  // The segments do not overlap, so their ends rise with their starts.
  const ends = sorted.map((segment) => segment.endMs);

  return words.map((word) => {
    // A word without length (some engines give one) is the instant in its middle.
    const from = Math.min(word.startMs, word.endMs);
    const to = Math.max(word.endMs, from + 1);
    const first = firstIndexAbove(ends, from);
    const overlap = new Map<string, number>();
    for (let index = first; index < sorted.length && sorted[index]!.startMs < to; index += 1) {
      const segment = sorted[index]!;
      const shared = Math.min(to, segment.endMs) - Math.max(from, segment.startMs);
      if (shared > 0) overlap.set(segment.speaker, (overlap.get(segment.speaker) ?? 0) + shared);
    }
    let speaker: string | undefined;
    let most = 0;
    for (const [label, shared] of overlap) {
      if (shared > most) {
        speaker = label;
        most = shared;
      }
    }
    if (speaker === undefined) {
      // Between the segment that ended before it and the one that starts after it.
      const before = sorted[first - 1];
      const after = sorted[first];
      const gapBefore = before ? from - before.endMs : Number.POSITIVE_INFINITY;
      const gapAfter = after ? after.startMs - to : Number.POSITIVE_INFINITY;
      speaker = (gapBefore <= gapAfter ? before : after)!.speaker;
    }
    return { ...word, speaker: numbers.get(speaker)! };
  });
}

/** The first index whose value is above `value` (values ascending), or values.length. */
function firstIndexAbove(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle]! > value) high = middle;
    else low = middle + 1;
  }
  return low;
}
