/**
 * Which HubSpot calls become Parlance calls, and how (issue 16, spec part 2 §5): a call is
 * imported when it has a transcript or a recording, lasts at least the minimum call duration
 * (hs_call_duration), and its owner is a representative of one of the company's teams (matched by
 * crm_id, the HubSpot owner id, then by e-mail). A transcript is preferred: nothing is left to
 * transcribe and HubSpot names who spoke. It travels as WebVTT with a voice tag per utterance, as
 * Close's do; a call with only a recording travels as its audio. Its contacts are kept: the first
 * is the call's contact, and all of them get the note written back. Pure: the sync
 * (sync/hubspot-sync.ts) does the I/O, reading a transcript only when hubspotTranscriptToRead asks.
 */
import type { HubSpotCall, HubSpotOwner, HubSpotUtterance } from '../vendors/hubspot-client.js';
import type { CallImport, FindRepresentative, Representative, SkipReason } from './call-import.js';
import { webVtt } from './webvtt.js';

/** A first sync reaches this far back; later ones read from the checkpoint. */
export const HUBSPOT_FIRST_SYNC_HISTORY_MS = 30 * 24 * 60 * 60 * 1000;

export type HubSpotCallDecision = { import: CallImport } | { skip: SkipReason };

/**
 * The transcript a sync should read for a call: its id when HubSpot says it has one and the call
 * would be imported with a conversation (long enough, a representative's); undefined otherwise,
 * so no transcript is read for a call passed over anyway.
 */
export function hubspotTranscriptToRead(call: HubSpotCall, minCallDurationSeconds: number, owner: HubSpotOwner | undefined, findRepresentative: FindRepresentative): string | undefined {
  if (!call.hasTranscript || !call.transcriptionId) return undefined;
  return 'skip' in eligibility(call, minCallDurationSeconds, owner, findRepresentative) ? undefined : call.transcriptionId;
}

/** What becomes of one HubSpot call. `transcript` holds its utterances when the sync could read them. */
export function hubspotCallDecision(
  call: HubSpotCall,
  minCallDurationSeconds: number,
  owner: HubSpotOwner | undefined,
  contactIds: readonly string[],
  findRepresentative: FindRepresentative,
  transcript: readonly HubSpotUtterance[] = [],
): HubSpotCallDecision {
  const utterances = transcript.filter((utterance) => utterance.text.trim() !== '');
  if (utterances.length === 0 && !call.recordingUrl) return { skip: 'no-conversation' };
  const eligible = eligibility(call, minCallDurationSeconds, owner, findRepresentative);
  if ('skip' in eligible) return eligible;
  const { representative, owner: representativeOwner } = eligible;
  const transcribed = utterances.length > 0;
  return {
    import: {
      externalId: call.id,
      leadId: '',
      vendorRefs: { contactIds: [...contactIds], ...(call.ownerId ? { ownerId: call.ownerId } : {}) },
      representative,
      occurredAt: call.occurredAt,
      fileName: `hubspot-call-${call.id}.${transcribed ? 'vtt' : 'audio'}`,
      notes: [call.title.trim(), plainText(call.body)].filter((part) => part !== '').join('\n'),
      contactId: contactIds[0] ?? '',
      contactName: '',
      media: transcribed ? { kind: 'text', text: hubspotWebVtt(utterances, representativeOwner, representative) } : { kind: 'audio', recordingUrl: call.recordingUrl! },
    },
  };
}

/** Whether a call is worth its conversation: long enough, and its owner a representative. */
function eligibility(
  call: HubSpotCall,
  minCallDurationSeconds: number,
  owner: HubSpotOwner | undefined,
  findRepresentative: FindRepresentative,
): { representative: Representative; owner: HubSpotOwner } | { skip: SkipReason } {
  if (call.durationMs / 1000 < minCallDurationSeconds) return { skip: 'too-short' };
  const representative = owner ? findRepresentative({ id: owner.id, email: owner.email }) : undefined;
  return owner && representative ? { representative, owner } : { skip: 'no-representative' };
}

/**
 * HubSpot's utterances as WebVTT. The speaker with the owner's e-mail (or
 * the representative's), or the owner's full name, is the representative and is named as in their
 * team, so transcription finds them by that name. Anyone else is the contact side, under the name
 * HubSpot gives them, else 'Contact'.
 */
function hubspotWebVtt(utterances: readonly HubSpotUtterance[], owner: HubSpotOwner, representative: Representative): string {
  const emails = new Set([owner.email, representative.email].map((email) => email.toLowerCase()).filter((email) => email !== ''));
  const ownerName = comparableName(`${owner.firstName} ${owner.lastName}`);
  const isRepresentative = ({ speaker }: HubSpotUtterance) => emails.has(speaker.email.toLowerCase()) || (ownerName !== '' && comparableName(speaker.name) === ownerName);
  return webVtt(
    utterances.map((utterance) => ({
      speaker: isRepresentative(utterance) ? [representative.firstName, 'Representative'] : [utterance.speaker.name, 'Contact'],
      startSeconds: utterance.startMs / 1000,
      endSeconds: utterance.endMs / 1000,
      text: utterance.text,
    })),
  );
}

function comparableName(name: string): string {
  return name.replace(/\s+/gu, ' ').trim().toLowerCase();
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
