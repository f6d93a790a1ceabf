/**
 * The Google OAuth, Drive, Calendar and Meet clients against a local stand-in for Google
 * (support/google-standin.ts): codes from the code client's popup exchanged once, refresh tokens
 * kept and refused once revoked, the user's e-mail, folders and documents read across pages, a
 * Doc's text, Drive's changes since a token, Google's 403 rate limit waited out, the calendar's
 * events around a time with their Meet links, attendees and attachments, Meet's conference
 * records, transcripts, entries and participants (refused without the Meet scope), and the
 * stand-in's GIS script run as a browser would run it.
 */
import vm from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createCalendarClient,
  createDriveClient,
  createGoogleOAuth,
  createMeetClient,
  GOOGLE_MEET_SCOPE,
  GOOGLE_WORKSPACE_SCOPES,
  type CalendarClientOptions,
  type CalendarEvent,
  type DriveClientOptions,
  type DriveDocument,
  type GoogleOAuthOptions,
  type MeetClientOptions,
} from '../src/vendors/google-client.js';
import { VendorHttpError } from '../src/vendors/vendor-http.js';
import { GOOGLE_STANDIN_SEED, startGoogleStandin, type GoogleStandin, type GoogleStandinSeed } from './support/google-standin.js';

const NOW = new Date(Date.UTC(2026, 10, 20, 9, 0, 0));
const SCOPES_GRANTED = [...GOOGLE_WORKSPACE_SCOPES].sort();

let standin: GoogleStandin;
const waits: number[] = [];
const http = { sleep: async (ms: number) => void waits.push(ms), random: () => 0.5 };

async function start(seed: Partial<GoogleStandinSeed> = {}) {
  standin = await startGoogleStandin(seed);
  waits.length = 0;
}

function oauthClient(options: Partial<GoogleOAuthOptions> = {}) {
  return createGoogleOAuth({
    clientId: GOOGLE_STANDIN_SEED.clientId,
    clientSecret: GOOGLE_STANDIN_SEED.clientSecret,
    tokenUrl: standin.tokenUrl,
    userinfoUrl: standin.userinfoUrl,
    http,
    now: () => NOW,
    ...options,
  });
}

/** A Drive client acting with tokens as if the seed's user had connected. */
function driveClient(options: Partial<DriveClientOptions> = {}) {
  const { accessToken } = standin.issueTokens();
  return createDriveClient({ accessToken: async () => accessToken, baseUrl: standin.driveUrl, http, ...options });
}

/** A Calendar client acting with tokens as if the seed's user had connected (the scopes asked unless said). */
function calendarClient(options: Partial<CalendarClientOptions> = {}, scopes: readonly string[] = GOOGLE_WORKSPACE_SCOPES) {
  const { accessToken } = standin.issueTokens(scopes);
  return createCalendarClient({ accessToken: async () => accessToken, baseUrl: standin.calendarUrl, http, ...options });
}

/** A Meet client acting with tokens that hold the Meet scope unless said. */
function meetClient(options: Partial<MeetClientOptions> = {}, scopes: readonly string[] = [...GOOGLE_WORKSPACE_SCOPES, GOOGLE_MEET_SCOPE]) {
  const { accessToken } = standin.issueTokens(scopes);
  return createMeetClient({ accessToken: async () => accessToken, baseUrl: standin.meetUrl, http, ...options });
}

async function allPages<T>(pages: AsyncIterable<T[]>): Promise<T[][]> {
  const read: T[][] = [];
  for await (const page of pages) read.push(page);
  return read;
}

function driveRequests(path: string) {
  return standin.requests.filter((request) => request.path === `/drive/v3${path}`);
}

const transcript = (id: string, name: string, createdTime: string, folderId = 'fold_meet') => ({ id, name, folderId, text: `${name}\nAttendees\nMaya Okafor, Theo Brandt\n\nTranscript\n00:00:05\nMaya Okafor: Hello.`, createdTime });

afterEach(async () => {
  await standin.close();
});

describe('Google OAuth', () => {
  it('exchanges a code from the code client for tokens, with redirect_uri postmessage, and parses the scopes granted', async () => {
    await start();
    const code = standin.consentCode();

    const tokens = await oauthClient().exchangeCode(code);

    expect(tokens.scopes).toEqual(SCOPES_GRANTED);
    expect(tokens.expiresAt).toEqual(new Date(NOW.getTime() + 3599 * 1000));
    expect(tokens.refreshToken).not.toBe('');
    expect(standin.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/token',
      body: { grant_type: 'authorization_code', code, client_id: GOOGLE_STANDIN_SEED.clientId, client_secret: GOOGLE_STANDIN_SEED.clientSecret, redirect_uri: 'postmessage' },
    });
    const drive = createDriveClient({ accessToken: async () => tokens.accessToken, baseUrl: standin.driveUrl, http });
    await expect(drive.folders()).resolves.toHaveLength(2);
  });

  it('refuses a code used twice, once, without trying it again', async () => {
    await start();
    const oauth = oauthClient();
    const code = standin.consentCode();
    await oauth.exchangeCode(code);

    const error = await oauth.exchangeCode(code).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(VendorHttpError);
    expect(error).toMatchObject({ vendor: 'Google', kind: 'invalid_grant', status: 400, retryable: false, attempts: 1 });
    expect((error as Error).message).toBe('Google answered HTTP 400 to POST /token: Bad Request');
    expect(standin.requests.filter((request) => request.path === '/token')).toHaveLength(2);
  });

  it('does not send a code again after a 5xx: Google may have taken it', async () => {
    await start();
    standin.failNext(1, 503, '/token');

    await expect(oauthClient().exchangeCode(standin.consentCode())).rejects.toMatchObject({ kind: 'server', status: 503, attempts: 1 });
    expect(waits).toEqual([]);
  });

  it('refuses an answer without a refresh token: the user must consent again', async () => {
    await start();
    standin.withholdRefreshTokenNext();

    const error = await oauthClient()
      .exchangeCode(standin.consentCode())
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(VendorHttpError);
    expect(error).toMatchObject({ vendor: 'Google', kind: 'client', retryable: false });
    expect((error as Error).message).toContain('Google gave no refresh token');
    expect((error as Error).message).toContain('prompt=consent');
    // A new consent gives one again.
    await expect(oauthClient().exchangeCode(standin.consentCode())).resolves.toMatchObject({ refreshToken: expect.any(String) });
  });

  it('refuses the app’s wrong secret as unauthorized', async () => {
    await start();

    const error = await oauthClient({ clientSecret: 'GOCSPX-wrong' })
      .exchangeCode(standin.consentCode())
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ kind: 'unauthorized', status: 401 });
    expect((error as Error).message).not.toContain('GOCSPX-wrong');
  });

  it('refreshes an access token keeping the refresh token, and reports a revoked grant as invalid_grant', async () => {
    await start();
    const oauth = oauthClient();
    const tokens = await oauth.exchangeCode(standin.consentCode());
    standin.advanceClock(3600 * 1000);
    const expired = createDriveClient({ accessToken: async () => tokens.accessToken, baseUrl: standin.driveUrl, http });
    await expect(expired.folders()).rejects.toMatchObject({ kind: 'unauthorized', status: 401 });

    const refreshed = await oauth.refresh(tokens.refreshToken);

    expect(refreshed.refreshToken).toBe(tokens.refreshToken);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(refreshed.scopes).toEqual(SCOPES_GRANTED);
    expect(refreshed.expiresAt).toEqual(new Date(NOW.getTime() + 3599 * 1000));
    expect(standin.requests.at(-1)!.body).toEqual({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken, client_id: GOOGLE_STANDIN_SEED.clientId, client_secret: GOOGLE_STANDIN_SEED.clientSecret });
    const drive = createDriveClient({ accessToken: async () => refreshed.accessToken, baseUrl: standin.driveUrl, http });
    await expect(drive.folders()).resolves.toHaveLength(2);

    standin.revokeGrant();

    const error = await oauth.refresh(tokens.refreshToken).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ vendor: 'Google', kind: 'invalid_grant', status: 400, retryable: false });
    expect((error as Error).message).toBe('Google answered HTTP 400 to POST /token: Token has been expired or revoked.');
    await expect(drive.folders()).rejects.toMatchObject({ kind: 'unauthorized' });
    // A new consent works again.
    await expect(oauth.exchangeCode(standin.consentCode())).resolves.toMatchObject({ scopes: SCOPES_GRANTED });
  });

  it('reads the signed-in user’s e-mail with the access token', async () => {
    await start({ user: { ...GOOGLE_STANDIN_SEED.user, email: 'theo.brandt@parlance.local' } });
    const oauth = oauthClient();
    const tokens = await oauth.exchangeCode(standin.consentCode());

    await expect(oauth.userEmail(tokens.accessToken)).resolves.toBe('theo.brandt@parlance.local');
    expect(standin.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/userinfo' });
    const error = await oauth.userEmail('ya29.unknown-token').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401 });
    expect((error as Error).message).not.toContain('ya29.unknown-token');
  });
});

describe('Drive client', () => {
  it('lists every folder the user can see across pages, sorted by name, with sharing and owners', async () => {
    await start();
    standin.addFolder({ id: 'fold_a', name: 'Archive 2025', shared: false });
    standin.addFolder({ id: 'fold_b', name: 'Board minutes', shared: true, owners: [{ displayName: 'Ines Duarte', emailAddress: 'ines.duarte@example.org' }] });
    standin.addFolder({ id: 'fold_gone', name: 'Zed', shared: true });
    standin.makeFolderInaccessible('fold_gone');

    const folders = await driveClient({ pageSize: 2 }).folders();

    expect(folders).toEqual([
      { id: 'fold_a', name: 'Archive 2025', isShared: false, owners: [{ displayName: 'Maya Okafor', isMe: true }] },
      { id: 'fold_b', name: 'Board minutes', isShared: true, owners: [{ displayName: 'Ines Duarte', isMe: false }] },
      { id: 'fold_shared', name: 'Customer Calls (Sales)', isShared: true, owners: [{ displayName: 'Daniel Reyes', isMe: false }] },
      { id: 'fold_meet', name: 'Meet Recordings', isShared: false, owners: [{ displayName: 'Maya Okafor', isMe: true }] },
    ]);
    const lists = driveRequests('/files');
    expect(lists).toHaveLength(2);
    expect(Object.fromEntries(lists[0]!.query)).toEqual({
      q: "mimeType='application/vnd.google-apps.folder' and trashed=false",
      fields: 'nextPageToken,files(id,name,shared,owners(displayName,me))',
      pageSize: '2',
    });
    expect(lists[1]!.query.get('pageToken')).not.toBeNull();
  });

  it('tells whether the chosen folder exists and can be read', async () => {
    await start();
    standin.addFolder({ id: 'fold_locked', name: 'Locked', shared: true });
    standin.makeFolderInaccessible('fold_locked');
    standin.addDocument(transcript('doc_1', 'Standup - Transcript', '2026-11-19T09:00:00.000Z'));
    const drive = driveClient();

    await expect(drive.folderStatus('fold_meet')).resolves.toEqual({ exists: true, accessible: true });
    await expect(drive.folderStatus('fold_nowhere')).resolves.toEqual({ exists: false, accessible: false });
    await expect(drive.folderStatus('fold_locked')).resolves.toEqual({ exists: true, accessible: false });
    // A document is not a folder to watch.
    await expect(drive.folderStatus('doc_1')).resolves.toEqual({ exists: false, accessible: false });
    expect(Object.fromEntries(driveRequests('/files/fold_meet')[0]!.query)).toEqual({ fields: 'id,name,trashed,mimeType' });
    // Google's rate limit is a 403 too, but not an answer about the folder.
    standin.rateLimitNext(5);
    await expect(drive.folderStatus('fold_meet')).rejects.toMatchObject({ kind: 'rate_limited', status: 403 });
  });

  it('reads the Google Docs directly in a folder, not trashed, across pages', async () => {
    await start();
    for (let index = 1; index <= 5; index += 1) standin.addDocument(transcript(`doc_${index}`, `Call ${index} - Transcript`, `2026-11-1${index}T10:00:00.000Z`));
    standin.addDocument(transcript('doc_other', 'Elsewhere - Transcript', '2026-11-16T10:00:00.000Z', 'fold_shared'));
    standin.addFile({ id: 'pdf_1', name: 'Deck.pdf', folderId: 'fold_meet', mimeType: 'application/pdf' });
    standin.trashDocument('doc_3');

    const pages = await allPages(driveClient({ pageSize: 2 }).documentsIn('fold_meet'));

    expect(pages.map((page) => page.map((document) => document.id))).toEqual([['doc_1', 'doc_2'], ['doc_4', 'doc_5']]);
    expect(pages[0]![0]).toEqual({
      id: 'doc_1',
      name: 'Call 1 - Transcript',
      createdAt: new Date('2026-11-11T10:00:00.000Z'),
      modifiedAt: new Date('2026-11-11T10:00:00.000Z'),
      parents: ['fold_meet'],
      trashed: false,
      webViewLink: 'https://docs.google.com/document/d/doc_1/edit?usp=drivesdk',
    } satisfies DriveDocument);
    expect(driveRequests('/files')[0]!.query.get('q')).toBe("'fold_meet' in parents and mimeType='application/vnd.google-apps.document' and trashed=false");
  });

  it('escapes a folder id inside the query’s quotes', async () => {
    await start();
    standin.addFolder({ id: "it's\\odd", name: 'Odd' });
    standin.addDocument(transcript('doc_odd', 'Odd - Transcript', '2026-11-19T10:00:00.000Z', "it's\\odd"));

    const pages = await allPages(driveClient().documentsIn("it's\\odd"));

    expect(pages.flat().map((document) => document.id)).toEqual(['doc_odd']);
    expect(driveRequests('/files')[0]!.query.get('q')).toBe("'it\\'s\\\\odd' in parents and mimeType='application/vnd.google-apps.document' and trashed=false");
  });

  it('reads a Doc’s text as UTF-8 without the byte order mark, and refuses a file that is not a Doc', async () => {
    await start();
    standin.addDocument({ id: 'doc_1', name: 'Revue – Transcript', folderId: 'fold_meet', text: 'Attendees\nZoë Müller, Maya Okafor\n\n00:00:03\nZoë Müller: Grüß Gott 👋' });
    standin.addFile({ id: 'pdf_1', name: 'Deck.pdf', folderId: 'fold_meet', mimeType: 'application/pdf' });
    const drive = driveClient();

    await expect(drive.documentText('doc_1')).resolves.toBe('Attendees\nZoë Müller, Maya Okafor\n\n00:00:03\nZoë Müller: Grüß Gott 👋');
    expect(Object.fromEntries(driveRequests('/files/doc_1/export')[0]!.query)).toEqual({ mimeType: 'text/plain' });
    await expect(drive.documentText('pdf_1')).rejects.toMatchObject({ kind: 'client', status: 403 });
    await expect(drive.documentText('doc_missing')).rejects.toMatchObject({ kind: 'client', status: 404 });
  });

  it('reads the changes since a token across pages: Docs kept, trashed and removed files told apart', async () => {
    await start();
    standin.addDocument(transcript('doc_old', 'Old - Transcript', '2026-11-01T10:00:00.000Z'));
    standin.addDocument(transcript('doc_gone', 'Gone - Transcript', '2026-11-02T10:00:00.000Z'));
    const drive = driveClient({ pageSize: 2 });
    const token = await drive.startToken();
    expect(token).toMatch(/^\d+$/);

    standin.addDocument(transcript('doc_new_1', 'New 1 - Transcript', '2026-11-20T10:00:00.000Z'));
    standin.addDocument(transcript('doc_new_2', 'New 2 - Transcript', '2026-11-20T11:00:00.000Z', 'fold_shared'));
    standin.addFile({ id: 'pdf_1', name: 'Deck.pdf', folderId: 'fold_meet', mimeType: 'application/pdf' });
    standin.trashDocument('doc_old');
    standin.removeDocument('doc_gone');
    standin.addDocument(transcript('doc_new_3', 'New 3 - Transcript', '2026-11-20T12:00:00.000Z'));
    standin.trashDocument('doc_new_3');

    const changes = await drive.changesSince(token);

    expect(changes.documents.map((document) => [document.id, document.parents])).toEqual([
      ['doc_new_1', ['fold_meet']],
      ['doc_new_2', ['fold_shared']],
    ]);
    expect(changes.removedFileIds).toEqual(['doc_old', 'doc_gone', 'doc_new_3']);
    const lists = driveRequests('/changes');
    expect(lists.map((request) => request.query.get('pageToken'))).toEqual([token, expect.any(String), expect.any(String)]);
    expect(lists[0]!.query.get('fields')).toBe(
      'nextPageToken,newStartPageToken,changes(fileId,removed,file(id,name,mimeType,createdTime,modifiedTime,parents,trashed,webViewLink))',
    );
    expect(lists[0]!.query.get('pageSize')).toBe('2');

    // The next read starts where this one ended.
    await expect(drive.changesSince(changes.nextToken)).resolves.toEqual({ documents: [], removedFileIds: [], nextToken: changes.nextToken });
    standin.addDocument(transcript('doc_new_4', 'New 4 - Transcript', '2026-11-21T10:00:00.000Z'));
    const later = await drive.changesSince(changes.nextToken);
    expect(later.documents.map((document) => document.id)).toEqual(['doc_new_4']);
    expect(Number(later.nextToken)).toBeGreaterThan(Number(changes.nextToken));
  });

  it('counts a folder the user lost access to, and what is in it, as removed', async () => {
    await start();
    standin.addDocument(transcript('doc_shared', 'Shared - Transcript', '2026-11-02T10:00:00.000Z', 'fold_shared'));
    const drive = driveClient();
    const token = await drive.startToken();

    standin.makeFolderInaccessible('fold_shared');

    await expect(drive.changesSince(token)).resolves.toMatchObject({ documents: [], removedFileIds: ['fold_shared', 'doc_shared'] });
    await expect(allPages(drive.documentsIn('fold_shared'))).resolves.toEqual([]);
  });

  it('waits out Google’s 403 userRateLimitExceeded with an exponential backoff', async () => {
    await start();
    const drive = driveClient();
    standin.rateLimitNext(2);

    await expect(drive.folders()).resolves.toHaveLength(2);
    expect(waits).toEqual([1500, 2500]);
    expect(driveRequests('/files')).toHaveLength(3);
  });

  it('asks for the access token before every attempt, so one refreshed in between is used', async () => {
    await start();
    const older = standin.issueTokens().accessToken;
    standin.advanceClock(3000 * 1000);
    const newer = standin.issueTokens().accessToken;
    let current = older;
    const sleep = async (ms: number) => {
      waits.push(ms);
      standin.advanceClock(700 * 1000);
      current = newer;
    };
    const drive = createDriveClient({ accessToken: async () => current, baseUrl: standin.driveUrl, http: { ...http, sleep } });
    standin.failNext(1, 503, '/drive/v3/changes');

    await expect(drive.startToken()).resolves.toMatch(/^\d+$/);
    expect(waits).toEqual([1500]);
  });

  it('treats an answer in an unexpected shape as a final server error', async () => {
    await start();
    const drive = driveClient({ http: { ...http, fetch: async () => new Response(JSON.stringify({ files: 'none' }), { status: 200 }) } });

    const error = await drive.folders().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'server', retryable: false });
    expect((error as Error).message).toBe('Google answered GET /files in an unexpected shape: files is not a list');
  });
});

describe('Calendar client', () => {
  const ATTENDEES = [
    { email: 'maya.okafor@parlance.local', displayName: 'Maya Okafor', organizer: true },
    { email: 'c_1888room-berlin-3@resource.calendar.google.com', displayName: 'Berlin-3-Orbit (6)', resource: true },
    { email: 'morgan.reyes@globex.example' },
  ];

  it('reads the primary calendar’s events around a time across pages: Meet link, entry points, start, attendees and attachments', async () => {
    await start({ events: [] });
    standin.addEvent({ id: 'evt_before', summary: 'Over before', start: '2026-11-20T06:00:00Z', end: '2026-11-20T06:30:00Z' });
    standin.addEvent({ id: 'evt_discovery', summary: 'Discovery with Globex', start: '2026-11-20T09:00:00Z', end: '2026-11-20T09:45:00Z', meetingCode: 'gxd-qmvr-tka', attendees: ATTENDEES, attachmentFileIds: ['doc_1'] });
    standin.addEvent({ id: 'evt_lunch', summary: 'Lunch', start: '2026-11-20T12:00:00Z', end: '2026-11-20T13:00:00Z' });
    standin.addEvent({ id: 'evt_review', summary: 'Review', start: '2026-11-20T13:00:00Z', end: '2026-11-20T13:30:00Z', meetingCode: 'rvw-abcd-efg', withoutHangoutLink: true });
    standin.addEvent({ id: 'evt_after', summary: 'Starts at the bound', start: '2026-11-20T15:00:00Z', end: '2026-11-20T16:00:00Z' });

    const pages = await allPages(calendarClient({ pageSize: 2 }).events(new Date('2026-11-20T07:00:00Z'), new Date('2026-11-20T15:00:00Z')));

    expect(pages.map((page) => page.map((event) => event.id))).toEqual([['evt_discovery', 'evt_lunch'], ['evt_review']]);
    expect(pages[0]![0]).toEqual({
      id: 'evt_discovery',
      summary: 'Discovery with Globex',
      startAt: new Date('2026-11-20T09:00:00Z'),
      hangoutLink: 'https://meet.google.com/gxd-qmvr-tka',
      entryPoints: [
        { entryPointType: 'video', uri: 'https://meet.google.com/gxd-qmvr-tka' },
        { entryPointType: 'more', uri: expect.stringContaining('gxd-qmvr-tka') },
        { entryPointType: 'phone', uri: expect.stringMatching(/^tel:/) },
      ],
      attendees: [
        { email: 'maya.okafor@parlance.local', displayName: 'Maya Okafor', self: true, resource: false },
        { email: 'c_1888room-berlin-3@resource.calendar.google.com', displayName: 'Berlin-3-Orbit (6)', self: false, resource: true },
        { email: 'morgan.reyes@globex.example', displayName: '', self: false, resource: false },
      ],
      attachmentFileIds: ['doc_1'],
    } satisfies CalendarEvent);
    expect(pages[0]![1]).toMatchObject({ hangoutLink: '', entryPoints: [], attendees: [{ email: 'maya.okafor@parlance.local', self: true }], attachmentFileIds: [] });
    expect(pages[1]![0]).toMatchObject({ hangoutLink: '', entryPoints: expect.arrayContaining([{ entryPointType: 'video', uri: 'https://meet.google.com/rvw-abcd-efg' }]) });

    const lists = standin.requests.filter((request) => request.path === '/calendar/v3/calendars/primary/events');
    expect(lists).toHaveLength(2);
    expect(Object.fromEntries(lists[0]!.query)).toEqual({
      timeMin: '2026-11-20T07:00:00.000Z',
      timeMax: '2026-11-20T15:00:00.000Z',
      singleEvents: 'true',
      maxResults: '2',
      fields: 'nextPageToken,items(id,summary,start,hangoutLink,conferenceData/entryPoints(entryPointType,uri),attendees(email,displayName,self,resource),attachments(fileId))',
    });
    expect(lists[1]!.query.get('pageToken')).not.toBeNull();
  });

  it('reads nothing from a calendar with no event in the time asked', async () => {
    await start({ events: [] });

    await expect(allPages(calendarClient().events(new Date('2026-11-20T07:00:00Z'), new Date('2026-11-20T15:00:00Z')))).resolves.toEqual([]);
  });

  it('is refused with 401 for a token Google does not know, and 403 for one without a Calendar scope', async () => {
    await start();
    const window = [new Date('2026-11-20T07:00:00Z'), new Date('2026-11-20T15:00:00Z')] as const;

    const unknown = createCalendarClient({ accessToken: async () => 'ya29.unknown-token', baseUrl: standin.calendarUrl, http });
    const error = await allPages(unknown.events(...window)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ vendor: 'Google', kind: 'unauthorized', status: 401 });
    expect((error as Error).message).not.toContain('ya29.unknown-token');

    const driveOnly = calendarClient({}, ['openid', 'https://www.googleapis.com/auth/drive.readonly']);
    await expect(allPages(driveOnly.events(...window))).rejects.toMatchObject({ kind: 'client', status: 403, retryable: false, attempts: 1 });
  });

  it('seeds the demo transcript’s meeting: an event of the last half hour with doc_globex attached', async () => {
    await start();

    const events = (await allPages(calendarClient().events(new Date(Date.now() - 3_600_000), new Date(Date.now() + 60_000)))).flat();

    expect(events).toEqual([
      expect.objectContaining({ summary: 'Discovery with Globex', hangoutLink: expect.stringMatching(/^https:\/\/meet\.google\.com\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/), attachmentFileIds: ['doc_globex'] }),
    ]);
  });

  it('refuses an ordering by start time without single events, as Calendar does', async () => {
    await start();
    const { accessToken } = standin.issueTokens();

    const response = await fetch(`${standin.calendarUrl}/calendars/primary/events?orderBy=startTime`, { headers: { authorization: `Bearer ${accessToken}` } });

    expect(response.status).toBe(400);
    expect((await fetch(`${standin.calendarUrl}/calendars/someone%40example.org/events`, { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(404);
  });
});

describe('Meet client', () => {
  const at = (time: string) => `2026-11-20T${time}Z`;
  const entry = (participantId: string, text: string, start: string, end: string) => ({ participantId, text, startTime: at(start), endTime: at(end) });
  const DISCOVERY = {
    id: 'conf_discovery',
    startTime: at('08:58:00.123456789'),
    endTime: at('09:44:00'),
    participants: [
      { id: 'p_maya', displayName: 'Maya Okafor' },
      { id: 'p_guest', displayName: 'Guest from Globex', kind: 'anonymous' as const },
      { id: 'p_phone', displayName: '+49 30 ***-**-43', kind: 'phone' as const },
    ],
    transcripts: [
      {
        id: 'tr_1',
        documentId: 'doc_1',
        startTime: at('09:00:00'),
        endTime: at('09:44:00'),
        entries: [
          entry('p_maya', 'Thanks for joining.', '09:00:05', '09:00:07'),
          entry('p_guest', 'Happy to.', '09:00:08', '09:00:09'),
          entry('p_phone', 'Hello from the phone.', '09:01:00', '09:01:03'),
        ],
      },
    ],
  };

  it('finds the conference records started in a time, their transcripts, entries across pages and participants', async () => {
    await start({ conferences: [DISCOVERY, { id: 'conf_earlier', startTime: at('02:00:00'), endTime: at('02:30:00'), participants: [], transcripts: [] }] });
    standin.addConference({ id: 'conf_lunch', startTime: at('12:00:00'), participants: [], transcripts: [{ id: 'tr_open', entries: [] }] });
    const meet = meetClient({ pageSize: 2 });

    const records = await meet.conferenceRecords(new Date(at('03:00:00')), new Date(at('13:00:00')));

    expect(records).toEqual([
      { name: 'conferenceRecords/conf_lunch', startAt: new Date(at('12:00:00')), endAt: null },
      { name: 'conferenceRecords/conf_discovery', startAt: new Date(at('08:58:00.123')), endAt: new Date(at('09:44:00')) },
    ]);
    expect(standin.requests.find((request) => request.path === '/meet/v2/conferenceRecords')!.query.get('filter')).toBe('start_time>="2026-11-20T03:00:00.000Z" AND start_time<="2026-11-20T13:00:00.000Z"');
    await expect(meet.transcripts('conferenceRecords/conf_discovery')).resolves.toEqual([{ name: 'conferenceRecords/conf_discovery/transcripts/tr_1', documentId: 'doc_1', startAt: new Date(at('09:00:00')) }]);
    await expect(meet.transcripts('conferenceRecords/conf_lunch')).resolves.toEqual([{ name: 'conferenceRecords/conf_lunch/transcripts/tr_open', documentId: '', startAt: new Date(at('12:00:00')) }]);

    await expect(meet.transcriptEntries('conferenceRecords/conf_discovery/transcripts/tr_1')).resolves.toEqual([
      { participant: 'conferenceRecords/conf_discovery/participants/p_maya', text: 'Thanks for joining.', languageCode: 'en-US', startAt: new Date(at('09:00:05')), endAt: new Date(at('09:00:07')) },
      { participant: 'conferenceRecords/conf_discovery/participants/p_guest', text: 'Happy to.', languageCode: 'en-US', startAt: new Date(at('09:00:08')), endAt: new Date(at('09:00:09')) },
      { participant: 'conferenceRecords/conf_discovery/participants/p_phone', text: 'Hello from the phone.', languageCode: 'en-US', startAt: new Date(at('09:01:00')), endAt: new Date(at('09:01:03')) },
    ]);
    const entryPages = standin.requests.filter((request) => request.path === '/meet/v2/conferenceRecords/conf_discovery/transcripts/tr_1/entries');
    expect(entryPages.map((request) => request.query.get('pageToken'))).toEqual([null, expect.any(String)]);
    expect(entryPages[0]!.query.get('pageSize')).toBe('2');

    await expect(meet.participants('conferenceRecords/conf_discovery')).resolves.toEqual([
      { name: 'conferenceRecords/conf_discovery/participants/p_maya', displayName: 'Maya Okafor' },
      { name: 'conferenceRecords/conf_discovery/participants/p_guest', displayName: 'Guest from Globex' },
      { name: 'conferenceRecords/conf_discovery/participants/p_phone', displayName: '+49 30 ***-**-43' },
    ]);
  });

  it('is refused with Google’s 403 PERMISSION_DENIED without the Meet scope, once, and 401 for a token Google does not know', async () => {
    await start({ conferences: [DISCOVERY] });

    const error = await meetClient({}, GOOGLE_WORKSPACE_SCOPES)
      .conferenceRecords(new Date(at('03:00:00')), new Date(at('13:00:00')))
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(VendorHttpError);
    expect(error).toMatchObject({ vendor: 'Google', kind: 'client', status: 403, retryable: false, attempts: 1 });
    expect((error as Error).message).toContain('insufficient authentication scopes');
    const unknown = createMeetClient({ accessToken: async () => 'ya29.unknown-token', baseUrl: standin.meetUrl, http });
    await expect(unknown.participants('conferenceRecords/conf_discovery')).rejects.toMatchObject({ kind: 'unauthorized', status: 401 });
    await expect(meetClient().transcripts('conferenceRecords/conf_nowhere')).rejects.toMatchObject({ kind: 'client', status: 404 });
  });

  it('refuses a resource name that is not a conference record’s, so nothing Google says becomes another path', async () => {
    await start();
    const meet = meetClient({ http: { ...http, fetch: async () => new Response(JSON.stringify({ conferenceRecords: [{ name: 'conferenceRecords/../../drive/v3/files', startTime: at('09:00:00') }] }), { status: 200 }) } });

    const error = await meet.conferenceRecords(new Date(at('03:00:00')), new Date(at('13:00:00'))).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ kind: 'server', retryable: false });
    expect((error as Error).message).toBe('Google answered GET /conferenceRecords in an unexpected shape: name is not a conference record’s resource name');
  });
});

describe('The GIS stand-in', () => {
  /** The stand-in's script run as a page runs it: a window that already holds google.accounts.id, and fetch. */
  async function gisWindow() {
    const source = await (await fetch(standin.gisScriptUrl)).text();
    const identity = { initialize: () => undefined };
    const sandbox: Record<string, unknown> = { fetch: globalThis.fetch, google: { accounts: { id: identity } } };
    sandbox.window = sandbox;
    vm.runInContext(source, vm.createContext(sandbox));
    const google = sandbox.google as { accounts: { id: unknown; oauth2: { initCodeClient(config: Record<string, unknown>): { requestCode(): void } } } };
    expect(google.accounts.id).toBe(identity);
    return google.accounts.oauth2;
  }

  it('gives the callback a code the token endpoint accepts, for the scopes asked', async () => {
    await start();
    const oauth2 = await gisWindow();

    const response = await new Promise<Record<string, unknown>>((resolve) => {
      oauth2.initCodeClient({ client_id: GOOGLE_STANDIN_SEED.clientId, scope: GOOGLE_WORKSPACE_SCOPES.join(' '), ux_mode: 'popup', callback: resolve }).requestCode();
    });

    expect(Object.keys(response).sort()).toEqual(['code', 'scope']);
    expect(String(response.scope).split(' ')).toEqual(SCOPES_GRANTED);
    expect(standin.consents).toEqual([{ clientId: GOOGLE_STANDIN_SEED.clientId, scopes: [...GOOGLE_WORKSPACE_SCOPES], state: undefined, outcome: 'granted' }]);
    const tokens = await oauthClient().exchangeCode(String(response.code));
    await expect(oauthClient().userEmail(tokens.accessToken)).resolves.toBe('maya.okafor@parlance.local');
  });

  it('answers a refused consent through error_callback, or the callback when there is none', async () => {
    await start();
    const oauth2 = await gisWindow();
    const config = { client_id: GOOGLE_STANDIN_SEED.clientId, scope: GOOGLE_WORKSPACE_SCOPES.join(' '), ux_mode: 'popup' };

    standin.denyNextConsent();
    const closed = await new Promise<unknown>((resolve, reject) => {
      oauth2.initCodeClient({ ...config, callback: reject, error_callback: resolve }).requestCode();
    });
    expect(JSON.parse(JSON.stringify(closed))).toEqual({ type: 'popup_closed', message: 'Popup window closed' });

    standin.denyNextConsent();
    const denied = await new Promise<Record<string, unknown>>((resolve) => {
      oauth2.initCodeClient({ ...config, callback: resolve }).requestCode();
    });
    expect(denied).toMatchObject({ error: 'access_denied' });
    expect(denied.code).toBeUndefined();

    standin.denyNextConsent('access_denied');
    const cancelled = await new Promise<Record<string, unknown>>((resolve, reject) => {
      oauth2.initCodeClient({ ...config, callback: resolve, error_callback: reject }).requestCode();
    });
    expect(cancelled).toMatchObject({ error: 'access_denied' });
    expect(standin.consents.map((consent) => consent.outcome)).toEqual(['denied', 'denied', 'denied']);
  });

  it('answers the consent endpoint to any origin', async () => {
    await start();

    const response = await fetch(`${standin.baseUrl}/o/oauth2/consent?client_id=${encodeURIComponent(GOOGLE_STANDIN_SEED.clientId)}&scope=openid`, { headers: { origin: 'http://127.0.0.1:5173' } });

    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toMatchObject({ code: expect.any(String), scope: 'openid' });
  });
});
