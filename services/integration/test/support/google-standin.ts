/**
 * A stand-in for Google (https://developers.google.com), the third-party SaaS whose Workspace
 * tests cannot reach: a local HTTP server answering, as Google documents them, the endpoints
 * Google Workspace for Parlance uses, all under one origin (`${baseUrl}/token`,
 * `${baseUrl}/v1/userinfo`, `${baseUrl}/drive/v3/…`).
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
const DRIVE_SCOPES = new Set(['https://www.googleapis.com/auth/drive', 'https://www.googleapis.com/auth/drive.readonly']);
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

export interface GoogleStandinSeed {
  clientId: string;
  clientSecret: string;
  /** The Google account that consents. */
  user: { email: string; name: string; sub: string };
  folders: GoogleStandinFolder[];
  documents: GoogleStandinDocument[];
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
  /** Answers the next `count` API requests (Drive, user info) with Drive's 403 userRateLimitExceeded. */
  rateLimitNext(count: number): void;
  /** Answers the next `count` requests whose path starts with `pathPrefix` with HTTP `status`. */
  failNext(count: number, status: number, pathPrefix?: string): void;
  addFolder(folder: GoogleStandinFolder): void;
  addDocument(document: GoogleStandinDocument): void;
  addFile(file: GoogleStandinFile): void;
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

  for (const folder of world.folders) addFolder(folder);
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

    const userinfo = path === '/v1/userinfo';
    if (!userinfo && !path.startsWith(`${DRIVE_PREFIX}/`)) return googleError(404, `The stand-in serves no ${method} ${path}.`, 'notFound');
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const access = bearer === undefined ? undefined : accessTokens.get(bearer);
    if (!access || access.expiresAtMs <= now()) return userinfo ? userinfoUnauthorized() : driveUnauthorized();
    if (rateLimited > 0) {
      rateLimited -= 1;
      return { status: 403, body: { error: { code: 403, message: 'User Rate Limit Exceeded', errors: [{ message: 'User Rate Limit Exceeded', domain: 'usageLimits', reason: 'userRateLimitExceeded' }] } } };
    }
    if (userinfo) return method === 'GET' ? userInfo(access) : googleError(405, 'Method Not Allowed', 'httpMethodNotAllowed');
    if (!access.scopes.some((scope) => DRIVE_SCOPES.has(scope))) {
      return { status: 403, body: { error: { code: 403, message: 'Request had insufficient authentication scopes.', errors: [{ message: 'Insufficient Permission', domain: 'global', reason: 'insufficientPermissions' }], status: 'PERMISSION_DENIED' } } };
    }
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
    let offset = 0;
    const pageToken = query.get('pageToken');
    if (pageToken !== null) {
      const decoded = decodePageToken(pageToken);
      if (!decoded || decoded.q !== key) return invalidValue('pageToken');
      offset = decoded.offset;
    }
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

function driveUnauthorized(): Answer {
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
