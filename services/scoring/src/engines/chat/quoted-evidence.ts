/**
 * Holds the model to its quotes. Evidence is shown to managers as what was said, so a quote must
 * be an exact substring of the segment it names. Only what a model does to a faithful quote is
 * forgiven: different whitespace, and quotation marks or punctuation around it. A quote that is
 * word for word in another segment has its index corrected (models miscount lines); anything else
 * is invented or paraphrased, and is dropped.
 */
import type { Evidence } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { SpeakerRole, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { speakerRoles } from './transcript-parts.js';

/** A quote as the model cited it, or as located in the transcript. */
export interface CitedQuote {
  segmentIndex: number;
  quote: string;
}

const SURROUNDING_QUOTES = /^["'“”‘’„«»‹›`]+|["'“”‘’„«»‹›`]+$/gu;
const SURROUNDING_PUNCTUATION = /^[\s"'“”‘’„«»‹›`.,;:!?…()[\]-]+|[\s"'“”‘’„«»‹›`.,;:!?…()[\]-]+$/gu;

/**
 * Where the quote is in the transcript: the segment it names when that segment holds it, else the
 * nearest segment that does; with the quote as the segment's own characters. Undefined when no
 * segment holds it.
 */
export function locateQuote(transcript: Transcript, cited: CitedQuote): CitedQuote | undefined {
  const segments = transcript.segments;
  const trimmed = cited.quote.trim();
  const candidates = [...new Set([trimmed.replace(SURROUNDING_QUOTES, '').trim(), trimmed.replace(SURROUNDING_PUNCTUATION, '')])].filter(Boolean);
  const patterns = candidates.map((candidate) => new RegExp(candidate.split(/\s+/).map(escapeRegExp).join('\\s+'), 'u'));
  if (patterns.length === 0) return undefined;
  const find = (index: number) => {
    const text = Number.isInteger(index) ? segments[index]?.text : undefined;
    if (text === undefined) return undefined;
    for (const pattern of patterns) {
      const match = pattern.exec(text);
      if (match) return { segmentIndex: index, quote: match[0] };
    }
    return undefined;
  };
  const named = find(cited.segmentIndex);
  if (named) return named;
  // Nearest first: a miscounted index is usually off by a little.
  const origin = Number.isInteger(cited.segmentIndex) ? Math.min(Math.max(cited.segmentIndex, 0), segments.length - 1) : 0;
  const byDistance = segments
    .map((_, index) => index)
    .filter((index) => index !== cited.segmentIndex)
    .sort((a, b) => Math.abs(a - origin) - Math.abs(b - origin) || a - b);
  for (const index of byDistance) {
    const found = find(index);
    if (found) return found;
  }
  return undefined;
}

/** Counts the quotes dropped over a whole judgement, for its warning. */
export interface QuoteTally {
  dropped: number;
}

/** The cited quotes that are in the transcript, located and without repeats; the rest counted as dropped. */
export function locateQuotes(transcript: Transcript, cited: CitedQuote[], tally: QuoteTally): CitedQuote[] {
  const located: CitedQuote[] = [];
  for (const quote of cited) {
    const found = locateQuote(transcript, quote);
    if (!found) {
      tally.dropped += 1;
      continue;
    }
    if (!located.some((other) => other.segmentIndex === found.segmentIndex && other.quote === found.quote)) located.push(found);
  }
  return located;
}

/** Located quotes as evidence, with the segment's speaker, role and time. */
export function evidenceOf(transcript: Transcript, located: CitedQuote[]): Evidence[] {
  const roles = speakerRoles(transcript);
  return located.map(({ segmentIndex, quote }) => {
    const segment = transcript.segments[segmentIndex]!;
    return {
      quote,
      segmentIndex,
      speaker: segment.speaker,
      role: roles.get(segment.speaker) ?? SpeakerRole.SPEAKER_ROLE_UNSPECIFIED,
      ...(segment.startMs === undefined ? {} : { startMs: segment.startMs }),
    };
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
