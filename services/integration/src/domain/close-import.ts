/**
 * Which Close calls become Parlance calls, and how (issue 16, spec part 2 §5 and §9): a call is
 * imported when it has a transcript or a recording, lasts at least the minimum call duration, and
 * its Close user is a representative of one of the company's teams. A transcript travels as
 * WebVTT with a voice tag per utterance, so the transcription service keeps who spoke and when;
 * a call with only a recording travels as its audio. Pure: the sync (close-sync.ts) does the I/O.
 */
import type { CloseCall, CloseUser, CloseUtterance } from '../vendors/close-client.js';
import type { CallImport, FindRepresentative, SkipReason } from './call-import.js';
import { webVtt } from './webvtt.js';

/** A sync window covers at most this much of Close's history, so a long catch-up advances its cursor often. */
export const CLOSE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** A first sync reaches this far back. */
export const CLOSE_FIRST_SYNC_HISTORY_MS = 30 * 24 * 60 * 60 * 1000;

export type CloseCallDecision = { import: CallImport } | { skip: SkipReason };

/** What becomes of one Close call. `user` is the call's Close user, when Close named one that exists. */
export function closeCallDecision(
  call: CloseCall,
  minCallDurationSeconds: number,
  user: CloseUser | undefined,
  findRepresentative: FindRepresentative,
): CloseCallDecision {
  const utterances = call.transcript?.utterances.filter((utterance) => utterance.text.trim() !== '') ?? [];
  if (utterances.length === 0 && !call.recordingUrl) return { skip: 'no-conversation' };
  // Close leaves duration at 0 on some calls it transcribed; the transcript then tells how long it was.
  const lastWord = utterances.reduce((latest, utterance) => Math.max(latest, utterance.endSeconds), 0);
  if (Math.max(call.durationSeconds, lastWord) < minCallDurationSeconds) return { skip: 'too-short' };
  const representative = user ? findRepresentative(user) : undefined;
  if (!representative) return { skip: 'no-representative' };
  const transcribed = utterances.length > 0;
  return {
    import: {
      externalId: call.id,
      leadId: call.leadId ?? '',
      representative,
      occurredAt: call.createdAt,
      fileName: `close-call-${call.id}.${transcribed ? 'vtt' : 'audio'}`,
      notes: call.note,
      contactId: call.contactId ?? '',
      contactName: '',
      media: transcribed ? { kind: 'text', text: webVttOf(utterances, representative.firstName) } : { kind: 'audio', recordingUrl: call.recordingUrl! },
    },
  };
}

/**
 * Close's utterances as WebVTT, one cue each, the speaker in a voice tag. Close names the
 * speaker in `speaker_label`; when it does not, its side does: the Close user is the
 * representative, anyone else the contact.
 */
export function webVttOf(utterances: readonly CloseUtterance[], representativeName: string): string {
  return webVtt(
    utterances.map((utterance) => ({
      speaker: [utterance.speakerLabel, ...(utterance.speakerSide === 'close-user' ? [representativeName, 'Representative'] : ['Contact'])],
      startSeconds: utterance.startSeconds,
      endSeconds: utterance.endSeconds,
      text: utterance.text,
    })),
  );
}

/**
 * Where a Close sync reads from: the end of the last window of calls read whole (by creation),
 * and the time up to which Close's event log was read for calls changed later (a transcript or a
 * recording added after the call was made). Stored as JSON on the connection; a cursor written
 * before the event log was read is the window's end alone.
 */
export interface CloseCursor {
  windowEnd: Date | null;
  updatesUntil: Date | null;
}

export function closeCursorOf(text: string | null): CloseCursor {
  if (!text) return { windowEnd: null, updatesUntil: null };
  if (!text.startsWith('{')) return { windowEnd: validDate(text), updatesUntil: null };
  try {
    const parsed = JSON.parse(text) as { windowEnd?: unknown; updatesUntil?: unknown };
    return { windowEnd: typeof parsed.windowEnd === 'string' ? validDate(parsed.windowEnd) : null, updatesUntil: typeof parsed.updatesUntil === 'string' ? validDate(parsed.updatesUntil) : null };
  } catch {
    return { windowEnd: null, updatesUntil: null };
  }
}

export function closeCursorText(cursor: CloseCursor): string {
  return JSON.stringify({ windowEnd: cursor.windowEnd?.toISOString() ?? null, updatesUntil: cursor.updatesUntil?.toISOString() ?? null });
}

function validDate(text: string): Date | null {
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** Close keeps its event log this long: changes older than that cannot be read. */
export const CLOSE_EVENT_LOG_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The span of Close's event log to read for calls changed since the last sync: from where the
 * last one stopped (at most the log's 30 days back) to `until`; undefined the first time, when
 * the windows read every call as it is now.
 */
export function closeUpdatesSpan(cursor: CloseCursor, until: Date): { updatedAfter: Date; updatedBefore: Date } | undefined {
  if (!cursor.updatesUntil || cursor.updatesUntil.getTime() >= until.getTime()) return undefined;
  return { updatedAfter: new Date(Math.max(cursor.updatesUntil.getTime(), until.getTime() - CLOSE_EVENT_LOG_MS)), updatedBefore: until };
}

/**
 * The next window of Close's history to read after `cursor` (the end of the last window read
 * whole), or undefined when the cursor has caught up with `now`. Close filters with strict
 * bounds (`date_created__gt`/`__lt`): the window opens one millisecond before the cursor so a
 * call made exactly at the cursor is not lost between two windows; one read twice is already
 * imported and passed over.
 */
export function nextCloseWindow(cursor: Date | null, now: Date): { createdAfter: Date; createdBefore: Date } | undefined {
  const from = cursor ?? new Date(now.getTime() - CLOSE_FIRST_SYNC_HISTORY_MS);
  if (from.getTime() >= now.getTime()) return undefined;
  return { createdAfter: new Date(from.getTime() - 1), createdBefore: new Date(Math.min(from.getTime() + CLOSE_WINDOW_MS, now.getTime())) };
}
