/**
 * Which Google Meet transcripts become Parlance meetings (issue 16, point 3): the Google Docs Meet
 * saves in the Drive folder the workspace connection watches. A transcript is the meeting of the
 * person who connected Google Workspace, who must be a representative of one of the company's
 * teams; it is imported when it has words and lasts at least the minimum duration (measured by
 * its last time stamp; one without time stamps is imported).
 *
 * What is said of the meeting comes from the best source at hand:
 * - its Calendar event, when one has the Doc attached (Meet attaches the transcript it saves to
 *   the meeting's event): the Meet link, the title, when it started, and the attendees (rooms
 *   left out), the contact being the first attendee who is not the connected account;
 * - the Meet REST API's transcript entries, when the connection may read them: the text as
 *   WebVTT, one cue per entry with its real times and its speaker in a voice tag;
 * - else the Doc alone, as Meet writes it: the title before " - Transcript" in its name, the
 *   attendees on the line after "Attendees", and its Drive link.
 * Pure: the sync (sync/workspace-sync.ts) does the I/O.
 */
import type { CalendarEvent, MeetParticipant, MeetTranscriptEntry } from '../vendors/google-client.js';
import type { CallImport, Representative, SkipReason } from './call-import.js';
import { webVtt } from './webvtt.js';

/** Meet writes the transcript when the meeting ends: its event or conference is looked for from this long before the Doc was made… */
export const MEETING_LOOKBACK_MS = 6 * 60 * 60 * 1000;
/** …to this long after it (a meeting held, and ended, before the time it was booked for). */
export const MEETING_LOOKAHEAD_MS = 60 * 60 * 1000;

export interface TranscriptDocument {
  id: string;
  name: string;
  createdAt: Date;
  /** Where the document opens in Drive. */
  webViewLink: string;
}

/** The transcript's words: the Doc's text, or the Meet REST API's entries with who spoke them. */
export type WorkspaceTranscript =
  | { kind: 'document'; text: string }
  | {
      kind: 'meet';
      entries: readonly MeetTranscriptEntry[];
      participants: readonly MeetParticipant[];
      /** When the conference started (its record's startTime). */
      conferenceStartedAt: Date;
      /** When transcribing started; null when Meet did not say. */
      transcriptStartedAt: Date | null;
    };

export type WorkspaceDecision = { import: CallImport } | { skip: SkipReason };

/** A person in the meeting: a name to show, and an e-mail when Calendar knows it. */
export interface MeetingPerson {
  name: string;
  email: string;
}

/** Where a transcript's event or conference may be: around the time its Doc was made. */
export function meetingSearchWindow(documentCreatedAt: Date): { from: Date; to: Date } {
  return { from: new Date(documentCreatedAt.getTime() - MEETING_LOOKBACK_MS), to: new Date(documentCreatedAt.getTime() + MEETING_LOOKAHEAD_MS) };
}

/**
 * What becomes of one transcript. `event` is the Calendar event the Doc is attached to, when one
 * was found (eventOfDocument).
 */
export function workspaceMeetingDecision(
  document: TranscriptDocument,
  transcript: WorkspaceTranscript,
  minDurationSeconds: number,
  representative: Representative | undefined,
  event?: CalendarEvent,
): WorkspaceDecision {
  const spoken = transcript.kind === 'document' ? transcript.text.trim() !== '' : transcript.entries.some((entry) => entry.text.trim() !== '');
  if (!spoken) return { skip: 'no-conversation' };
  const duration = transcript.kind === 'document' ? lastTimeStampSeconds(transcript.text) : meetDurationSeconds(transcript);
  if (duration !== undefined && duration < minDurationSeconds) return { skip: 'too-short' };
  if (!representative) return { skip: 'no-representative' };

  const title = event?.summary.trim() || meetingTitle(document.name);
  const attendees = event ? eventParticipants(event) : [];
  const participants = attendees.length > 0 ? attendees.map((person) => person.name) : transcript.kind === 'document' ? attendeesOf(transcript.text) : meetParticipantNames(transcript.participants);
  // Calendar knows who the account is and each attendee's e-mail; the names alone are told apart by the representative's first name.
  const contact = event ? eventContact(event, representative) : undefined;
  const others = participants.filter((name) => !isRepresentativeName(name, representative));
  return {
    import: {
      externalId: document.id,
      leadId: '',
      representative,
      occurredAt: event?.startAt ?? (transcript.kind === 'meet' ? transcript.conferenceStartedAt : document.createdAt),
      fileName: `${fileSafe(title)}.${transcript.kind === 'meet' ? 'vtt' : 'txt'}`,
      notes: participants.length > 0 ? `Participants: ${participants.join(', ')}` : '',
      contactId: contact?.email ?? '',
      contactName: contact ? contact.name : (others[0] ?? ''),
      media: { kind: 'text', text: transcript.kind === 'meet' ? meetWebVtt(transcript) : transcript.text },
      meeting: { title, link: (event && meetingLinkOf(event)) || document.webViewLink },
    },
  };
}

/**
 * The event the Doc is attached to. Of several (the same Doc attached to more than one event),
 * the one that started last before the Doc was made, as the Doc is written when its meeting ends.
 */
export function eventOfDocument(events: readonly CalendarEvent[], document: Pick<TranscriptDocument, 'id' | 'createdAt'>): CalendarEvent | undefined {
  const attached = events.filter((event) => event.attachmentFileIds.includes(document.id));
  const made = document.createdAt.getTime();
  const distance = (event: CalendarEvent) => {
    const start = event.startAt?.getTime();
    if (start === undefined) return Number.POSITIVE_INFINITY;
    // One starting after the Doc was made comes after every one starting before it.
    return start <= made ? made - start : MEETING_LOOKBACK_MS + (start - made);
  };
  return attached.reduce<CalendarEvent | undefined>((best, event) => (best === undefined || distance(event) < distance(best) ? event : best), undefined);
}

/** The event's Meet link: hangoutLink, else its conference's video entry point; '' when it has neither. */
export function meetingLinkOf(event: CalendarEvent): string {
  return event.hangoutLink || event.entryPoints.find((point) => point.entryPointType === 'video' && point.uri !== '')?.uri || '';
}

/** The event's attendees who are people (rooms and other resources left out), named by their display name or e-mail. */
export function eventParticipants(event: CalendarEvent): MeetingPerson[] {
  return event.attendees
    .filter((attendee) => !attendee.resource && (attendee.displayName !== '' || attendee.email !== ''))
    .map((attendee) => ({ name: attendee.displayName || attendee.email, email: attendee.email }));
}

/** The person met: the first attendee with an e-mail who is neither a room nor the connected account (nor the representative). */
export function eventContact(event: CalendarEvent, representative: Pick<Representative, 'email'>): MeetingPerson | undefined {
  const attendee = event.attendees.find((candidate) => !candidate.resource && !candidate.self && candidate.email !== '' && candidate.email.toLowerCase() !== representative.email.toLowerCase());
  return attendee ? { name: attendee.displayName || attendee.email, email: attendee.email } : undefined;
}

/**
 * The Meet REST API's entries as WebVTT, one cue per entry with words, its speaker (the
 * participant's display name) in a voice tag, timed from when transcribing started.
 */
export function meetWebVtt(transcript: Extract<WorkspaceTranscript, { kind: 'meet' }>): string {
  const names = new Map(transcript.participants.map((participant) => [participant.name, participant.displayName]));
  const origin = meetOrigin(transcript);
  const spoken = transcript.entries.filter((entry) => entry.text.trim() !== '');
  return webVtt(
    spoken.map((entry) => ({
      speaker: [names.get(entry.participant) || 'Participant', 'Contact'],
      startSeconds: (entry.startAt.getTime() - origin) / 1000,
      endSeconds: (entry.endAt.getTime() - origin) / 1000,
      text: entry.text,
    })),
  );
}

/** How long the transcript runs: to the end of its last entry, from when transcribing started. */
export function meetDurationSeconds(transcript: Extract<WorkspaceTranscript, { kind: 'meet' }>): number | undefined {
  if (transcript.entries.length === 0) return undefined;
  const origin = meetOrigin(transcript);
  const lastEnd = transcript.entries.reduce((latest, entry) => Math.max(latest, entry.endAt.getTime()), origin);
  return (lastEnd - origin) / 1000;
}

/** Cues are timed from when transcribing started (else the conference), never after the first entry. */
function meetOrigin(transcript: Extract<WorkspaceTranscript, { kind: 'meet' }>): number {
  const started = (transcript.transcriptStartedAt ?? transcript.conferenceStartedAt).getTime();
  return transcript.entries.reduce((earliest, entry) => Math.min(earliest, entry.startAt.getTime()), started);
}

/** The participants' display names, each once, in Meet's order. */
function meetParticipantNames(participants: readonly MeetParticipant[]): string[] {
  return [...new Set(participants.map((participant) => participant.displayName.trim()).filter((name) => name !== ''))];
}

function isRepresentativeName(name: string, representative: Representative): boolean {
  const lower = name.toLowerCase();
  const firstName = representative.firstName.toLowerCase();
  return lower === firstName || lower.startsWith(`${firstName} `) || lower === representative.email.toLowerCase();
}

/** "Weekly sync - 2026/11/20 10:00 CET - Transcript" → "Weekly sync". */
export function meetingTitle(documentName: string): string {
  const withoutSuffix = documentName.replace(/\s+-\s+Transcript\s*$/iu, '');
  const withoutDate = withoutSuffix.replace(/\s+-\s+\d{4}\/\d{2}\/\d{2}\b.*$/u, '');
  return withoutDate.trim() || documentName.trim();
}

/** The names on the line after "Attendees" (comma-separated), as Meet writes them. */
export function attendeesOf(text: string): string[] {
  const lines = text.split(/\r?\n/u).map((line) => line.trim());
  const heading = lines.findIndex((line) => /^attendees$/iu.test(line));
  if (heading < 0) return [];
  const line = lines.slice(heading + 1).find((candidate) => candidate !== '') ?? '';
  return line
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** The largest "HH:MM:SS" (or "MM:SS") time stamp standing on a line of its own, in seconds. */
export function lastTimeStampSeconds(text: string): number | undefined {
  let last: number | undefined;
  for (const line of text.split(/\r?\n/u)) {
    const stamp = /^\s*(?:(\d{1,2}):)?(\d{1,2}):(\d{2})\s*$/u.exec(line);
    if (!stamp) continue;
    const seconds = Number(stamp[1] ?? 0) * 3600 + Number(stamp[2]) * 60 + Number(stamp[3]);
    last = Math.max(last ?? 0, seconds);
  }
  return last;
}

function fileSafe(title: string): string {
  return title.replace(/[\\/:*?"<>|]+/gu, ' ').replace(/\s+/gu, ' ').trim().slice(0, 120) || 'meeting';
}
