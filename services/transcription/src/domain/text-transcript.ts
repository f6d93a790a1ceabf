/**
 * Uploaded text transcripts (spec part 2 §2.3 and §2.4: .txt, .md and .text files of at most
 * 100 KB) read into speaker-labelled segments. The format is told by the content: the file name
 * only settles WebVTT against SRT for a cue file without its header, and names the file in
 * warnings. A person the file names in more than one way is one speaker. Nothing here throws: text
 * that has no structure is one speaker's words, and a warning says so; an empty file gives no
 * segments, and the caller decides whether that fails the job.
 */
import { isTimingLine, isWebVttHeader, readCueTranscript } from './text-transcript/cue-transcript.js';
import type { DraftSegment } from './text-transcript/draft-segment.js';
import { readLineTranscript, type LineLayout } from './text-transcript/line-transcript.js';
import { unifySpeakerLabels } from './text-transcript/same-speaker.js';

export type TranscriptFormat = 'webvtt' | 'srt' | 'zoom' | 'google-meet' | 'timestamped-lines' | 'speaker-lines' | 'plain';

export interface TextSegment {
  speaker: string;
  /** From the start of the recording; absent when the file gives no times. */
  startMs?: number;
  endMs?: number;
  text: string;
}

export interface ParsedTranscript {
  format: TranscriptFormat;
  segments: TextSegment[];
  /** Distinct speakers in the order they first speak. */
  speakers: string[];
  /** Worded for the person who uploaded the file. */
  warnings: string[];
}

/** Who speaks when the file does not say. */
export const UNKNOWN_SPEAKER = 'Speaker 1';

export const TEXT_TRANSCRIPT_MESSAGES = {
  empty: (fileName?: string) => (fileName ? `The transcript ${fileName} is empty.` : 'The transcript is empty.'),
  noSpeakers: (fileName?: string) => `No speakers found in ${fileName ?? 'the transcript'}: the whole text is treated as one speaker.`,
  unreadableCharacters: (fileName?: string) => `Some characters in ${fileName ?? 'the transcript'} are not text; they were left out.`,
  unreadableTimings: (count: number, fileName?: string) =>
    `${count === 1 ? 'A timing line' : `${count} timing lines`} in ${fileName ?? 'the transcript'} could not be read; the text under ${count === 1 ? 'it is' : 'them is'} kept without times.`,
  leftOutLines: (count: number, fileName?: string) =>
    `The first ${count === 1 ? 'line' : `${count} lines`} of ${fileName ?? 'the transcript'} came before any speaker and ${count === 1 ? 'was' : 'were'} left out.`,
} as const;

const FORMAT_OF_LAYOUT: Readonly<Record<LineLayout, TranscriptFormat>> = {
  'speaker-lines': 'speaker-lines',
  'stamped-lines': 'timestamped-lines',
  'speaker-headers': 'timestamped-lines',
  'meet-blocks': 'google-meet',
  'stamped-text': 'timestamped-lines',
  plain: 'plain',
};

interface FormatReading {
  format: TranscriptFormat;
  segments: DraftSegment[];
  warnings: string[];
  meetingEndMs?: number;
}

export function parseTextTranscript(content: string, fileName?: string): ParsedTranscript {
  const name = fileName?.trim() || undefined;
  const { text, unreadableCharacters } = normaliseText(content);
  const warnings = unreadableCharacters > 0 ? [TEXT_TRANSCRIPT_MESSAGES.unreadableCharacters(name)] : [];
  if (text.trim() === '') return { format: 'plain', segments: [], speakers: [], warnings: [...warnings, TEXT_TRANSCRIPT_MESSAGES.empty(name)] };

  const reading = readFormat(text, name);
  warnings.push(...reading.warnings);
  const drafts = oneLabelPerPerson(reading.segments.filter((segment) => segment.text !== ''));
  if (drafts.length === 0) return { format: reading.format, segments: [], speakers: [], warnings: [...warnings, TEXT_TRANSCRIPT_MESSAGES.empty(name)] };
  if (drafts.every((segment) => segment.speaker === undefined)) warnings.push(TEXT_TRANSCRIPT_MESSAGES.noSpeakers(name));

  const segments = fillEndTimes(mergeTurns(drafts), reading.meetingEndMs).map(toTextSegment);
  return { format: reading.format, segments, speakers: [...new Set(segments.map((segment) => segment.speaker))], warnings };
}

// Control characters other than tab and newline, and the replacement character a failed decode
// leaves: signs of a binary or wrongly encoded file rather than anything anyone said.
// eslint-disable-next-line no-control-regex
const UNREADABLE_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFD]/gu;

function normaliseText(content: string): { text: string; unreadableCharacters: number } {
  let unreadableCharacters = 0;
  const text = content
    .replace(/\uFEFF/gu, '')
    .replace(/\r\n?|[\u2028\u2029]/gu, '\n')
    .replace(UNREADABLE_CHARACTERS, () => {
      unreadableCharacters += 1;
      return ' ';
    });
  return { text, unreadableCharacters };
}

function readFormat(text: string, fileName: string | undefined): FormatReading {
  const lines = text.split('\n');
  const firstLine = lines.find((line) => line.trim() !== '') ?? '';
  const nonBlankLines = lines.filter((line) => line.trim() !== '').length;
  const timingLines = lines.filter(isTimingLine).length;
  const hasWebVttHeader = isWebVttHeader(firstLine);
  // Every cue has a timing line, and few cues run past ten lines.
  if (hasWebVttHeader || (timingLines > 0 && timingLines * 10 >= nonBlankLines)) {
    const cues = readCueTranscript(text);
    const isWebVtt = hasWebVttHeader || /\.vtt$/iu.test(fileName ?? '');
    const format = !isWebVtt ? 'srt' : cues.speakerPrefixesInMostCues ? 'zoom' : 'webvtt';
    const warnings = cues.unreadableTimings > 0 ? [TEXT_TRANSCRIPT_MESSAGES.unreadableTimings(cues.unreadableTimings, fileName)] : [];
    return { format, segments: cues.segments, warnings };
  }
  const read = readLineTranscript(text);
  const warnings = read.leftOutLines > 0 ? [TEXT_TRANSCRIPT_MESSAGES.leftOutLines(read.leftOutLines, fileName)] : [];
  return { format: FORMAT_OF_LAYOUT[read.layout], segments: read.segments, warnings, meetingEndMs: read.meetingEndMs };
}

/** A person named in more than one way ("Alex (Sales Manager)", "Alex", "ALEX") is one speaker: see same-speaker.ts. */
function oneLabelPerPerson(segments: readonly DraftSegment[]): DraftSegment[] {
  const shown = unifySpeakerLabels(segments.flatMap((segment) => (segment.speaker === undefined ? [] : [segment.speaker])));
  return segments.map((segment) => (segment.speaker === undefined ? segment : { ...segment, speaker: shown.get(segment.speaker) ?? segment.speaker }));
}

/**
 * Joins a speaker's consecutive segments when the later one adds no new time (continuation
 * lines, lines in the same Google Meet block), so that a segment is a turn. Segments that carry
 * their own times stay apart, and so do segments whose speaker is unknown (paragraphs of plain text).
 */
function mergeTurns(segments: readonly DraftSegment[]): DraftSegment[] {
  const turns: DraftSegment[] = [];
  for (const segment of segments) {
    const previous = turns.at(-1);
    const sameSpeaker = previous !== undefined && segment.speaker !== undefined && segment.speaker === previous.speaker;
    const addsNoTime =
      (segment.startMs === undefined || segment.startMs === previous?.startMs) && (segment.endMs === undefined || segment.endMs === previous?.endMs);
    if (previous && sameSpeaker && addsNoTime) previous.text = `${previous.text} ${segment.text}`;
    else turns.push({ ...segment });
  }
  return turns;
}

/**
 * A segment without an end ends where the next later segment starts (the next Google Meet block,
 * the next stamped line). The last ones end when Meet says the meeting ended, or stay open.
 */
function fillEndTimes(segments: DraftSegment[], meetingEndMs: number | undefined): DraftSegment[] {
  // Later starts, nearest first, each larger than the one below it: the next greater element.
  const laterStarts: number[] = meetingEndMs === undefined ? [] : [meetingEndMs];
  for (let index = segments.length - 1; index >= 0; index -= 1) {
    const segment = segments[index];
    if (segment?.startMs === undefined) continue;
    while (laterStarts.length > 0 && (laterStarts.at(-1) ?? 0) <= segment.startMs) laterStarts.pop();
    if (segment.endMs === undefined) {
      const endMs = laterStarts.at(-1);
      if (endMs !== undefined) segment.endMs = endMs;
    }
    laterStarts.push(segment.startMs);
  }
  return segments;
}

function toTextSegment(segment: DraftSegment): TextSegment {
  return {
    speaker: segment.speaker ?? UNKNOWN_SPEAKER,
    ...(segment.startMs === undefined ? {} : { startMs: segment.startMs }),
    ...(segment.endMs === undefined ? {} : { endMs: segment.endMs }),
    text: segment.text,
  };
}
