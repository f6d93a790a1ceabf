/** A time from the start of a recording as people read it: "m:ss", or "h:mm:ss" from an hour on. */
export function clockTime(ms: number): string {
  // Never negative: a time before the start reads as the start.
  const totalSeconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = String(totalSeconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}
