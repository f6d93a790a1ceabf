/**
 * Which HubSpot calls become Parlance calls (issue 16, spec part 2 §5): a call is imported when it
 * has a recording, lasts at least the minimum call duration, and its owner is a representative of
 * one of the company's teams (matched by crm_id, the HubSpot owner id, then by e-mail). HubSpot
 * documents no transcript on the call object, so a call without a recording has nothing to score.
 * Its contacts are kept: the first is the call's contact, and all of them get the note written
 * back. Pure: the sync (sync/hubspot-sync.ts) does the I/O.
 */
import type { HubSpotCall, HubSpotOwner } from '../vendors/hubspot-client.js';
import type { CallImport, CloseSkipReason, Representative } from './close-import.js';

/** A first sync reaches this far back; later ones read from the checkpoint. */
export const HUBSPOT_FIRST_SYNC_HISTORY_MS = 30 * 24 * 60 * 60 * 1000;

export type HubSpotCallDecision = { import: CallImport } | { skip: CloseSkipReason };

export function hubspotCallDecision(
  call: HubSpotCall,
  minCallDurationSeconds: number,
  owner: HubSpotOwner | undefined,
  contactIds: readonly string[],
  findRepresentative: (user: { id: string; email: string }) => Representative | undefined,
): HubSpotCallDecision {
  if (!call.recordingUrl) return { skip: 'no-conversation' };
  if (call.durationMs / 1000 < minCallDurationSeconds) return { skip: 'too-short' };
  const representative = owner ? findRepresentative({ id: owner.id, email: owner.email }) : undefined;
  if (!representative) return { skip: 'no-representative' };
  return {
    import: {
      externalId: call.id,
      leadId: '',
      vendorRefs: { contactIds: [...contactIds], ...(call.ownerId ? { ownerId: call.ownerId } : {}) },
      representative,
      occurredAt: call.occurredAt,
      fileName: `hubspot-call-${call.id}.audio`,
      notes: [call.title.trim(), plainText(call.body)].filter((part) => part !== '').join('\n'),
      contactId: contactIds[0] ?? '',
      contactName: '',
      media: { kind: 'audio', recordingUrl: call.recordingUrl },
    },
  };
}

/** HubSpot keeps a call's body as HTML: its text, tags dropped and the common entities read. */
export function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>|<\/p>|<\/div>|<\/li>/giu, '\n')
    .replace(/<[^>]*>/gu, '')
    .replace(/&nbsp;/gu, ' ')
    .replace(/&lt;/gu, '<')
    .replace(/&gt;/gu, '>')
    .replace(/&quot;/gu, '"')
    .replace(/&#39;/gu, "'")
    .replace(/&amp;/gu, '&')
    .split('\n')
    .map((line) => line.replace(/\s+/gu, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** Where a sync starts reading: the checkpoint, or the history a first sync reaches. */
export function hubspotSyncStart(checkpoint: string | null, now: Date): Date {
  return checkpoint ? new Date(checkpoint) : new Date(now.getTime() - HUBSPOT_FIRST_SYNC_HISTORY_MS);
}
