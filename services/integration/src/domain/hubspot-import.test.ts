import { describe, expect, it } from 'vitest';
import type { HubSpotCall, HubSpotUtterance } from '../vendors/hubspot-client.js';
import { representativeFinder } from './call-import.js';
import { HUBSPOT_FIRST_SYNC_HISTORY_MS, hubspotCallDecision, hubspotSyncStart, hubspotTranscriptToRead, plainText } from './hubspot-import.js';

const findRepresentative = representativeFinder([
  { id: 'team-sales', department: 'sales', members: [{ email: 'anna.lee@example.com', firstName: 'Anna', crmId: '' }, { email: 'ben.ode@example.com', firstName: 'Ben', crmId: 'own_ben' }] },
]);
const anna = { id: 'own_anna', email: 'Anna.Lee@example.com', firstName: 'Anna', lastName: 'Lee' };

function call(fields: Partial<HubSpotCall> = {}): HubSpotCall {
  return {
    id: '5001',
    ownerId: 'own_anna',
    occurredAt: new Date('2026-11-20T10:00:00Z'),
    durationMs: 95_000,
    recordingUrl: 'https://api.hubapi.com/recordings/5001',
    title: 'Discovery call',
    body: '<p>Asked about <b>budget</b> &amp; timing.</p>',
    direction: 'outbound',
    modifiedAt: new Date('2026-11-20T10:05:00Z'),
    hasTranscript: false,
    transcriptionId: null,
    ...fields,
  };
}

const transcribed = { hasTranscript: true, transcriptionId: 't-5001' };

function utterance(name: string, email: string, startMs: number, endMs: number, text: string): HubSpotUtterance {
  return { speaker: { name, email }, text, startMs, endMs };
}

describe('hubspotCallDecision', () => {
  it('imports a recorded call of a representative, with its contacts and owner for the write-back', () => {
    expect(hubspotCallDecision(call(), 60, anna, ['c1', 'c2'], findRepresentative)).toEqual({
      import: {
        externalId: '5001',
        leadId: '',
        vendorRefs: { contactIds: ['c1', 'c2'], ownerId: 'own_anna' },
        representative: { teamId: 'team-sales', email: 'anna.lee@example.com', firstName: 'Anna' },
        occurredAt: new Date('2026-11-20T10:00:00Z'),
        fileName: 'hubspot-call-5001.audio',
        notes: 'Discovery call\nAsked about budget & timing.',
        contactId: 'c1',
        contactName: '',
        media: { kind: 'audio', recordingUrl: 'https://api.hubapi.com/recordings/5001' },
      },
    });
  });

  it('passes over a call without a recording, shorter than the minimum, or of no representative', () => {
    expect(hubspotCallDecision(call({ recordingUrl: null }), 60, anna, [], findRepresentative)).toEqual({ skip: 'no-conversation' });
    expect(hubspotCallDecision(call({ durationMs: 59_999 }), 60, anna, [], findRepresentative)).toEqual({ skip: 'too-short' });
    expect(hubspotCallDecision(call(), 60, { ...anna, email: 'cleo.park@example.com' }, [], findRepresentative)).toEqual({ skip: 'no-representative' });
    expect(hubspotCallDecision(call({ ownerId: null }), 60, undefined, [], findRepresentative)).toEqual({ skip: 'no-representative' });
  });

  it('finds a representative by the HubSpot owner id kept as their crm_id', () => {
    const decision = hubspotCallDecision(call({ ownerId: 'own_ben' }), 0, { id: 'own_ben', email: 'ben@elsewhere.example', firstName: 'Ben', lastName: 'Ode' }, [], findRepresentative);
    expect(decision).toMatchObject({ import: { representative: { email: 'ben.ode@example.com' }, contactId: '' } });
  });
});

describe('hubspotCallDecision with a transcript', () => {
  it('imports the transcript as WebVTT, preferred over the recording, the owner speaking as the representative', () => {
    const transcript = [
      utterance('Anna L.', 'anna.lee@example.com', 0, 4_500, 'Hello, this is Anna.'),
      utterance('Mark Ruiz', 'mark@globex.example', 4_500, 9_000, 'Hi <Anna> & co'),
      utterance('Mark Ruiz', 'mark@globex.example', 9_000, 9_500, '   '),
      utterance('', '', 61_000, 62_250, 'And me.'),
    ];

    const decision = hubspotCallDecision(call(transcribed), 60, anna, ['c1'], findRepresentative, transcript);

    expect(decision).toMatchObject({
      import: {
        externalId: '5001',
        representative: { teamId: 'team-sales', email: 'anna.lee@example.com', firstName: 'Anna' },
        fileName: 'hubspot-call-5001.vtt',
        contactId: 'c1',
        media: {
          kind: 'text',
          text: 'WEBVTT\n\n00:00:00.000 --> 00:00:04.500\n<v Anna>Hello, this is Anna.\n\n00:00:04.500 --> 00:00:09.000\n<v Mark Ruiz>Hi &lt;Anna&gt; &amp; co\n\n00:01:01.000 --> 00:01:02.250\n<v Contact>And me.\n',
        },
      },
    });
  });

  it('knows the owner by their full name when HubSpot gives no e-mail, and by the representative’s e-mail', () => {
    const byName = hubspotCallDecision(call(transcribed), 60, anna, [], findRepresentative, [utterance(' anna  LEE ', '', 0, 1_000, 'Hi.'), utterance('Mark', '', 1_000, 2_000, 'Hello.')]);
    expect(byName).toMatchObject({ import: { media: { kind: 'text', text: 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n<v Anna>Hi.\n\n00:00:01.000 --> 00:00:02.000\n<v Mark>Hello.\n' } } });

    const ben = { id: 'own_ben', email: 'ben@elsewhere.example', firstName: 'Ben', lastName: 'Ode' };
    const byTeamEmail = hubspotCallDecision(call({ ...transcribed, ownerId: 'own_ben' }), 60, ben, [], findRepresentative, [utterance('B. Ode', 'Ben.Ode@example.com', 0, 1_000, 'Hi.')]);
    expect(byTeamEmail).toMatchObject({ import: { media: { text: 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n<v Ben>Hi.\n' } } });
  });

  it('imports a call with a transcript and no recording; without either, or with only empty utterances, there is no conversation', () => {
    const transcript = [utterance('Anna Lee', 'anna.lee@example.com', 0, 1_000, 'Hi.')];
    expect(hubspotCallDecision(call({ ...transcribed, recordingUrl: null }), 60, anna, [], findRepresentative, transcript)).toMatchObject({ import: { media: { kind: 'text' } } });
    expect(hubspotCallDecision(call({ ...transcribed, recordingUrl: null }), 60, anna, [], findRepresentative, [])).toEqual({ skip: 'no-conversation' });
    expect(hubspotCallDecision(call({ ...transcribed, recordingUrl: null }), 60, anna, [], findRepresentative, [utterance('Anna Lee', '', 0, 1_000, ' ')])).toEqual({ skip: 'no-conversation' });
  });

  it('falls back to the recording when the transcript could not be read', () => {
    expect(hubspotCallDecision(call(transcribed), 60, anna, [], findRepresentative, [])).toMatchObject({
      import: { fileName: 'hubspot-call-5001.audio', media: { kind: 'audio', recordingUrl: 'https://api.hubapi.com/recordings/5001' } },
    });
  });

  it('measures the call by hs_call_duration, however long the transcript runs', () => {
    const transcript = [utterance('Anna Lee', 'anna.lee@example.com', 0, 120_000, 'A long monologue.')];
    expect(hubspotCallDecision(call({ ...transcribed, durationMs: 0 }), 60, anna, [], findRepresentative, transcript)).toEqual({ skip: 'too-short' });
  });
});

describe('hubspotTranscriptToRead', () => {
  it('names the transcript of a call HubSpot says has one, that a representative made and that is long enough', () => {
    expect(hubspotTranscriptToRead(call({ ...transcribed, recordingUrl: null }), 60, anna, findRepresentative)).toBe('t-5001');
  });

  it('reads none for a call that would be passed over anyway, or that has no transcript', () => {
    expect(hubspotTranscriptToRead(call({ ...transcribed, durationMs: 59_999 }), 60, anna, findRepresentative)).toBeUndefined();
    expect(hubspotTranscriptToRead(call(transcribed), 60, { ...anna, email: 'cleo.park@example.com' }, findRepresentative)).toBeUndefined();
    expect(hubspotTranscriptToRead(call({ ...transcribed, ownerId: null }), 60, undefined, findRepresentative)).toBeUndefined();
    expect(hubspotTranscriptToRead(call(), 60, anna, findRepresentative)).toBeUndefined();
    expect(hubspotTranscriptToRead(call({ hasTranscript: true, transcriptionId: null }), 60, anna, findRepresentative)).toBeUndefined();
    expect(hubspotTranscriptToRead(call({ hasTranscript: false, transcriptionId: 't-5001' }), 60, anna, findRepresentative)).toBeUndefined();
  });
});

describe('plainText', () => {
  it('keeps the text of HubSpot’s HTML body, a line per paragraph', () => {
    expect(plainText('<p>One&nbsp;line</p><p>Two &lt;three&gt;<br/>four</p>')).toBe('One line\nTwo <three>\nfour');
    expect(plainText('')).toBe('');
  });
});

describe('hubspotSyncStart', () => {
  it('reads from the checkpoint, or thirty days back the first time', () => {
    const now = new Date('2026-11-24T10:00:00Z');
    expect(hubspotSyncStart('2026-11-23T09:00:00.000Z', now)).toEqual(new Date('2026-11-23T09:00:00.000Z'));
    expect(hubspotSyncStart(null, now)).toEqual(new Date(now.getTime() - HUBSPOT_FIRST_SYNC_HISTORY_MS));
  });
});
