import { describe, expect, it } from 'vitest';
import type { HubSpotCall } from '../vendors/hubspot-client.js';
import { representativeFinder } from './close-import.js';
import { HUBSPOT_FIRST_SYNC_HISTORY_MS, hubspotCallDecision, hubspotSyncStart, plainText } from './hubspot-import.js';

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
    ...fields,
  };
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
