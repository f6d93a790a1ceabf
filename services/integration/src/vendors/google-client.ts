/**
 * Google's APIs (https://developers.google.com), as far as Google Workspace for Parlance uses
 * them: OAuth 2.0 for a web server app fed by Google Identity Services' code client in popup mode
 * (the browser gets a code, the server exchanges it with the redirect URI `postmessage`, as
 * Google documents for that flow), the OpenID Connect user info (whose account it is), Drive
 * v3: the folders the user can see, the Google Docs in one of them (the transcripts Meet saves),
 * a Doc's text (files.export as text/plain), and the changes since a page token; Calendar v3's
 * events of the primary calendar (Meet attaches its transcript Doc to the meeting's event); and
 * Meet v2's conference records, their transcripts, transcript entries and participants (only with
 * the meetings.space.readonly scope, which Parlance does not ask for but an admin may grant).
 *
 * Requests go through vendor-http.ts, which honours Google's 403 `userRateLimitExceeded` and
 * `rateLimitExceeded` (and 429s) with an exponential backoff and retries what may succeed later; a
 * refresh token Google no longer accepts (`invalid_grant`) is a VendorHttpError of kind
 * 'invalid_grant'. Answers are read strictly: one missing what the client relies on is a
 * VendorHttpError of kind 'server', so nothing half-read travels further.
 */
import type { Logger } from '@parlance/platform/logger';
import { answerReader, optionalText } from './answer-reader.js';
import { createVendorHttp, VendorHttpError, type VendorHttp, type VendorHttpOptions } from './vendor-http.js';

const { malformed, objectIn, listIn, textIn } = answerReader('Google');

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const GOOGLE_USERINFO_URL = 'https://openidconnect.googleapis.com/v1/userinfo';
export const GOOGLE_DRIVE_URL = 'https://www.googleapis.com/drive/v3';
export const GOOGLE_CALENDAR_URL = 'https://www.googleapis.com/calendar/v3';
export const GOOGLE_MEET_URL = 'https://meet.googleapis.com/v2';

/** Read-only: calendar, drive, documents, and the user's e-mail (spec part 2 §4). */
export const GOOGLE_WORKSPACE_SCOPES = [
  'openid',
  'https://www.googleapis.com/auth/userinfo.email',
  'https://www.googleapis.com/auth/calendar.readonly',
  'https://www.googleapis.com/auth/drive.readonly',
  'https://www.googleapis.com/auth/documents.readonly',
] as const;

/**
 * What the Meet REST API's conference records and transcripts need. Not in
 * GOOGLE_WORKSPACE_SCOPES: Parlance never asks for it, but a connection may hold it (granted
 * domain-wide by a Workspace admin), and then the Meet API's entries are read.
 */
export const GOOGLE_MEET_SCOPE = 'https://www.googleapis.com/auth/meetings.space.readonly';

/** The redirect URI a code from the code client in popup mode is exchanged with. */
export const GOOGLE_POPUP_REDIRECT_URI = 'postmessage';

/** The MIME types of a Drive folder and of a Google Doc. */
export const DRIVE_FOLDER_MIME_TYPE = 'application/vnd.google-apps.folder';
export const GOOGLE_DOC_MIME_TYPE = 'application/vnd.google-apps.document';

/** Google's limit on what files.export gives: 10 MB. */
export const DRIVE_EXPORT_MAX_BYTES = 10 * 1024 * 1024;

export interface GoogleTokens {
  accessToken: string;
  refreshToken: string;
  /** When the access token stops working (Google's `expires_in` from the time of the answer). */
  expiresAt: Date;
  /** The scopes the user granted, which may be fewer than asked (granular consent). */
  scopes: string[];
}

/** The OAuth endpoints, with the app's own id and secret. */
export interface GoogleOAuth {
  /**
   * Exchanges a code from the code client (redirect_uri 'postmessage'): POST token form
   * grant_type=authorization_code, code, client_id, client_secret, redirect_uri. Google answers
   * {access_token, expires_in, refresh_token, scope (space-separated), token_type, id_token}. A
   * code without a refresh_token in the answer is refused with a VendorHttpError kind 'client'
   * whose message says Google gave no refresh token (the user must consent again with
   * prompt=consent). Not retried (a code is single-use).
   */
  exchangeCode(code: string): Promise<GoogleTokens>;
  /**
   * grant_type=refresh_token; Google's answer has no new refresh_token: keep the one given. A
   * revoked/expired refresh token: 400 {"error":"invalid_grant","error_description":"Token has
   * been expired or revoked."} → VendorHttpError kind 'invalid_grant'.
   */
  refresh(refreshToken: string): Promise<GoogleTokens>;
  /** The signed-in user's e-mail (GET userinfo with the access token → {sub, email, email_verified, name…}). */
  userEmail(accessToken: string): Promise<string>;
}

export interface DriveFolder {
  id: string;
  name: string;
  /** Whether the folder is shared with anyone (Drive's `shared`). */
  isShared: boolean;
  /** Its owners; none for a folder of a shared drive. */
  owners: { displayName: string; isMe: boolean }[];
}

export interface DriveDocument {
  id: string;
  name: string;
  createdAt: Date;
  modifiedAt: Date;
  /** The folders it is in (Drive gives at most one now). */
  parents: string[];
  trashed: boolean;
  /** Where the document opens in the browser. */
  webViewLink: string;
}

export type FolderStatus = { exists: boolean; accessible: boolean };

export interface DriveChanges {
  documents: DriveDocument[];
  removedFileIds: string[];
  /** The token to read from next time. */
  nextToken: string;
}

export interface DriveClient {
  /**
   * Every folder the user can see (files.list q="mimeType='application/vnd.google-apps.folder'
   * and trashed=false", fields nextPageToken,files(id,name,shared,owners(displayName,me)),
   * pageSize, pageToken), sorted by name.
   */
  folders(): Promise<DriveFolder[]>;
  /**
   * GET files/{id}?fields=id,name,trashed,mimeType: exists and accessible when it answers a folder
   * not trashed (a trashed folder, or a file that is not a folder, is as good as gone: neither);
   * 404 → {exists:false, accessible:false}; 403 (not userRateLimitExceeded) → {exists:true,
   * accessible:false}.
   */
  folderStatus(folderId: string): Promise<FolderStatus>;
  /**
   * The Google Docs directly in the folder, not trashed (q="'<id>' in parents and
   * mimeType='application/vnd.google-apps.document' and trashed=false"), a page at a time, every
   * page (pageToken).
   */
  documentsIn(folderId: string): AsyncIterable<DriveDocument[]>;
  /**
   * A Doc's text: GET files/{id}/export?mimeType=text/plain, at most 10 MB (Google's export
   * limit), decoded as UTF-8 (the byte order mark Google's text export starts with is dropped).
   */
  documentText(fileId: string): Promise<string>;
  /** GET changes/startPageToken → {startPageToken}. */
  startToken(): Promise<string>;
  /**
   * Every change since `token`, every page until newStartPageToken. Only Google Docs are kept in
   * `documents`; a file removed from the user's view (deleted, or access lost) or trashed goes to
   * removedFileIds. A file that changed more than once counts once, as it was last.
   */
  changesSince(token: string): Promise<DriveChanges>;
}

export interface CalendarAttendee {
  email: string;
  /** '' when Calendar has no name for them. */
  displayName: string;
  /** The calendar's own account (the one connected). */
  self: boolean;
  /** A room or other resource, not a person. */
  resource: boolean;
}

/** An event of the primary calendar, as far as a meeting's facts go. */
export interface CalendarEvent {
  id: string;
  /** Its title; '' when it has none. */
  summary: string;
  /** start.dateTime; null for an all-day event (start.date only). */
  startAt: Date | null;
  /** The Google Meet link; '' when the event has no Meet conference. */
  hangoutLink: string;
  /** conferenceData.entryPoints: the ways to join (entryPointType video, phone, sip, more). */
  entryPoints: { entryPointType: string; uri: string }[];
  attendees: CalendarAttendee[];
  /** The Drive files attached (attachments[].fileId): Meet attaches its transcript Doc here. */
  attachmentFileIds: string[];
}

export interface CalendarClient {
  /**
   * The primary calendar's events ending after `timeMin` and starting before `timeMax` (Calendar's
   * own bounds), a recurring one as its instances (singleEvents=true), a page at a time, every
   * page: GET calendars/primary/events with timeMin, timeMax, singleEvents, maxResults, pageToken
   * and fields.
   */
  events(timeMin: Date, timeMax: Date): AsyncIterable<CalendarEvent[]>;
}

export interface MeetConferenceRecord {
  /** "conferenceRecords/{id}" */
  name: string;
  startAt: Date;
  /** null while the conference goes on. */
  endAt: Date | null;
}

export interface MeetTranscript {
  /** "conferenceRecords/{id}/transcripts/{id}" */
  name: string;
  /** docsDestination.document: the id of the Google Doc Meet saved it in; '' until it is saved. */
  documentId: string;
  startAt: Date | null;
}

export interface MeetTranscriptEntry {
  /** Who spoke: "conferenceRecords/{id}/participants/{id}". */
  participant: string;
  text: string;
  /** BCP 47 ("en-US"); '' when not given. */
  languageCode: string;
  startAt: Date;
  endAt: Date;
}

export interface MeetParticipant {
  /** "conferenceRecords/{id}/participants/{id}" */
  name: string;
  /** The signed-in, anonymous or phone user's display name; '' when Meet gives none. */
  displayName: string;
}

/** Meet REST API v2, read-only; every call needs GOOGLE_MEET_SCOPE (403 PERMISSION_DENIED without it). */
export interface MeetClient {
  /** The conference records started from `from` to `to` (filter start_time>="…" AND start_time<="…"), every page, in Meet's order (latest first). */
  conferenceRecords(from: Date, to: Date): Promise<MeetConferenceRecord[]>;
  /** GET /{conferenceRecord}/transcripts, every page. */
  transcripts(conferenceRecord: string): Promise<MeetTranscript[]>;
  /** GET /{transcript}/entries, every page, in Meet's order (by time). */
  transcriptEntries(transcript: string): Promise<MeetTranscriptEntry[]>;
  /** GET /{conferenceRecord}/participants, every page. */
  participants(conferenceRecord: string): Promise<MeetParticipant[]>;
}

/** The HTTP client's pacing and transport; tests pass a sleep that does not wait. */
type GoogleHttpOptions = Pick<VendorHttpOptions, 'maxAttempts' | 'timeoutMs' | 'sleep' | 'random' | 'now' | 'fetch'>;

export interface GoogleOAuthOptions {
  clientId: string;
  clientSecret: string;
  /** Google's token endpoint; GOOGLE_TOKEN_URL unless said (tests point it at a stand-in). */
  tokenUrl?: string;
  /** The OpenID Connect user info endpoint; GOOGLE_USERINFO_URL unless said. */
  userinfoUrl?: string;
  logger?: Pick<Logger, 'warn'>;
  http?: GoogleHttpOptions;
  /** The clock tokens' expiry is measured from. */
  now?: () => Date;
}

export interface DriveClientOptions {
  /** The connection's access token, asked before every attempt so a refreshed one is used. */
  accessToken: () => Promise<string>;
  /** Drive's API, up to /drive/v3; GOOGLE_DRIVE_URL unless said (tests point it at a stand-in). */
  baseUrl?: string;
  /** Files or changes asked for per page, at most 1,000. */
  pageSize?: number;
  logger?: Pick<Logger, 'warn'>;
  http?: GoogleHttpOptions;
}

export interface CalendarClientOptions extends Omit<DriveClientOptions, 'baseUrl' | 'pageSize'> {
  /** Calendar's API, up to /calendar/v3; GOOGLE_CALENDAR_URL unless said (tests point it at a stand-in). */
  baseUrl?: string;
  /** Events asked for per page, at most 2,500. */
  pageSize?: number;
}

export interface MeetClientOptions extends Omit<DriveClientOptions, 'baseUrl' | 'pageSize'> {
  /** Meet's API, up to /v2; GOOGLE_MEET_URL unless said (tests point it at a stand-in). */
  baseUrl?: string;
  /** Records, transcripts, entries or participants asked for per page, at most 100. */
  pageSize?: number;
}

/** Drive's largest page of files or changes, and its default. */
const PAGE_SIZE_MAX = 1_000;
const DEFAULT_PAGE_SIZE = 100;
const FOLDERS_QUERY = `mimeType='${DRIVE_FOLDER_MIME_TYPE}' and trashed=false`;
const FOLDER_FIELDS = 'nextPageToken,files(id,name,shared,owners(displayName,me))';
const DOCUMENT_FIELDS = 'id,name,mimeType,createdTime,modifiedTime,parents,trashed,webViewLink';
const CHANGE_FIELDS = `nextPageToken,newStartPageToken,changes(fileId,removed,file(${DOCUMENT_FIELDS}))`;
/** Calendar's largest page of events; Meet's largest page of transcripts and entries (its participants allow 250, its records 100). */
const CALENDAR_PAGE_SIZE_MAX = 2_500;
const MEET_PAGE_SIZE_MAX = 100;
const EVENT_FIELDS = 'nextPageToken,items(id,summary,start,hangoutLink,conferenceData/entryPoints(entryPointType,uri),attendees(email,displayName,self,resource),attachments(fileId))';

/** A URL's origin, for vendor-http's base, and its path, for the request. */
function splitUrl(url: string): { origin: string; path: string } {
  const parsed = new URL(url);
  return { origin: parsed.origin, path: parsed.pathname };
}

export function createGoogleOAuth(options: GoogleOAuthOptions): GoogleOAuth {
  const now = options.now ?? (() => new Date());
  const token = splitUrl(options.tokenUrl ?? GOOGLE_TOKEN_URL);
  const userinfo = splitUrl(options.userinfoUrl ?? GOOGLE_USERINFO_URL);
  const tokenHttp = createVendorHttp({
    ...options.http,
    vendor: 'Google',
    baseUrl: token.origin,
    // The token endpoint takes the app's id and secret in the form, and no Authorization header.
    authorize: async () => ({}),
    logger: options.logger,
  });

  async function tokens(form: Record<string, string>, idempotent: boolean, refreshToken?: string): Promise<GoogleTokens> {
    const where = `POST ${token.path}`;
    const body = new URLSearchParams({ ...form, client_id: options.clientId, client_secret: options.clientSecret });
    const answer = objectIn(await tokenHttp.request('POST', token.path, { body, idempotent }), where);
    const expiresIn = answer.expires_in;
    if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0) throw malformed(where, 'expires_in is not a number of seconds');
    const accessToken = textIn(answer, 'access_token', where);
    const refreshed = optionalText(answer.refresh_token) ?? refreshToken;
    if (refreshed === undefined) {
      throw new VendorHttpError({
        vendor: 'Google',
        kind: 'client',
        retryable: false,
        attempts: 1,
        message: 'Google gave no refresh token for the code: access was granted before without one; the user must consent again (prompt=consent, or remove Parlance’s access in the Google account first)',
      });
    }
    const scopes = (optionalText(answer.scope) ?? '').split(' ').filter((scope) => scope !== '');
    return { accessToken, refreshToken: refreshed, expiresAt: new Date(now().getTime() + expiresIn * 1000), scopes };
  }

  return {
    // A code is single-use: sent again after Google may have taken it, it could only be refused.
    exchangeCode: (code) => tokens({ grant_type: 'authorization_code', code, redirect_uri: GOOGLE_POPUP_REDIRECT_URI }, false),

    // Google sends no new refresh token on a refresh: the one given stays valid, and is kept.
    refresh: (refreshToken) => tokens({ grant_type: 'refresh_token', refresh_token: refreshToken }, true, refreshToken),

    async userEmail(accessToken) {
      const where = `GET ${userinfo.path}`;
      const http = googleApi({ ...options, accessToken: async () => accessToken }, userinfo.origin);
      return textIn(objectIn(await http.request('GET', userinfo.path), where), 'email', where);
    },
  };
}

export function createDriveClient(options: DriveClientOptions): DriveClient {
  const baseUrl = (options.baseUrl ?? GOOGLE_DRIVE_URL).replace(/\/+$/, '');
  const pageSize = Math.max(1, Math.min(options.pageSize ?? DEFAULT_PAGE_SIZE, PAGE_SIZE_MAX));
  const http = googleApi(options, baseUrl);

  /** Every page of files.list for `q`, as records; a page may be empty and still not the last. */
  const filePages = (q: string, fields: string) => listPages(http, '/files', 'files', { q, fields, pageSize });

  return {
    async folders() {
      const where = 'GET /files';
      const folders: DriveFolder[] = [];
      for await (const page of filePages(FOLDERS_QUERY, FOLDER_FIELDS)) {
        for (const file of page) {
          folders.push({
            id: textIn(file, 'id', where),
            name: optionalText(file.name) ?? '',
            isShared: file.shared === true,
            owners: listIn(file.owners ?? [], where, 'owners').map((entry) => {
              const owner = objectIn(entry, where);
              return { displayName: optionalText(owner.displayName) ?? '', isMe: owner.me === true };
            }),
          });
        }
      }
      return folders.sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },

    async folderStatus(folderId) {
      const where = 'GET /files/{id}';
      let answer: unknown;
      try {
        answer = await http.request('GET', `/files/${encodeURIComponent(folderId)}`, { query: { fields: 'id,name,trashed,mimeType' }, pathLabel: '/files/{id}' });
      } catch (error) {
        if (error instanceof VendorHttpError && error.status === 404) return { exists: false, accessible: false };
        if (error instanceof VendorHttpError && error.status === 403 && error.kind !== 'rate_limited') return { exists: true, accessible: false };
        throw error;
      }
      const file = objectIn(answer, where);
      const isFolder = textIn(file, 'mimeType', where) === DRIVE_FOLDER_MIME_TYPE && file.trashed !== true;
      return { exists: isFolder, accessible: isFolder };
    },

    async *documentsIn(folderId) {
      const q = `'${queryString(folderId)}' in parents and mimeType='${GOOGLE_DOC_MIME_TYPE}' and trashed=false`;
      for await (const page of filePages(q, `nextPageToken,files(${DOCUMENT_FIELDS})`)) {
        if (page.length > 0) yield page.map((file) => documentOf(file, 'GET /files'));
      }
    },

    async documentText(fileId) {
      const url = `${baseUrl}/files/${encodeURIComponent(fileId)}/export?mimeType=${encodeURIComponent('text/plain')}`;
      // TextDecoder drops the byte order mark the export starts with.
      return new TextDecoder('utf-8').decode(await http.download(url, DRIVE_EXPORT_MAX_BYTES));
    },

    async startToken() {
      const where = 'GET /changes/startPageToken';
      return textIn(objectIn(await http.request('GET', '/changes/startPageToken'), where), 'startPageToken', where);
    },

    async changesSince(token) {
      const where = 'GET /changes';
      // The last change of each file, in the order of those last changes.
      const latest = new Map<string, DriveDocument | 'removed' | 'other'>();
      let pageToken = token;
      for (;;) {
        const answer = objectIn(await http.request('GET', '/changes', { query: { pageToken, fields: CHANGE_FIELDS, pageSize } }), where);
        for (const entry of listIn(answer.changes ?? [], where, 'changes')) {
          const change = objectIn(entry, where);
          // A change of a shared drive itself names no file: nothing of the folder's documents.
          const fileId = optionalText(change.fileId);
          if (fileId === null) continue;
          latest.delete(fileId);
          const file = change.removed === true || change.file === undefined || change.file === null ? undefined : objectIn(change.file, where);
          if (!file || file.trashed === true) latest.set(fileId, 'removed');
          else latest.set(fileId, file.mimeType === GOOGLE_DOC_MIME_TYPE ? documentOf(file, where) : 'other');
        }
        const newStart = optionalText(answer.newStartPageToken);
        if (newStart !== null) {
          const documents = [...latest.values()].filter((value): value is DriveDocument => typeof value === 'object');
          const removedFileIds = [...latest].filter(([, value]) => value === 'removed').map(([fileId]) => fileId);
          return { documents, removedFileIds, nextToken: newStart };
        }
        const next = nextPageToken(answer, where, pageToken);
        if (next === undefined) throw malformed(where, 'neither nextPageToken nor newStartPageToken is given');
        pageToken = next;
      }
    },
  };
}

export function createCalendarClient(options: CalendarClientOptions): CalendarClient {
  const pageSize = Math.max(1, Math.min(options.pageSize ?? DEFAULT_PAGE_SIZE, CALENDAR_PAGE_SIZE_MAX));
  const http = googleApi(options, options.baseUrl ?? GOOGLE_CALENDAR_URL);

  return {
    async *events(timeMin, timeMax) {
      const where = 'GET /calendars/primary/events';
      const query = { timeMin: timeMin.toISOString(), timeMax: timeMax.toISOString(), singleEvents: true, maxResults: pageSize, fields: EVENT_FIELDS };
      for await (const page of listPages(http, '/calendars/primary/events', 'items', query)) {
        if (page.length > 0) yield page.map((item) => eventOf(item, where));
      }
    },
  };
}

export function createMeetClient(options: MeetClientOptions): MeetClient {
  const pageSize = Math.max(1, Math.min(options.pageSize ?? MEET_PAGE_SIZE_MAX, MEET_PAGE_SIZE_MAX));
  const http = googleApi(options, options.baseUrl ?? GOOGLE_MEET_URL);

  /** Every item of a Meet list (`field` of each page), as records. */
  async function everyItem(path: string, pathLabel: string, field: string, query: Record<string, string> = {}): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for await (const page of listPages(http, path, field, { ...query, pageSize }, pathLabel)) items.push(...page);
    return items;
  }

  return {
    async conferenceRecords(from, to) {
      const where = 'GET /conferenceRecords';
      const filter = `start_time>="${from.toISOString()}" AND start_time<="${to.toISOString()}"`;
      return (await everyItem('/conferenceRecords', '/conferenceRecords', 'conferenceRecords', { filter })).map((record) => ({
        name: resourceNameIn(record, where),
        startAt: dateIn(record, 'startTime', where),
        endAt: optionalDateIn(record, 'endTime', where),
      }));
    },

    async transcripts(conferenceRecord) {
      const pathLabel = '/conferenceRecords/{id}/transcripts';
      const where = `GET ${pathLabel}`;
      return (await everyItem(`${resourcePath(conferenceRecord)}/transcripts`, pathLabel, 'transcripts')).map((transcript) => ({
        name: resourceNameIn(transcript, where),
        documentId: optionalText(optionalObjectIn(transcript.docsDestination, where).document) ?? '',
        startAt: optionalDateIn(transcript, 'startTime', where),
      }));
    },

    async transcriptEntries(transcript) {
      const pathLabel = '/conferenceRecords/{id}/transcripts/{id}/entries';
      const where = `GET ${pathLabel}`;
      return (await everyItem(`${resourcePath(transcript)}/entries`, pathLabel, 'transcriptEntries')).map((entry) => ({
        participant: textIn(entry, 'participant', where),
        text: optionalText(entry.text) ?? '',
        languageCode: optionalText(entry.languageCode) ?? '',
        startAt: dateIn(entry, 'startTime', where),
        endAt: dateIn(entry, 'endTime', where),
      }));
    },

    async participants(conferenceRecord) {
      const pathLabel = '/conferenceRecords/{id}/participants';
      const where = `GET ${pathLabel}`;
      return (await everyItem(`${resourcePath(conferenceRecord)}/participants`, pathLabel, 'participants')).map((participant) => {
        // A participant is one of three kinds of user, each with its display name.
        const user = [participant.signedinUser, participant.anonymousUser, participant.phoneUser].find((candidate) => candidate !== undefined && candidate !== null);
        return { name: resourceNameIn(participant, where), displayName: user === undefined ? '' : (optionalText(objectIn(user, where).displayName) ?? '') };
      });
    },
  };
}

function eventOf(item: Record<string, unknown>, where: string): CalendarEvent {
  const startText = optionalText(optionalObjectIn(item.start, where).dateTime);
  const startAt = startText === null ? null : new Date(startText);
  if (startAt !== null && Number.isNaN(startAt.getTime())) throw malformed(where, 'start.dateTime is not a date');
  return {
    id: textIn(item, 'id', where),
    summary: optionalText(item.summary) ?? '',
    startAt,
    hangoutLink: optionalText(item.hangoutLink) ?? '',
    entryPoints: listIn(optionalObjectIn(item.conferenceData, where).entryPoints ?? [], where, 'entryPoints').map((entry) => {
      const point = objectIn(entry, where);
      return { entryPointType: optionalText(point.entryPointType) ?? '', uri: optionalText(point.uri) ?? '' };
    }),
    attendees: listIn(item.attendees ?? [], where, 'attendees').map((entry) => {
      const attendee = objectIn(entry, where);
      return { email: optionalText(attendee.email) ?? '', displayName: optionalText(attendee.displayName) ?? '', self: attendee.self === true, resource: attendee.resource === true };
    }),
    attachmentFileIds: listIn(item.attachments ?? [], where, 'attachments')
      .map((entry) => optionalText(objectIn(entry, where).fileId))
      .filter((fileId): fileId is string => fileId !== null),
  };
}

/** An object a resource may leave out, as an empty one. */
function optionalObjectIn(value: unknown, where: string): Record<string, unknown> {
  return value === undefined || value === null ? {} : objectIn(value, where);
}

/** A Meet resource's name ("conferenceRecords/…"), checked before it becomes part of a path. */
function resourceNameIn(record: Record<string, unknown>, where: string): string {
  const name = textIn(record, 'name', where);
  if (!/^conferenceRecords(\/[\w-]+)+$/u.test(name)) throw malformed(where, 'name is not a conference record’s resource name');
  return name;
}

/** A resource name as a request path, each segment escaped. */
function resourcePath(name: string): string {
  return `/${name.split('/').map(encodeURIComponent).join('/')}`;
}

/** A page's nextPageToken; undefined on the last page (Meet may end with an empty one). */
/** A Google REST API at `baseUrl`, each request carrying the connection's access token (asked anew each attempt, so a refreshed one is used). */
function googleApi(options: Pick<DriveClientOptions, 'accessToken' | 'logger' | 'http'>, baseUrl: string): VendorHttp {
  return createVendorHttp({
    ...options.http,
    vendor: 'Google',
    baseUrl: baseUrl.replace(/\/+$/, ''),
    authorize: async () => ({ authorization: `Bearer ${await options.accessToken()}` }),
    logger: options.logger,
  });
}

/**
 * Every page of a Google list (`field` of each answer, as records), following nextPageToken; a
 * page may be empty and still not the last. `pathLabel` names the path in errors and logs.
 */
async function* listPages(http: VendorHttp, path: string, field: string, query: Record<string, string | number | boolean>, pathLabel = path): AsyncGenerator<Record<string, unknown>[]> {
  const where = `GET ${pathLabel}`;
  let pageToken: string | undefined;
  for (;;) {
    const answer = objectIn(await http.request('GET', path, { query: { ...query, pageToken }, pathLabel }), where);
    yield listIn(answer[field] ?? [], where, field).map((entry) => objectIn(entry, where));
    const next = nextPageToken(answer, where, pageToken);
    if (next === undefined) return;
    pageToken = next;
  }
}

function nextPageToken(answer: Record<string, unknown>, where: string, current: string | undefined): string | undefined {
  if (answer.nextPageToken === undefined || answer.nextPageToken === null || answer.nextPageToken === '') return undefined;
  const next = textIn(answer, 'nextPageToken', where);
  // The same page again would be read forever.
  if (next === current) throw malformed(where, 'nextPageToken names the page just read');
  return next;
}

function documentOf(file: Record<string, unknown>, where: string): DriveDocument {
  return {
    id: textIn(file, 'id', where),
    name: optionalText(file.name) ?? '',
    createdAt: dateIn(file, 'createdTime', where),
    modifiedAt: dateIn(file, 'modifiedTime', where),
    parents: listIn(file.parents ?? [], where, 'parents').filter((parent): parent is string => typeof parent === 'string' && parent !== ''),
    trashed: file.trashed === true,
    webViewLink: optionalText(file.webViewLink) ?? '',
  };
}

/** An RFC 3339 time, as Drive gives createdTime and modifiedTime (Meet's, with nanoseconds, to the millisecond). */
function dateIn(record: Record<string, unknown>, field: string, where: string): Date {
  const at = new Date(textIn(record, field, where));
  if (Number.isNaN(at.getTime())) throw malformed(where, `${field} is not a date`);
  return at;
}

function optionalDateIn(record: Record<string, unknown>, field: string, where: string): Date | null {
  return optionalText(record[field]) === null ? null : dateIn(record, field, where);
}

/** A value inside a Drive query's single quotes: its backslashes and single quotes escaped. */
function queryString(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll("'", "\\'");
}
