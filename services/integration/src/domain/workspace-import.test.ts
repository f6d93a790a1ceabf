import { describe, expect, it } from 'vitest';
import { attendeesOf, lastTimeStampSeconds, meetingTitle, workspaceMeetingDecision } from './workspace-import.js';

const MAYA = { teamId: 'team-sales', email: 'maya.okafor@parlance.local', firstName: 'Maya' };
const TRANSCRIPT = ['Discovery with Globex - Transcript', 'Attendees', 'Maya Okafor, Morgan Reyes', 'Transcript', '00:00:00', 'Maya Okafor: Thanks for joining.', '00:02:30', 'Morgan Reyes: Happy to.'].join('\n');
const DOCUMENT = { id: 'doc_1', name: 'Discovery with Globex - 2026/11/20 10:00 CET - Transcript', createdAt: new Date('2026-11-20T10:40:00Z'), webViewLink: 'https://docs.google.com/document/d/doc_1/edit' };

describe('workspaceMeetingDecision', () => {
  it('imports a transcript of the connector’s meeting as a meeting, with its title, participants and link', () => {
    expect(workspaceMeetingDecision(DOCUMENT, TRANSCRIPT, 60, MAYA)).toEqual({
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
    expect(workspaceMeetingDecision(DOCUMENT, '  \n', 0, MAYA)).toEqual({ skip: 'no-conversation' });
    expect(workspaceMeetingDecision(DOCUMENT, TRANSCRIPT, 151, MAYA)).toEqual({ skip: 'too-short' });
    expect(workspaceMeetingDecision(DOCUMENT, TRANSCRIPT, 150, undefined)).toEqual({ skip: 'no-representative' });
  });

  it('imports a transcript without time stamps whatever the minimum', () => {
    expect(workspaceMeetingDecision(DOCUMENT, 'Maya: Hello\nMorgan: Hi', 3600, MAYA)).toMatchObject({ import: { notes: '' } });
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
