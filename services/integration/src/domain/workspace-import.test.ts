import { describe, expect, it } from 'vitest';
import type { CalendarEvent } from '../vendors/google-client.js';
import {
  attendeesOf,
  eventContact,
  eventOfDocument,
  eventParticipants,
  lastTimeStampSeconds,
  meetDurationSeconds,
  meetingLinkOf,
  meetingSearchWindow,
  meetingTitle,
  meetWebVtt,
  workspaceMeetingDecision,
  type WorkspaceTranscript,
} from './workspace-import.js';

const MAYA = { teamId: 'team-sales', email: 'maya.okafor@parlance.local', firstName: 'Maya' };
const TRANSCRIPT = ['Discovery with Globex - Transcript', 'Attendees', 'Maya Okafor, Morgan Reyes', 'Transcript', '00:00:00', 'Maya Okafor: Thanks for joining.', '00:02:30', 'Morgan Reyes: Happy to.'].join('\n');
const DOCUMENT = { id: 'doc_1', name: 'Discovery with Globex - 2026/11/20 10:00 CET - Transcript', createdAt: new Date('2026-11-20T10:40:00Z'), webViewLink: 'https://docs.google.com/document/d/doc_1/edit' };
const FROM_DOC: WorkspaceTranscript = { kind: 'document', text: TRANSCRIPT };

/** The meeting's Calendar event, with the Doc attached as Meet attaches it. */
function event(overrides: Partial<CalendarEvent> = {}): CalendarEvent {
  return {
    id: 'evt_1',
    summary: 'Globex × Parlance: discovery',
    startAt: new Date('2026-11-20T10:00:00Z'),
    hangoutLink: 'https://meet.google.com/gxd-qmvr-tka',
    entryPoints: [{ entryPointType: 'video', uri: 'https://meet.google.com/gxd-qmvr-tka' }],
    attendees: [
      { email: 'maya.okafor@parlance.local', displayName: 'Maya Okafor', self: true, resource: false },
      { email: 'c_1888room-berlin-3@resource.calendar.google.com', displayName: 'Berlin-3-Orbit (6)', self: false, resource: true },
      { email: 'morgan.reyes@globex.example', displayName: 'Morgan Reyes', self: false, resource: false },
      { email: 'ines.duarte@globex.example', displayName: '', self: false, resource: false },
    ],
    attachmentFileIds: ['doc_1'],
    ...overrides,
  };
}

const at = (time: string) => new Date(`2026-11-20T${time}Z`);
const MEET: Extract<WorkspaceTranscript, { kind: 'meet' }> = {
  kind: 'meet',
  conferenceStartedAt: at('09:58:00'),
  transcriptStartedAt: at('10:00:00'),
  participants: [
    { name: 'conferenceRecords/c1/participants/p1', displayName: 'Maya Okafor' },
    { name: 'conferenceRecords/c1/participants/p2', displayName: 'Morgan <Globex> Reyes' },
  ],
  entries: [
    { participant: 'conferenceRecords/c1/participants/p1', text: 'Thanks for joining, Morgan.', languageCode: 'en-US', startAt: at('10:00:05.250'), endAt: at('10:00:08') },
    { participant: 'conferenceRecords/c1/participants/p2', text: 'Glad to — R&D is <curious>.', languageCode: 'en-US', startAt: at('10:00:09'), endAt: at('10:02:30') },
    { participant: 'conferenceRecords/c1/participants/p9', text: '   ', languageCode: 'en-US', startAt: at('10:02:31'), endAt: at('10:02:32') },
    { participant: 'conferenceRecords/c1/participants/p9', text: 'Hello from the phone.', languageCode: '', startAt: at('10:03:00'), endAt: at('10:03:04') },
  ],
};

describe('workspaceMeetingDecision', () => {
  it('imports a transcript of the connector’s meeting as a meeting, with its title, participants and link', () => {
    expect(workspaceMeetingDecision(DOCUMENT, FROM_DOC, 60, MAYA)).toEqual({
      import: {
        externalId: 'doc_1',
        leadId: '',
        representative: MAYA,
        occurredAt: DOCUMENT.createdAt,
        fileName: 'Discovery with Globex.txt',
        notes: 'Participants: Maya Okafor, Morgan Reyes',
        contactId: '',
        contactName: 'Morgan Reyes',
        media: { kind: 'text', text: TRANSCRIPT },
        meeting: { title: 'Discovery with Globex', link: DOCUMENT.webViewLink },
      },
    });
  });

  it('passes over an empty transcript, one shorter than the minimum, and one of no representative', () => {
    expect(workspaceMeetingDecision(DOCUMENT, { kind: 'document', text: '  \n' }, 0, MAYA)).toEqual({ skip: 'no-conversation' });
    expect(workspaceMeetingDecision(DOCUMENT, FROM_DOC, 151, MAYA)).toEqual({ skip: 'too-short' });
    expect(workspaceMeetingDecision(DOCUMENT, FROM_DOC, 150, undefined)).toEqual({ skip: 'no-representative' });
  });

  it('imports a transcript without time stamps whatever the minimum', () => {
    expect(workspaceMeetingDecision(DOCUMENT, { kind: 'document', text: 'Maya: Hello\nMorgan: Hi' }, 3600, MAYA)).toMatchObject({ import: { notes: '' } });
  });

  it('takes the Meet link, title, start and attendees from the meeting’s Calendar event, the contact being the first other person', () => {
    expect(workspaceMeetingDecision(DOCUMENT, FROM_DOC, 60, MAYA, event())).toEqual({
      import: {
        externalId: 'doc_1',
        leadId: '',
        representative: MAYA,
        occurredAt: new Date('2026-11-20T10:00:00Z'),
        fileName: 'Globex × Parlance discovery.txt',
        notes: 'Participants: Maya Okafor, Morgan Reyes, ines.duarte@globex.example',
        contactId: 'morgan.reyes@globex.example',
        contactName: 'Morgan Reyes',
        media: { kind: 'text', text: TRANSCRIPT },
        meeting: { title: 'Globex × Parlance: discovery', link: 'https://meet.google.com/gxd-qmvr-tka' },
      },
    });
  });

  it('keeps what the Doc says where the event says nothing: no title, no start time, no link, no guests', () => {
    const bare = event({ summary: ' ', startAt: null, hangoutLink: '', entryPoints: [], attendees: [{ email: 'maya.okafor@parlance.local', displayName: 'Maya Okafor', self: true, resource: false }] });

    expect(workspaceMeetingDecision(DOCUMENT, FROM_DOC, 60, MAYA, bare)).toMatchObject({
      import: {
        occurredAt: DOCUMENT.createdAt,
        notes: 'Participants: Maya Okafor',
        contactId: '',
        contactName: '',
        meeting: { title: 'Discovery with Globex', link: DOCUMENT.webViewLink },
      },
    });
  });

  it('imports the Meet API’s entries as WebVTT, measured by their times, at the conference’s start without an event', () => {
    const decision = workspaceMeetingDecision(DOCUMENT, MEET, 60, MAYA);

    expect(decision).toMatchObject({
      import: {
        occurredAt: at('09:58:00'),
        fileName: 'Discovery with Globex.vtt',
        notes: 'Participants: Maya Okafor, Morgan <Globex> Reyes',
        contactId: '',
        contactName: 'Morgan <Globex> Reyes',
        media: { kind: 'text', text: meetWebVtt(MEET) },
        meeting: { title: 'Discovery with Globex', link: DOCUMENT.webViewLink },
      },
    });
    expect(workspaceMeetingDecision(DOCUMENT, MEET, 185, MAYA)).toEqual({ skip: 'too-short' });
    expect(workspaceMeetingDecision(DOCUMENT, { ...MEET, entries: MEET.entries.slice(2, 3) }, 0, MAYA)).toEqual({ skip: 'no-conversation' });
  });

  it('prefers the event’s facts to the Meet API’s, and the Meet API’s words to the Doc’s', () => {
    expect(workspaceMeetingDecision(DOCUMENT, MEET, 60, MAYA, event())).toMatchObject({
      import: {
        occurredAt: new Date('2026-11-20T10:00:00Z'),
        fileName: 'Globex × Parlance discovery.vtt',
        contactId: 'morgan.reyes@globex.example',
        media: { kind: 'text', text: expect.stringMatching(/^WEBVTT\n/) },
        meeting: { link: 'https://meet.google.com/gxd-qmvr-tka' },
      },
    });
  });
});

describe('the meeting’s Calendar event', () => {
  it('is looked for from six hours before the Doc was made to an hour after', () => {
    expect(meetingSearchWindow(DOCUMENT.createdAt)).toEqual({ from: new Date('2026-11-20T04:40:00Z'), to: new Date('2026-11-20T11:40:00Z') });
  });

  it('is the event the Doc is attached to; of several, the one that started last before the Doc was made', () => {
    const unrelated = event({ id: 'evt_other', attachmentFileIds: ['doc_2'] });
    const earlier = event({ id: 'evt_earlier', startAt: new Date('2026-11-20T08:00:00Z') });
    const later = event({ id: 'evt_later', startAt: new Date('2026-11-20T11:00:00Z') });
    const allDay = event({ id: 'evt_all_day', startAt: null });

    expect(eventOfDocument([unrelated], DOCUMENT)).toBeUndefined();
    expect(eventOfDocument([unrelated, earlier], DOCUMENT)?.id).toBe('evt_earlier');
    expect(eventOfDocument([allDay, later, earlier, event()], DOCUMENT)?.id).toBe('evt_1');
    expect(eventOfDocument([allDay, later], DOCUMENT)?.id).toBe('evt_later');
    expect(eventOfDocument([allDay], DOCUMENT)?.id).toBe('evt_all_day');
  });

  it('gives the Meet link: hangoutLink, else the conference’s video entry point', () => {
    expect(meetingLinkOf(event())).toBe('https://meet.google.com/gxd-qmvr-tka');
    const entryPoints = [
      { entryPointType: 'phone', uri: 'tel:+49-30-300195843' },
      { entryPointType: 'video', uri: 'https://meet.google.com/abc-defg-hij' },
    ];
    expect(meetingLinkOf(event({ hangoutLink: '', entryPoints }))).toBe('https://meet.google.com/abc-defg-hij');
    expect(meetingLinkOf(event({ hangoutLink: '', entryPoints: entryPoints.slice(0, 1) }))).toBe('');
  });

  it('names its people by display name or e-mail, leaving rooms out, and finds the contact among those who are not the account', () => {
    expect(eventParticipants(event())).toEqual([
      { name: 'Maya Okafor', email: 'maya.okafor@parlance.local' },
      { name: 'Morgan Reyes', email: 'morgan.reyes@globex.example' },
      { name: 'ines.duarte@globex.example', email: 'ines.duarte@globex.example' },
    ]);
    expect(eventContact(event(), MAYA)).toEqual({ name: 'Morgan Reyes', email: 'morgan.reyes@globex.example' });
    // The representative is left out by e-mail too, when Calendar does not mark the account as self (another's calendar).
    const [maya, room, , ines] = event().attendees;
    expect(eventContact(event({ attendees: [{ ...maya!, self: false, email: 'Maya.Okafor@parlance.local' }, room!, ines!] }), MAYA)).toEqual({ name: 'ines.duarte@globex.example', email: 'ines.duarte@globex.example' });
    expect(eventContact(event({ attendees: [maya!, room!] }), MAYA)).toBeUndefined();
  });
});

describe('the Meet API’s transcript entries', () => {
  it('become WebVTT cues timed from when transcribing started, each speaker in a voice tag', () => {
    expect(meetWebVtt(MEET)).toBe(
      [
        'WEBVTT',
        '',
        '00:00:05.250 --> 00:00:08.000',
        '<v Maya Okafor>Thanks for joining, Morgan.',
        '',
        '00:00:09.000 --> 00:02:30.000',
        '<v Morgan Globex Reyes>Glad to — R&amp;D is &lt;curious&gt;.',
        '',
        '00:03:00.000 --> 00:03:04.000',
        '<v Participant>Hello from the phone.',
        '',
      ].join('\n'),
    );
  });

  it('are timed from the conference’s start when Meet does not say when transcribing started, and never after the first entry', () => {
    expect(meetWebVtt({ ...MEET, transcriptStartedAt: null })).toContain('00:02:05.250 --> 00:02:08.000');
    expect(meetWebVtt({ ...MEET, transcriptStartedAt: at('10:01:00') })).toContain('00:00:00.000 --> 00:00:02.750');
    expect(meetDurationSeconds(MEET)).toBe(184);
    expect(meetDurationSeconds({ ...MEET, entries: [] })).toBeUndefined();
  });
});

describe('reading a Meet transcript', () => {
  it('takes the title before the date and " - Transcript"', () => {
    expect(meetingTitle('Weekly sync - 2026/11/20 10:00 CET - Transcript')).toBe('Weekly sync');
    expect(meetingTitle('Notes from Monday')).toBe('Notes from Monday');
  });

  it('reads the attendees line and the last time stamp', () => {
    expect(attendeesOf(TRANSCRIPT)).toEqual(['Maya Okafor', 'Morgan Reyes']);
    expect(attendeesOf('no heading here')).toEqual([]);
    expect(lastTimeStampSeconds(TRANSCRIPT)).toBe(150);
    expect(lastTimeStampSeconds('01:02:03\n5:00')).toBe(3723);
    expect(lastTimeStampSeconds('Maya: at 10:00 we start')).toBeUndefined();
  });
});
