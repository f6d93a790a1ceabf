/**
 * Which Google Meet transcripts become Parlance meetings (issue 16, point 3): the Google Docs Meet
 * saves in the Drive folder the workspace connection watches. A transcript is the meeting of the
 * person who connected Google Workspace, who must be a representative of one of the company's
 * teams; it is imported when it has words and lasts at least the minimum duration (measured by
 * its last time stamp; one without time stamps is imported). Its title and participants are read
 * from the document: Meet writes the meeting's title before " - Transcript" in the name, and the
 * attendees on the line after "Attendees". Pure: the sync (sync/workspace-sync.ts) does the I/O.
 */
import type { CallImport, CloseSkipReason, Representative } from './close-import.js';

export interface TranscriptDocument {
  id: string;
  name: string;
  createdAt: Date;
  /** Where the document opens in Drive. */
  webViewLink: string;
}

export type WorkspaceDecision = { import: CallImport } | { skip: CloseSkipReason };

export function workspaceMeetingDecision(document: TranscriptDocument, text: string, minDurationSeconds: number, representative: Representative | undefined): WorkspaceDecision {
  if (text.trim() === '') return { skip: 'no-conversation' };
  const lastStamp = lastTimeStampSeconds(text);
  if (lastStamp !== undefined && lastStamp < minDurationSeconds) return { skip: 'too-short' };
  if (!representative) return { skip: 'no-representative' };
  const title = meetingTitle(document.name);
  const participants = attendeesOf(text);
  const others = participants.filter((name) => name.toLowerCase() !== representative.firstName.toLowerCase() && !name.toLowerCase().startsWith(`${representative.firstName.toLowerCase()} `));
  return {
    import: {
      externalId: document.id,
      leadId: '',
      representative,
      occurredAt: document.createdAt,
      fileName: `${fileSafe(title)}.txt`,
      notes: participants.length > 0 ? `Participants: ${participants.join(', ')}` : '',
      contactId: '',
      contactName: others[0] ?? '',
      media: { kind: 'text', text },
      meeting: { title, link: document.webViewLink },
    },
  };
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
