/**
 * Subtitle files: WebVTT (Zoom's and Teams' recording transcripts, most meeting tools) and SRT.
 * Both are blocks of an optional identifier, a `start --> end` timing line and the cue text; the
 * speaker is in a voice tag (`<v Anna>`), a `Name:` or `[Name]` prefix, or nowhere.
 */
import { clockToMs, CLOCK_PATTERN } from './clock.js';
import { appendText, collapseWhitespace, type DraftSegment } from './draft-segment.js';
import { readBracketedSpeaker, readSpeakerLabel, type SpeakerLabel } from './speaker-labels.js';

export interface CueTranscript {
  /** Most cues name their speaker with a `Name:` prefix, and none with a voice tag: Zoom's way. */
  speakerPrefixesInMostCues: boolean;
  segments: DraftSegment[];
  /** Timing lines that could not be read; their cue text is kept without times. */
  unreadableTimings: number;
}

interface Cue {
  startMs?: number;
  endMs?: number;
  lines: string[];
}

interface Utterance {
  speaker?: string;
  /** Said by a voice tag, which is always believed; a prefix is believed only if the file uses them. */
  byVoice: boolean;
  text: string;
}

const TIMING = new RegExp(`^(${CLOCK_PATTERN})\\s*-->\\s*(${CLOCK_PATTERN})(?:\\s+.*)?$`, 'u');
/** An arrow, or a clock followed by a dash and an arrow head: meant as a timing line. */
const TIMING_LIKE = /-->|^\d{1,3}:\d{2}[\d:.,]*\s*-{1,2}>/u;
const WEBVTT_HEADER = /^WEBVTT(?:[ \t].*)?$/u;
/** WebVTT blocks that are not cues: comments, style sheets and region definitions. */
const WEBVTT_NON_CUE_BLOCK = /^(?:NOTE|STYLE|REGION)(?:\s|$)/u;
const DIGITS_ONLY = /^\d+$/u;
const VOICE_TAG = /<v(?=[.\s>])(?:\.[^\s<>]*)?(?:\s+([^<>]*))?>/gu;
const TIMESTAMP_TAG = new RegExp(`<${CLOCK_PATTERN}>`, 'gu');
/** <c.yellow>, <i>, </b>, <font color="…">, <ruby>, </v>: never `a < b`, which has a space after '<'. */
const MARKUP_TAG = /<\/?[A-Za-z][\w.-]*(?:\s[^<>]*)?>/gu;
/** SubStation positioning codes that some SRT files carry: {\an8}. */
const ASS_OVERRIDE = /\{\\[^{}]*\}/gu;
const DIALOGUE_DASH = /^[-–—]\s*/u;
const LEADING_DESCRIPTION = /^(\[[^\]]{1,40}\])\s*(.+)$/u;
const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', lrm: '', rlm: '' };

export function isWebVttHeader(firstLine: string): boolean {
  return WEBVTT_HEADER.test(firstLine.trim());
}

export function isTimingLine(line: string): boolean {
  return readTiming(line) !== undefined;
}

export function readCueTranscript(text: string): CueTranscript {
  const { cues, unreadableTimings } = readCues(text);
  const trusting = cues.map((cue) => readUtterances(cue.lines, true));
  const prefixed = trusting.filter((utterances) => utterances.some((utterance) => !utterance.byVoice && utterance.speaker !== undefined)).length;
  const voiced = trusting.filter((utterances) => utterances.some((utterance) => utterance.byVoice)).length;
  const prefixNames = trusting.flat().flatMap((utterance) => (utterance.byVoice || utterance.speaker === undefined ? [] : [utterance.speaker]));
  // A prefix is a speaker when most cues have one, or a name comes back; one "He said: go" is not.
  const prefixesInMostCues = prefixed > 0 && prefixed * 2 >= cues.length;
  const believesPrefixes = prefixesInMostCues || new Set(prefixNames).size < prefixNames.length;

  const segments: DraftSegment[] = [];
  let speaker: string | undefined;
  cues.forEach((cue, index) => {
    const utterances = believesPrefixes ? (trusting[index] ?? []) : readUtterances(cue.lines, false);
    for (const utterance of utterances) {
      // A cue that does not say who speaks continues the previous speaker.
      if (utterance.speaker !== undefined) speaker = utterance.speaker;
      segments.push({ speaker, text: utterance.text, ...(cue.startMs === undefined ? {} : { startMs: cue.startMs, endMs: cue.endMs }) });
    }
  });
  return { speakerPrefixesInMostCues: prefixesInMostCues && voiced === 0, segments, unreadableTimings };
}

function readTiming(line: string): { startMs: number; endMs: number } | undefined {
  const match = TIMING.exec(line.trim());
  if (!match) return undefined;
  const startMs = clockToMs(match[1] ?? '');
  const endMs = clockToMs(match[2] ?? '');
  return startMs === undefined || endMs === undefined ? undefined : { startMs, endMs };
}

function readCues(text: string): { cues: Cue[]; unreadableTimings: number } {
  const blocks = text
    .split(/\n[ \t]*\n/u)
    .map((block) => block.split('\n').map((line) => line.trim()).filter((line) => line !== ''))
    .filter((block) => block.length > 0);
  const cues: Cue[] = [];
  let unreadableTimings = 0;
  const continueLastCue = (lines: string[]) => {
    const last = cues.at(-1);
    if (last) last.lines.push(...lines);
    else if (lines.length > 0) cues.push({ lines });
  };

  const isWebVtt = isWebVttHeader(blocks[0]?.[0] ?? '');
  blocks.forEach((block, blockIndex) => {
    let lines = block;
    if (blockIndex === 0 && isWebVtt) {
      // The header may run straight into the first cue when the blank line is missing.
      const firstTiming = lines.findIndex(isTimingLine);
      if (firstTiming < 0) return;
      lines = lines.slice(firstTiming);
    }
    if (isWebVtt && WEBVTT_NON_CUE_BLOCK.test(lines[0] ?? '')) return;

    const unreadable = lines.filter((line) => !isTimingLine(line) && TIMING_LIKE.test(line)).length;
    unreadableTimings += unreadable;
    const timingIndexes = lines.flatMap((line, index) => (isTimingLine(line) ? [index] : []));
    const isNotBrokenTiming = (line: string) => isTimingLine(line) || !TIMING_LIKE.test(line);
    if (timingIndexes.length === 0) {
      if (unreadable > 0) {
        // The cue's words are kept (without times); its number is not.
        cues.push({ lines: lines.filter((line, index) => isNotBrokenTiming(line) && !(index === 0 && DIGITS_ONLY.test(line))) });
      } else {
        // A blank line inside a cue's text (seen in hand-edited SRT) splits it into two blocks.
        continueLastCue(lines);
      }
      return;
    }
    // One line before the timing is the cue's identifier; anything above it lost its blank line.
    const firstTiming = timingIndexes[0] ?? 0;
    continueLastCue(lines.slice(0, Math.max(0, firstTiming - 1)).filter(isNotBrokenTiming));
    timingIndexes.forEach((timingIndex, position) => {
      const nextTiming = timingIndexes[position + 1];
      let payload = lines.slice(timingIndex + 1, nextTiming ?? lines.length).filter(isNotBrokenTiming);
      // Without a blank line between cues, the next cue's number sits at the end of this one.
      if (nextTiming !== undefined && DIGITS_ONLY.test(payload.at(-1) ?? '')) payload = payload.slice(0, -1);
      const timing = readTiming(lines[timingIndex] ?? '');
      cues.push({ ...timing, lines: payload });
    });
  });
  return { cues, unreadableTimings };
}

/**
 * Splits a cue into who said what: each voice tag starts an utterance, and so does each line with
 * a speaker prefix (when `believesPrefixes`); other lines continue the utterance before them.
 */
function readUtterances(lines: readonly string[], believesPrefixes: boolean): Utterance[] {
  const payload = lines.join('\n');
  const utterances: Utterance[] = [];
  const voices = [...payload.matchAll(VOICE_TAG)];
  const untagged = payload.slice(0, voices[0]?.index ?? payload.length);
  utterances.push(...readUntaggedLines(untagged, believesPrefixes));
  voices.forEach((voice, position) => {
    const start = (voice.index ?? 0) + voice[0].length;
    const end = voices[position + 1]?.index ?? payload.length;
    const speaker = collapseWhitespace(voice[1] ?? '');
    utterances.push({ ...(speaker === '' ? {} : { speaker }), byVoice: true, text: cleanCueText(payload.slice(start, end)) });
  });
  return utterances.filter((utterance) => utterance.text !== '');
}

function readUntaggedLines(text: string, believesPrefixes: boolean): Utterance[] {
  const utterances: Utterance[] = [];
  for (const rawLine of text.split('\n')) {
    const line = cleanCueText(rawLine);
    if (line === '') continue;
    const withoutDash = line.replace(DIALOGUE_DASH, '');
    const label = believesPrefixes ? readCueLabel(withoutDash) : undefined;
    const current = utterances.at(-1);
    if (label) utterances.push({ speaker: label.speaker, byVoice: false, text: label.text });
    // A dialogue dash without a name says the speaker changed but not to whom, so the words join.
    else if (current) appendText(current, withoutDash);
    else utterances.push({ byVoice: false, text: withoutDash });
  }
  return utterances;
}

/** `Name: text`, `[Name] text`, or a prefix after a sound description: `[Laughs] Name: text`. */
function readCueLabel(line: string): SpeakerLabel | undefined {
  const label = readSpeakerLabel(line) ?? readBracketedSpeaker(line);
  if (label) return label;
  const described = LEADING_DESCRIPTION.exec(line);
  const afterDescription = described ? readSpeakerLabel(described[2] ?? '') : undefined;
  return afterDescription && { speaker: afterDescription.speaker, text: `${described?.[1] ?? ''} ${afterDescription.text}`.trim() };
}

function cleanCueText(text: string): string {
  const withoutMarkup = text.replace(TIMESTAMP_TAG, '').replace(MARKUP_TAG, '').replace(ASS_OVERRIDE, '');
  return collapseWhitespace(decodeEntities(withoutMarkup));
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/giu, (whole, name: string) => {
    if (name.startsWith('#')) {
      const codePoint = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}
