/**
 * Close's REST API (https://developer.close.com), as far as integration uses it: checking an API
 * key, reading lead statuses, users and calls, and writing notes and lead statuses back.
 *
 * An API key authenticates by HTTP Basic, the key as the user name and an empty password. Lists
 * are paged with `_skip`/`_limit` until an answer's `has_more` is false. Requests go through
 * vendor-http.ts, which honours Close's 429 `rate_reset` and retries what may succeed later.
 * Answers are mapped to the few camelCase fields integration needs; an answer missing them is a
 * VendorHttpError of kind 'server', so nothing half-read travels further.
 */
import { AUDIO_MAX_BYTES } from '@parlance/platform/activity/upload-activity';
import type { Logger } from '@parlance/platform/logger';
import { answerReader, optionalText } from './answer-reader.js';
import { createVendorHttp, VendorHttpError, type VendorHttp, type VendorHttpMethod, type VendorHttpOptions } from './vendor-http.js';

const { malformed, objectIn, listIn, textIn } = answerReader('Close');

export const CLOSE_API_URL = 'https://api.close.com/api/v1';

/** Close's default page size, and the one its examples use. */
const DEFAULT_PAGE_SIZE = 100;

/**
 * A call's fields integration reads. `_fields` limits an answer to the fields it names, and is the
 * only way to get `recording_transcript`, which Close leaves out by default.
 */
const CALL_FIELDS = ['id', 'lead_id', 'contact_id', 'user_id', 'direction', 'duration', 'recording_url', 'date_created', 'note', 'recording_transcript'];

export interface CloseClientOptions {
  apiKey: string;
  /** Close's API; CLOSE_API_URL unless said (tests point it at a stand-in). */
  baseUrl?: string;
  /** Records asked for per page when listing. */
  pageSize?: number;
  logger?: Pick<Logger, 'warn'>;
  /** The HTTP client's pacing and transport; tests pass a sleep that does not wait. */
  http?: Pick<VendorHttpOptions, 'maxAttempts' | 'timeoutMs' | 'sleep' | 'random' | 'now' | 'fetch'>;
}

export interface CloseOrganization {
  id: string;
  name: string;
}

/** The user the API key acts as. */
export interface CloseMe {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  organizations: CloseOrganization[];
}

export interface CloseLeadStatus {
  id: string;
  label: string;
}

export interface CloseUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

export interface CloseUtterance {
  /** The name Close shows for the speaker. */
  speakerLabel: string;
  /** Which side spoke: Close's examples show 'contact' and 'close-user'. */
  speakerSide: string;
  startSeconds: number;
  endSeconds: number;
  text: string;
}

export interface CloseCallTranscript {
  utterances: CloseUtterance[];
  /** Close's own summary of the call, '' when it gave none. */
  summary: string;
}

export interface CloseCall {
  id: string;
  leadId: string | null;
  contactId: string | null;
  /** The Close user who made or took the call. */
  userId: string | null;
  /** Close documents 'inbound' and 'outbound'; anything else is kept as null. */
  direction: 'inbound' | 'outbound' | null;
  durationSeconds: number;
  recordingUrl: string | null;
  createdAt: Date;
  /** The call's note in plain text, '' when there is none. */
  note: string;
  /** Close's transcript of the recording, null when it has none (not every plan transcribes). */
  transcript: CloseCallTranscript | null;
}

export interface CloseNote {
  id: string;
  leadId: string;
}

/** Calls created strictly after `createdAfter` and strictly before `createdBefore` (Close's `__gt`/`__lt`). */
export interface CloseCallWindow {
  createdAfter: Date;
  createdBefore: Date;
}

export interface CloseClient {
  /** Who the API key acts as; a refused key is a VendorHttpError of kind 'unauthorized'. */
  me(): Promise<CloseMe>;
  /** Every lead status of the organisation. */
  leadStatuses(): Promise<CloseLeadStatus[]>;
  /** Every user of the organisation. */
  users(): Promise<CloseUser[]>;
  /**
   * The window's calls, a page at a time. The window's upper bound is what keeps offset paging
   * stable: calls made while it is read fall after it, so they cannot shift the pages.
   */
  calls(window: CloseCallWindow): AsyncIterable<CloseCall[]>;
  /**
   * The ids of the calls Close's event log says were updated in the span (strictly after and
   * before), each once. The log is read with its cursor (`_cursor`, `cursor_next`).
   */
  updatedCallIds(span: { updatedAfter: Date; updatedBefore: Date }): Promise<string[]>;
  /** One call as it is now; undefined when Close no longer has it. */
  call(callId: string): Promise<CloseCall | undefined>;
  /** A call's recording (its `recording_url`), at most AUDIO_MAX_BYTES (a larger one is refused unread). */
  recording(url: string): Promise<Buffer>;
  /**
   * Creates a note on the lead. Sent once: a failure after which Close may have made it (a 5xx, a
   * lost answer) is thrown rather than sent again, for the caller to look first (findNote).
   */
  createNote(note: { leadId: string; note: string }): Promise<CloseNote>;
  /** The lead's note whose text contains `marker`, if there is one. */
  findNote(leadId: string, marker: string): Promise<CloseNote | undefined>;
  setLeadStatus(leadId: string, statusId: string): Promise<void>;
  /** The contact's name ('' when Close has none); undefined when Close has no such contact (deleted). */
  contactName(contactId: string): Promise<string | undefined>;
}

export function createCloseClient(options: CloseClientOptions): CloseClient {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const basic = `Basic ${Buffer.from(`${options.apiKey}:`).toString('base64')}`;
  const http: VendorHttp = createVendorHttp({
    ...options.http,
    vendor: 'Close',
    baseUrl: options.baseUrl ?? CLOSE_API_URL,
    authorize: async () => ({ authorization: basic }),
    logger: options.logger,
  });

  async function* pages(path: string, query: Record<string, string> = {}): AsyncGenerator<Record<string, unknown>[]> {
    let skip = 0;
    let hasMore = true;
    while (hasMore) {
      const answer = objectIn(await http.request('GET', path, { query: { ...query, _skip: skip, _limit: pageSize } }), `GET ${path}`);
      const data = listIn(answer.data, `GET ${path}`, 'data').map((entry) => objectIn(entry, `GET ${path}`));
      if (data.length > 0) yield data;
      // An empty page ends the listing whatever has_more says, so a confused answer cannot loop forever.
      hasMore = answer.has_more === true && data.length > 0;
      skip += data.length;
    }
  }

  async function all<T>(path: string, read: (entry: Record<string, unknown>) => T): Promise<T[]> {
    const found: T[] = [];
    for await (const page of pages(path)) found.push(...page.map(read));
    return found;
  }

  async function write(method: VendorHttpMethod, path: string, body: object, idempotent = true): Promise<Record<string, unknown>> {
    return objectIn(await http.request(method, path, { body, idempotent }), `${method} ${path}`);
  }

  return {
    async me() {
      const where = 'GET /me/';
      const me = objectIn(await http.request('GET', '/me/'), where);
      return {
        id: textIn(me, 'id', where),
        email: optionalText(me.email) ?? '',
        firstName: optionalText(me.first_name) ?? '',
        lastName: optionalText(me.last_name) ?? '',
        organizations: listIn(me.organizations ?? [], where, 'organizations').map((entry) => {
          const organization = objectIn(entry, where);
          return { id: textIn(organization, 'id', where), name: optionalText(organization.name) ?? '' };
        }),
      };
    },

    // Close documents no paging parameters for lead statuses, but answers with has_more: they are
    // paged like every other list, so a long list is read whole either way.
    leadStatuses: () => all('/status/lead/', (status) => ({ id: textIn(status, 'id', 'GET /status/lead/'), label: textIn(status, 'label', 'GET /status/lead/') })),

    users: () =>
      all('/user/', (user) => ({
        id: textIn(user, 'id', 'GET /user/'),
        email: optionalText(user.email) ?? '',
        firstName: optionalText(user.first_name) ?? '',
        lastName: optionalText(user.last_name) ?? '',
      })),

    async *calls({ createdAfter, createdBefore }) {
      const query = { date_created__gt: createdAfter.toISOString(), date_created__lt: createdBefore.toISOString(), _fields: CALL_FIELDS.join(',') };
      for await (const page of pages('/activity/call/', query)) yield page.map(callOf);
    },

    async updatedCallIds({ updatedAfter, updatedBefore }) {
      const where = 'GET /event/';
      const ids = new Set<string>();
      let cursor: string | undefined;
      do {
        const query = {
          object_type: 'activity.call',
          action: 'updated',
          date_updated__gt: updatedAfter.toISOString(),
          date_updated__lt: updatedBefore.toISOString(),
          _limit: pageSize,
          ...(cursor ? { _cursor: cursor } : {}),
        };
        const answer = objectIn(await http.request('GET', '/event/', { query }), where);
        const events = listIn(answer.data, where, 'data').map((entry) => objectIn(entry, where));
        for (const event of events) ids.add(textIn(event, 'object_id', where));
        // An empty page ends the reading whatever the cursor says, so a confused answer cannot loop forever.
        cursor = events.length > 0 ? (optionalText(answer.cursor_next) ?? undefined) : undefined;
      } while (cursor);
      return [...ids];
    },

    async call(callId) {
      try {
        return callOf(objectIn(await http.request('GET', `/activity/call/${encodeURIComponent(callId)}/`, { query: { _fields: CALL_FIELDS.join(',') } }), 'GET /activity/call/{id}/'));
      } catch (error) {
        if (error instanceof VendorHttpError && error.status === 404) return undefined;
        throw error;
      }
    },

    // Close serves a recording from its API, behind the same API key; a link elsewhere gets no key.
    recording: (url) => http.download(url, AUDIO_MAX_BYTES),

    async createNote({ leadId, note }) {
      // `note` takes plain text, so nothing needs escaping (`note_html` is the rich-text one).
      const created = await write('POST', '/activity/note/', { lead_id: leadId, note }, false);
      return { id: textIn(created, 'id', 'POST /activity/note/'), leadId: optionalText(created.lead_id) ?? leadId };
    },

    async findNote(leadId, marker) {
      const where = 'GET /activity/note/';
      for await (const page of pages('/activity/note/', { lead_id: leadId, _fields: 'id,lead_id,note' })) {
        const found = page.find((note) => (optionalText(note.note) ?? '').includes(marker));
        if (found) return { id: textIn(found, 'id', where), leadId: optionalText(found.lead_id) ?? leadId };
      }
      return undefined;
    },

    async contactName(contactId) {
      const where = 'GET /contact/{id}/';
      try {
        const contact = objectIn(await http.request('GET', `/contact/${encodeURIComponent(contactId)}/`, { query: { _fields: 'id,name' } }), where);
        return optionalText(contact.name) ?? '';
      } catch (error) {
        if (error instanceof VendorHttpError && error.status === 404) return undefined;
        throw error;
      }
    },

    async setLeadStatus(leadId, statusId) {
      // Close's PUT behaves as a PATCH: only status_id changes.
      await write('PUT', `/lead/${encodeURIComponent(leadId)}/`, { status_id: statusId });
    },
  };
}

function callOf(call: Record<string, unknown>): CloseCall {
  const where = 'GET /activity/call/';
  const createdAt = new Date(textIn(call, 'date_created', where));
  if (Number.isNaN(createdAt.getTime())) throw malformed(where, 'date_created is not a date');
  const direction = call.direction === 'inbound' || call.direction === 'outbound' ? call.direction : null;
  return {
    id: textIn(call, 'id', where),
    leadId: optionalText(call.lead_id),
    contactId: optionalText(call.contact_id),
    userId: optionalText(call.user_id),
    direction,
    durationSeconds: typeof call.duration === 'number' && call.duration > 0 ? call.duration : 0,
    recordingUrl: optionalText(call.recording_url),
    createdAt,
    note: optionalText(call.note) ?? '',
    transcript: transcriptOf(call.recording_transcript, where),
  };
}

/** `recording_transcript`: `{utterances: [{speaker_label, speaker_side, start, end, text}], summary_text, summary_html}`. */
function transcriptOf(value: unknown, where: string): CloseCallTranscript | null {
  if (value === null || value === undefined) return null;
  const transcript = objectIn(value, where);
  return {
    utterances: listIn(transcript.utterances ?? [], where, 'recording_transcript.utterances').map((entry) => {
      const utterance = objectIn(entry, where);
      return {
        speakerLabel: optionalText(utterance.speaker_label) ?? '',
        speakerSide: optionalText(utterance.speaker_side) ?? '',
        startSeconds: typeof utterance.start === 'number' ? utterance.start : 0,
        endSeconds: typeof utterance.end === 'number' ? utterance.end : 0,
        text: optionalText(utterance.text) ?? '',
      };
    }),
    summary: optionalText(transcript.summary_text) ?? '',
  };
}
