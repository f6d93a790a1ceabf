/**
 * Cuts text to a length at a sentence or word boundary: a model server's error message before it
 * is shown, and the offline suggester's criterion texts.
 */

/**
 * `text` cut to at most `max` characters: at the last sentence end if that keeps at least half of
 * it, otherwise at the last word boundary, with "..." marking the cut.
 */
export function fitToLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const sentenceEnd = lastSentenceEnd(head);
  if (sentenceEnd >= max / 2) return head.slice(0, sentenceEnd).trimEnd();
  const cut = text.slice(0, max - 3);
  const space = cut.lastIndexOf(' ');
  const words = space >= max / 2 ? cut.slice(0, space) : cut;
  return `${words.replace(/[\s,;:.\-–—]+$/, '')}...`;
}

/** Index just after the last ".", "!" or "?" that ends a sentence in `text`, or -1. */
function lastSentenceEnd(text: string): number {
  let end = -1;
  for (const match of text.matchAll(/[.!?]["'”’)]?(?=\s|$)/g)) end = match.index + match[0].length;
  return end;
}
