/**
 * A stand-in for Google (https://developers.google.com), the third-party SaaS whose Workspace
 * tests cannot reach: a local HTTP server answering, as Google documents them, the endpoints
 * Google Workspace for Parlance uses, all under one origin (`${baseUrl}/token`,
 * `${baseUrl}/v1/userinfo`, `${baseUrl}/drive/v3/…`, `${baseUrl}/calendar/v3/…`,
 * `${baseUrl}/meet/v2/…`).
 *
 * - OAuth 2.0's token endpoint: single-use codes bound to the redirect URI `postmessage` (the code
 *   client's popup flow), the app's id and secret checked (401 invalid_client), refresh tokens
 *   that answer no new refresh token, and `invalid_grant` for a used code ("Bad Request") or a
 *   revoked grant ("Token has been expired or revoked."). Access tokens expire after
 *   `expiresInSeconds` on a clock the test moves; Google's 401 UNAUTHENTICATED otherwise.
 * - OpenID Connect's user info (the e-mail only with the e-mail scope).
 * - Drive v3: files.list with the `q` forms integration sends (400 "Invalid Value" for any
 *   other), `pageSize` (default 100, at most 1,000), `pageToken` and `fields` (answers hold only
 *   the fields asked for, an unknown one is refused); files.get (404 notFound, 403
 *   insufficientFilePermissions for a folder the test made inaccessible); files.export as
 *   text/plain (with the byte order mark Google's text export starts with; 403 fileNotExportable
 *   for a file that is not a Docs Editors file); changes.getStartPageToken and changes.list over
 *   a change log kept as the test adds, trashes and removes files (tokens are numbers written as
 *   strings; a file changed more than once is listed once, as it is now).
 * - Calendar v3's events.list of the primary calendar (or the user's e-mail as its id; 404
 *   notFound for any other): events ending after `timeMin` and starting before `timeMax`, by start,
 *   `maxResults` (default 250, at most 2,500), `pageToken`, `fields` as Drive's, `orderBy`
 *   (startTime only with singleEvents); each event with its Meet link (hangoutLink and
 *   conferenceData's entry points), attendees (`self` for the user, rooms as `resource`) and
 *   attachments (Meet attaches its transcript Doc). 403 insufficientPermissions without a
 *   Calendar scope.
 * - Meet REST API v2: conferenceRecords.list (`filter` on start_time and end_time, joined by
 *   AND; latest first), conferenceRecords.get, and each record's transcripts, transcript entries
 *   and participants, paged as Meet does (pageSize coerced to its maximum, pageToken). 403
 *   PERMISSION_DENIED with Google's ErrorInfo (ACCESS_TOKEN_SCOPE_INSUFFICIENT) without the
 *   meetings.space.readonly scope; Meet's own 401 UNAUTHENTICATED for a bad token.
 * - When a test arms it: Drive's 403 userRateLimitExceeded, or any HTTP status, for the next
 *   requests.
 * - Google Identity Services' client library, as a small classic script at /gsi/client defining
 *   `google.accounts.oauth2.initCodeClient` for the popup mode: `requestCode()` plays the popup
 *   by asking the stand-in's consent endpoint (/o/oauth2/consent, the stand-in's own, CORS-enabled)
 *   for a code, and calls the config's `callback` with a CodeResponse ({code, scope} or {error,
 *   error_description}) or its `error_callback` with {type}, as GIS documents them.
 *
 * Where Google's documentation does not give an answer's exact words (most error messages, the
 * user info's 401), the wording here is this stand-in's own; their shapes follow Google's. The
 * consent endpoint and its answer are the stand-in's own: Google's consent is a page in a popup.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GOOGLE_WORKSPACE_SCOPES } from '../../src/vendors/google-client.js';

const FOLDER_MIME_TYPE = 'application/vnd.google-apps.folder';
const DOC_MIME_TYPE = 'application/vnd.google-apps.document';
const DRIVE_PREFIX = '/drive/v3';
const CALENDAR_PREFIX = '/calendar/v3';
const MEET_PREFIX = '/meet/v2';
const DRIVE_SCOPES = new Set(['https://www.googleapis.com/auth/drive', 'https://www.googleapis.com/auth/drive.readonly']);
/** The scopes events.list accepts. */
const CALENDAR_SCOPES = new Set([
  'https://www.googleapis.com/auth/calendar',
  'https://www.googleapis.com/auth/calendar.readonly',
  'https://www.googleapis.com/auth/calendar.events',
  'https://www.googleapis.com/auth/calendar.events.readonly',
]);
/** Meet's conference records, transcripts and participants of any meeting the user was in. */
const MEET_SCOPE = 'https://www.googleapis.com/auth/meetings.space.readonly';
const EMAIL_SCOPE = 'https://www.googleapis.com/auth/userinfo.email';
const PROFILE_SCOPE = 'https://www.googleapis.com/auth/userinfo.profile';
/** Google's short forms, written out in full in a token answer's `scope`. */
const SCOPE_ALIASES: Record<string, string> = { email: EMAIL_SCOPE, profile: PROFILE_SCOPE };
const PAGE_SIZE_DEFAULT = 100;
const PAGE_SIZE_MAX = 1_000;
/** How long a code may wait to be exchanged (the stand-in's own choice: Google says only "short-lived"). */
const CODE_TTL_MS = 10 * 60_000;
/** files.export's limit. */
const EXPORT_MAX_BYTES = 10 * 1024 * 1024;
/** The first change's number: tokens look like Drive's (numbers as strings), not like indexes. */
const FIRST_CHANGE = 5_001;
/** events.list's page: 250 unless said, at most 2,500. */
const EVENTS_PAGE_DEFAULT = 250;
const EVENTS_PAGE_MAX = 2_500;
/** Meet's pages, by list: what is given unless said, and what a larger pageSize is coerced to. */
const MEET_PAGES = { conferenceRecords: { default: 25, max: 100 }, transcripts: { default: 10, max: 100 }, transcriptEntries: { default: 10, max: 100 }, participants: { default: 100, max: 250 } } as const;
/** An event added without times: the meeting that just ended, this long. */
const SEED_EVENT_MS = 30 * 60_000;

export interface GoogleStandinOwner {
  displayName: string;
  emailAddress: string;
}

export interface GoogleStandinFolder {
  id: string;
  name: string;
  /** Drive's `shared`: whether anyone else has been given access. */
  shared?: boolean;
  /** The seed's user unless said. */
  owners?: GoogleStandinOwner[];
  createdTime?: string;
}

export interface GoogleStandinDocument {
  id: string;
  name: string;
  folderId: string;
  /** What files.export gives as text/plain. */
  text: string;
  /** RFC 3339; the stand-in's clock unless said. */
  createdTime?: string;
  modifiedTime?: string;
}

/** A file that is not a Google Doc (a PDF, a recording). */
export interface GoogleStandinFile {
  id: string;
  name: string;
  folderId: string;
  mimeType: string;
  createdTime?: string;
}

export interface GoogleStandinAttendee {
  email: string;
  displayName?: string;
  organizer?: boolean;
  /** A room or other resource. */
  resource?: boolean;
  responseStatus?: 'needsAction' | 'declined' | 'tentative' | 'accepted';
}

/** An event of the user's primary calendar. */
export interface GoogleStandinEvent {
  id: string;
  summary: string;
  /** RFC 3339; without them, the 30 minutes before the stand-in's clock when it is added (a seeded one: the meeting that ended as the stand-in started). */
  start?: string;
  end?: string;
  /** Its Google Meet conference's code ("abc-mnop-xyz"): a hangoutLink and conferenceData's entry points. None: an event without Meet. */
  meetingCode?: string;
  /** The conference's entry points only, without hangoutLink (as Calendar gives some events). */
  withoutHangoutLink?: boolean;
  /** The seed's user (as organizer) unless said. */
  attendees?: GoogleStandinAttendee[];
  /** Drive files attached (Meet attaches the transcript Doc it saves). */
  attachmentFileIds?: string[];
}

export interface GoogleStandinParticipant {
  id: string;
  displayName: string;
  /** signedinUser unless said. */
  kind?: 'signedin' | 'anonymous' | 'phone';
}

export interface GoogleStandinTranscriptEntry {
  participantId: string;
  text: string;
  languageCode?: string;
  /** RFC 3339 */
  startTime: string;
  endTime: string;
}

export interface GoogleStandinTranscript {
  id: string;
  /** The Google Doc it was saved in; none: not saved yet (state ENDED). */
  documentId?: string;
  startTime?: string;
  endTime?: string;
  entries: GoogleStandinTranscriptEntry[];
}

/** A Meet conference record: one meeting held in a space. */
export interface GoogleStandinConference {
  id: string;
  startTime: string;
  /** None while it goes on. */
  endTime?: string;
  participants: GoogleStandinParticipant[];
  transcripts: GoogleStandinTranscript[];
}

export interface GoogleStandinSeed {
  clientId: string;
  clientSecret: string;
  /** The Google account that consents. */
  user: { email: string; name: string; sub: string };
  folders: GoogleStandinFolder[];
  documents: GoogleStandinDocument[];
  /** The user's primary calendar. */
  events: GoogleStandinEvent[];
  /** The Meet conferences the user was in. */
  conferences: GoogleStandinConference[];
  /** An access token's life; Google's answers say 3599. */
  expiresInSeconds: number;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** A form's fields, the parsed JSON body, or undefined when there was none. */
  body: unknown;
}

/** A consent asked through the GIS stand-in (or consentCode). */
export interface RecordedConsent {
  clientId: string;
  scopes: string[];
  state: string | undefined;
  outcome: 'granted' | 'denied';
}

/** How the next consent is refused: the popup closed, or the user pressing Cancel on the consent screen. */
export type ConsentRefusal = 'popup_closed' | 'access_denied';

export interface GoogleStandin {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** `${baseUrl}/token` */
  tokenUrl: string;
  /** `${baseUrl}/v1/userinfo` */
  userinfoUrl: string;
  /** `${baseUrl}/drive/v3` */
  driveUrl: string;
  /** `${baseUrl}/calendar/v3` */
  calendarUrl: string;
  /** `${baseUrl}/meet/v2` */
  meetUrl: string;
  /** `${baseUrl}/gsi/client`: the GIS client library stand-in. */
  gisScriptUrl: string;
  /** Every request, in the order received, refused ones included. */
  requests: ReceivedRequest[];
  /** Every consent asked, with the scopes asked for. */
  consents: RecordedConsent[];
  /** A code as if the seed's user had consented in the code client's popup (redirect URI `postmessage`). */
  consentCode(scopes?: readonly string[]): string;
  /** Tokens as if a code had been exchanged, for tests that need a connection, not the flow. */
  issueTokens(scopes?: readonly string[]): { accessToken: string; refreshToken: string };
  /**
   * The next consent is refused. 'popup_closed' (the default): GIS's error_callback gets
   * {type: 'popup_closed'} when the config has one, else the callback gets {error:
   * 'access_denied'}. 'access_denied': the callback gets {error: 'access_denied', …} whatever.
   */
  denyNextConsent(how?: ConsentRefusal): void;
  /** The next code exchanged answers no refresh_token, as Google does when access was granted before. */
  withholdRefreshTokenNext(): void;
  /** Moves the clock access tokens and codes expire on. */
  advanceClock(ms: number): void;
  /** The user removed Parlance's access: every refresh answers invalid_grant and every access token 401; codes minted later work again. */
  revokeGrant(): void;
  /** Answers the next `count` API requests (Drive, Calendar, Meet, user info) with Drive's 403 userRateLimitExceeded. */
  rateLimitNext(count: number): void;
  /** Answers the next `count` requests whose path starts with `pathPrefix` with HTTP `status`. */
  failNext(count: number, status: number, pathPrefix?: string): void;
  addFolder(folder: GoogleStandinFolder): void;
  addDocument(document: GoogleStandinDocument): void;
  addFile(file: GoogleStandinFile): void;
  /** An event in the user's primary calendar. */
  addEvent(event: GoogleStandinEvent): void;
  /** A Meet conference the user was in, with its participants and transcripts. */
  addConference(conference: GoogleStandinConference): void;
  /** Moves a file to the trash: it stays, with trashed true. */
  trashDocument(id: string): void;
  /** Deletes a file for good. */
  removeDocument(id: string): void;
  /** Deletes a folder and the files in it for good. */
  removeFolder(id: string): void;
  /** The user loses access to the folder and what is in it (shared no more): 403 from files.get, gone from lists, removed in changes. */
  makeFolderInaccessible(id: string): void;
  close(): Promise<void>;
}

export const GOOGLE_STANDIN_SEED: GoogleStandinSeed = {
  clientId: '284113930582-standin7q2mf0e1lk9v3.apps.googleusercontent.com',
  clientSecret: 'GOCSPX-standin-9fK2xQ7mV4pL1sR8',
  user: { email: 'maya.okafor@parlance.local', name: 'Maya Okafor', sub: '108345923457720965412' },
  folders: [
    { id: 'fold_meet', name: 'Meet Recordings', shared: false, createdTime: '2026-01-12T09:00:00.000Z' },
    { id: 'fold_shared', name: 'Customer Calls (Sales)', shared: true, owners: [{ displayName: 'Daniel Reyes', emailAddress: 'daniel.reyes@parlance.local' }], createdTime: '2025-11-03T14:30:00.000Z' },
  ],
  documents: [],
  // The journeys' demo transcript (doc_globex, added by the test) is attached to its meeting's event, as Meet does.
  events: [
    {
      id: 'evt_globex_discovery',
      summary: 'Discovery with Globex',
      meetingCode: 'gxd-qmvr-tka',
      attendees: [
        { email: 'maya.okafor@parlance.local', displayName: 'Maya Okafor', organizer: true, responseStatus: 'accepted' },
        { email: 'morgan.reyes@globex.example', displayName: 'Morgan Reyes', responseStatus: 'accepted' },
        { email: 'c_1888room-berlin-3@resource.calendar.google.com', displayName: 'Berlin-3-Orbit (6)', resource: true, responseStatus: 'accepted' },
      ],
      attachmentFileIds: ['doc_globex'],
    },
  ],
  conferences: [],
  expiresInSeconds: 3599,
};

interface StoredFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  trashed: boolean;
  createdTime: string;
  modifiedTime: string;
  shared: boolean;
  owners: GoogleStandinOwner[];
  /** False once the user lost access to it. */
  accessible: boolean;
  text?: string;
}

interface StoredEvent {
  id: string;
  summary: string;
  start: string;
  end: string;
  meetingCode?: string;
  withoutHangoutLink: boolean;
  attendees: GoogleStandinAttendee[];
  attachmentFileIds: string[];
  created: string;
}

interface AccessToken {
  expiresAtMs: number;
  scopes: string[];
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> } | { status: number; text: string; contentType: string; headers?: Record<string, string> };

export async function startGoogleStandin(seed: Partial<GoogleStandinSeed> = {}): Promise<GoogleStandin> {
  const world: GoogleStandinSeed = { ...GOOGLE_STANDIN_SEED, ...seed };
  const requests: ReceivedRequest[] = [];
  const consents: RecordedConsent[] = [];
  const files = new Map<string, StoredFile>();
  /** The change log: one entry per change, the file's state read when the changes are listed. */
  const changeLog: { fileId: string; time: string }[] = [];
  /** Unused codes: code → the redirect URI and scopes it was minted for, and when. */
  const codes = new Map<string, { redirectUri: string; scopes: string[]; mintedAtMs: number }>();
  const refreshTokens = new Map<string, { scopes: string[] }>();
  const accessTokens = new Map<string, AccessToken>();
  const permissionIds = new Map<string, string>();
  const events = new Map<string, StoredEvent>();
  const conferences = new Map<string, GoogleStandinConference>();
  let clockShiftMs = 0;
  let refusal: ConsentRefusal | undefined;
  let withholdRefreshToken = false;
  let rateLimited = 0;
  let failure = { remaining: 0, status: 503, pathPrefix: '' };

  const now = () => Date.now() + clockShiftMs;
  const nowIso = () => new Date(now()).toISOString();

  function changed(fileId: string) {
    changeLog.push({ fileId, time: nowIso() });
  }

  function ownersOf(owners: GoogleStandinOwner[] | undefined): GoogleStandinOwner[] {
    return owners ?? [{ displayName: world.user.name, emailAddress: world.user.email }];
  }

  function store(file: StoredFile) {
    if (files.has(file.id)) throw new Error(`The stand-in already holds a file ${file.id}`);
    files.set(file.id, file);
    changed(file.id);
  }

  function folderFor(folderId: string): StoredFile {
    const folder = files.get(folderId);
    if (!folder || folder.mimeType !== FOLDER_MIME_TYPE) throw new Error(`The stand-in holds no folder ${folderId}`);
    return folder;
  }

  function addFolder(folder: GoogleStandinFolder) {
    const createdTime = folder.createdTime ?? nowIso();
    store({ id: folder.id, name: folder.name, mimeType: FOLDER_MIME_TYPE, parents: [], trashed: false, createdTime, modifiedTime: createdTime, shared: folder.shared ?? false, owners: ownersOf(folder.owners), accessible: true });
  }

  function addInFolder(file: { id: string; name: string; folderId: string; mimeType: string; createdTime?: string; modifiedTime?: string; text?: string }) {
    const folder = folderFor(file.folderId);
    const createdTime = file.createdTime ?? nowIso();
    store({
      id: file.id,
      name: file.name,
      mimeType: file.mimeType,
      parents: [folder.id],
      trashed: false,
      createdTime,
      modifiedTime: file.modifiedTime ?? createdTime,
      // What is in a folder is shared with it, and owned by its owners (Meet saves transcripts in the organiser's Drive).
      shared: folder.shared,
      owners: folder.owners,
      accessible: folder.accessible,
      ...(file.text === undefined ? {} : { text: file.text }),
    });
  }

  function addEvent(event: GoogleStandinEvent) {
    if (events.has(event.id)) throw new Error(`The stand-in already holds an event ${event.id}`);
    const end = event.end ?? (event.start ? new Date(Date.parse(event.start) + SEED_EVENT_MS).toISOString() : nowIso());
    const start = event.start ?? new Date(Date.parse(end) - SEED_EVENT_MS).toISOString();
    events.set(event.id, {
      id: event.id,
      summary: event.summary,
      start,
      end,
      ...(event.meetingCode === undefined ? {} : { meetingCode: event.meetingCode }),
      withoutHangoutLink: event.withoutHangoutLink ?? false,
      attendees: event.attendees ?? [{ email: world.user.email, displayName: world.user.name, organizer: true, responseStatus: 'accepted' }],
      attachmentFileIds: event.attachmentFileIds ?? [],
      created: nowIso(),
    });
  }

  function addConference(conference: GoogleStandinConference) {
    if (conferences.has(conference.id)) throw new Error(`The stand-in already holds a conference ${conference.id}`);
    conferences.set(conference.id, conference);
  }

  for (const folder of world.folders) addFolder(folder);
  for (const event of world.events) addEvent(event);
  for (const conference of world.conferences) addConference(conference);
  for (const document of world.documents) addInFolder({ ...document, mimeType: DOC_MIME_TYPE });
  // What the seed holds was there before any token a test takes.
  changeLog.length = 0;

  function scopesOf(text: string): string[] {
    return [...new Set(text.split(/\s+/).filter((scope) => scope !== ''))];
  }

  function mintCode(scopes: readonly string[]): string {
    const code = `4/0A${randomBytes(30).toString('base64url')}`;
    codes.set(code, { redirectUri: 'postmessage', scopes: [...scopes], mintedAtMs: now() });
    return code;
  }

  function newAccessToken(scopes: string[]): string {
    const accessToken = `ya29.standin-${randomBytes(32).toString('base64url')}`;
    accessTokens.set(accessToken, { expiresAtMs: now() + world.expiresInSeconds * 1000, scopes });
    return accessToken;
  }

  function newRefreshToken(scopes: string[]): string {
    const refreshToken = `1//0g${randomBytes(40).toString('base64url')}`;
    refreshTokens.set(refreshToken, { scopes });
    return refreshToken;
  }

  /** An ID token's shape (header.payload.signature); its signature is no signature. */
  function idToken(): string {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const issuedAt = Math.floor(now() / 1000);
    const payload = { iss: 'https://accounts.google.com', aud: world.clientId, azp: world.clientId, sub: world.user.sub, email: world.user.email, email_verified: true, iat: issuedAt, exp: issuedAt + 3600 };
    return `${part({ alg: 'RS256', kid: 'standin', typ: 'JWT' })}.${part(payload)}.${randomBytes(32).toString('base64url')}`;
  }

  async function answer(request: IncomingMessage): Promise<Answer> {
    const url = new URL(request.url ?? '/', 'http://standin');
    const method = request.method ?? 'GET';
    const path = url.pathname;
    const body = await bodyOf(request);
    requests.push({ method, path, query: url.searchParams, body });

    if (path === '/gsi/client' && method === 'GET') return { status: 200, text: gisScript(baseUrl), contentType: 'text/javascript; charset=utf-8', headers: CORS };
    if (path === '/o/oauth2/consent') {
      if (method === 'OPTIONS') return { status: 204, text: '', contentType: 'text/plain', headers: { ...CORS, 'access-control-allow-methods': 'GET', 'access-control-allow-headers': '*' } };
      if (method === 'GET') return consent(url.searchParams);
    }
    if (failure.remaining > 0 && path.startsWith(failure.pathPrefix)) {
      failure.remaining -= 1;
      return failure.status >= 500 ? googleError(failure.status, 'Backend Error', 'backendError') : googleError(failure.status, 'The stand-in was told to fail this request.', 'failedPrecondition');
    }
    if (path === '/token') return method === 'POST' ? token(record(body) ?? {}) : googleError(405, 'Method Not Allowed', 'httpMethodNotAllowed');

    const api = path === '/v1/userinfo' ? 'userinfo' : ([DRIVE_PREFIX, CALENDAR_PREFIX, MEET_PREFIX] as const).find((prefix) => path.startsWith(`${prefix}/`));
    if (!api) return googleError(404, `The stand-in serves no ${method} ${path}.`, 'notFound');
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const access = bearer === undefined ? undefined : accessTokens.get(bearer);
    if (!access || access.expiresAtMs <= now()) return api === 'userinfo' ? userinfoUnauthorized() : api === MEET_PREFIX ? meetUnauthorized() : apiUnauthorized();
    if (rateLimited > 0) {
      rateLimited -= 1;
      return { status: 403, body: { error: { code: 403, message: 'User Rate Limit Exceeded', errors: [{ message: 'User Rate Limit Exceeded', domain: 'usageLimits', reason: 'userRateLimitExceeded' }] } } };
    }
    if (api === 'userinfo') return method === 'GET' ? userInfo(access) : googleError(405, 'Method Not Allowed', 'httpMethodNotAllowed');
    if (api === MEET_PREFIX) {
      if (!access.scopes.includes(MEET_SCOPE)) return meetScopeInsufficient(path.slice(MEET_PREFIX.length));
      return meet(method, path.slice(MEET_PREFIX.length), url.searchParams);
    }
    if (!access.scopes.some((scope) => (api === DRIVE_PREFIX ? DRIVE_SCOPES : CALENDAR_SCOPES).has(scope))) {
      return { status: 403, body: { error: { code: 403, message: 'Request had insufficient authentication scopes.', errors: [{ message: 'Insufficient Permission', domain: 'global', reason: 'insufficientPermissions' }], status: 'PERMISSION_DENIED' } } };
    }
    if (api === CALENDAR_PREFIX) return calendar(method, path.slice(CALENDAR_PREFIX.length), url.searchParams);
    return drive(method, path.slice(DRIVE_PREFIX.length), url.searchParams);
  }

  /** The user at the consent screen, agreeing at once unless armed to refuse: a code for the popup flow. */
  function consent(query: URLSearchParams): Answer {
    const clientId = query.get('client_id') ?? '';
    const scopes = scopesOf(query.get('scope') ?? '');
    const state = query.get('state') ?? undefined;
    const asked = (body: object, status = 200): Answer => ({ status, body: { ...body, ...(state === undefined ? {} : { state }) }, headers: CORS });
    if (clientId !== world.clientId) return asked({ error: 'invalid_client', error_description: 'The OAuth client was not found.' }, 401);
    if (scopes.length === 0) return asked({ error: 'invalid_request', error_description: 'Missing required parameter: scope' }, 400);
    const invalid = scopes.filter((scope) => !['openid', 'email', 'profile'].includes(scope) && !scope.startsWith('https://www.googleapis.com/auth/'));
    if (invalid.length > 0) return asked({ error: 'invalid_scope', error_description: `Some requested scopes were invalid. {invalid=[${invalid.join(', ')}]}` }, 400);
    if (refusal) {
      const how = refusal;
      refusal = undefined;
      consents.push({ clientId, scopes, state, outcome: 'denied' });
      return asked({ error: 'access_denied', error_description: 'The user did not grant access.', ...(how === 'popup_closed' ? { popup: 'closed' } : {}) });
    }
    consents.push({ clientId, scopes, state, outcome: 'granted' });
    const granted = grantedScopes(scopes);
    return asked({ code: mintCode(granted), scope: granted.join(' ') });
  }

  function token(form: Record<string, unknown>): Answer {
    if (form.client_id !== world.clientId) return oauthError(401, 'invalid_client', 'The OAuth client was not found.');
    if (form.client_secret !== world.clientSecret) return oauthError(401, 'invalid_client', 'Unauthorized');
    if (form.grant_type === 'authorization_code') {
      const code = typeof form.code === 'string' ? form.code : '';
      const issued = codes.get(code);
      if (!issued || issued.mintedAtMs + CODE_TTL_MS <= now()) {
        codes.delete(code);
        return oauthError(400, 'invalid_grant', 'Bad Request');
      }
      if (form.redirect_uri !== issued.redirectUri) return oauthError(400, 'redirect_uri_mismatch', 'Bad Request');
      codes.delete(code);
      const withhold = withholdRefreshToken;
      withholdRefreshToken = false;
      return {
        status: 200,
        body: {
          access_token: newAccessToken(issued.scopes),
          expires_in: world.expiresInSeconds,
          ...(withhold ? {} : { refresh_token: newRefreshToken(issued.scopes) }),
          scope: issued.scopes.join(' '),
          token_type: 'Bearer',
          ...(issued.scopes.includes('openid') ? { id_token: idToken() } : {}),
        },
      };
    }
    if (form.grant_type === 'refresh_token') {
      const known = typeof form.refresh_token === 'string' ? refreshTokens.get(form.refresh_token) : undefined;
      if (!known) return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
      return {
        status: 200,
        body: {
          access_token: newAccessToken(known.scopes),
          expires_in: world.expiresInSeconds,
          scope: known.scopes.join(' '),
          token_type: 'Bearer',
          ...(known.scopes.includes('openid') ? { id_token: idToken() } : {}),
        },
      };
    }
    return oauthError(400, 'unsupported_grant_type', `Invalid grant_type: ${String(form.grant_type ?? '')}`);
  }

  function userInfo(access: AccessToken): Answer {
    const info: Record<string, unknown> = { sub: world.user.sub };
    if (access.scopes.includes(PROFILE_SCOPE)) {
      const [given, ...family] = world.user.name.split(' ');
      Object.assign(info, { name: world.user.name, given_name: given, family_name: family.join(' ') });
    }
    if (access.scopes.includes(EMAIL_SCOPE)) Object.assign(info, { email: world.user.email, email_verified: true });
    return { status: 200, body: info };
  }

  function drive(method: string, path: string, query: URLSearchParams): Answer {
    if (method !== 'GET') return googleError(404, `The stand-in serves no ${method} ${DRIVE_PREFIX}${path}.`, 'notFound');
    if (path === '/files') return listFiles(query);
    if (path === '/changes/startPageToken') return { status: 200, body: { kind: 'drive#startPageToken', startPageToken: String(FIRST_CHANGE + changeLog.length) } };
    if (path === '/changes') return listChanges(query);
    const exported = /^\/files\/([^/]+)\/export$/.exec(path);
    if (exported) return exportFile(decodeURIComponent(exported[1]!), query);
    const file = /^\/files\/([^/]+)$/.exec(path);
    if (file) return getFile(decodeURIComponent(file[1]!), query);
    return googleError(404, `The stand-in serves no GET ${DRIVE_PREFIX}${path}.`, 'notFound');
  }

  function fileResource(file: StoredFile): Record<string, unknown> {
    const webViewLink =
      file.mimeType === DOC_MIME_TYPE
        ? `https://docs.google.com/document/d/${file.id}/edit?usp=drivesdk`
        : file.mimeType === FOLDER_MIME_TYPE
          ? `https://drive.google.com/drive/folders/${file.id}`
          : `https://drive.google.com/file/d/${file.id}/view?usp=drivesdk`;
    const owners = file.owners.map((owner) => {
      if (!permissionIds.has(owner.emailAddress)) permissionIds.set(owner.emailAddress, String(10_000_000_000 + permissionIds.size * 7_919));
      return { kind: 'drive#user', displayName: owner.displayName, emailAddress: owner.emailAddress, me: owner.emailAddress === world.user.email, permissionId: permissionIds.get(owner.emailAddress) };
    });
    return {
      kind: 'drive#file',
      id: file.id,
      name: file.name,
      mimeType: file.mimeType,
      parents: file.parents,
      trashed: file.trashed,
      createdTime: file.createdTime,
      modifiedTime: file.modifiedTime,
      webViewLink,
      shared: file.shared,
      owners,
      ownedByMe: owners.some((owner) => owner.me),
      starred: false,
    };
  }

  /** files.list: only the q forms integration sends (and none at all). */
  function listFiles(query: URLSearchParams): Answer {
    const size = pageSizeOf(query);
    if (typeof size !== 'number') return size;
    const fields = fieldsOf(query, `kind,nextPageToken,incompleteSearch,files(${FILE_DEFAULT_FIELDS})`, FILE_LIST_SCHEMA);
    if ('status' in fields) return fields;
    const q = query.get('q');
    let matching: StoredFile[];
    const inParents = q === null ? null : IN_PARENTS_QUERY.exec(q.trim());
    if (q === null) matching = [...files.values()].filter((file) => file.accessible);
    else if (FOLDERS_QUERY.test(q.trim())) matching = [...files.values()].filter((file) => file.accessible && file.mimeType === FOLDER_MIME_TYPE && !file.trashed);
    else if (inParents) {
      const parent = inParents[1]!.replace(/\\(.)/g, '$1');
      matching = [...files.values()].filter((file) => file.accessible && file.mimeType === DOC_MIME_TYPE && !file.trashed && file.parents.includes(parent));
    } else return invalidValue('q');
    const key = q ?? '';
    const offset = pageOffset(query.get('pageToken'), key);
    if (offset === undefined) return invalidValue('pageToken');
    const next = offset + size;
    const body = {
      kind: 'drive#fileList',
      incompleteSearch: false,
      ...(next < matching.length ? { nextPageToken: Buffer.from(JSON.stringify({ q: key, offset: next })).toString('base64url') } : {}),
      files: matching.slice(offset, next).map(fileResource),
    };
    return { status: 200, body: project(body, fields.tree) };
  }

  function getFile(id: string, query: URLSearchParams): Answer {
    const fields = fieldsOf(query, FILE_DEFAULT_FIELDS, FILE_SCHEMA);
    if ('status' in fields) return fields;
    const file = files.get(id);
    if (!file) return fileNotFound(id);
    if (!file.accessible) return insufficientPermissions(id);
    return { status: 200, body: project(fileResource(file), fields.tree) };
  }

  function exportFile(id: string, query: URLSearchParams): Answer {
    const mimeType = query.get('mimeType');
    if (!mimeType) return googleError(400, 'Required parameter: mimeType', 'required', { location: 'mimeType', locationType: 'parameter' });
    const file = files.get(id);
    if (!file) return fileNotFound(id);
    if (!file.accessible) return insufficientPermissions(id);
    if (file.mimeType !== DOC_MIME_TYPE) return googleError(403, 'Export only supports Docs Editors files.', 'fileNotExportable');
    // The stand-in's Docs hold only text: text/plain is the one conversion it makes.
    if (mimeType !== 'text/plain') return googleError(400, 'The requested conversion is not supported.', 'badRequest', { location: 'convertTo', locationType: 'parameter' });
    const text = `\uFEFF${file.text ?? ''}`;
    if (Buffer.byteLength(text, 'utf8') > EXPORT_MAX_BYTES) return googleError(403, 'This file is too large to be exported.', 'exportSizeLimitExceeded');
    return { status: 200, text, contentType: 'text/plain; charset=utf-8' };
  }

  /** changes.list: from the change numbered pageToken, each file once (its last change), as it is now. */
  function listChanges(query: URLSearchParams): Answer {
    const size = pageSizeOf(query);
    if (typeof size !== 'number') return size;
    const fields = fieldsOf(query, `kind,nextPageToken,newStartPageToken,changes(kind,changeType,time,removed,fileId,file(${FILE_DEFAULT_FIELDS}))`, CHANGE_LIST_SCHEMA);
    if ('status' in fields) return fields;
    const pageToken = query.get('pageToken');
    if (pageToken === null) return googleError(400, 'Required parameter: pageToken', 'required', { location: 'pageToken', locationType: 'parameter' });
    const from = /^\d+$/.test(pageToken) ? Number(pageToken) : Number.NaN;
    if (!(from >= FIRST_CHANGE && from <= FIRST_CHANGE + changeLog.length)) return invalidValue('pageToken');
    const includeRemoved = query.get('includeRemoved') !== 'false';
    const since = changeLog.map((entry, index) => ({ ...entry, number: FIRST_CHANGE + index })).slice(from - FIRST_CHANGE);
    const last = new Map(since.map((entry) => [entry.fileId, entry.number]));
    const listed = since
      .filter((entry) => last.get(entry.fileId) === entry.number)
      .map((entry) => {
        const file = files.get(entry.fileId);
        const removed = !file || !file.accessible;
        return { number: entry.number, change: { kind: 'drive#change', changeType: 'file', time: entry.time, removed, fileId: entry.fileId, ...(removed ? {} : { file: fileResource(file) }) } };
      })
      .filter((entry) => includeRemoved || !entry.change.removed);
    const page = listed.slice(0, size);
    const rest = listed[size];
    const body = {
      kind: 'drive#changeList',
      ...(rest ? { nextPageToken: String(rest.number) } : { newStartPageToken: String(FIRST_CHANGE + changeLog.length) }),
      changes: page.map((entry) => entry.change),
    };
    return { status: 200, body: project(body, fields.tree) };
  }

  function calendar(method: string, path: string, query: URLSearchParams): Answer {
    const list = /^\/calendars\/([^/]+)\/events$/.exec(path);
    if (method !== 'GET' || !list) return googleError(404, 'Not Found', 'notFound');
    const calendarId = decodeURIComponent(list[1]!);
    // The stand-in's user has one calendar: their primary, whose id is their e-mail.
    if (calendarId !== 'primary' && calendarId !== world.user.email) return googleError(404, 'Not Found', 'notFound');
    return listEvents(query);
  }

  function eventResource(event: StoredEvent): Record<string, unknown> {
    const meetLink = event.meetingCode === undefined ? undefined : `https://meet.google.com/${event.meetingCode}`;
    const organizer = event.attendees.find((attendee) => attendee.organizer) ?? { email: world.user.email, displayName: world.user.name };
    return {
      kind: 'calendar#event',
      etag: `"${Date.parse(event.created)}"`,
      id: event.id,
      status: 'confirmed',
      htmlLink: `https://www.google.com/calendar/event?eid=${Buffer.from(`${event.id} ${world.user.email}`).toString('base64url')}`,
      created: event.created,
      updated: event.created,
      summary: event.summary,
      creator: { email: organizer.email, ...(organizer.email === world.user.email ? { self: true } : {}) },
      organizer: { email: organizer.email, ...(organizer.displayName ? { displayName: organizer.displayName } : {}), ...(organizer.email === world.user.email ? { self: true } : {}) },
      start: { dateTime: event.start, timeZone: 'UTC' },
      end: { dateTime: event.end, timeZone: 'UTC' },
      iCalUID: `${event.id}@google.com`,
      sequence: 0,
      ...(meetLink && !event.withoutHangoutLink ? { hangoutLink: meetLink } : {}),
      ...(meetLink
        ? {
            conferenceData: {
              entryPoints: [
                { entryPointType: 'video', uri: meetLink, label: meetLink.replace('https://', '') },
                { entryPointType: 'more', uri: `https://tel.meet/${event.meetingCode}?pin=4410371992801`, pin: '4410371992801' },
                { entryPointType: 'phone', uri: 'tel:+49-30-300195843', label: '+49 30 300195843', pin: '418291047' },
              ],
              conferenceSolution: { key: { type: 'hangoutsMeet' }, name: 'Google Meet', iconUri: 'https://fonts.gstatic.com/s/i/productlogos/meet_2020q4/v6/web-512dp/logo_meet_2020q4_color_2x_web_512dp.png' },
              conferenceId: event.meetingCode,
            },
          }
        : {}),
      attendees: event.attendees.map((attendee) => ({
        email: attendee.email,
        ...(attendee.displayName ? { displayName: attendee.displayName } : {}),
        ...(attendee.organizer ? { organizer: true } : {}),
        ...(attendee.email === world.user.email ? { self: true } : {}),
        ...(attendee.resource ? { resource: true } : {}),
        responseStatus: attendee.responseStatus ?? 'needsAction',
      })),
      ...(event.attachmentFileIds.length > 0
        ? {
            attachments: event.attachmentFileIds.map((fileId) => ({
              fileUrl: `https://docs.google.com/document/d/${fileId}/edit`,
              title: files.get(fileId)?.name ?? 'Transcript',
              mimeType: DOC_MIME_TYPE,
              iconLink: 'https://drive-thirdparty.googleusercontent.com/16/type/application/vnd.google-apps.document',
              fileId,
            })),
          }
        : {}),
      eventType: 'default',
    };
  }

  /** events.list: those ending after timeMin and starting before timeMax (both exclusive, as Calendar documents), by start. */
  function listEvents(query: URLSearchParams): Answer {
    const fields = fieldsOf(query, `kind,etag,summary,updated,timeZone,accessRole,nextPageToken,nextSyncToken,items`, EVENT_LIST_SCHEMA);
    if ('status' in fields) return fields;
    const sizeText = query.get('maxResults');
    const size = sizeText === null ? EVENTS_PAGE_DEFAULT : /^\d+$/.test(sizeText) ? Number(sizeText) : Number.NaN;
    if (!(size >= 1 && size <= EVENTS_PAGE_MAX)) return invalidValue('maxResults');
    const bound = (name: string): number | undefined | Answer => {
      const text = query.get(name);
      if (text === null) return undefined;
      // RFC 3339 with its offset, as Calendar requires.
      const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text) ? Date.parse(text) : Number.NaN;
      return Number.isNaN(at) ? googleError(400, 'Bad Request', 'badRequest') : at;
    };
    const timeMin = bound('timeMin');
    if (typeof timeMin === 'object') return timeMin;
    const timeMax = bound('timeMax');
    if (typeof timeMax === 'object') return timeMax;
    if (timeMin !== undefined && timeMax !== undefined && timeMax <= timeMin) return googleError(400, 'The specified time range is empty.', 'timeRangeEmpty', { domain: 'calendar', location: 'timeMax', locationType: 'parameter' });
    const orderBy = query.get('orderBy');
    if (orderBy !== null && orderBy !== 'startTime' && orderBy !== 'updated') return invalidValue('orderBy');
    if (orderBy === 'startTime' && query.get('singleEvents') !== 'true') return googleError(400, 'The requested ordering is not available for the particular query.', 'invalid', { location: 'orderBy', locationType: 'parameter' });
    const matching = [...events.values()]
      .filter((event) => (timeMin === undefined || Date.parse(event.end) > timeMin) && (timeMax === undefined || Date.parse(event.start) < timeMax))
      .sort((a, b) => Date.parse(a.start) - Date.parse(b.start) || (a.id < b.id ? -1 : 1));
    const key = `${query.get('timeMin') ?? ''}|${query.get('timeMax') ?? ''}`;
    const offset = pageOffset(query.get('pageToken'), key);
    if (offset === undefined) return invalidValue('pageToken');
    const next = offset + size;
    const body = {
      kind: 'calendar#events',
      etag: `"p${now()}"`,
      summary: world.user.email,
      updated: nowIso(),
      timeZone: 'UTC',
      accessRole: 'owner',
      defaultReminders: [],
      // A sync token comes with the last page only.
      ...(next < matching.length ? { nextPageToken: Buffer.from(JSON.stringify({ q: key, offset: next })).toString('base64url') } : { nextSyncToken: `CPi${randomBytes(12).toString('base64url')}` }),
      items: matching.slice(offset, next).map(eventResource),
    };
    return { status: 200, body: project(body, fields.tree) };
  }

  function meet(method: string, path: string, query: URLSearchParams): Answer {
    if (method !== 'GET') return meetError(404, `The stand-in serves no ${method} ${MEET_PREFIX}${path}.`, 'NOT_FOUND');
    if (path === '/conferenceRecords') return listConferenceRecords(path, query);
    const parts = path.split('/').slice(1).map(decodeURIComponent);
    if (parts[0] !== 'conferenceRecords' || parts.length < 2) return meetError(404, 'Requested entity was not found.', 'NOT_FOUND');
    const conference = conferences.get(parts[1]!);
    if (!conference) return meetError(404, 'Requested entity was not found.', 'NOT_FOUND');
    const [, , collection, transcriptId, entries] = parts;
    if (parts.length === 2) return { status: 200, body: conferenceResource(conference) };
    if (parts.length === 3 && collection === 'participants') {
      return meetPage(query, 'participants', conference.participants.map((participant) => participantResource(conference, participant)), path, { totalSize: conference.participants.length });
    }
    if (parts.length === 3 && collection === 'transcripts') return meetPage(query, 'transcripts', conference.transcripts.map((transcript) => transcriptResource(conference, transcript)), path);
    if (collection === 'transcripts' && entries === 'entries' && parts.length === 5) {
      const transcript = conference.transcripts.find((candidate) => candidate.id === transcriptId);
      if (!transcript) return meetError(404, 'Requested entity was not found.', 'NOT_FOUND');
      const listed = transcript.entries.map((entry, index) => ({
        name: `conferenceRecords/${conference.id}/transcripts/${transcript.id}/entries/${String(index + 1).padStart(6, '0')}`,
        participant: `conferenceRecords/${conference.id}/participants/${entry.participantId}`,
        text: entry.text,
        languageCode: entry.languageCode ?? 'en-US',
        startTime: entry.startTime,
        endTime: entry.endTime,
      }));
      return meetPage(query, 'transcriptEntries', listed, path);
    }
    return meetError(404, 'Requested entity was not found.', 'NOT_FOUND');
  }

  function conferenceResource(conference: GoogleStandinConference): Record<string, unknown> {
    return {
      name: `conferenceRecords/${conference.id}`,
      startTime: conference.startTime,
      ...(conference.endTime ? { endTime: conference.endTime, expireTime: new Date(Date.parse(conference.endTime) + 30 * 24 * 3_600_000).toISOString() } : {}),
      space: `spaces/${Buffer.from(conference.id).toString('base64url')}`,
    };
  }

  function participantResource(conference: GoogleStandinConference, participant: GoogleStandinParticipant): Record<string, unknown> {
    const spoken = conference.transcripts.flatMap((transcript) => transcript.entries).filter((entry) => entry.participantId === participant.id);
    const user =
      participant.kind === 'anonymous'
        ? { anonymousUser: { displayName: participant.displayName } }
        : participant.kind === 'phone'
          ? { phoneUser: { displayName: participant.displayName } }
          : { signedinUser: { user: `users/${Buffer.from(participant.id).toString('hex')}`, displayName: participant.displayName } };
    return {
      name: `conferenceRecords/${conference.id}/participants/${participant.id}`,
      ...user,
      earliestStartTime: spoken[0]?.startTime ?? conference.startTime,
      ...(conference.endTime ? { latestEndTime: conference.endTime } : {}),
    };
  }

  function transcriptResource(conference: GoogleStandinConference, transcript: GoogleStandinTranscript): Record<string, unknown> {
    return {
      name: `conferenceRecords/${conference.id}/transcripts/${transcript.id}`,
      state: transcript.documentId ? 'FILE_GENERATED' : 'ENDED',
      startTime: transcript.startTime ?? conference.startTime,
      ...(transcript.endTime || conference.endTime ? { endTime: transcript.endTime ?? conference.endTime } : {}),
      ...(transcript.documentId ? { docsDestination: { document: transcript.documentId, exportUri: `https://docs.google.com/document/d/${transcript.documentId}/export?format=txt` } } : {}),
    };
  }

  /** conferenceRecords.list: those the filter keeps, latest first. */
  function listConferenceRecords(path: string, query: URLSearchParams): Answer {
    const filter = query.get('filter');
    const terms = filter === null || filter.trim() === '' ? [] : conferenceFilter(filter);
    if (terms === undefined) return meetError(400, `Invalid filter: ${filter}`, 'INVALID_ARGUMENT');
    const kept = [...conferences.values()]
      .filter((conference) => terms.every((term) => term(conference)))
      .sort((a, b) => Date.parse(b.startTime) - Date.parse(a.startTime) || (a.id < b.id ? -1 : 1));
    return meetPage(query, 'conferenceRecords', kept.map(conferenceResource), `${path}?${filter ?? ''}`);
  }

  /** A page of a Meet list: pageSize coerced to the list's maximum, a pageToken only for the list it came from (`scope`: its path and filter). */
  function meetPage(query: URLSearchParams, field: keyof typeof MEET_PAGES, items: Record<string, unknown>[], scope: string, extra: Record<string, unknown> = {}): Answer {
    const sizeText = query.get('pageSize');
    const asked = sizeText === null ? 0 : /^-?\d+$/.test(sizeText) ? Number(sizeText) : Number.NaN;
    if (Number.isNaN(asked) || asked < 0) return meetError(400, 'Invalid page size.', 'INVALID_ARGUMENT');
    const size = asked === 0 ? MEET_PAGES[field].default : Math.min(asked, MEET_PAGES[field].max);
    const key = `${field}|${scope}`;
    // Meet takes an empty token as none.
    const offset = pageOffset(query.get('pageToken') || null, key);
    if (offset === undefined) return meetError(400, 'Invalid page token.', 'INVALID_ARGUMENT');
    const next = offset + size;
    return {
      status: 200,
      body: { [field]: items.slice(offset, next), ...(next < items.length ? { nextPageToken: Buffer.from(JSON.stringify({ q: key, offset: next })).toString('base64url') } : {}), ...extra },
    };
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    answer(request).then(
      (answered) => {
        if ('text' in answered) return response.writeHead(answered.status, { ...answered.headers, 'content-type': answered.contentType }).end(answered.text);
        return response.writeHead(answered.status, { ...answered.headers, 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(answered.body));
      },
      (error: unknown) => response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 500, message: `The stand-in failed: ${String(error)}` } })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function fileFor(id: string): StoredFile {
    const file = files.get(id);
    if (!file) throw new Error(`The stand-in holds no file ${id}`);
    return file;
  }

  return {
    baseUrl,
    tokenUrl: `${baseUrl}/token`,
    userinfoUrl: `${baseUrl}/v1/userinfo`,
    driveUrl: `${baseUrl}${DRIVE_PREFIX}`,
    calendarUrl: `${baseUrl}${CALENDAR_PREFIX}`,
    meetUrl: `${baseUrl}${MEET_PREFIX}`,
    gisScriptUrl: `${baseUrl}/gsi/client`,
    requests,
    consents,
    consentCode(scopes = GOOGLE_WORKSPACE_SCOPES) {
      consents.push({ clientId: world.clientId, scopes: [...scopes], state: undefined, outcome: 'granted' });
      return mintCode(grantedScopes(scopes));
    },
    issueTokens(scopes = GOOGLE_WORKSPACE_SCOPES) {
      const granted = grantedScopes(scopes);
      return { accessToken: newAccessToken(granted), refreshToken: newRefreshToken(granted) };
    },
    denyNextConsent(how = 'popup_closed') {
      refusal = how;
    },
    withholdRefreshTokenNext() {
      withholdRefreshToken = true;
    },
    advanceClock(ms) {
      clockShiftMs += ms;
    },
    revokeGrant() {
      codes.clear();
      refreshTokens.clear();
      accessTokens.clear();
    },
    rateLimitNext(count) {
      rateLimited = count;
    },
    failNext(count, status, pathPrefix = '') {
      failure = { remaining: count, status, pathPrefix };
    },
    addFolder,
    addDocument: (document) => addInFolder({ ...document, mimeType: DOC_MIME_TYPE }),
    addFile: (file) => addInFolder(file),
    addEvent,
    addConference,
    trashDocument(id) {
      fileFor(id).trashed = true;
      changed(id);
    },
    removeDocument(id) {
      fileFor(id);
      files.delete(id);
      changed(id);
    },
    removeFolder(id) {
      folderFor(id);
      for (const file of [...files.values()].filter((candidate) => candidate.parents.includes(id))) {
        files.delete(file.id);
        changed(file.id);
      }
      files.delete(id);
      changed(id);
    },
    makeFolderInaccessible(id) {
      folderFor(id).accessible = false;
      changed(id);
      for (const file of files.values()) {
        if (file.parents.includes(id)) {
          file.accessible = false;
          changed(file.id);
        }
      }
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The scopes a consent grants: those asked, Google's short forms written out, in Google's order (not the order asked). */
function grantedScopes(scopes: readonly string[]): string[] {
  return [...new Set(scopes.map((scope) => SCOPE_ALIASES[scope] ?? scope))].sort();
}

const CORS = { 'access-control-allow-origin': '*' };

const FOLDERS_QUERY = /^mimeType\s*=\s*'application\/vnd\.google-apps\.folder'\s+and\s+trashed\s*=\s*false$/;
const IN_PARENTS_QUERY = /^'((?:[^'\\]|\\.)*)'\s+in\s+parents\s+and\s+mimeType\s*=\s*'application\/vnd\.google-apps\.document'\s+and\s+trashed\s*=\s*false$/;

/** What Drive v3 answers of a file when `fields` does not say. */
const FILE_DEFAULT_FIELDS = 'kind,id,name,mimeType';

/** The fields a `fields` selection may name: true for a leaf, the nested schema for an object or a list of them. */
type Schema = { [field: string]: true | Schema };
const OWNER_SCHEMA: Schema = { kind: true, displayName: true, emailAddress: true, me: true, permissionId: true, photoLink: true };
const FILE_SCHEMA: Schema = {
  kind: true,
  id: true,
  name: true,
  mimeType: true,
  description: true,
  parents: true,
  trashed: true,
  explicitlyTrashed: true,
  createdTime: true,
  modifiedTime: true,
  viewedByMeTime: true,
  webViewLink: true,
  iconLink: true,
  shared: true,
  starred: true,
  ownedByMe: true,
  owners: OWNER_SCHEMA,
  lastModifyingUser: OWNER_SCHEMA,
  size: true,
  version: true,
  driveId: true,
  resourceKey: true,
};
const FILE_LIST_SCHEMA: Schema = { kind: true, nextPageToken: true, incompleteSearch: true, files: FILE_SCHEMA };
const CHANGE_LIST_SCHEMA: Schema = {
  kind: true,
  nextPageToken: true,
  newStartPageToken: true,
  changes: { kind: true, changeType: true, time: true, removed: true, fileId: true, driveId: true, file: FILE_SCHEMA },
};

const ATTENDEE_SCHEMA: Schema = { id: true, email: true, displayName: true, organizer: true, self: true, resource: true, optional: true, responseStatus: true, comment: true, additionalGuests: true };
const PERSON_SCHEMA: Schema = { id: true, email: true, displayName: true, self: true };
const EVENT_TIME_SCHEMA: Schema = { date: true, dateTime: true, timeZone: true };
const EVENT_SCHEMA: Schema = {
  kind: true,
  etag: true,
  id: true,
  status: true,
  htmlLink: true,
  created: true,
  updated: true,
  summary: true,
  description: true,
  location: true,
  creator: PERSON_SCHEMA,
  organizer: PERSON_SCHEMA,
  start: EVENT_TIME_SCHEMA,
  end: EVENT_TIME_SCHEMA,
  recurringEventId: true,
  originalStartTime: EVENT_TIME_SCHEMA,
  iCalUID: true,
  sequence: true,
  attendees: ATTENDEE_SCHEMA,
  hangoutLink: true,
  conferenceData: {
    entryPoints: { entryPointType: true, uri: true, label: true, pin: true, accessCode: true, meetingCode: true, passcode: true, password: true, regionCode: true },
    conferenceSolution: { key: { type: true }, name: true, iconUri: true },
    conferenceId: true,
    signature: true,
    notes: true,
  },
  attachments: { fileUrl: true, title: true, mimeType: true, iconLink: true, fileId: true },
  eventType: true,
};
const EVENT_LIST_SCHEMA: Schema = {
  kind: true,
  etag: true,
  summary: true,
  description: true,
  updated: true,
  timeZone: true,
  accessRole: true,
  defaultReminders: { method: true, minutes: true },
  nextPageToken: true,
  nextSyncToken: true,
  items: EVENT_SCHEMA,
};

/** A parsed `fields` selection: each field named, with what is selected inside it (null: all of it). */
type FieldTree = Map<string, FieldTree | null>;

/** The `fields` parameter parsed and checked against the resource, or Drive's 400 for a field it does not have. */
function fieldsOf(query: URLSearchParams, defaults: string, schema: Schema): { tree: FieldTree } | Answer {
  const text = query.get('fields') ?? defaults;
  const tree = parseFields(text);
  const invalid = tree === undefined ? text : invalidField(tree, schema);
  if (invalid !== undefined) return googleError(400, `Invalid field selection ${invalid}`, 'invalidParameter', { location: 'fields', locationType: 'parameter' });
  return { tree: tree! };
}

/** "a,b(c,d/e)" as a tree; undefined when it does not parse. */
function parseFields(text: string): FieldTree | undefined {
  let at = 0;
  function list(): FieldTree | undefined {
    const tree: FieldTree = new Map();
    for (;;) {
      if (!item(tree)) return undefined;
      if (text[at] !== ',') return tree;
      at += 1;
    }
  }
  function item(into: FieldTree): boolean {
    const name = /^\s*([A-Za-z0-9_*]+)\s*/.exec(text.slice(at));
    if (!name) return false;
    at += name[0].length;
    let inner: FieldTree | null = null;
    if (text[at] === '/') {
      at += 1;
      inner = new Map();
      if (!item(inner)) return false;
    } else if (text[at] === '(') {
      at += 1;
      const nested = list();
      if (!nested || text[at] !== ')') return false;
      at += 1;
      inner = nested;
    }
    const before = into.get(name[1]!);
    into.set(name[1]!, before === null || inner === null ? null : new Map([...(before ?? []), ...inner]));
    return true;
  }
  const tree = list();
  return tree && at === text.length ? tree : undefined;
}

function invalidField(tree: FieldTree, schema: Schema): string | undefined {
  for (const [field, inner] of tree) {
    if (field === '*') continue;
    const known = schema[field];
    if (known === undefined) return field;
    if (inner === null) continue;
    if (known === true) return field;
    const below = invalidField(inner, known);
    if (below !== undefined) return `${field}/${below}`;
  }
  return undefined;
}

/** The value with only the fields selected (a list: each of its items). */
function project(value: unknown, tree: FieldTree): unknown {
  if (Array.isArray(value)) return value.map((item) => project(item, tree));
  const fields = record(value);
  if (!fields || tree.has('*')) return value;
  const kept: Record<string, unknown> = {};
  for (const [field, inner] of tree) {
    if (fields[field] === undefined) continue;
    kept[field] = inner === null ? fields[field] : project(fields[field], inner);
  }
  return kept;
}

function pageSizeOf(query: URLSearchParams): number | Answer {
  const text = query.get('pageSize');
  if (text === null) return PAGE_SIZE_DEFAULT;
  const size = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (size >= 1 && size <= PAGE_SIZE_MAX) return size;
  return googleError(400, `Invalid value '${text}'. Values must be within the range: [1, ${PAGE_SIZE_MAX}]`, 'invalid', { location: 'pageSize', locationType: 'parameter' });
}

/** Where a listing's page starts: 0 without a token, the token's offset when it was made for this listing (`key`), else undefined. */
function pageOffset(token: string | null, key: string): number | undefined {
  if (token === null) return 0;
  const decoded = decodePageToken(token);
  return decoded && decoded.q === key ? decoded.offset : undefined;
}

function decodePageToken(token: string): { q: string; offset: number } | undefined {
  try {
    const decoded = record(JSON.parse(Buffer.from(token, 'base64url').toString('utf8')));
    return typeof decoded?.q === 'string' && Number.isInteger(decoded.offset) && (decoded.offset as number) >= 0 ? { q: decoded.q, offset: decoded.offset as number } : undefined;
  } catch {
    return undefined;
  }
}

/** Drive's error shape: {error: {code, message, errors: [{message, domain, reason, …}]}}. */
function googleError(code: number, message: string, reason: string, where: { domain?: string; location?: string; locationType?: string } = {}): Answer {
  const { domain = 'global', ...location } = where;
  return { status: code, body: { error: { code, message, errors: [{ message, domain, reason, ...location }] } } };
}

function invalidValue(parameter: string): Answer {
  return googleError(400, 'Invalid Value', 'invalid', { location: parameter, locationType: 'parameter' });
}

function fileNotFound(id: string): Answer {
  return googleError(404, `File not found: ${id}.`, 'notFound', { location: 'fileId', locationType: 'parameter' });
}

function insufficientPermissions(id: string): Answer {
  return googleError(403, `The user does not have sufficient permissions for file ${id}.`, 'insufficientFilePermissions');
}

/** Drive's and Calendar's 401 for a missing, unknown or expired access token. */
function apiUnauthorized(): Answer {
  return {
    status: 401,
    headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
    body: {
      error: {
        code: 401,
        message:
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
        errors: [{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }],
        status: 'UNAUTHENTICATED',
      },
    },
  };
}

/** The newer APIs' error shape (Meet's): {error: {code, message, status, details?}}. */
function meetError(code: number, message: string, status: string, details?: unknown[]): Answer {
  return { status: code, body: { error: { code, message, status, ...(details ? { details } : {}) } } };
}

function meetUnauthorized(): Answer {
  const answer = meetError(
    401,
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    'UNAUTHENTICATED',
    [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'ACCESS_TOKEN_TYPE_UNSUPPORTED', metadata: { service: 'meet.googleapis.com' } }],
  );
  return { ...answer, headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' } };
}

/** Meet's 403 for a token without its scope, with the method Google names in its ErrorInfo. */
function meetScopeInsufficient(path: string): Answer {
  const method =
    path === '/conferenceRecords'
      ? 'ListConferenceRecords'
      : path.endsWith('/entries')
        ? 'ListTranscriptEntries'
        : path.endsWith('/transcripts')
          ? 'ListTranscripts'
          : path.endsWith('/participants')
            ? 'ListParticipants'
            : 'GetConferenceRecord';
  return meetError(403, 'Request had insufficient authentication scopes.', 'PERMISSION_DENIED', [
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
      domain: 'googleapis.com',
      metadata: { method: `google.apps.meet.v2.ConferenceRecordsService.${method}`, service: 'meet.googleapis.com' },
    },
  ]);
}

/**
 * conferenceRecords.list's filter as tests on a record: terms on start_time or end_time (RFC 3339
 * in double quotes) joined by AND; undefined for anything else.
 */
function conferenceFilter(filter: string): ((conference: GoogleStandinConference) => boolean)[] | undefined {
  const terms: ((conference: GoogleStandinConference) => boolean)[] = [];
  for (const text of filter.split(/\s+AND\s+/)) {
    const term = /^\s*(start_time|end_time)\s*(>=|<=|>|<|=)\s*"([^"]+)"\s*$/.exec(text);
    const at = term ? Date.parse(term[3]!) : Number.NaN;
    if (!term || Number.isNaN(at)) return undefined;
    const [, field, operator] = term;
    terms.push((conference) => {
      const value = field === 'start_time' ? conference.startTime : conference.endTime;
      if (value === undefined) return false;
      const time = Date.parse(value);
      return operator === '>=' ? time >= at : operator === '<=' ? time <= at : operator === '>' ? time > at : operator === '<' ? time < at : time === at;
    });
  }
  return terms;
}

function userinfoUnauthorized(): Answer {
  return { status: 401, headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' }, body: { error: 'invalid_request', error_description: 'Invalid Credentials' } };
}

/** The token endpoint's error shape: RFC 6749's {error, error_description}. */
function oauthError(status: number, error: string, description: string): Answer {
  return { status, body: { error, error_description: description } };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A form's fields, a JSON body parsed, undefined when empty or neither. */
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

/**
 * The GIS client library's stand-in: a classic script (no modules) that adds
 * google.accounts.oauth2.initCodeClient to what `window.google` already holds (google.accounts.id
 * stays). The popup is played by asking the stand-in's consent endpoint with fetch.
 */
function gisScript(baseUrl: string): string {
  return `/* Stands in for Google Identity Services' client library (accounts.google.com/gsi/client): the code client, popup mode only. */
(function () {
  'use strict';
  var root = typeof window !== 'undefined' ? window : globalThis;
  var consentUrl = ${JSON.stringify(`${baseUrl}/o/oauth2/consent`)};
  var google = root.google = root.google || {};
  var accounts = google.accounts = google.accounts || {};

  function failed(config, error) {
    if (typeof config.error_callback === 'function') config.error_callback(error);
  }

  function consentQuery(config) {
    var scope = Array.isArray(config.scope) ? config.scope.join(' ') : String(config.scope);
    var parts = ['client_id=' + encodeURIComponent(config.client_id), 'scope=' + encodeURIComponent(scope)];
    if (config.state !== undefined) parts.push('state=' + encodeURIComponent(config.state));
    if (config.login_hint) parts.push('login_hint=' + encodeURIComponent(config.login_hint));
    if (config.hd) parts.push('hd=' + encodeURIComponent(config.hd));
    if (config.include_granted_scopes === false) parts.push('include_granted_scopes=false');
    return parts.join('&');
  }

  function initCodeClient(config) {
    config = config || {};
    return {
      requestCode: function () {
        if (!config.client_id || !config.scope) {
          failed(config, { type: 'missing_required_parameter', message: 'Missing required parameter ' + (config.client_id ? 'scope' : 'client_id') + '.' });
          return;
        }
        if ((config.ux_mode || 'popup') !== 'popup') {
          failed(config, { type: 'unknown', message: 'The stand-in plays the popup mode only.' });
          return;
        }
        if (typeof config.callback !== 'function') {
          failed(config, { type: 'missing_required_parameter', message: 'Missing required parameter callback.' });
          return;
        }
        fetch(consentUrl + '?' + consentQuery(config))
          .then(function (response) { return response.json(); })
          .then(function (answer) {
            if (answer.code) {
              var granted = { code: answer.code, scope: answer.scope };
              if (answer.state !== undefined) granted.state = answer.state;
              config.callback(granted);
              return;
            }
            if (answer.popup === 'closed' && typeof config.error_callback === 'function') {
              config.error_callback({ type: 'popup_closed', message: 'Popup window closed' });
              return;
            }
            var refused = { error: answer.error || 'unknown_error' };
            if (answer.error_description) refused.error_description = answer.error_description;
            if (answer.state !== undefined) refused.state = answer.state;
            config.callback(refused);
          }, function (error) {
            failed(config, { type: 'unknown', message: String((error && error.message) || error) });
          });
      },
    };
  }

  accounts.oauth2 = { initCodeClient: initCodeClient };
})();
`;
}
