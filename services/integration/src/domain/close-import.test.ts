import { describe, expect, it } from 'vitest';
import type { CloseCall, CloseUser } from '../vendors/close-client.js';
import { representativeFinder, type TeamRoster } from './call-import.js';
import { CLOSE_EVENT_LOG_MS, CLOSE_FIRST_SYNC_HISTORY_MS, CLOSE_WINDOW_MS, closeCallDecision, closeCursorOf, closeCursorText, closeUpdatesSpan, nextCloseWindow, webVttOf } from './close-import.js';

const TEAMS: TeamRoster[] = [
  { id: 'support-team', department: 'support', members: [{ email: 'ana@acme.test', firstName: 'Ana', crmId: '' }] },
  {
    id: 'sales-team',
    department: 'sales',
    members: [
      { email: 'ana@acme.test', firstName: 'Ana', crmId: '' },
      { email: 'bo@acme.test', firstName: 'Bo', crmId: 'user_bo_in_close' },
    ],
  },
];

const ANA: CloseUser = { id: 'user_ana', email: 'Ana@Acme.test', firstName: 'Ana', lastName: 'Lee' };

function call(overrides: Partial<CloseCall> = {}): CloseCall {
  return {
    id: 'acti_1',
    leadId: 'lead_1',
    contactId: 'cont_1',
    userId: 'user_ana',
    direction: 'outbound',
    durationSeconds: 120,
    recordingUrl: null,
    createdAt: new Date('2026-11-02T10:00:00Z'),
    note: 'Follow up next week',
    transcript: {
      summary: '',
      utterances: [
        { speakerLabel: 'Ana Lee', speakerSide: 'close-user', startSeconds: 0, endSeconds: 4.5, text: 'Hello, this is Ana.' },
        { speakerLabel: '', speakerSide: 'contact', startSeconds: 4.5, endSeconds: 9, text: 'Hi <Ana> & co' },
      ],
    },
    ...overrides,
  };
}

describe('representativeFinder', () => {
  const find = representativeFinder(TEAMS);

  it('matches a Close user by e-mail, whatever its case, preferring a sales team', () => {
    expect(find(ANA)).toEqual({ teamId: 'sales-team', email: 'ana@acme.test', firstName: 'Ana' });
  });

  it('matches by the member’s crm_id before the e-mail', () => {
    expect(find({ id: 'user_bo_in_close', email: 'someone-else@acme.test' })).toEqual({ teamId: 'sales-team', email: 'bo@acme.test', firstName: 'Bo' });
  });

  it('takes the oldest team when no sales team has the person', () => {
    const only = representativeFinder([TEAMS[0]!, { id: 'hr-team', department: 'hr', members: [{ email: 'ana@acme.test', firstName: 'Ana', crmId: '' }] }]);
    expect(only(ANA)?.teamId).toBe('support-team');
  });

  it('finds nobody for an unknown user or an empty e-mail', () => {
    expect(find({ id: 'user_x', email: 'x@acme.test' })).toBeUndefined();
    expect(find({ id: 'user_x', email: '' })).toBeUndefined();
  });
});

describe('closeCallDecision', () => {
  const find = representativeFinder(TEAMS);

  it('imports a transcribed call as WebVTT, keeping lead, contact, note and time', () => {
    const decision = closeCallDecision(call(), 60, ANA, find);
    expect(decision).toEqual({
      import: {
        externalId: 'acti_1',
        leadId: 'lead_1',
        representative: { teamId: 'sales-team', email: 'ana@acme.test', firstName: 'Ana' },
        occurredAt: new Date('2026-11-02T10:00:00Z'),
        fileName: 'close-call-acti_1.vtt',
        notes: 'Follow up next week',
        contactId: 'cont_1',
        contactName: '',
        media: { kind: 'text', text: 'WEBVTT\n\n00:00:00.000 --> 00:00:04.500\n<v Ana Lee>Hello, this is Ana.\n\n00:00:04.500 --> 00:00:09.000\n<v Contact>Hi &lt;Ana&gt; &amp; co\n' },
      },
    });
  });

  it('imports a call with only a recording as audio', () => {
    const decision = closeCallDecision(call({ transcript: null, recordingUrl: 'https://close.test/rec.mp3' }), 60, ANA, find);
    expect('import' in decision && decision.import.media).toEqual({ kind: 'audio', recordingUrl: 'https://close.test/rec.mp3' });
  });

  it('skips a call with neither transcript nor recording, or only empty utterances', () => {
    expect(closeCallDecision(call({ transcript: null }), 60, ANA, find)).toEqual({ skip: 'no-conversation' });
    const silent = call({ transcript: { summary: '', utterances: [{ speakerLabel: 'A', speakerSide: 'contact', startSeconds: 0, endSeconds: 90, text: '  ' }] } });
    expect(closeCallDecision(silent, 60, ANA, find)).toEqual({ skip: 'no-conversation' });
  });

  it('skips a call shorter than the minimum duration, and keeps one exactly at it', () => {
    const short = call({ durationSeconds: 59, transcript: null, recordingUrl: 'https://close.test/rec.mp3' });
    expect(closeCallDecision(short, 60, ANA, find)).toEqual({ skip: 'too-short' });
    expect('import' in closeCallDecision({ ...short, durationSeconds: 60 }, 60, ANA, find)).toBe(true);
    expect('import' in closeCallDecision({ ...short, durationSeconds: 0 }, 0, ANA, find)).toBe(true);
  });

  it('reads the length from the transcript when Close left the duration at 0', () => {
    expect('import' in closeCallDecision(call({ durationSeconds: 0 }), 9, ANA, find)).toBe(true);
    expect(closeCallDecision(call({ durationSeconds: 0 }), 10, ANA, find)).toEqual({ skip: 'too-short' });
  });

  it('skips a call whose Close user is unknown or in no team', () => {
    expect(closeCallDecision(call(), 60, undefined, find)).toEqual({ skip: 'no-representative' });
    expect(closeCallDecision(call(), 60, { ...ANA, id: 'user_z', email: 'z@acme.test' }, find)).toEqual({ skip: 'no-representative' });
  });
});

describe('webVttOf', () => {
  it('names an unlabelled representative utterance after the representative, and cleans names and text', () => {
    const text = webVttOf(
      [
        { speakerLabel: '', speakerSide: 'close-user', startSeconds: 3661.2345, endSeconds: 3600, text: 'one\n\ntwo --> three' },
        { speakerLabel: 'Eve <boss>', speakerSide: 'contact', startSeconds: -1, endSeconds: 2, text: 'hi' },
      ],
      'Ana',
    );
    expect(text).toBe('WEBVTT\n\n01:01:01.235 --> 01:01:01.235\n<v Ana>one two --&gt; three\n\n00:00:00.000 --> 00:00:02.000\n<v Eve boss>hi\n');
  });
});

describe('nextCloseWindow', () => {
  const now = new Date('2026-11-24T12:00:00Z');

  it('starts a first sync 30 days back, a week at a time', () => {
    const first = nextCloseWindow(null, now)!;
    const from = now.getTime() - CLOSE_FIRST_SYNC_HISTORY_MS;
    expect(first).toEqual({ createdAfter: new Date(from - 1), createdBefore: new Date(from + CLOSE_WINDOW_MS) });
  });

  it('opens one millisecond before the cursor, so a call made at the cursor is read', () => {
    const cursor = new Date('2026-11-24T11:00:00Z');
    expect(nextCloseWindow(cursor, now)).toEqual({ createdAfter: new Date(cursor.getTime() - 1), createdBefore: now });
  });

  it('has nothing to read once the cursor reached now', () => {
    expect(nextCloseWindow(now, now)).toBeUndefined();
    expect(nextCloseWindow(new Date(now.getTime() + 1), now)).toBeUndefined();
  });
});

describe('the Close cursor', () => {
  const until = new Date('2026-11-24T10:00:00.000Z');

  it('reads a cursor written before the event log was read as the window’s end alone', () => {
    expect(closeCursorOf('2026-11-20T08:00:00.000Z')).toEqual({ windowEnd: new Date('2026-11-20T08:00:00.000Z'), updatesUntil: null });
    expect(closeCursorOf(null)).toEqual({ windowEnd: null, updatesUntil: null });
    expect(closeCursorOf('{not json')).toEqual({ windowEnd: null, updatesUntil: null });
  });

  it('keeps both times through its text', () => {
    const cursor = { windowEnd: new Date('2026-11-23T09:00:00.000Z'), updatesUntil: new Date('2026-11-23T09:00:00.000Z') };
    expect(closeCursorOf(closeCursorText(cursor))).toEqual(cursor);
    expect(closeCursorOf(closeCursorText({ windowEnd: null, updatesUntil: null }))).toEqual({ windowEnd: null, updatesUntil: null });
  });

  it('reads the event log from where the last sync stopped, at most its 30 days back, and not on a first sync', () => {
    expect(closeUpdatesSpan({ windowEnd: null, updatesUntil: null }, until)).toBeUndefined();
    const since = new Date('2026-11-24T09:55:00.000Z');
    expect(closeUpdatesSpan({ windowEnd: since, updatesUntil: since }, until)).toEqual({ updatedAfter: since, updatedBefore: until });
    const long = new Date(until.getTime() - 40 * 24 * 3600_000);
    expect(closeUpdatesSpan({ windowEnd: long, updatesUntil: long }, until)?.updatedAfter).toEqual(new Date(until.getTime() - CLOSE_EVENT_LOG_MS));
    expect(closeUpdatesSpan({ windowEnd: until, updatesUntil: until }, until)).toBeUndefined();
  });
});
