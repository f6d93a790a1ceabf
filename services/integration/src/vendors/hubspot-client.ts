/**
 * HubSpot's REST API (https://developers.hubspot.com), as far as integration uses it: OAuth 2.0
 * for a public app (authorization code, 30-minute access tokens, refresh tokens), the calls it
 * imports (CRM search by last modification), their owners, contacts and transcripts, and the notes
 * and tasks written back. HubSpot documents no PKCE for public apps: the `state` parameter, bound
 * to the session and single-use, is the flow's protection (domain/oauth-state.ts).
 *
 * Requests go through vendor-http.ts, which honours HubSpot's 429 and X-HubSpot-RateLimit-*
 * headers and retries what may succeed later; a refresh token HubSpot no longer accepts
 * (BAD_REFRESH_TOKEN) is a VendorHttpError of kind 'invalid_grant'.
 */
import { AUDIO_MAX_BYTES } from '@parlance/platform/activity/upload-activity';
import type { Logger } from '@parlance/platform/logger';
import { answerReader, optionalText } from './answer-reader.js';
import { createVendorHttp, VendorHttpError, type VendorHttp, type VendorHttpOptions } from './vendor-http.js';

const { malformed, objectIn, listIn, textIn } = answerReader('HubSpot');

export const HUBSPOT_AUTHORIZE_URL = 'https://app.hubspot.com/oauth/authorize';
export const HUBSPOT_API_URL = 'https://api.hubapi.com';

/** What Parlance asks of a HubSpot account: read its calls, contacts and owners, write notes and tasks. */
export const HUBSPOT_SCOPES = ['oauth', 'crm.objects.contacts.read', 'crm.objects.contacts.write', 'crm.objects.owners.read'] as const;

/**
 * What Parlance asks for only if the account has it (HubSpot's `optional_scope`): reading call
 * transcripts, which not every HubSpot account has. Without it a call is imported from its recording.
 */
export const HUBSPOT_OPTIONAL_SCOPES = ['crm.extensions_calling_transcripts.read'] as const;

export interface HubSpotTokens {
  accessToken: string;
  refreshToken: string;
  /** When the access token stops working (HubSpot's `expires_in` from the time of the answer). */
  expiresAt: Date;
}

export interface HubSpotTokenInfo {
  /** The HubSpot account (portal) the tokens act on. */
  hubId: string;
  hubDomain: string;
  /** The e-mail of the HubSpot user who installed the app. */
  user: string;
  scopes: string[];
}

/** The OAuth endpoints, with the app's own id and secret. */
export interface HubSpotOAuth {
  /** HubSpot's consent page for this state and redirect. */
  authorizeUrl(input: { redirectUri: string; state: string }): string;
  /** Exchanges the code the consent page gave for tokens (POST /oauth/v1/token, grant_type authorization_code). */
  exchangeCode(input: { code: string; redirectUri: string }): Promise<HubSpotTokens>;
  /** New tokens for a refresh token (grant_type refresh_token); a refused one is a VendorHttpError of kind 'invalid_grant'. */
  refresh(refreshToken: string): Promise<HubSpotTokens>;
  /** Whose tokens they are (GET /oauth/v1/access-tokens/{token}). */
  tokenInfo(accessToken: string): Promise<HubSpotTokenInfo>;
}

export interface HubSpotCall {
  id: string;
  /** The HubSpot owner (user) the call is logged for: hubspot_owner_id. */
  ownerId: string | null;
  /** When the call happened: hs_timestamp. */
  occurredAt: Date;
  /** hs_call_duration, in milliseconds. */
  durationMs: number;
  recordingUrl: string | null;
  title: string;
  /** hs_call_body: the call's notes, as HubSpot holds them (may be HTML). */
  body: string;
  direction: 'inbound' | 'outbound' | null;
  /** hs_lastmodifieddate: what the sync's checkpoint moves on. */
  modifiedAt: Date;
  /** hs_call_has_transcript is "true". */
  hasTranscript: boolean;
  /** hs_call_transcription_id: the transcript to read (HubSpotClient.transcript), null when the call has none. */
  transcriptionId: string | null;
}

/** One utterance of a call transcript (transcriptUtterances[]). */
export interface HubSpotUtterance {
  /** Who spoke, as HubSpot names them; '' for what it leaves out. */
  speaker: { name: string; email: string };
  text: string;
  /** From the start of the call: startTimeMillis and endTimeMillis. */
  startMs: number;
  endMs: number;
}

/**
 * A call transcript's utterances, or why HubSpot would not give them: 'not-found' (404: no such
 * transcript, or no longer), 'not-granted' (403: the account did not grant the optional transcripts
 * scope, HubSpot's MISSING_SCOPES). Either way the call still has its recording, if any.
 */
export type HubSpotTranscriptRead = { utterances: HubSpotUtterance[] } | { unreadable: 'not-found' | 'not-granted' };

export interface HubSpotOwner {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

export interface HubSpotClient {
  /**
   * The calls modified at or after `modifiedFrom` and before `modifiedBefore`, in the order of
   * their last modification (then id), a page at a time. HubSpot's search stops at 10,000
   * results: past that the client searches again from the last modification time it reached, so
   * the caller sees every call (a call on the boundary may come twice).
   */
  calls(window: { modifiedFrom: Date; modifiedBefore: Date }): AsyncIterable<HubSpotCall[]>;
  /** Every owner of the account. */
  owners(): Promise<HubSpotOwner[]>;
  /** The contacts associated with each call (call id → contact ids), for calls that have any. */
  callContacts(callIds: readonly string[]): Promise<Map<string, string[]>>;
  /** A call's recording (hs_call_recording_url), at most AUDIO_MAX_BYTES. */
  recording(url: string): Promise<Buffer>;
  /** A call's transcript (GET /crm/v3/extensions/calling/transcripts/{hs_call_transcription_id}). */
  transcript(transcriptId: string): Promise<HubSpotTranscriptRead>;
  /** Creates a note on the contacts. Sent once, as Close's: a lost answer is thrown, for the caller to look first (findNote). */
  createNote(note: { body: string; at: Date; contactIds: readonly string[]; ownerId: string | null }): Promise<{ id: string }>;
  /** The note whose body contains `marker`, if there is one. */
  findNote(marker: string): Promise<{ id: string } | undefined>;
  /**
   * Puts the note on the call itself as well, with HubSpot's default association between the two
   * (`PUT /crm/v4/objects/notes/{noteId}/associations/default/calls/{callId}`; made again, it
   * changes nothing). 'refused' when HubSpot will not associate them (a 4xx other than the
   * credentials'): the note stays on the call's contacts.
   */
  associateNoteWithCall(noteId: string, callId: string): Promise<'associated' | 'refused'>;
  /** Creates a task on the contacts, sent once; findTask looks for it by its marker. */
  createTask(task: { subject: string; body: string; dueAt: Date; contactIds: readonly string[]; ownerId: string | null }): Promise<{ id: string }>;
  findTask(marker: string): Promise<{ id: string } | undefined>;
}

/** HubSpot's largest page of search results. */
const SEARCH_PAGE_MAX = 200;
const DEFAULT_PAGE_SIZE = 100;
/** The owners endpoint's page size (HubSpot allows up to 500). */
const OWNERS_PAGE_SIZE = 100;
/** HubSpot's search returns at most this many results for one query; paging further is refused. */
const SEARCH_RESULT_CAP = 10_000;
/** HubSpot's most ids in one associations batch read. */
const ASSOCIATIONS_BATCH_MAX = 1_000;
/** The page size of findNote and findTask's searches. */
const MARKER_SEARCH_PAGE = 10;
/** HubSpot-defined association types: a note to a contact, a task to a contact. */
const NOTE_TO_CONTACT = 202;
const TASK_TO_CONTACT = 204;
const TOKEN_INFO_PATH = '/oauth/v1/access-tokens/';
const TRANSCRIPTS_PATH = '/crm/v3/extensions/calling/transcripts/';
const CALL_PROPERTIES = ['hs_timestamp', 'hs_call_duration', 'hs_call_recording_url', 'hs_call_title', 'hs_call_body', 'hs_call_direction', 'hubspot_owner_id', 'hs_lastmodifieddate', 'hs_call_has_transcript', 'hs_call_transcription_id'];

/** The HTTP client's pacing and transport; tests pass a sleep that does not wait. */
type HubSpotHttpOptions = Pick<VendorHttpOptions, 'maxAttempts' | 'timeoutMs' | 'sleep' | 'random' | 'now' | 'fetch'>;

export interface HubSpotOAuthOptions {
  clientId: string;
  clientSecret: string;
  /** HubSpot's consent page; HUBSPOT_AUTHORIZE_URL unless said (tests point it at a stand-in). */
  authorizeUrl?: string;
  /** Where the token endpoints are; HUBSPOT_API_URL unless said. */
  baseUrl?: string;
  logger?: Pick<Logger, 'warn'>;
  http?: HubSpotHttpOptions;
  /** The clock tokens' expiry is measured from. */
  now?: () => Date;
}

export interface HubSpotClientOptions {
  /** The connection's access token, asked before every attempt so a refreshed one is used (hubspot-access.ts). */
  accessToken: () => Promise<string>;
  /** HubSpot's API; HUBSPOT_API_URL unless said (tests point it at a stand-in). */
  baseUrl?: string;
  /** Calls asked for per search page, at most 200. */
  pageSize?: number;
  /** HubSpot's 10,000-result limit on one search; tests lower it to reach it cheaply. */
  searchResultCap?: number;
  logger?: Pick<Logger, 'warn'>;
  http?: HubSpotHttpOptions;
}

export function createHubSpotOAuth(options: HubSpotOAuthOptions): HubSpotOAuth {
  const now = options.now ?? (() => new Date());
  const http = createVendorHttp({
    ...options.http,
    vendor: 'HubSpot',
    baseUrl: options.baseUrl ?? HUBSPOT_API_URL,
    // The token endpoints take the app's id and secret in the form, and no Authorization header.
    authorize: async () => ({}),
    logger: options.logger,
  });

  async function tokens(form: Record<string, string>, idempotent: boolean): Promise<HubSpotTokens> {
    const where = 'POST /oauth/v1/token';
    const body = new URLSearchParams({ ...form, client_id: options.clientId, client_secret: options.clientSecret });
    const answer = objectIn(await http.request('POST', '/oauth/v1/token', { body, idempotent }), where);
    const expiresIn = answer.expires_in;
    if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0) throw malformed(where, 'expires_in is not a number of seconds');
    return { accessToken: textIn(answer, 'access_token', where), refreshToken: textIn(answer, 'refresh_token', where), expiresAt: new Date(now().getTime() + expiresIn * 1000) };
  }

  return {
    authorizeUrl({ redirectUri, state }) {
      const url = new URL(options.authorizeUrl ?? HUBSPOT_AUTHORIZE_URL);
      const query = new URLSearchParams({
        client_id: options.clientId,
        redirect_uri: redirectUri,
        scope: HUBSPOT_SCOPES.join(' '),
        // Granted when the account has them; an account without them can still install the app.
        optional_scope: HUBSPOT_OPTIONAL_SCOPES.join(' '),
        state,
      });
      // HubSpot's documentation spells the spaces between scopes %20; URLSearchParams writes '+' (and a literal '+' as %2B).
      url.search = query.toString().replaceAll('+', '%20');
      return url.toString();
    },

    // A code is single-use: sent again after HubSpot may have taken it, it could only be refused.
    exchangeCode: ({ code, redirectUri }) => tokens({ grant_type: 'authorization_code', redirect_uri: redirectUri, code }, false),

    // A refresh token stays valid until the app is uninstalled, so a refresh may be sent again.
    refresh: (refreshToken) => tokens({ grant_type: 'refresh_token', refresh_token: refreshToken }, true),

    async tokenInfo(accessToken) {
      const where = `GET ${TOKEN_INFO_PATH}{token}`;
      // The path holds the access token itself: errors and logs name it by its pattern.
      const answer = await http.request('GET', `${TOKEN_INFO_PATH}${encodeURIComponent(accessToken)}`, { pathLabel: `${TOKEN_INFO_PATH}{token}` });
      const info = objectIn(answer, where);
      const hubId = info.hub_id;
      if (typeof hubId !== 'number' && (typeof hubId !== 'string' || hubId === '')) throw malformed(where, 'hub_id is missing');
      return {
        hubId: String(hubId),
        hubDomain: textIn(info, 'hub_domain', where),
        user: optionalText(info.user) ?? '',
        scopes: listIn(info.scopes ?? [], where, 'scopes').filter((scope): scope is string => typeof scope === 'string'),
      };
    },
  };
}

export function createHubSpotClient(options: HubSpotClientOptions): HubSpotClient {
  const pageSize = Math.min(options.pageSize ?? DEFAULT_PAGE_SIZE, SEARCH_PAGE_MAX);
  const searchResultCap = options.searchResultCap ?? SEARCH_RESULT_CAP;
  const http: VendorHttp = createVendorHttp({
    ...options.http,
    vendor: 'HubSpot',
    baseUrl: options.baseUrl ?? HUBSPOT_API_URL,
    authorize: async () => ({ authorization: `Bearer ${await options.accessToken()}` }),
    logger: options.logger,
  });

  /** One page of a CRM search: its results, and the cursor of the next page if there is one. */
  async function search(objectType: string, query: object, after: string | undefined): Promise<{ results: Record<string, unknown>[]; next: string | undefined }> {
    const path = `/crm/v3/objects/${objectType}/search`;
    const where = `POST ${path}`;
    const answer = objectIn(await http.request('POST', path, { body: after === undefined ? query : { ...query, after } }), where);
    const results = listIn(answer.results, where, 'results').map((entry) => objectIn(entry, where));
    return { results, next: nextCursor(answer, where) };
  }

  async function create(objectType: string, properties: Record<string, string>, contactIds: readonly string[], associationTypeId: number): Promise<{ id: string }> {
    const path = `/crm/v3/objects/${objectType}`;
    const associations = contactIds.map((id) => ({ to: { id }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId }] }));
    const created = objectIn(await http.request('POST', path, { body: { properties, associations }, idempotent: false }), `POST ${path}`);
    return { id: textIn(created, 'id', `POST ${path}`) };
  }

  /**
   * The first record whose `property` contains `marker`. CONTAINS_TOKEN matches words, not the
   * text as written, so each result is checked for the marker itself.
   */
  async function findByText(objectType: string, property: string, marker: string): Promise<{ id: string } | undefined> {
    const query = { filterGroups: [{ filters: [{ propertyName: property, operator: 'CONTAINS_TOKEN', value: marker }] }], properties: [property], limit: MARKER_SEARCH_PAGE };
    const where = `POST /crm/v3/objects/${objectType}/search`;
    let after: string | undefined;
    for (;;) {
      const page = await search(objectType, query, after);
      const found = page.results.find((result) => (optionalText(propertiesOf(result, where)[property]) ?? '').includes(marker));
      if (found) return { id: textIn(found, 'id', where) };
      if (page.next === undefined || page.results.length === 0 || Number(page.next) + MARKER_SEARCH_PAGE > searchResultCap) return undefined;
      after = page.next;
    }
  }

  return {
    async *calls({ modifiedFrom, modifiedBefore }) {
      const before = String(modifiedBefore.getTime());
      let from = modifiedFrom.getTime();
      for (;;) {
        const query = {
          filterGroups: [
            {
              filters: [
                { propertyName: 'hs_lastmodifieddate', operator: 'GTE', value: String(from) },
                { propertyName: 'hs_lastmodifieddate', operator: 'LT', value: before },
              ],
            },
          ],
          sorts: [{ propertyName: 'hs_lastmodifieddate', direction: 'ASCENDING' }],
          properties: CALL_PROPERTIES,
          limit: pageSize,
        };
        let after: string | undefined;
        let lastModifiedAt = from;
        for (;;) {
          const page = await search('calls', query, after);
          const calls = page.results.map(callOf);
          if (calls.length === 0) return;
          yield calls;
          lastModifiedAt = calls.at(-1)!.modifiedAt.getTime();
          if (page.next === undefined) return;
          // HubSpot's search cursor is the number of results already given; the page after the
          // cap is refused, so the search starts again instead (see below).
          if (Number(page.next) + pageSize > searchResultCap) break;
          after = page.next;
        }
        // From the last modification time reached, inclusive: the calls modified at that instant
        // come again, but none modified then is missed whatever order HubSpot gave them in.
        if (lastModifiedAt === from) {
          throw new VendorHttpError({
            vendor: 'HubSpot',
            kind: 'server',
            retryable: false,
            attempts: 1,
            message: `HubSpot holds more than ${searchResultCap} calls modified at ${new Date(from).toISOString()}: its search cannot page past them`,
          });
        }
        from = lastModifiedAt;
      }
    },

    async owners() {
      const where = 'GET /crm/v3/owners';
      const owners: HubSpotOwner[] = [];
      let after: string | undefined;
      do {
        const answer = objectIn(await http.request('GET', '/crm/v3/owners', { query: { limit: OWNERS_PAGE_SIZE, after } }), where);
        const results = listIn(answer.results, where, 'results').map((entry) => objectIn(entry, where));
        owners.push(
          ...results.map((owner) => ({
            id: textIn(owner, 'id', where),
            email: optionalText(owner.email) ?? '',
            firstName: optionalText(owner.firstName) ?? '',
            lastName: optionalText(owner.lastName) ?? '',
          })),
        );
        // An empty page ends the listing whatever paging says, so a confused answer cannot loop forever.
        after = results.length > 0 ? nextCursor(answer, where) : undefined;
      } while (after !== undefined);
      return owners;
    },

    async callContacts(callIds) {
      const path = '/crm/v4/associations/calls/contacts/batch/read';
      const where = `POST ${path}`;
      const contacts = new Map<string, string[]>();
      for (let start = 0; start < callIds.length; start += ASSOCIATIONS_BATCH_MAX) {
        const inputs = callIds.slice(start, start + ASSOCIATIONS_BATCH_MAX).map((id) => ({ id }));
        // HubSpot answers 207, with `errors`, when some calls have no contacts: `results` holds the rest.
        const answer = objectIn(await http.request('POST', path, { body: { inputs } }), where);
        for (const entry of listIn(answer.results, where, 'results')) {
          const result = objectIn(entry, where);
          const callId = textIn(objectIn(result.from, where), 'id', where);
          const contactIds = listIn(result.to, where, 'to').map((to) => idIn(objectIn(to, where), 'toObjectId', where));
          if (contactIds.length > 0) contacts.set(callId, [...(contacts.get(callId) ?? []), ...contactIds]);
        }
      }
      return contacts;
    },

    recording: (url) => http.download(url, AUDIO_MAX_BYTES),

    async transcript(transcriptId) {
      const where = `GET ${TRANSCRIPTS_PATH}{transcriptId}`;
      let answer: unknown;
      try {
        answer = await http.request('GET', `${TRANSCRIPTS_PATH}${encodeURIComponent(transcriptId)}`);
      } catch (error) {
        if (error instanceof VendorHttpError && error.status === 404) return { unreadable: 'not-found' };
        // HubSpot documents its 403 here as MISSING_SCOPES; vendor-http keeps the status, not the category.
        if (error instanceof VendorHttpError && error.status === 403) return { unreadable: 'not-granted' };
        throw error;
      }
      const transcript = objectIn(answer, where);
      return { utterances: listIn(transcript.transcriptUtterances, where, 'transcriptUtterances').map((entry) => utteranceOf(objectIn(entry, where))) };
    },

    createNote: ({ body, at, contactIds, ownerId }) =>
      create('notes', { hs_timestamp: at.toISOString(), hs_note_body: body, ...(ownerId ? { hubspot_owner_id: ownerId } : {}) }, contactIds, NOTE_TO_CONTACT),

    findNote: (marker) => findByText('notes', 'hs_note_body', marker),

    async associateNoteWithCall(noteId, callId) {
      const path = `/crm/v4/objects/notes/${encodeURIComponent(noteId)}/associations/default/calls/${encodeURIComponent(callId)}`;
      try {
        const answer = objectIn(await http.request('PUT', path), `PUT ${path}`);
        return answer.status === undefined || answer.status === 'COMPLETE' ? 'associated' : 'refused';
      } catch (error) {
        // 'client': a 4xx other than a rate limit or the credentials' (those stop or retry the write).
        if (error instanceof VendorHttpError && error.kind === 'client') return 'refused';
        throw error;
      }
    },

    createTask: ({ subject, body, dueAt, contactIds, ownerId }) =>
      create(
        'tasks',
        {
          hs_timestamp: dueAt.toISOString(),
          hs_task_subject: subject,
          hs_task_body: body,
          hs_task_status: 'NOT_STARTED',
          hs_task_priority: 'MEDIUM',
          hs_task_type: 'TODO',
          ...(ownerId ? { hubspot_owner_id: ownerId } : {}),
        },
        contactIds,
        TASK_TO_CONTACT,
      ),

    findTask: (marker) => findByText('tasks', 'hs_task_body', marker),
  };
}

/** A search result as a call: every property comes as a string (dates ISO, the duration in milliseconds) or null. */
function callOf(result: Record<string, unknown>): HubSpotCall {
  const where = 'POST /crm/v3/objects/calls/search';
  const properties = propertiesOf(result, where);
  const direction = properties.hs_call_direction;
  const durationMs = Number(properties.hs_call_duration ?? Number.NaN);
  return {
    id: textIn(result, 'id', where),
    ownerId: optionalText(properties.hubspot_owner_id),
    occurredAt: dateIn(properties, 'hs_timestamp', where),
    durationMs: Number.isFinite(durationMs) && durationMs > 0 ? Math.round(durationMs) : 0,
    recordingUrl: optionalText(properties.hs_call_recording_url),
    title: optionalText(properties.hs_call_title) ?? '',
    body: optionalText(properties.hs_call_body) ?? '',
    direction: direction === 'INBOUND' ? 'inbound' : direction === 'OUTBOUND' ? 'outbound' : null,
    modifiedAt: dateIn(properties, 'hs_lastmodifieddate', where),
    hasTranscript: properties.hs_call_has_transcript === 'true',
    transcriptionId: optionalText(properties.hs_call_transcription_id),
  };
}

/** `{id, speaker: {id, name, email}, text, languageCode, startTimeMillis, endTimeMillis}`: a speaker may come without an e-mail. */
function utteranceOf(utterance: Record<string, unknown>): HubSpotUtterance {
  const speaker = utterance.speaker && typeof utterance.speaker === 'object' ? (utterance.speaker as Record<string, unknown>) : {};
  return {
    speaker: { name: optionalText(speaker.name) ?? '', email: optionalText(speaker.email) ?? '' },
    text: optionalText(utterance.text) ?? '',
    startMs: millisecondsIn(utterance.startTimeMillis),
    endMs: millisecondsIn(utterance.endTimeMillis),
  };
}

function millisecondsIn(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

function propertiesOf(result: Record<string, unknown>, where: string): Record<string, unknown> {
  return objectIn(result.properties, where);
}

/** `paging.next.after`, the next page's cursor; undefined on the last page. */
function nextCursor(answer: Record<string, unknown>, where: string): string | undefined {
  if (answer.paging === undefined || answer.paging === null) return undefined;
  const next = objectIn(answer.paging, where).next;
  if (next === undefined || next === null) return undefined;
  return textIn(objectIn(next, where), 'after', where);
}

/** An object id HubSpot sends as a number (v4 associations' toObjectId), as the string the v3 API uses. */
function idIn(record: Record<string, unknown>, field: string, where: string): string {
  const value = record[field];
  if ((typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && value !== '')) return String(value);
  throw malformed(where, `${field} is missing`);
}

/** A date property: ISO 8601, as the v3 API sends dates, or epoch milliseconds, as HubSpot stores them. */
function dateIn(properties: Record<string, unknown>, field: string, where: string): Date {
  const text = textIn(properties, field, where);
  const at = new Date(/^\d+$/.test(text) ? Number(text) : text);
  if (Number.isNaN(at.getTime())) throw malformed(where, `${field} is not a date`);
  return at;
}
