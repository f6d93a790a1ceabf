/**
 * A stand-in for HubSpot (https://developers.hubspot.com), the third-party SaaS CRM, which tests
 * cannot reach: a local HTTP server answering the endpoints integration uses as HubSpot documents
 * them. OAuth 2.0 for a public app: a consent page that plays the user agreeing (or, when armed,
 * refusing), single-use codes bound to their redirect URI, access tokens that expire on a clock
 * the test moves, refresh tokens valid until the app is uninstalled (BAD_REFRESH_TOKEN after), and
 * the token info endpoint. CRM v3: the calls search (hs_lastmodifieddate filters and sort, the
 * 10,000-result cap), owners, notes and tasks created and searched (CONTAINS_TOKEN); v4's
 * associations batch read (207 with errors when some calls have no contacts); recordings behind
 * the bearer token; call transcripts (the calling extensions' transcripts endpoint, at its v3 and
 * its dated path), refused with MISSING_SCOPES to a token granted without the optional transcripts
 * scope. Consent grants the scopes asked for (`scope`) and those of `optional_scope` the account
 * has (see unavailableScopes). Every API answer carries X-HubSpot-RateLimit-* headers; when a test
 * arms it, a 429 of the ten-secondly limit, a 5xx, or a 5xx sent after the request was carried out
 * (an answer lost on the way back). It records every request, and the notes and tasks it accepted.
 *
 * Where HubSpot's documentation does not give an answer's exact words (most error messages, the
 * consent refusal's description), the wording here is this stand-in's own; their shapes follow
 * HubSpot's. Recordings are served at a path of the stand-in's own (recordingUrlOf).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HUBSPOT_OPTIONAL_SCOPES, HUBSPOT_SCOPES } from '../../src/vendors/hubspot-client.js';

/** A call as HubSpot's API gives it: every property a string (dates ISO, hs_call_duration in milliseconds) or null. */
export interface HubSpotCallRecord {
  id: string;
  properties: { hs_lastmodifieddate: string } & Record<string, string | null>;
}

/** A call transcript as GET /crm/v3/extensions/calling/transcripts/{transcriptId} gives it. */
export interface HubSpotTranscriptRecord {
  id: string;
  /** The call it belongs to (the call's id, as a number). */
  engagementId: number;
  transcriptSource: 'HUBSPOT_GENERATED' | 'INTEGRATOR_GENERATED';
  createdAt: string;
  updatedAt: string;
  transcriptUtterances: {
    id: string;
    speaker: { id: string; name: string; email?: string };
    text: string;
    languageCode?: string;
    startTimeMillis: number;
    endTimeMillis: number;
  }[];
}

/** An owner as GET /crm/v3/owners gives it. */
export interface HubSpotOwnerRecord {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  userId: number;
  archived: boolean;
}

export interface HubSpotStandinSeed {
  clientId: string;
  clientSecret: string;
  /** The account (portal) the app is installed in. */
  hubId: number;
  hubDomain: string;
  appId: number;
  /** The HubSpot user who consents. */
  user: { email: string; userId: number };
  owners: HubSpotOwnerRecord[];
  calls: HubSpotCallRecord[];
  /** Recordings by call id, served at recordingUrlOf(callId). */
  recordings: Record<string, Buffer>;
  /** The contacts associated with each call: call id → contact ids (numeric, as HubSpot's). */
  callContacts: Record<string, string[]>;
  /** Contacts notes and tasks may go on, besides those of callContacts. */
  contacts: string[];
  /** Call transcripts, served by their id (a call names it in hs_call_transcription_id). */
  transcripts: HubSpotTranscriptRecord[];
  /** Optional scopes the account cannot grant (its HubSpot plan lacks the feature): consent and issueTokens leave them out. */
  unavailableScopes: string[];
  /** An access token's life; HubSpot's is 30 minutes. */
  expiresInSeconds: number;
  /** The results one search may page through; HubSpot's is 10,000 (tests lower it to reach it cheaply). */
  searchResultCap: number;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The parsed JSON body, a form's fields, or undefined when there was none. */
  body: unknown;
}

/** A note or task created: its properties as sent, and the contacts it went on. */
export interface CreatedEngagement {
  id: string;
  properties: Record<string, string>;
  contactIds: string[];
  /** Calls it was put on afterwards (notes: v4's default association). */
  callIds: string[];
}

export interface HubSpotStandin {
  /** Where a client points its base URL: http://127.0.0.1:<port>. */
  baseUrl: string;
  /** The consent page: `${baseUrl}/oauth/authorize`. */
  authorizeUrl: string;
  /** Every request, in the order received, refused ones included. */
  requests: ReceivedRequest[];
  notes: CreatedEngagement[];
  tasks: CreatedEngagement[];
  /**
   * Tokens as if the seed's user had consented and the code been exchanged, for tests that need a
   * connection, not the flow: granted `scopes`, by default the required and the optional scopes
   * the account has.
   */
  issueTokens(scopes?: readonly string[]): { accessToken: string; refreshToken: string };
  /** The next consent is refused by the user: the redirect carries error=access_denied. */
  denyNextConsent(): void;
  /** From now on, a note cannot be associated with a call (as if the account did not allow it): 400. */
  refuseNotesOnCalls(): void;
  /** Moves the clock access tokens expire on. */
  advanceClock(ms: number): void;
  /** The app uninstalled: every refresh answers BAD_REFRESH_TOKEN and every access token 401. */
  revokeRefreshTokens(): void;
  /** Answers the next `count` authenticated API requests with the ten-secondly limit's 429 (Remaining 0). */
  rateLimitNext(count: number): void;
  /** Answers the next `count` requests whose path starts with `pathPrefix` with HTTP `status` (a 5xx). */
  failNext(count: number, status: number, pathPrefix?: string): void;
  /** Carries out the next `count` requests whose path starts with `pathPrefix`, then answers them with HTTP `status` as if the answer was lost. */
  loseAnswerOfNext(count: number, status: number, pathPrefix?: string): void;
  /** A call logged in HubSpot from now on, with its recording and contacts if given. */
  addCall(call: HubSpotCallRecord, recording?: Buffer, contactIds?: string[]): void;
  /** A transcript HubSpot holds from now on (its call names it in hs_call_transcription_id). */
  addTranscript(transcript: HubSpotTranscriptRecord): void;
  /** `count` calls made by `callOf(index)`, added at once (10,000 of them stay quick). */
  addCalls(count: number, callOf: (index: number) => HubSpotCallRecord): void;
  /** Where the call's recording is served, behind the bearer token. */
  recordingUrlOf(callId: string): string;
  close(): Promise<void>;
}

/** What the stand-in answers: a JSON body, bytes (a recording), or a redirect (the consent page). */
type Answer = { status: number; body: unknown } | { status: number; bytes: Buffer; contentType: string } | { status: 302; location: string };

/** A call kept sorted as the search sorts: by last modification, then id. */
interface StoredCall {
  modifiedMs: number;
  call: HubSpotCallRecord;
}

interface AccessToken {
  expiresAtMs: number;
  scopes: string[];
}

const RATE_LIMIT_INTERVAL_MS = 10_000;
/** The ten-secondly limit of an app installed in a Professional account. */
const RATE_LIMIT_MAX = 190;
const SEARCH_DEFAULT_LIMIT = 10;
const SEARCH_LIMIT_MAX = 200;
const OWNERS_DEFAULT_LIMIT = 100;
const OWNERS_LIMIT_MAX = 500;
const ASSOCIATIONS_BATCH_MAX = 1_000;
/** HubSpot-defined association types: call to contact, note to contact, task to contact. */
const CALL_TO_CONTACT = 194;
const NOTE_TO_CONTACT = 202;
const TASK_TO_CONTACT = 204;
/** The stand-in's own number for the note-to-call type its default association answers with (HubSpot's table lists none). */
const NOTE_TO_CALL = 0;
const TRANSCRIPTS_SCOPE = 'crm.extensions_calling_transcripts.read';
/** The transcripts endpoint: v3's path, and the dated one HubSpot documents alongside it. */
const TRANSCRIPT_PATH = /^\/crm\/(?:v3\/extensions\/calling|extensions\/calling\/\d{4}-\d{2})\/transcripts\/([^/]+)$/;

export const HUBSPOT_STANDIN_SEED: HubSpotStandinSeed = {
  clientId: '5a1e9c3d-7b2f-4e61-9d80-standin0001',
  clientSecret: '0f4c2b9e-3d7a-48c5-b1e6-standinsecret',
  hubId: 24681357,
  hubDomain: 'acme-sales.example.com',
  appId: 1357913,
  user: { email: 'anna.lee@example.com', userId: 7001 },
  owners: [
    { id: 'own_anna', email: 'anna.lee@example.com', firstName: 'Anna', lastName: 'Lee', userId: 7001, archived: false },
    { id: 'own_ben', email: 'ben.ode@example.com', firstName: 'Ben', lastName: 'Ode', userId: 7002, archived: false },
    { id: 'own_cleo', email: 'cleo.park@example.com', firstName: 'Cleo', lastName: 'Park', userId: 7003, archived: false },
  ],
  calls: [],
  recordings: {},
  callContacts: {},
  contacts: ['501', '502', '503'],
  transcripts: [],
  unavailableScopes: [],
  expiresInSeconds: 1800,
  searchResultCap: 10_000,
};

export async function startHubSpotStandin(seed: Partial<HubSpotStandinSeed> = {}): Promise<HubSpotStandin> {
  const world: HubSpotStandinSeed = {
    ...HUBSPOT_STANDIN_SEED,
    ...seed,
    recordings: { ...(seed.recordings ?? {}) },
    callContacts: { ...(seed.callContacts ?? {}) },
  };
  const calls: StoredCall[] = [];
  const contacts = new Set([...world.contacts, ...Object.values(world.callContacts).flat()]);
  const transcripts = new Map(world.transcripts.map((transcript) => [transcript.id, transcript]));
  /** The optional scopes the account can grant: consent gives them when asked, and issueTokens by default. */
  const grantable = (optional: readonly string[]) => optional.filter((scope) => !world.unavailableScopes.includes(scope));
  const requests: ReceivedRequest[] = [];
  const notes: CreatedEngagement[] = [];
  const tasks: CreatedEngagement[] = [];
  /** Unused codes: code → the redirect URI and scopes it was issued for. */
  const codes = new Map<string, { redirectUri: string; scopes: string[] }>();
  const refreshTokens = new Map<string, { scopes: string[] }>();
  const accessTokens = new Map<string, AccessToken>();
  let clockShiftMs = 0;
  let denyConsent = false;
  let notesOnCallsRefused = false;
  let rateLimited = 0;
  let failure = { remaining: 0, status: 503, pathPrefix: '' };
  let lostAnswer = { remaining: 0, status: 502, pathPrefix: '' };
  let nextObjectId = 9_000_001;
  let window = { startMs: 0, used: 0 };

  const now = () => Date.now() + clockShiftMs;

  function addSorted(added: readonly HubSpotCallRecord[]) {
    for (const call of added) calls.push({ modifiedMs: Date.parse(call.properties.hs_lastmodifieddate), call });
    calls.sort((a, b) => a.modifiedMs - b.modifiedMs || compareIds(a.call.id, b.call.id));
  }
  addSorted(world.calls);

  function tokensFor(scopes: string[]) {
    const accessToken = `standin-access.${randomBytes(24).toString('base64url')}`;
    accessTokens.set(accessToken, { expiresAtMs: now() + world.expiresInSeconds * 1000, scopes });
    return accessToken;
  }

  async function answer(request: IncomingMessage): Promise<Answer> {
    const url = new URL(request.url ?? '/', 'http://standin');
    const method = request.method ?? 'GET';
    const path = url.pathname;
    const body = await bodyOf(request);
    requests.push({ method, path, query: url.searchParams, body });

    if (method === 'GET' && path === '/oauth/authorize') return consent(url.searchParams);
    // The OAuth endpoints take the app's credentials in the form (or the token in the path); the API a bearer token.
    let granted: readonly string[] = [];
    if (!path.startsWith('/oauth/')) {
      const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      const token = bearer === undefined ? undefined : accessTokens.get(bearer);
      if (!token || token.expiresAtMs <= now()) {
        return hubSpotError(401, 'INVALID_AUTHENTICATION', 'Authentication credentials not found. This API supports OAuth 2.0 authentication.');
      }
      if (rateLimited > 0) {
        rateLimited -= 1;
        return { status: 429, body: { status: 'error', message: 'You have reached your ten_secondly_rolling limit.', errorType: 'RATE_LIMIT', correlationId: randomUUID(), policyName: 'TEN_SECONDLY_ROLLING' } };
      }
      granted = token.scopes;
    }
    if (failure.remaining > 0 && path.startsWith(failure.pathPrefix)) {
      failure.remaining -= 1;
      return hubSpotError(failure.status, 'INTERNAL_ERROR', 'The stand-in was told to fail this request.');
    }

    const answered = await carriedOut(method, path, url.searchParams, body, granted);
    if (lostAnswer.remaining > 0 && path.startsWith(lostAnswer.pathPrefix)) {
      lostAnswer.remaining -= 1;
      return hubSpotError(lostAnswer.status, 'INTERNAL_ERROR', 'The stand-in carried this request out and was told to lose its answer.');
    }
    return answered;
  }

  async function carriedOut(method: string, path: string, query: URLSearchParams, body: unknown, granted: readonly string[]): Promise<Answer> {
    const route = `${method} ${path}`;
    if (route === 'POST /oauth/v1/token') return token(record(body) ?? {});
    if (method === 'GET' && path.startsWith('/oauth/v1/access-tokens/')) return tokenInfo(decodeURIComponent(path.slice('/oauth/v1/access-tokens/'.length)));
    if (route === 'POST /crm/v3/objects/calls/search') return searchCalls(body);
    if (route === 'GET /crm/v3/owners') return listOwners(query);
    if (route === 'POST /crm/v4/associations/calls/contacts/batch/read') return readCallContacts(body);
    if (route === 'POST /crm/v3/objects/notes') return createEngagement(notes, 'hs_note_body', NOTE_TO_CONTACT, body);
    if (route === 'POST /crm/v3/objects/notes/search') return searchEngagements(notes, body);
    const noteOnCall = /^\/crm\/v4\/objects\/notes\/([^/]+)\/associations\/default\/calls\/([^/]+)$/.exec(path);
    if (noteOnCall && method === 'PUT') return associateNoteWithCall(decodeURIComponent(noteOnCall[1]!), decodeURIComponent(noteOnCall[2]!));
    if (route === 'POST /crm/v3/objects/tasks') return createEngagement(tasks, 'hs_task_body', TASK_TO_CONTACT, body);
    if (route === 'POST /crm/v3/objects/tasks/search') return searchEngagements(tasks, body);
    const transcript = TRANSCRIPT_PATH.exec(path);
    if (transcript && method === 'GET') return readTranscript(decodeURIComponent(transcript[1]!), granted);
    const recording = /^\/recordings\/([^/]+)$/.exec(path);
    if (recording && method === 'GET') {
      const bytes = world.recordings[decodeURIComponent(recording[1]!)];
      return bytes ? { status: 200, bytes, contentType: 'audio/mpeg' } : hubSpotError(404, 'OBJECT_NOT_FOUND', 'Recording not found.');
    }
    return hubSpotError(404, 'OBJECT_NOT_FOUND', `No such endpoint: ${route}`);
  }

  /** The consent page, with the user agreeing at once: back to the redirect URI with a fresh code. */
  function consent(query: URLSearchParams): Answer {
    const redirectUri = query.get('redirect_uri');
    if (query.get('client_id') !== world.clientId) return hubSpotError(400, 'VALIDATION_ERROR', 'The client_id is missing or is not an app’s.');
    if (!redirectUri || !URL.canParse(redirectUri)) return hubSpotError(400, 'VALIDATION_ERROR', 'The redirect_uri is missing or is not a URL.');
    const back = new URL(redirectUri);
    if (denyConsent) {
      denyConsent = false;
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user did not grant the app access to the account.');
    } else {
      const code = randomUUID();
      const scopesIn = (name: string) => (query.get(name) ?? '').split(' ').filter((scope) => scope !== '');
      codes.set(code, { redirectUri, scopes: [...scopesIn('scope'), ...grantable(scopesIn('optional_scope'))] });
      back.searchParams.set('code', code);
    }
    const state = query.get('state');
    if (state !== null) back.searchParams.set('state', state);
    return { status: 302, location: back.toString() };
  }

  function token(form: Record<string, unknown>): Answer {
    if (form.client_id !== world.clientId) return oauthError('BAD_CLIENT_ID', 'missing or invalid client_id');
    if (form.client_secret !== world.clientSecret) return oauthError('BAD_CLIENT_SECRET', 'missing or invalid client_secret');
    let refreshToken: string;
    let scopes: string[];
    if (form.grant_type === 'authorization_code') {
      const issued = typeof form.code === 'string' ? codes.get(form.code) : undefined;
      if (!issued) return oauthError('BAD_AUTH_CODE', 'missing or unknown auth code');
      if (form.redirect_uri !== issued.redirectUri) return oauthError('BAD_REDIRECT_URI', 'redirect_uri does not match the one the code was issued for');
      codes.delete(form.code as string);
      refreshToken = randomUUID();
      scopes = issued.scopes;
      refreshTokens.set(refreshToken, { scopes });
    } else if (form.grant_type === 'refresh_token') {
      const known = typeof form.refresh_token === 'string' ? refreshTokens.get(form.refresh_token) : undefined;
      if (!known) return oauthError('BAD_REFRESH_TOKEN', 'missing or unknown refresh token');
      refreshToken = form.refresh_token as string;
      scopes = known.scopes;
    } else {
      return oauthError('BAD_GRANT_TYPE', 'grant_type must be authorization_code or refresh_token');
    }
    return { status: 200, body: { token_type: 'bearer', refresh_token: refreshToken, access_token: tokensFor(scopes), expires_in: world.expiresInSeconds } };
  }

  function tokenInfo(accessToken: string): Answer {
    const known = accessTokens.get(accessToken);
    if (!known || known.expiresAtMs <= now()) return hubSpotError(404, 'OBJECT_NOT_FOUND', 'The access token is unknown or has expired.');
    return {
      status: 200,
      body: {
        token: accessToken,
        user: world.user.email,
        hub_domain: world.hubDomain,
        scopes: known.scopes,
        hub_id: world.hubId,
        app_id: world.appId,
        expires_in: Math.floor((known.expiresAtMs - now()) / 1000),
        user_id: world.user.userId,
        token_type: 'access',
      },
    };
  }

  /** A transcript, for a token granted the transcripts scope (HubSpot checks the scope first, whatever the id). */
  function readTranscript(transcriptId: string, granted: readonly string[]): Answer {
    if (!granted.includes(TRANSCRIPTS_SCOPE)) {
      return {
        status: 403,
        body: {
          status: 'error',
          message: "This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.",
          correlationId: randomUUID(),
          errors: [{ message: 'One or more of the following scopes are required.', context: { requiredGranularScopes: [TRANSCRIPTS_SCOPE] } }],
          links: { scopes: 'https://developers.hubspot.com/scopes' },
          category: 'MISSING_SCOPES',
        },
      };
    }
    const found = transcripts.get(transcriptId);
    return found ? { status: 200, body: found } : hubSpotError(404, 'OBJECT_NOT_FOUND', `No transcript has the id ${transcriptId}.`);
  }

  /** The calls search: only what integration asks (hs_lastmodifieddate GTE/LT, sorted ascending), answered from the sorted calls. */
  function searchCalls(body: unknown): Answer {
    const asked = searchRequest(body);
    if ('status' in asked) return asked;
    const sorts = asked.sorts;
    if (sorts.length !== 1 || sorts[0]?.propertyName !== 'hs_lastmodifieddate' || sorts[0]?.direction !== 'ASCENDING') {
      return hubSpotError(400, 'VALIDATION_ERROR', 'The stand-in sorts calls only by hs_lastmodifieddate, ascending.');
    }
    let low = 0;
    let high = calls.length;
    for (const filter of asked.filters) {
      const at = filter.value === undefined ? Number.NaN : /^\d+$/.test(filter.value) ? Number(filter.value) : Date.parse(filter.value);
      if (filter.propertyName !== 'hs_lastmodifieddate' || !['GTE', 'LT'].includes(filter.operator) || Number.isNaN(at)) {
        return hubSpotError(400, 'VALIDATION_ERROR', 'The stand-in filters calls only on hs_lastmodifieddate, GTE or LT a date.');
      }
      if (filter.operator === 'GTE') low = Math.max(low, firstModifiedFrom(at));
      else high = Math.min(high, firstModifiedFrom(at));
    }
    return searchPage(asked, Math.max(high - low, 0), (from, to) =>
      calls.slice(low + from, Math.min(low + to, high)).map(({ call }) => ({
        id: call.id,
        properties: projected(call.properties, asked.properties),
        createdAt: call.properties.hs_createdate ?? call.properties.hs_lastmodifieddate,
        updatedAt: call.properties.hs_lastmodifieddate,
        archived: false,
      })),
    );
  }

  /** The index of the first call modified at or after `ms`. */
  function firstModifiedFrom(ms: number): number {
    let low = 0;
    let high = calls.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (calls[middle]!.modifiedMs < ms) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** A page of a search's results: HubSpot's cursor is the offset, and nothing past the cap is given. */
  function searchPage(asked: SearchRequest, total: number, resultsBetween: (from: number, to: number) => unknown[]): Answer {
    const next = asked.after + asked.limit;
    if (next > world.searchResultCap) {
      return hubSpotError(400, 'VALIDATION_ERROR', `The search cannot page past ${world.searchResultCap} results (after ${asked.after} with limit ${asked.limit}).`);
    }
    return { status: 200, body: { total, results: resultsBetween(asked.after, next), ...(next < total ? { paging: { next: { after: String(next) } } } : {}) } };
  }

  function listOwners(query: URLSearchParams): Answer {
    const limit = Number(query.get('limit') ?? OWNERS_DEFAULT_LIMIT);
    const after = Number(query.get('after') ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || limit > OWNERS_LIMIT_MAX || !Number.isInteger(after) || after < 0) {
      return hubSpotError(400, 'VALIDATION_ERROR', `limit must be from 1 to ${OWNERS_LIMIT_MAX}, after a cursor this endpoint gave.`);
    }
    const active = world.owners.filter((owner) => !owner.archived);
    const next = after + limit;
    const results = active.slice(after, next).map((owner) => ({ ...owner, createdAt: '2025-01-06T09:00:00.000Z', updatedAt: '2025-01-06T09:00:00.000Z' }));
    return { status: 200, body: { results, ...(next < active.length ? { paging: { next: { after: String(next), link: `?after=${next}` } } } : {}) } };
  }

  /** The contacts of each call asked; a call without any is an error of the batch, answered 207 with the rest. */
  function readCallContacts(body: unknown): Answer {
    const inputs = record(body)?.inputs;
    if (!Array.isArray(inputs) || inputs.some((input) => typeof record(input)?.id !== 'string')) return hubSpotError(400, 'VALIDATION_ERROR', 'inputs must be a list of {id}.');
    if (inputs.length > ASSOCIATIONS_BATCH_MAX) return hubSpotError(400, 'VALIDATION_ERROR', `A batch holds at most ${ASSOCIATIONS_BATCH_MAX} inputs.`);
    const startedAt = new Date(now()).toISOString();
    const results: unknown[] = [];
    const unassociated: string[] = [];
    for (const input of inputs as { id: string }[]) {
      const contactIds = world.callContacts[input.id] ?? [];
      if (contactIds.length === 0) unassociated.push(input.id);
      else
        results.push({
          from: { id: input.id },
          to: contactIds.map((contactId) => ({ toObjectId: Number(contactId), associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: CALL_TO_CONTACT, label: null }] })),
        });
    }
    const errors = unassociated.map((id) => ({
      status: 'error',
      category: 'OBJECT_NOT_FOUND',
      subCategory: 'crm.associations.NO_ASSOCIATIONS_FOUND',
      message: `No contacts are associated with call ${id}.`,
      context: { fromObjectId: [id] },
    }));
    const completedAt = new Date(now()).toISOString();
    return { status: errors.length > 0 ? 207 : 200, body: { status: 'COMPLETE', results, ...(errors.length > 0 ? { numErrors: errors.length, errors } : {}), startedAt, completedAt } };
  }

  function createEngagement(created: CreatedEngagement[], bodyProperty: string, associationTypeId: number, body: unknown): Answer {
    const fields = record(body);
    const properties = record(fields?.properties);
    if (!fields || !properties || Object.values(properties).some((value) => typeof value !== 'string')) return hubSpotError(400, 'VALIDATION_ERROR', 'properties must map names to strings.');
    if (!properties.hs_timestamp || Number.isNaN(Date.parse(properties.hs_timestamp as string))) return hubSpotError(400, 'VALIDATION_ERROR', 'hs_timestamp is required, as a date.');
    if (typeof properties[bodyProperty] !== 'string') return hubSpotError(400, 'VALIDATION_ERROR', `${bodyProperty} is required.`);
    const owner = properties.hubspot_owner_id;
    if (owner !== undefined && !world.owners.some((candidate) => candidate.id === owner)) return hubSpotError(400, 'VALIDATION_ERROR', `${String(owner)} is not a valid owner id.`);
    const contactIds: string[] = [];
    for (const association of Array.isArray(fields.associations) ? fields.associations : []) {
      const to = record(record(association)?.to)?.id;
      const types = record(association)?.types;
      const type = Array.isArray(types) && types.length === 1 ? record(types[0]) : undefined;
      if (type?.associationCategory !== 'HUBSPOT_DEFINED' || type.associationTypeId !== associationTypeId) {
        return hubSpotError(400, 'VALIDATION_ERROR', `An association to a contact must be of the HubSpot-defined type ${associationTypeId}.`);
      }
      if (typeof to !== 'string' || !contacts.has(to)) return hubSpotError(400, 'VALIDATION_ERROR', `No contact has the id ${String(to)}.`);
      contactIds.push(to);
    }
    const id = String(nextObjectId++);
    const at = new Date(now()).toISOString();
    created.push({ id, properties: properties as Record<string, string>, contactIds, callIds: [] });
    return { status: 201, body: { id, properties: { ...properties, hs_object_id: id, hs_createdate: at, hs_lastmodifieddate: at }, createdAt: at, updatedAt: at, archived: false } };
  }

  /** v4's default association of a note with a call: made once, the same answer when made again. */
  function associateNoteWithCall(noteId: string, callId: string): Answer {
    const note = notes.find((candidate) => candidate.id === noteId);
    if (!note) return hubSpotError(404, 'OBJECT_NOT_FOUND', `No note has the id ${noteId}.`);
    if (!calls.some((stored) => stored.call.id === callId)) return hubSpotError(404, 'OBJECT_NOT_FOUND', `No call has the id ${callId}.`);
    if (notesOnCallsRefused) return hubSpotError(400, 'VALIDATION_ERROR', 'notes cannot be associated with calls in this account.');
    if (!note.callIds.includes(callId)) note.callIds.push(callId);
    const at = new Date(now()).toISOString();
    return {
      status: 200,
      body: { status: 'COMPLETE', results: [{ associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: NOTE_TO_CALL }, from: { id: noteId }, to: { id: callId } }], startedAt: at, completedAt: at },
    };
  }

  /** Notes or tasks, in the order created, that match every CONTAINS_TOKEN filter. */
  function searchEngagements(created: CreatedEngagement[], body: unknown): Answer {
    const asked = searchRequest(body);
    if ('status' in asked) return asked;
    if (asked.filters.some((filter) => filter.operator !== 'CONTAINS_TOKEN' || filter.value === undefined)) {
      return hubSpotError(400, 'VALIDATION_ERROR', 'The stand-in searches notes and tasks only with CONTAINS_TOKEN.');
    }
    const matching = created.filter((engagement) => asked.filters.every((filter) => containsTokens(engagement.properties[filter.propertyName] ?? '', filter.value!)));
    return searchPage(asked, matching.length, (from, to) =>
      matching.slice(from, to).map((engagement) => ({ id: engagement.id, properties: projected(engagement.properties, asked.properties), archived: false })),
    );
  }

  /** The rolling window's headers, on every API answer; the limit is counted, not enforced (rateLimitNext refuses). */
  function rateLimitHeaders(refused: boolean): Record<string, string> {
    if (now() - window.startMs >= RATE_LIMIT_INTERVAL_MS) window = { startMs: now(), used: 0 };
    window.used += 1;
    return {
      'x-hubspot-ratelimit-interval-milliseconds': String(RATE_LIMIT_INTERVAL_MS),
      'x-hubspot-ratelimit-max': String(RATE_LIMIT_MAX),
      'x-hubspot-ratelimit-remaining': String(refused ? 0 : Math.max(RATE_LIMIT_MAX - window.used, 0)),
    };
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    answer(request).then(
      (answered) => {
        if ('location' in answered) return response.writeHead(answered.status, { location: answered.location }).end();
        const headers = rateLimitHeaders(answered.status === 429);
        if ('bytes' in answered) return response.writeHead(answered.status, { ...headers, 'content-type': answered.contentType, 'content-length': answered.bytes.length }).end(answered.bytes);
        return response.writeHead(answered.status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(answered.body));
      },
      (error: unknown) => response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'error', message: `The stand-in failed: ${String(error)}` })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    authorizeUrl: `${baseUrl}/oauth/authorize`,
    requests,
    notes,
    tasks,
    issueTokens(granted = [...HUBSPOT_SCOPES, ...grantable(HUBSPOT_OPTIONAL_SCOPES)]) {
      const scopes = [...granted];
      const refreshToken = randomUUID();
      refreshTokens.set(refreshToken, { scopes });
      return { accessToken: tokensFor(scopes), refreshToken };
    },
    denyNextConsent() {
      denyConsent = true;
    },
    refuseNotesOnCalls() {
      notesOnCallsRefused = true;
    },
    advanceClock(ms) {
      clockShiftMs += ms;
    },
    revokeRefreshTokens() {
      refreshTokens.clear();
      accessTokens.clear();
    },
    rateLimitNext(count) {
      rateLimited = count;
    },
    failNext(count, status, pathPrefix = '') {
      failure = { remaining: count, status, pathPrefix };
    },
    loseAnswerOfNext(count, status, pathPrefix = '') {
      lostAnswer = { remaining: count, status, pathPrefix };
    },
    addCall(call, recording, contactIds) {
      addSorted([call]);
      if (recording) world.recordings[call.id] = recording;
      if (contactIds) {
        world.callContacts[call.id] = contactIds;
        for (const contactId of contactIds) contacts.add(contactId);
      }
    },
    addTranscript(transcript) {
      transcripts.set(transcript.id, transcript);
    },
    addCalls(count, callOf) {
      addSorted(Array.from({ length: count }, (_, index) => callOf(index)));
    },
    recordingUrlOf: (callId) => `${baseUrl}/recordings/${encodeURIComponent(callId)}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

interface SearchFilter {
  propertyName: string;
  operator: string;
  value: string | undefined;
}

interface SearchRequest {
  filters: SearchFilter[];
  sorts: { propertyName?: unknown; direction?: unknown }[];
  properties: string[];
  limit: number;
  after: number;
}

/** A search body as HubSpot takes it; one filter group is all integration sends, and all the stand-in reads. */
function searchRequest(body: unknown): SearchRequest | { status: number; body: unknown } {
  const fields = record(body);
  if (!fields) return hubSpotError(400, 'VALIDATION_ERROR', 'The body must be a JSON object.');
  const groups = fields.filterGroups ?? [];
  if (!Array.isArray(groups) || groups.length > 1) return hubSpotError(400, 'VALIDATION_ERROR', 'The stand-in reads at most one filter group.');
  const rawFilters = groups.length === 0 ? [] : record(groups[0])?.filters;
  if (!Array.isArray(rawFilters)) return hubSpotError(400, 'VALIDATION_ERROR', 'A filter group must hold a list of filters.');
  const filters: SearchFilter[] = [];
  for (const raw of rawFilters) {
    const filter = record(raw);
    if (typeof filter?.propertyName !== 'string' || typeof filter.operator !== 'string') return hubSpotError(400, 'VALIDATION_ERROR', 'A filter needs a propertyName and an operator.');
    filters.push({ propertyName: filter.propertyName, operator: filter.operator, value: typeof filter.value === 'string' ? filter.value : undefined });
  }
  const limit = fields.limit ?? SEARCH_DEFAULT_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMIT_MAX) {
    return hubSpotError(400, 'VALIDATION_ERROR', `limit must be a whole number from 1 to ${SEARCH_LIMIT_MAX}.`);
  }
  const after = fields.after === undefined ? 0 : Number(fields.after);
  if (typeof fields.after === 'number' || !Number.isInteger(after) || after < 0) return hubSpotError(400, 'VALIDATION_ERROR', 'after must be a cursor a search gave.');
  const sorts = Array.isArray(fields.sorts) ? fields.sorts.map((sort) => record(sort) ?? {}) : [];
  const properties = Array.isArray(fields.properties) ? fields.properties.filter((name): name is string => typeof name === 'string') : [];
  return { filters, sorts, properties, limit, after };
}

/** The properties asked for (null when unset), and the few HubSpot always sends. */
function projected(properties: Record<string, string | null>, asked: readonly string[]): Record<string, string | null> {
  const always = ['hs_object_id', 'hs_createdate', 'hs_lastmodifieddate'].filter((name) => name in properties);
  return Object.fromEntries([...always, ...asked].map((name) => [name, properties[name] ?? null]));
}

/** CONTAINS_TOKEN: every word of the value is a word of the text, whatever their case and the punctuation around them. */
function containsTokens(text: string, value: string): boolean {
  const words = new Set(wordsOf(text));
  return wordsOf(value).every((word) => words.has(word));
}

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** HubSpot's ids are numbers written as strings: compared as numbers when both are. */
function compareIds(a: string, b: string): number {
  return /^\d+$/.test(a) && /^\d+$/.test(b) ? Number(a) - Number(b) || a.localeCompare(b) : a.localeCompare(b);
}

/** The CRM API's error shape. */
function hubSpotError(status: number, category: string, message: string): { status: number; body: unknown } {
  return { status, body: { status: 'error', message, correlationId: randomUUID(), category } };
}

/** The token endpoint's error shape: a 400 naming what was wrong in `status`. */
function oauthError(status: string, message: string): Answer {
  return { status: 400, body: { status, message, correlationId: randomUUID(), requestId: randomUUID() } };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A JSON body parsed, a form's fields, undefined when empty or neither. */
async function bodyOf(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  if ((request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
