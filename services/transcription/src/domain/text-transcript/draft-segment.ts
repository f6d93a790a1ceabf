/** What the format readers produce before the segments are tidied into their final form. */
export interface DraftSegment {
  /** Undefined when the file does not say who spoke. */
  speaker?: string;
  startMs?: number;
  endMs?: number;
  text: string;
}

/** Trims and turns every run of whitespace (tabs, line breaks, non-breaking spaces) into one space. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

export function appendText(segment: DraftSegment, text: string): void {
  if (text === '') return;
  segment.text = segment.text === '' ? text : `${segment.text} ${text}`;
}
