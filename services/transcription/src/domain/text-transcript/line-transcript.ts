/**
 * Transcripts written as lines of text: `Name: text` (typed notes, chat logs, most tools' .txt
 * export), `[00:01:02] Name: text` (Zoom's .txt, many recorders), `Name  0:03` headers above the
 * words (Otter, Teams), Google Meet's blocks under a bare `00:05:00`, and text with nothing at all.
 * Each line is first classified; the counts decide the layout; then the lines are read the way
 * that layout reads them, so a stray "10:30" or "Note:" in a speaker file stays text.
 */
import { clockToMs, CLOCK_PATTERN } from './clock.js';
import { appendText, collapseWhitespace, type DraftSegment } from './draft-segment.js';
import { isPlausibleSpeakerName, readChatLine, readSpeakerLabel } from './speaker-labels.js';

export type LineLayout =
  /** `Name: text`, with continuation lines. */
  | 'speaker-lines'
  /** `[00:01:02] Name: text`: each turn carries its own time. */
  | 'stamped-lines'
  /** `Name  0:03` on a line of its own, the words below. */
  | 'speaker-headers'
  /** Google Meet: `00:05:00` alone on a line, then `Name: text` lines. */
  | 'meet-blocks'
  /** Times without speakers (`[00:01:02] text`, or a bare `0:05` above the words). */
  | 'stamped-text'
  | 'plain';

export interface LineTranscript {
  layout: LineLayout;
  segments: DraftSegment[];
  /** Lines before the first speaker that were left out (a title, a date, an attendee list). */
  leftOutLines: number;
  /** From Google Meet's closing "Meeting ended after 00:42:17" line. */
  meetingEndMs?: number;
}

type ClassifiedLine =
  | { kind: 'blank' }
  | { kind: 'meeting-end'; endMs: number }
  | { kind: 'bare-stamp'; startMs: number; line: string }
  | { kind: 'stamped'; startMs: number; endMs?: number; speaker?: string; text: string; rest: string; line: string }
  | { kind: 'speaker-header'; speaker: string; startMs: number; line: string }
  | { kind: 'labelled'; speaker: string; text: string; line: string }
  | { kind: 'text'; line: string };

const LEADING_BRACKETED_STAMP = /^[[(]([^\])]{1,40})[\])]/u;
const LEADING_STAMP = new RegExp(`^(${CLOCK_PATTERN})(?=$|\\s|[-–—|])`, 'u');
/** "00:01:02 - 00:01:09" inside brackets: some recorders give both ends. */
const STAMP_RANGE_SEPARATOR = /\s*(?:-->|–|—|-|\bto\b)\s*/u;
const SEPARATOR_AFTER_STAMP = /^\s*[-–—|:]?\s*/u;
const SPEAKER_HEADER = new RegExp(`^(.+?)(?:\\s+[[(]?|\\s*[[(])(${CLOCK_PATTERN})[\\])]?:?$`, 'u');
/** Headers are short; longer lines are never tried, which also bounds the pattern's work. */
const SPEAKER_HEADER_MAX_LENGTH = 80;
const MEETING_END = new RegExp(`^Meeting ended after\\s+(${CLOCK_PATTERN})`, 'iu');
const ATTENDEES_LINE = /^Attendees\b/iu;
/** How many turns each of two speakers must open for the turns to be a dialogue, however long they run. */
const DIALOGUE_TURNS = 3;
/** A preamble longer than this is not a title block, so it counts when judging the layout. */
const PREAMBLE_MAX_LINES = 6;

export function readLineTranscript(text: string): LineTranscript {
  const lines = text.split('\n').map(classifyLine);
  const layout = chooseLayout(lines);
  return { layout, ...readLines(lines, layout) };
}

function classifyLine(rawLine: string): ClassifiedLine {
  const line = collapseWhitespace(rawLine);
  if (line === '') return { kind: 'blank' };
  const meetingEnd = MEETING_END.exec(line);
  const meetingEndMs = meetingEnd ? clockToMs(meetingEnd[1] ?? '') : undefined;
  if (meetingEndMs !== undefined) return { kind: 'meeting-end', endMs: meetingEndMs };
  const stamp = readLeadingStamp(line);
  if (stamp) {
    if (stamp.rest === '') return { kind: 'bare-stamp', startMs: stamp.startMs, line };
    const label = readSpeakerLabel(stamp.rest) ?? readChatLine(stamp.rest);
    return { kind: 'stamped', startMs: stamp.startMs, endMs: stamp.endMs, speaker: label?.speaker, text: label?.text ?? stamp.rest, rest: stamp.rest, line };
  }
  const header = line.length <= SPEAKER_HEADER_MAX_LENGTH ? SPEAKER_HEADER.exec(line) : null;
  // Zoom's web transcript writes "[Anna Lopez] 10:02:15".
  const headerName = (header?.[1] ?? '').trim().replace(/^\[(.*)\]$/u, '$1').trim();
  const headerMs = header ? clockToMs(header[2] ?? '') : undefined;
  if (headerMs !== undefined && isPlausibleSpeakerName(headerName)) return { kind: 'speaker-header', speaker: headerName, startMs: headerMs, line };
  const label = readSpeakerLabel(line);
  if (label) return { kind: 'labelled', speaker: label.speaker, text: label.text, line };
  return { kind: 'text', line };
}

function readLeadingStamp(line: string): { startMs: number; endMs?: number; rest: string } | undefined {
  const bracketed = LEADING_BRACKETED_STAMP.exec(line);
  if (bracketed) {
    const [startText = '', endText, ...extra] = (bracketed[1] ?? '').trim().split(STAMP_RANGE_SEPARATOR);
    const startMs = clockToMs(startText);
    const endMs = endText === undefined ? undefined : clockToMs(endText);
    if (startMs === undefined || extra.length > 0 || (endText !== undefined && endMs === undefined)) return undefined;
    return { startMs, endMs, rest: line.slice(bracketed[0].length).replace(SEPARATOR_AFTER_STAMP, '') };
  }
  const bare = LEADING_STAMP.exec(line);
  const startMs = bare ? clockToMs(bare[1] ?? '') : undefined;
  if (!bare || startMs === undefined) return undefined;
  return { startMs, rest: line.slice(bare[0].length).replace(SEPARATOR_AFTER_STAMP, '') };
}

function chooseLayout(lines: readonly ClassifiedLine[]): LineLayout {
  const counted = lines.slice(preambleToDiscount(lines));
  let contentLines = 0;
  let colonTurns = 0;
  let stampedTurns = 0;
  let stampedText = 0;
  let headers = 0;
  let bareStamps = 0;
  let paragraphs = 0;
  let paragraphsOpenedByColonTurn = 0;
  let paragraphsOpenedByHeader = 0;
  let atParagraphStart = true;
  for (const line of counted) {
    if (line.kind === 'blank' || line.kind === 'bare-stamp') {
      if (line.kind === 'bare-stamp') bareStamps += 1;
      atParagraphStart = true;
      continue;
    }
    if (line.kind === 'meeting-end') continue;
    contentLines += 1;
    const isColonTurn = line.kind === 'labelled' || (line.kind === 'stamped' && line.speaker !== undefined);
    if (isColonTurn) colonTurns += 1;
    if (line.kind === 'stamped') {
      if (line.speaker === undefined) stampedText += 1;
      else stampedTurns += 1;
    }
    if (line.kind === 'speaker-header') headers += 1;
    if (atParagraphStart) {
      paragraphs += 1;
      if (isColonTurn) paragraphsOpenedByColonTurn += 1;
      if (line.kind === 'speaker-header') paragraphsOpenedByHeader += 1;
    }
    atParagraphStart = false;
  }
  // More than half the lines are turns, or (when turns wrap over several lines) most paragraphs
  // open with one. Prose with the odd "First point: …" line fails both.
  const turnsDominate = (turns: number, paragraphsOpened: number) =>
    turns >= 1 && (turns * 2 > contentLines || paragraphsOpened * 5 >= paragraphs * 4);

  if (headers > colonTurns && turnsDominate(headers, paragraphsOpenedByHeader)) return 'speaker-headers';
  if (turnsDominate(colonTurns, paragraphsOpenedByColonTurn) || isDialogue(counted)) {
    if (stampedTurns * 2 >= colonTurns) return 'stamped-lines';
    return bareStamps > 0 ? 'meet-blocks' : 'speaker-lines';
  }
  const stamps = stampedTurns + stampedText + bareStamps;
  if (stamps >= 2 && stamps * 10 >= (contentLines + bareStamps) * 3) return 'stamped-text';
  return 'plain';
}

/**
 * Whether the colon turns are a conversation between people who keep coming back, however long
 * their turns run: two or more names open DIALOGUE_TURNS turns or more each, and together most of
 * the turns. A chat export whose turns hold lists and paragraphs has few turn lines among many,
 * but its speakers come back; a memo's "First point:" and "Second point:" do not.
 */
function isDialogue(lines: readonly ClassifiedLine[]): boolean {
  const turns = new Map<string, number>();
  for (const line of lines) {
    if ((line.kind === 'labelled' || line.kind === 'stamped') && line.speaker !== undefined) turns.set(line.speaker, (turns.get(line.speaker) ?? 0) + 1);
  }
  const recurring = [...turns.values()].filter((count) => count >= DIALOGUE_TURNS);
  const all = [...turns.values()].reduce((total, count) => total + count, 0);
  return recurring.length >= 2 && recurring.reduce((total, count) => total + count, 0) * 2 > all;
}

/**
 * How many leading lines are a title block to leave out of the counts: the lines before the first
 * line with a speaker or a time, when they hold Google Meet's attendee list, or when they are few
 * and the rest is a dialogue (some name comes back); otherwise they may well be the text itself.
 */
function preambleToDiscount(lines: readonly ClassifiedLine[]): number {
  const firstStructured = lines.findIndex((line) => line.kind !== 'blank' && line.kind !== 'text');
  if (firstStructured <= 0) return 0;
  const preamble = lines.slice(0, firstStructured);
  const preambleLines = preamble.filter((line) => line.kind === 'text').length;
  const hasAttendees = preamble.some((line) => line.kind === 'text' && ATTENDEES_LINE.test(line.line));
  const names = lines.flatMap((line) => ('speaker' in line && line.speaker !== undefined ? [line.speaker] : []));
  const isDialogue = new Set(names).size < names.length;
  return (isDialogue && preambleLines <= PREAMBLE_MAX_LINES) || hasAttendees ? firstStructured : 0;
}

function readLines(lines: readonly ClassifiedLine[], layout: LineLayout): Omit<LineTranscript, 'layout'> {
  const honoursColonLabels = layout === 'speaker-lines' || layout === 'stamped-lines' || layout === 'meet-blocks';
  const honoursHeaders = layout === 'speaker-headers';
  const honoursStampedText = layout === 'stamped-lines' || layout === 'stamped-text';
  const honoursBareStamps = layout === 'stamped-lines' || layout === 'meet-blocks' || layout === 'stamped-text';
  const hasSpeakers = honoursColonLabels || honoursHeaders;

  const segments: DraftSegment[] = [];
  let current: DraftSegment | undefined;
  let speaker: string | undefined;
  let blockStartMs: number | undefined;
  let seenSpeaker = false;
  let leftOutLines = 0;
  let meetingEndMs: number | undefined;
  const open = (segment: DraftSegment) => {
    current = segment;
    segments.push(segment);
  };
  const openTurn = (turnSpeaker: string, segment: Omit<DraftSegment, 'speaker'>) => {
    speaker = turnSpeaker;
    seenSpeaker = true;
    open({ speaker, ...segment });
  };
  const addText = (text: string) => {
    if (current) appendText(current, text);
    else if (hasSpeakers && !seenSpeaker) leftOutLines += 1;
    else open(withTimes({ speaker, text }, blockStartMs));
  };

  for (const line of lines) {
    switch (line.kind) {
      case 'blank':
        // In plain text a paragraph is a segment; elsewhere a blank line changes nothing.
        if (layout === 'plain') current = undefined;
        break;
      case 'meeting-end':
        meetingEndMs = line.endMs;
        break;
      case 'bare-stamp':
        if (honoursBareStamps) {
          blockStartMs = line.startMs;
          current = undefined;
        } else addText(line.line);
        break;
      case 'stamped':
        if (honoursColonLabels && line.speaker !== undefined) openTurn(line.speaker, withTimes({ text: line.text }, line.startMs, line.endMs));
        else if (honoursStampedText) open(withTimes({ speaker, text: line.rest }, line.startMs, line.endMs));
        else addText(line.line);
        break;
      case 'speaker-header':
        if (honoursHeaders) openTurn(line.speaker, withTimes({ text: '' }, line.startMs));
        else addText(line.line);
        break;
      case 'labelled':
        if (honoursColonLabels) openTurn(line.speaker, withTimes({ text: line.text }, blockStartMs));
        else addText(line.line);
        break;
      case 'text':
        addText(line.line);
        break;
    }
  }
  // Meet's title, attendee list and "Transcript" heading are expected, so not worth a warning.
  return { segments, leftOutLines: layout === 'meet-blocks' ? 0 : leftOutLines, meetingEndMs };
}

function withTimes<T extends object>(segment: T, startMs: number | undefined, endMs?: number): T & Pick<DraftSegment, 'startMs' | 'endMs'> {
  return { ...segment, ...(startMs === undefined ? {} : { startMs }), ...(endMs === undefined ? {} : { endMs }) };
}
