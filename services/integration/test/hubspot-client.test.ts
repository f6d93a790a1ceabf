/**
 * The HubSpot OAuth and API clients against a local stand-in for HubSpot
 * (support/hubspot-standin.ts): the consent URL, codes and refresh tokens as HubSpot treats them,
 * every call of a window read past the search's 10,000-result cap, owners, contacts, recordings
 * and transcripts (refused for want of the optional scope, or gone), HubSpot's rate-limit window
 * honoured, and notes and tasks written once and found again by their marker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHubSpotClient,
  createHubSpotOAuth,
  HUBSPOT_OPTIONAL_SCOPES,
  HUBSPOT_SCOPES,
  type HubSpotCall,
  type HubSpotClientOptions,
  type HubSpotOAuthOptions,
} from '../src/vendors/hubspot-client.js';
import { VendorHttpError } from '../src/vendors/vendor-http.js';
import {
  HUBSPOT_STANDIN_SEED,
  startHubSpotStandin,
  type HubSpotCallRecord,
  type HubSpotStandin,
  type HubSpotStandinSeed,
  type HubSpotTranscriptRecord,
} from './support/hubspot-standin.js';

const DAY = Date.UTC(2026, 10, 3);
const at = (minutes: number) => new Date(DAY + minutes * 60_000);
const NOW = new Date(Date.UTC(2026, 10, 3, 12, 0, 0));
const REDIRECT_URI = 'https://app.parlance.example/integrations/hubspot/callback';
const WINDOW = { modifiedFrom: at(0), modifiedBefore: at(60) };

function callRecord(id: string, modifiedAt: Date, properties: Partial<HubSpotCallRecord['properties']> = {}): HubSpotCallRecord {
  return {
    id,
    properties: {
      hs_timestamp: new Date(modifiedAt.getTime() - 10 * 60_000).toISOString(),
      hs_call_duration: '125000',
      hs_call_recording_url: null,
      hs_call_title: `Call ${id}`,
      hs_call_body: '<p>Asked for a quote.</p>',
      hs_call_direction: 'OUTBOUND',
      hubspot_owner_id: 'own_anna',
      hs_lastmodifieddate: modifiedAt.toISOString(),
      ...properties,
    },
  };
}

function transcriptRecord(id: string, callId: number): HubSpotTranscriptRecord {
  return {
    id,
    engagementId: callId,
    transcriptSource: 'INTEGRATOR_GENERATED',
    createdAt: at(1).toISOString(),
    updatedAt: at(1).toISOString(),
    transcriptUtterances: [
      { id: 'u1', speaker: { id: '11', name: 'Anna Lee', email: 'anna.lee@example.com' }, text: 'Hello, this is Anna from Acme.', languageCode: 'en-US', startTimeMillis: 1_980, endTimeMillis: 4_090 },
      { id: 'u2', speaker: { id: '12', name: 'Mark Ruiz' }, text: 'Hi Anna.', startTimeMillis: 4_090, endTimeMillis: 5_450 },
    ],
  };
}

let standin: HubSpotStandin;
const waits: number[] = [];
const http = { sleep: async (ms: number) => void waits.push(ms), random: () => 0.5 };

async function start(seed: Partial<HubSpotStandinSeed> = {}) {
  standin = await startHubSpotStandin(seed);
  waits.length = 0;
}

function oauthClient(options: Partial<HubSpotOAuthOptions> = {}) {
  return createHubSpotOAuth({
    clientId: HUBSPOT_STANDIN_SEED.clientId,
    clientSecret: HUBSPOT_STANDIN_SEED.clientSecret,
    authorizeUrl: standin.authorizeUrl,
    baseUrl: standin.baseUrl,
    http,
    now: () => NOW,
    ...options,
  });
}

/** A client acting with tokens as if the seed's user had connected (granted `scopes`, by default every scope asked for). */
function apiClient(options: Partial<HubSpotClientOptions> = {}, scopes?: readonly string[]) {
  const { accessToken } = standin.issueTokens(scopes);
  return createHubSpotClient({ accessToken: async () => accessToken, baseUrl: standin.baseUrl, http, ...options });
}

/** The user at HubSpot's consent page: where it sends the browser back. */
async function consent(url: string): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

async function allCalls(calls: AsyncIterable<HubSpotCall[]>): Promise<HubSpotCall[][]> {
  const pages: HubSpotCall[][] = [];
  for await (const page of calls) pages.push(page);
  return pages;
}

function searchBodies(path = '/crm/v3/objects/calls/search') {
  return standin.requests.filter((request) => request.path === path).map((request) => request.body as Record<string, unknown>);
}

afterEach(async () => {
  await standin.close();
});

describe('HubSpot OAuth', () => {
  it('sends the user to HubSpot’s consent page with the app, the redirect, the scopes and the state', async () => {
    await start();
    const url = oauthClient().authorizeUrl({ redirectUri: REDIRECT_URI, state: 'state-1' });

    const parsed = new URL(url);
    expect(`${parsed.origin}${parsed.pathname}`).toBe(standin.authorizeUrl);
    expect(Object.fromEntries(parsed.searchParams)).toEqual({
      client_id: HUBSPOT_STANDIN_SEED.clientId,
      redirect_uri: REDIRECT_URI,
      scope: HUBSPOT_SCOPES.join(' '),
      optional_scope: 'crm.extensions_calling_transcripts.read',
      state: 'state-1',
    });
    expect(url).toContain(`scope=${HUBSPOT_SCOPES.join('%20')}`);
  });

  it('is granted the optional transcripts scope when the account has it, and installs without it otherwise', async () => {
    await start();
    const granted = await oauthClient().exchangeCode({ code: (await consent(oauthClient().authorizeUrl({ redirectUri: REDIRECT_URI, state: 's' }))).searchParams.get('code')!, redirectUri: REDIRECT_URI });
    expect((await oauthClient().tokenInfo(granted.accessToken)).scopes).toEqual([...HUBSPOT_SCOPES, ...HUBSPOT_OPTIONAL_SCOPES]);
    await standin.close();

    await start({ unavailableScopes: [...HUBSPOT_OPTIONAL_SCOPES] });
    const without = await oauthClient().exchangeCode({ code: (await consent(oauthClient().authorizeUrl({ redirectUri: REDIRECT_URI, state: 's' }))).searchParams.get('code')!, redirectUri: REDIRECT_URI });
    expect((await oauthClient().tokenInfo(without.accessToken)).scopes).toEqual([...HUBSPOT_SCOPES]);
  });

  it('exchanges the code consent gave for tokens that work, and refuses the same code twice', async () => {
    await start();
    const oauth = oauthClient();
    const back = await consent(oauth.authorizeUrl({ redirectUri: REDIRECT_URI, state: 'state-1' }));
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('state')).toBe('state-1');
    const code = back.searchParams.get('code')!;

    const tokens = await oauth.exchangeCode({ code, redirectUri: REDIRECT_URI });

    expect(tokens.expiresAt).toEqual(new Date(NOW.getTime() + 1800 * 1000));
    expect(standin.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/oauth/v1/token',
      body: { grant_type: 'authorization_code', client_id: HUBSPOT_STANDIN_SEED.clientId, client_secret: HUBSPOT_STANDIN_SEED.clientSecret, redirect_uri: REDIRECT_URI, code },
    });
    const hubspot = createHubSpotClient({ accessToken: async () => tokens.accessToken, baseUrl: standin.baseUrl, http });
    await expect(hubspot.owners()).resolves.toHaveLength(3);

    const reused = await oauth.exchangeCode({ code, redirectUri: REDIRECT_URI }).catch((caught: unknown) => caught);
    expect(reused).toBeInstanceOf(VendorHttpError);
    expect(reused).toMatchObject({ vendor: 'HubSpot', kind: 'client', status: 400, retryable: false });
    expect((reused as Error).message).toMatch(/auth code/);
  });

  it('refuses a code brought back to another redirect URI', async () => {
    await start();
    const oauth = oauthClient();
    const code = (await consent(oauth.authorizeUrl({ redirectUri: REDIRECT_URI, state: 'state-1' }))).searchParams.get('code')!;

    await expect(oauth.exchangeCode({ code, redirectUri: 'https://elsewhere.example/callback' })).rejects.toMatchObject({ kind: 'client', status: 400 });
  });

  it('brings back access_denied and the state when the user refuses', async () => {
    await start();
    standin.denyNextConsent();

    const back = await consent(oauthClient().authorizeUrl({ redirectUri: REDIRECT_URI, state: 'state-2' }));

    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('state-2');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('refreshes an expired access token; once the app is uninstalled the refresh token is an invalid_grant', async () => {
    await start();
    const oauth = oauthClient();
    const { accessToken, refreshToken } = standin.issueTokens();
    standin.advanceClock(1800 * 1000);
    const expired = createHubSpotClient({ accessToken: async () => accessToken, baseUrl: standin.baseUrl, http });
    await expect(expired.owners()).rejects.toMatchObject({ kind: 'unauthorized', status: 401 });

    const fresh = await oauth.refresh(refreshToken);

    expect(fresh.accessToken).not.toBe(accessToken);
    expect(fresh.refreshToken).toBe(refreshToken);
    expect(standin.requests.at(-1)?.body).toMatchObject({ grant_type: 'refresh_token', refresh_token: refreshToken });
    await expect(createHubSpotClient({ accessToken: async () => fresh.accessToken, baseUrl: standin.baseUrl, http }).owners()).resolves.toHaveLength(3);

    standin.revokeRefreshTokens();
    const refused = await oauth.refresh(refreshToken).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(VendorHttpError);
    expect(refused).toMatchObject({ kind: 'invalid_grant', status: 400, retryable: false });
    expect((refused as Error).message).not.toContain(refreshToken);
    expect(waits).toEqual([]);
  });

  it('tells whose tokens they are', async () => {
    await start();
    const { accessToken } = standin.issueTokens();

    await expect(oauthClient().tokenInfo(accessToken)).resolves.toEqual({
      hubId: '24681357',
      hubDomain: 'acme-sales.example.com',
      user: 'anna.lee@example.com',
      scopes: [...HUBSPOT_SCOPES, ...HUBSPOT_OPTIONAL_SCOPES],
    });
  });

  it('never names the access token its info is asked for, in an error or a log line', async () => {
    await start();
    const warnings: unknown[] = [];
    const { accessToken } = standin.issueTokens();
    standin.failNext(1, 503, '/oauth/v1/access-tokens/');
    standin.revokeRefreshTokens();

    const error = await oauthClient({ logger: { warn: (fields: unknown) => void warnings.push(fields) } })
      .tokenInfo(accessToken)
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ kind: 'client', status: 404, attempts: 2 });
    expect((error as Error).message).toContain('/oauth/v1/access-tokens/{token}');
    expect(JSON.stringify(warnings)).toContain('/oauth/v1/access-tokens/{token}');
    expect(`${(error as Error).message} ${JSON.stringify(warnings)}`).not.toContain(accessToken);
  });
});

describe('HubSpot client', () => {
  it('reads the calls modified in the window page by page, in order of modification', async () => {
    await start({
      calls: [
        callRecord('105', at(59)),
        callRecord('101', at(0)),
        callRecord('100', at(-1)),
        callRecord('103', at(30)),
        callRecord('102', at(30)),
        callRecord('104', at(45)),
        callRecord('106', at(60)),
      ],
    });

    const pages = await allCalls(apiClient({ pageSize: 2 }).calls(WINDOW));

    expect(pages.map((page) => page.map((call) => call.id))).toEqual([['101', '102'], ['103', '104'], ['105']]);
    const bodies = searchBodies();
    expect(bodies.map((body) => body.after)).toEqual([undefined, '2', '4']);
    expect(bodies[0]).toEqual({
      filterGroups: [
        {
          filters: [
            { propertyName: 'hs_lastmodifieddate', operator: 'GTE', value: String(at(0).getTime()) },
            { propertyName: 'hs_lastmodifieddate', operator: 'LT', value: String(at(60).getTime()) },
          ],
        },
      ],
      sorts: [{ propertyName: 'hs_lastmodifieddate', direction: 'ASCENDING' }],
      properties: [
        'hs_timestamp',
        'hs_call_duration',
        'hs_call_recording_url',
        'hs_call_title',
        'hs_call_body',
        'hs_call_direction',
        'hubspot_owner_id',
        'hs_lastmodifieddate',
        'hs_call_has_transcript',
        'hs_call_transcription_id',
      ],
      limit: 2,
    });
  });

  it('maps a call’s properties: the duration in milliseconds, its dates, direction, owner and transcript', async () => {
    await start({
      calls: [
        callRecord('201', at(5), { hs_call_direction: 'INBOUND', hs_call_recording_url: 'https://recordings.example/201.mp3', hs_call_has_transcript: 'true', hs_call_transcription_id: '88001' }),
        callRecord('202', at(6), { hs_call_duration: null, hs_call_direction: null, hubspot_owner_id: null, hs_call_title: null, hs_call_body: null }),
      ],
    });

    const [page] = await allCalls(apiClient().calls(WINDOW));

    expect(page).toEqual([
      {
        id: '201',
        ownerId: 'own_anna',
        occurredAt: new Date(at(5).getTime() - 10 * 60_000),
        durationMs: 125_000,
        recordingUrl: 'https://recordings.example/201.mp3',
        title: 'Call 201',
        body: '<p>Asked for a quote.</p>',
        direction: 'inbound',
        modifiedAt: at(5),
        hasTranscript: true,
        transcriptionId: '88001',
      },
      {
        id: '202',
        ownerId: null,
        occurredAt: new Date(at(6).getTime() - 10 * 60_000),
        durationMs: 0,
        recordingUrl: null,
        title: '',
        body: '',
        direction: null,
        modifiedAt: at(6),
        hasTranscript: false,
        transcriptionId: null,
      },
    ]);
  });

  it('reads every call of a window past the search’s 10,000-result cap, without ever paging into it', async () => {
    await start();
    const total = 10_250;
    // Three calls share each second, so a restart lands on an instant some calls were already read at.
    standin.addCalls(total, (index) => callRecord(String(300_000 + index), new Date(DAY + Math.floor(index / 3) * 1000)));

    const calls = (await allCalls(apiClient({ pageSize: 200 }).calls({ modifiedFrom: at(0), modifiedBefore: at(24 * 60) }))).flat();

    expect(new Set(calls.map((call) => call.id)).size).toBe(total);
    expect(calls.every((call, index) => index === 0 || call.modifiedAt >= calls[index - 1]!.modifiedAt)).toBe(true);
    const bodies = searchBodies();
    expect(bodies.every((body) => Number(body.after ?? 0) + (body.limit as number) <= 10_000)).toBe(true);
    const restarts = bodies.filter((body) => body.after === undefined);
    expect(restarts).toHaveLength(2);
    const restartFrom = (restarts[1]!.filterGroups as { filters: { value: string }[] }[])[0]!.filters[0]!.value;
    expect(restartFrom).toBe(String(calls[9_999]!.modifiedAt.getTime()));
  });

  it('refuses, rather than loop, when more calls than the cap were modified at one instant', async () => {
    await start({ searchResultCap: 50 });
    standin.addCalls(60, (index) => callRecord(String(400 + index), at(10)));

    const seen: HubSpotCall[] = [];
    const error = await (async () => {
      for await (const page of apiClient({ pageSize: 10, searchResultCap: 50 }).calls(WINDOW)) seen.push(...page);
    })().catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(VendorHttpError);
    expect(error).toMatchObject({ vendor: 'HubSpot', kind: 'server', retryable: false });
    expect((error as Error).message).toContain(`more than 50 calls modified at ${at(10).toISOString()}`);
    expect(seen).toHaveLength(100);
    expect(searchBodies()).toHaveLength(10);
  });

  it('reads every owner, across pages', async () => {
    const owners = Array.from({ length: 150 }, (_, index) => ({
      id: `own_${index}`,
      email: `owner${index}@example.com`,
      firstName: `First${index}`,
      lastName: `Last${index}`,
      userId: 8000 + index,
      archived: false,
    }));
    await start({ owners: [...owners, { ...owners[0]!, id: 'own_gone', archived: true }] });

    const read = await apiClient().owners();

    expect(read).toHaveLength(150);
    expect(read[149]).toEqual({ id: 'own_149', email: 'owner149@example.com', firstName: 'First149', lastName: 'Last149' });
    expect(standin.requests.map(({ path, query }) => `${path}?${query.toString()}`)).toEqual(['/crm/v3/owners?limit=100', '/crm/v3/owners?limit=100&after=100']);
  });

  it('reads the contacts of calls in batches of 1,000, leaving out the calls HubSpot has none for (its 207)', async () => {
    await start({ callContacts: { '501001': ['501', '502'], '501003': ['503'], '502200': ['501'] } });
    const callIds = Array.from({ length: 1_500 }, (_, index) => String(501_000 + index));

    const contacts = await apiClient().callContacts(callIds);

    expect(contacts).toEqual(
      new Map([
        ['501001', ['501', '502']],
        ['501003', ['503']],
        ['502200', ['501']],
      ]),
    );
    expect(standin.requests.map((request) => (request.body as { inputs: unknown[] }).inputs.length)).toEqual([1_000, 500]);
    await expect(apiClient().callContacts([])).resolves.toEqual(new Map());
    expect(standin.requests).toHaveLength(2);
  });

  it('downloads a recording behind the access token', async () => {
    await start();
    const audio = Buffer.from('ID3 stand-in call audio');
    standin.addCall(callRecord('601', at(5)), audio);

    await expect(apiClient().recording(standin.recordingUrlOf('601'))).resolves.toEqual(audio);
    const stranger = createHubSpotClient({ accessToken: async () => 'standin-access.unknown', baseUrl: standin.baseUrl, http });
    await expect(stranger.recording(standin.recordingUrlOf('601'))).rejects.toMatchObject({ kind: 'unauthorized', status: 401 });
  });

  it('reads a call’s transcript: each utterance’s speaker, text and times', async () => {
    await start({ transcripts: [transcriptRecord('88001', 601)] });

    await expect(apiClient().transcript('88001')).resolves.toEqual({
      utterances: [
        { speaker: { name: 'Anna Lee', email: 'anna.lee@example.com' }, text: 'Hello, this is Anna from Acme.', startMs: 1_980, endMs: 4_090 },
        { speaker: { name: 'Mark Ruiz', email: '' }, text: 'Hi Anna.', startMs: 4_090, endMs: 5_450 },
      ],
    });
    expect(standin.requests.map(({ method, path }) => `${method} ${path}`)).toEqual(['GET /crm/v3/extensions/calling/transcripts/88001']);
    // The stand-in answers HubSpot's dated path with the same body.
    const dated = await fetch(`${standin.baseUrl}/crm/extensions/calling/2026-03/transcripts/88001`, { headers: { authorization: `Bearer ${standin.issueTokens().accessToken}` } });
    await expect(dated.json()).resolves.toEqual(transcriptRecord('88001', 601));
  });

  it('says a transcript HubSpot does not have is not found, and one it refuses for want of the optional scope is not granted', async () => {
    await start({ transcripts: [transcriptRecord('88001', 601)] });

    await expect(apiClient().transcript('88999')).resolves.toEqual({ unreadable: 'not-found' });
    await expect(apiClient({}, HUBSPOT_SCOPES).transcript('88001')).resolves.toEqual({ unreadable: 'not-granted' });
    const refused = await fetch(`${standin.baseUrl}/crm/v3/extensions/calling/transcripts/88001`, { headers: { authorization: `Bearer ${standin.issueTokens(HUBSPOT_SCOPES).accessToken}` } });
    expect(refused.status).toBe(403);
    await expect(refused.json()).resolves.toMatchObject({ status: 'error', category: 'MISSING_SCOPES' });
    expect(waits).toEqual([]);
  });

  it('tries a transcript again after HubSpot’s 5xx, and stops on a refused token', async () => {
    await start({ transcripts: [transcriptRecord('88001', 601)] });
    standin.failNext(1, 503, '/crm/v3/extensions/calling/transcripts/');

    await expect(apiClient().transcript('88001')).resolves.toMatchObject({ utterances: [{ text: 'Hello, this is Anna from Acme.' }, { text: 'Hi Anna.' }] });
    expect(waits).toEqual([1500]);
    const stranger = createHubSpotClient({ accessToken: async () => 'standin-access.unknown', baseUrl: standin.baseUrl, http });
    await expect(stranger.transcript('88001')).rejects.toMatchObject({ kind: 'unauthorized', status: 401 });
  });

  it('asks for the access token before every attempt, so one refreshed in between is used', async () => {
    await start();
    const older = standin.issueTokens().accessToken;
    standin.advanceClock(1000 * 1000);
    const newer = standin.issueTokens().accessToken;
    let current = older;
    // While the client waits to try again, the older token expires and a refresh replaces it.
    const sleep = async (ms: number) => {
      waits.push(ms);
      standin.advanceClock(900 * 1000);
      current = newer;
    };
    const hubspot = createHubSpotClient({ accessToken: async () => current, baseUrl: standin.baseUrl, http: { ...http, sleep } });
    standin.failNext(1, 503);

    await expect(hubspot.owners()).resolves.toHaveLength(3);
    expect(waits).toEqual([1500]);
  });

  it('waits HubSpot’s rate-limit interval when a 429 says none of its requests remain', async () => {
    await start();
    const hubspot = apiClient();
    standin.rateLimitNext(2);

    await expect(hubspot.owners()).resolves.toHaveLength(3);
    expect(waits).toEqual([10_000, 10_000]);
    expect(standin.requests).toHaveLength(3);
  });

  it('treats an answer in an unexpected shape as a final server error', async () => {
    await start();
    const hubspot = apiClient({ http: { ...http, fetch: async () => new Response(JSON.stringify({ results: 'none' }), { status: 200 }) } });

    const error = await hubspot.owners().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'server', retryable: false });
    expect((error as Error).message).toBe('HubSpot answered GET /crm/v3/owners in an unexpected shape: results is not a list');
  });

  it('writes a note on the contacts, for the owner', async () => {
    await start();

    const note = await apiClient().createNote({ body: 'Parlance score 8.5/10.', at: at(30), contactIds: ['501', '502'], ownerId: 'own_ben' });

    expect(standin.notes).toEqual([{ id: note.id, properties: { hs_timestamp: at(30).toISOString(), hs_note_body: 'Parlance score 8.5/10.', hubspot_owner_id: 'own_ben' }, contactIds: ['501', '502'], callIds: [] }]);
    expect((standin.requests[0]!.body as { associations: unknown[] }).associations[0]).toEqual({
      to: { id: '501' },
      types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 202 }],
    });
  });

  it('puts a note on the call with v4’s default association, again harmlessly, and says when HubSpot refuses', async () => {
    await start();
    standin.addCall(callRecord('701', at(5)));
    const hubspot = apiClient();
    const note = await hubspot.createNote({ body: 'Parlance score 8.5/10.', at: at(30), contactIds: ['501'], ownerId: null });

    await expect(hubspot.associateNoteWithCall(note.id, '701')).resolves.toBe('associated');
    await expect(hubspot.associateNoteWithCall(note.id, '701')).resolves.toBe('associated');
    expect(standin.notes[0]!.callIds).toEqual(['701']);
    expect(standin.requests.at(-1)).toMatchObject({ method: 'PUT', path: `/crm/v4/objects/notes/${note.id}/associations/default/calls/701` });

    // A call HubSpot no longer has, or an account that will not have notes on calls: refused, not thrown.
    await expect(hubspot.associateNoteWithCall(note.id, '999')).resolves.toBe('refused');
    standin.refuseNotesOnCalls();
    const second = await hubspot.createNote({ body: 'Another.', at: at(31), contactIds: ['501'], ownerId: null });
    await expect(hubspot.associateNoteWithCall(second.id, '701')).resolves.toBe('refused');
    // HubSpot failing for now is thrown, for the write to be tried again.
    standin.failNext(10, 503, '/crm/v4/objects/notes');
    await expect(hubspot.associateNoteWithCall(note.id, '701')).rejects.toMatchObject({ kind: 'server', retryable: true });
  });

  it('sends a note once: an answer lost after HubSpot made it is thrown, and the note is found by its marker', async () => {
    await start();
    const hubspot = apiClient();
    const marker = 'Parlance activity a-7, scored 2026-11-24T10:00:00.000Z';
    // Every word of the marker, not the marker itself: CONTAINS_TOKEN finds it, findNote must not.
    await hubspot.createNote({ body: 'Scored 2026-11-24T10:00:00.000Z by Parlance: activity a-7', at: at(1), contactIds: ['501'], ownerId: null });
    standin.loseAnswerOfNext(1, 502, '/crm/v3/objects/notes');

    const error = await hubspot.createNote({ body: `Score 8.5/10\n${marker}`, at: at(2), contactIds: ['501'], ownerId: null }).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ kind: 'server', status: 502, retryable: true, attempts: 1 });
    expect(standin.requests.filter((request) => request.method === 'POST' && request.path === '/crm/v3/objects/notes')).toHaveLength(2);
    expect(waits).toEqual([]);
    await expect(hubspot.findNote(marker)).resolves.toEqual({ id: standin.notes[1]!.id });
    expect(searchBodies('/crm/v3/objects/notes/search').at(-1)).toEqual({
      filterGroups: [{ filters: [{ propertyName: 'hs_note_body', operator: 'CONTAINS_TOKEN', value: marker }] }],
      properties: ['hs_note_body'],
      limit: 10,
    });
    await expect(hubspot.findNote('Parlance activity a-8, scored 2026-11-24T10:00:00.000Z')).resolves.toBeUndefined();
  });

  it('finds no note when only a note with the marker’s words in another order exists', async () => {
    await start();
    const hubspot = apiClient();
    await hubspot.createNote({ body: 'Scored by Parlance: activity a-7', at: at(1), contactIds: ['501'], ownerId: null });

    await expect(hubspot.findNote('Parlance activity a-7, scored')).resolves.toBeUndefined();
    expect(searchBodies('/crm/v3/objects/notes/search')).toHaveLength(1);
  });

  it('writes a task on the contacts and finds it by its marker', async () => {
    await start();
    const hubspot = apiClient();
    const marker = 'Parlance activity a-9, follow-up';

    const task = await hubspot.createTask({ subject: 'Send the quote', body: `Mark asked for a quote by Friday.\n${marker}`, dueAt: at(24 * 60), contactIds: ['503'], ownerId: 'own_cleo' });

    expect(standin.tasks).toEqual([
      {
        id: task.id,
        properties: {
          hs_timestamp: at(24 * 60).toISOString(),
          hs_task_subject: 'Send the quote',
          hs_task_body: `Mark asked for a quote by Friday.\n${marker}`,
          hs_task_status: 'NOT_STARTED',
          hs_task_priority: 'MEDIUM',
          hs_task_type: 'TODO',
          hubspot_owner_id: 'own_cleo',
        },
        contactIds: ['503'],
        callIds: [],
      },
    ]);
    expect((standin.requests[0]!.body as { associations: { types: unknown }[] }).associations[0]!.types).toEqual([{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 204 }]);
    await expect(hubspot.findTask(marker)).resolves.toEqual({ id: task.id });
    await expect(hubspot.findTask('Parlance activity a-10, follow-up')).resolves.toBeUndefined();
  });
});
