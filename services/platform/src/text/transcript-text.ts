import { clockTime } from './clock-time.js';

/** A transcript as people read it: "[m:ss] Speaker: text" per segment, without the time when the segment has none. */
export function transcriptText(segments: ReadonlyArray<{ startMs?: number | undefined; speaker: string; text: string }>): string {
  return segments.map((segment) => `${segment.startMs === undefined ? '' : `[${clockTime(segment.startMs)}] `}${segment.speaker}: ${segment.text}`).join('\n');
}
