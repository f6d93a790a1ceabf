/**
 * Telling a speaker label ("Anna Lopez: …", "[Anna] …") from the many other things that look
 * like one in free text: headings ("Note: …"), links ("https://…"), clock times ("10:30").
 */

export const SPEAKER_NAME_LIMITS = { maxLength: 40, maxWords: 4 } as const;

/**
 * Starts with a letter; then letters, digits and the punctuation display names use ("Dr. Ana
 * O'Neil", "SPEAKER_00", "Ben (Acme)", "Mary-Jane"). No commas, quotes or question marks, so a
 * clause of prose ("However, she said: …") is not a name.
 */
const NAME_SHAPE = /^\p{L}[\p{L}\p{M}\p{N} .'’_&()@-]*$/u;

/** Words that introduce notes, headers and e-mail fields rather than a person speaking. */
const NOT_SPEAKERS = new Set([
  'action item', 'action items', 'actions', 'address', 'agenda', 'apologies', 'attendee', 'attendees', 'absent',
  'background', 'bcc', 'cc', 'caution', 'conclusion', 'context', 'date', 'decision', 'decisions', 'disclaimer',
  'duration', 'e-mail', 'edit', 'email', 'example', 'follow up', 'follow-up', 'follow-ups', 'fw', 'fwd', 'from',
  'goal', 'goals', 'highlights', 'important', 'key points', 'link', 'location', 'meeting', 'meeting notes', 'minutes',
  'mobile', 'n.b.', 'nb', 'next steps', 'note', 'notes', 'objective', 'objectives', 'outcome', 'outcomes', 'owner',
  'p.s.', 'participants', 'phone', 'present', 'ps', 're', 'recording', 'reference', 'reminder', 'result', 'results',
  'sent', 'source', 'status', 'subject', 'summary', 'tel', 'time', 'tip', 'title', 'to', 'to do', 'to-do', 'todo',
  'topic', 'transcript', 'update', 'url', 'venue', 'warning', 'when', 'where',
]);

/** Bracketed sound descriptions in subtitles ("[Laughs] Sure."), which are not speakers. */
const SOUND_DESCRIPTIONS = new Set([
  'applause', 'background noise', 'beep', 'cheering', 'chuckles', 'chuckling', 'coughing', 'coughs', 'crosstalk',
  'foreign', 'inaudible', 'indistinct', 'laughing', 'laughs', 'laughter', 'music', 'noise', 'pause', 'phone ringing',
  'ringing', 'sighs', 'silence', 'static', 'typing', 'unintelligible',
]);

/** Lower-case particles that may sit inside a capitalised name ("Ana de la Cruz"). */
const NAME_PARTICLES = new Set(['al', 'bin', 'da', 'de', 'del', 'der', 'di', 'du', 'la', 'le', 'van', 'von']);

export function isPlausibleSpeakerName(name: string): boolean {
  if (name.length === 0 || name.length > SPEAKER_NAME_LIMITS.maxLength) return false;
  if (!NAME_SHAPE.test(name)) return false;
  if (name.split(' ').length > SPEAKER_NAME_LIMITS.maxWords) return false;
  return !NOT_SPEAKERS.has(name.toLowerCase());
}

export interface SpeakerLabel {
  speaker: string;
  /** What follows the label; empty when the words come on the next lines. */
  text: string;
}

/** `**Anna:** text`, `**Anna**: text`, `__Anna__: text`, optionally after a list bullet or quote mark. */
const DECORATED_LABEL = /^(?:[-*•>]\s+)?(\*\*|__|\*|_)([^*_:：\n]{1,60}?)(?:[:：]\1|\1\s*[:：])(?:\s+|$)/u;
const LINE_DECORATION = /^[-*•>]\s+/u;
/** A label must end within this many characters, which also keeps the search short on long lines. */
const LABEL_SEARCH_LIMIT = 60;

/**
 * Reads `Name: text` (also with a full-width colon, or in Markdown bold). The colon must be
 * followed by a space or end the line, which rules out links ("https://") and times ("10:30").
 */
export function readSpeakerLabel(line: string): SpeakerLabel | undefined {
  const decorated = DECORATED_LABEL.exec(line);
  if (decorated) {
    const speaker = tidyName(decorated[2] ?? '');
    return isPlausibleSpeakerName(speaker) ? { speaker, text: line.slice(decorated[0].length).trim() } : undefined;
  }
  const undecorated = line.replace(LINE_DECORATION, '');
  const head = undecorated.slice(0, LABEL_SEARCH_LIMIT);
  const colon = head.search(/[:：]/u);
  if (colon <= 0) return undefined;
  const after = undecorated.charAt(colon + 1);
  // The full-width colon of CJK text is not followed by a space.
  if (undecorated.charAt(colon) === ':' && after !== '' && !/\s/u.test(after)) return undefined;
  const speaker = tidyName(undecorated.slice(0, colon));
  if (!isPlausibleSpeakerName(speaker)) return undefined;
  return { speaker, text: undecorated.slice(colon + 1).trim() };
}

/**
 * Reads `[Name] text`, the subtitle convention. Stricter than a colon label because brackets also
 * hold sound descriptions: the name must be capitalised and there must be words after it.
 */
export function readBracketedSpeaker(line: string): SpeakerLabel | undefined {
  const match = /^\[([^\]]{1,40})\]\s*(.+)$/u.exec(line);
  if (!match) return undefined;
  const speaker = tidyName(match[1] ?? '');
  if (!isPlausibleSpeakerName(speaker) || SOUND_DESCRIPTIONS.has(speaker.toLowerCase())) return undefined;
  const capitalised = speaker.split(' ').every((word) => NAME_PARTICLES.has(word) || !/^\p{Ll}/u.test(word));
  return capitalised ? { speaker, text: (match[2] ?? '').trim() } : undefined;
}

/**
 * Zoom's chat export names the sender as "From Anna Lopez to Everyone: text" (older versions) or
 * "From Anna Lopez : text"; the person is the part between "From" and "to".
 */
export function readChatLine(line: string): SpeakerLabel | undefined {
  const match = /^From\s+([^:]{1,80}?)(?:\s+to\s+[^:]{1,80}?)?\s*:(?:\s+|$)/iu.exec(line);
  if (!match) return undefined;
  const speaker = tidyName(match[1] ?? '');
  return isPlausibleSpeakerName(speaker) ? { speaker, text: line.slice(match[0].length).trim() } : undefined;
}

function tidyName(name: string): string {
  return name.replace(/\s+/gu, ' ').trim();
}
