/**
 * The Close client against a local stand-in for Close (support/close-standin.ts): it authenticates
 * as Close documents, reads every page of a list, filters calls by creation time, honours a 429's
 * rate_reset, and its notes and lead status changes arrive.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCloseClient, type CloseCall, type CloseClientOptions } from '../src/vendors/close-client.js';
import { VendorHttpError } from '../src/vendors/vendor-http.js';
import { startCloseStandin, STANDIN_SEED, type CloseCallRecord, type CloseStandin, type CloseStandinSeed } from './support/close-standin.js';

const DAY = Date.UTC(2026, 10, 3);
const at = (minutes: number) => new Date(DAY + minutes * 60_000);

function callRecord(index: number, minutes: number, extra: Partial<CloseCallRecord> = {}): CloseCallRecord {
  return {
    id: `acti_call_${index}`,
    lead_id: 'lead_acme',
    contact_id: `cont_${index}`,
    user_id: 'user_anna',
    direction: index % 2 === 0 ? 'outbound' : 'inbound',
    duration: 60 + index,
    recording_url: `https://app.close.com/go/call/acti_call_${index}/recording/`,
    date_created: at(minutes).toISOString(),
    note: '',
    recording_transcript: null,
    ...extra,
  };
}

let standin: CloseStandin;
const waits: number[] = [];

async function closeWith(seed: Partial<CloseStandinSeed> = {}, options: Partial<CloseClientOptions> = {}) {
  standin = await startCloseStandin(seed);
  waits.length = 0;
  return createCloseClient({
    apiKey: STANDIN_SEED.apiKey,
    baseUrl: standin.baseUrl,
    http: { sleep: async (ms) => void waits.push(ms), random: () => 0.5 },
    ...options,
  });
}

async function pagesOf(calls: AsyncIterable<CloseCall[]>): Promise<CloseCall[][]> {
  const pages: CloseCall[][] = [];
  for await (const page of calls) pages.push(page);
  return pages;
}

afterEach(async () => {
  await standin.close();
});

describe('Close client', () => {
  it('tells who an API key acts as, authenticating with the key as the Basic user name', async () => {
    const close = await closeWith();
    await expect(close.me()).resolves.toEqual({
      id: 'user_anna',
      email: 'anna.lee@example.com',
      firstName: 'Anna',
      lastName: 'Lee',
      organizations: [{ id: 'orga_standin', name: 'Acme Sales' }],
    });
  });

  it('refuses a wrong key as unauthorized, at once and without repeating the key', async () => {
    const wrongKey = 'api_wrong.fedcba9876543210';
    const close = await closeWith({}, { apiKey: wrongKey });
    const error = await close.me().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VendorHttpError);
    expect(error).toMatchObject({ vendor: 'Close', kind: 'unauthorized', status: 401, retryable: false });
    expect((error as Error).message).toMatch(/^Close answered HTTP 401 to GET \/me\/: Unauthorized/);
    expect((error as Error).message).not.toContain(wrongKey);
    expect(standin.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('reads a window’s calls page by page, until Close says there are no more', async () => {
    const calls = Array.from({ length: 7 }, (_, index) => callRecord(index, 10 + index));
    const close = await closeWith({ calls }, { pageSize: 3 });

    const pages = await pagesOf(close.calls({ createdAfter: at(0), createdBefore: at(60) }));

    expect(pages.map((page) => page.map((call) => call.id))).toEqual([
      ['acti_call_0', 'acti_call_1', 'acti_call_2'],
      ['acti_call_3', 'acti_call_4', 'acti_call_5'],
      ['acti_call_6'],
    ]);
    expect(standin.requests.map(({ query }) => [query.get('_skip'), query.get('_limit')])).toEqual([
      ['0', '3'],
      ['3', '3'],
      ['6', '3'],
    ]);
  });

  it('asks only for calls created strictly inside the window', async () => {
    const calls = [callRecord(0, 0), callRecord(1, 1), callRecord(2, 30), callRecord(3, 59), callRecord(4, 60), callRecord(5, 90)];
    const close = await closeWith({ calls });

    const pages = await pagesOf(close.calls({ createdAfter: at(0), createdBefore: at(60) }));

    expect(pages.flat().map((call) => call.id)).toEqual(['acti_call_1', 'acti_call_2', 'acti_call_3']);
    expect(standin.requests[0]!.query.get('date_created__gt')).toBe('2026-11-03T00:00:00.000Z');
    expect(standin.requests[0]!.query.get('date_created__lt')).toBe('2026-11-03T01:00:00.000Z');
  });

  it('yields nothing for a window without calls', async () => {
    const close = await closeWith({ calls: [callRecord(0, 90)] });
    await expect(pagesOf(close.calls({ createdAfter: at(0), createdBefore: at(60) }))).resolves.toEqual([]);
  });

  it('maps a call’s fields, its note and the transcript it asks Close for', async () => {
    const transcript = {
      utterances: [
        { speaker_label: 'Mark Doe', speaker_side: 'contact', start: 0.4, end: 2.1, text: 'Hello, Mark speaking.' },
        { speaker_label: 'Anna Lee', speaker_side: 'close-user', start: 2.3, end: 5, text: 'Hi Mark, it is Anna from Acme.' },
      ],
      summary_text: 'Anna called Mark about the renewal.',
      summary_html: '<p>Anna called Mark about the renewal.</p>',
    };
    const withTranscript = callRecord(1, 5, { note: 'Wants a quote by Friday.', recording_transcript: transcript });
    const bare = callRecord(2, 6, { contact_id: null, recording_url: null, duration: 0 });
    const close = await closeWith({ calls: [withTranscript, bare] });

    const [page] = await pagesOf(close.calls({ createdAfter: at(0), createdBefore: at(60) }));

    expect(standin.requests[0]!.query.get('_fields')?.split(',')).toContain('recording_transcript');
    expect(page).toEqual([
      {
        id: 'acti_call_1',
        leadId: 'lead_acme',
        contactId: 'cont_1',
        userId: 'user_anna',
        direction: 'inbound',
        durationSeconds: 61,
        recordingUrl: 'https://app.close.com/go/call/acti_call_1/recording/',
        createdAt: at(5),
        note: 'Wants a quote by Friday.',
        transcript: {
          utterances: [
            { speakerLabel: 'Mark Doe', speakerSide: 'contact', startSeconds: 0.4, endSeconds: 2.1, text: 'Hello, Mark speaking.' },
            { speakerLabel: 'Anna Lee', speakerSide: 'close-user', startSeconds: 2.3, endSeconds: 5, text: 'Hi Mark, it is Anna from Acme.' },
          ],
          summary: 'Anna called Mark about the renewal.',
        },
      },
      {
        id: 'acti_call_2',
        leadId: 'lead_acme',
        contactId: null,
        userId: 'user_anna',
        direction: 'outbound',
        durationSeconds: 0,
        recordingUrl: null,
        createdAt: at(6),
        note: '',
        transcript: null,
      },
    ]);
  });

  it('reads every lead status and every user, across pages', async () => {
    const close = await closeWith({}, { pageSize: 2 });

    await expect(close.leadStatuses()).resolves.toEqual([
      { id: 'stat_potential', label: 'Potential' },
      { id: 'stat_qualified', label: 'Qualified' },
      { id: 'stat_bad_fit', label: 'Bad Fit' },
    ]);
    await expect(close.users()).resolves.toEqual([
      { id: 'user_anna', email: 'anna.lee@example.com', firstName: 'Anna', lastName: 'Lee' },
      { id: 'user_ben', email: 'ben.ode@example.com', firstName: 'Ben', lastName: 'Ode' },
      { id: 'user_cleo', email: 'cleo.park@example.com', firstName: 'Cleo', lastName: 'Park' },
    ]);
    expect(standin.requests.map(({ path, query }) => `${path}?_skip=${query.get('_skip')}`)).toEqual([
      '/status/lead/?_skip=0',
      '/status/lead/?_skip=2',
      '/user/?_skip=0',
      '/user/?_skip=2',
    ]);
  });

  it('waits the rate_reset a 429 gives, then carries on where it was', async () => {
    const calls = Array.from({ length: 4 }, (_, index) => callRecord(index, 10 + index));
    const close = await closeWith({ calls }, { pageSize: 2 });
    const iterator = close.calls({ createdAfter: at(0), createdBefore: at(60) })[Symbol.asyncIterator]();

    expect((await iterator.next()).value).toHaveLength(2);
    standin.rateLimitNext(2, 1.25);
    const second = await iterator.next();

    expect((second.value as CloseCall[]).map((call) => call.id)).toEqual(['acti_call_2', 'acti_call_3']);
    expect(waits).toEqual([1250, 1250]);
    expect(standin.requests.map(({ query }) => query.get('_skip'))).toEqual(['0', '2', '2', '2']);
    expect((await iterator.next()).done).toBe(true);
  });

  it('gives up on a rate limit that outlasts its attempts, as a retryable rate_limited error', async () => {
    const close = await closeWith({}, { http: { sleep: async (ms) => void waits.push(ms), maxAttempts: 3 } });
    standin.rateLimitNext(5, 0.5);

    await expect(close.leadStatuses()).rejects.toMatchObject({ kind: 'rate_limited', status: 429, retryable: true, retryAfterMs: 500, attempts: 3 });
    expect(waits).toEqual([500, 500]);
  });

  it('writes a note on a lead, which arrives at Close as plain text', async () => {
    const close = await closeWith();

    const note = await close.createNote({ leadId: 'lead_acme', note: 'Parlance score 8.5/10: strong discovery, no next step agreed.' });

    expect(note).toEqual({ id: 'acti_note_1', leadId: 'lead_acme' });
    expect(standin.notes).toEqual([{ id: 'acti_note_1', lead_id: 'lead_acme', note: 'Parlance score 8.5/10: strong discovery, no next step agreed.' }]);
  });

  it('sends a note once: an answer lost after Close made it is thrown, not sent again, and the note is found by its marker', async () => {
    const close = await closeWith({}, { pageSize: 1 });
    await close.createNote({ leadId: 'lead_acme', note: 'Earlier note.\nParlance activity a-0, scored 2026-11-01T00:00:00.000Z' });
    standin.loseAnswerOfNext(1, 502, '/activity/note/');

    const error = await close.createNote({ leadId: 'lead_acme', note: 'Score 8.5/10\nParlance activity a-1, scored 2026-11-24T10:00:00.000Z' }).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ kind: 'server', status: 502, retryable: true, attempts: 1 });
    expect(standin.notes).toHaveLength(2);
    expect(waits).toEqual([]);
    await expect(close.findNote('lead_acme', 'Parlance activity a-1, scored 2026-11-24T10:00:00.000Z')).resolves.toEqual({ id: 'acti_note_2', leadId: 'lead_acme' });
    await expect(close.findNote('lead_acme', 'Parlance activity a-0, scored 2026-11-01T00:00:00.000Z')).resolves.toEqual({ id: 'acti_note_1', leadId: 'lead_acme' });
    await expect(close.findNote('lead_globex', 'Parlance activity a-1, scored 2026-11-24T10:00:00.000Z')).resolves.toBeUndefined();
    expect(standin.requests.filter((request) => request.method === 'GET' && request.path === '/activity/note/').at(-2)?.query.get('lead_id')).toBe('lead_acme');
  });

  it('sets a lead’s status, which arrives at Close', async () => {
    const close = await closeWith();

    await close.setLeadStatus('lead_globex', 'stat_qualified');

    expect(standin.leadStatusChanges).toEqual([{ leadId: 'lead_globex', statusId: 'stat_qualified' }]);
    expect(standin.requests.at(-1)).toMatchObject({ method: 'PUT', path: '/lead/lead_globex/' });
  });

  it('reports Close’s refusal of a write as a final client error naming the field', async () => {
    const close = await closeWith();

    const error = await close.setLeadStatus('lead_globex', 'stat_unknown').catch((caught: unknown) => caught);

    expect(error).toMatchObject({ kind: 'client', status: 400, retryable: false });
    expect((error as Error).message).toContain('status_id: No such lead status.');
    expect(standin.leadStatusChanges).toEqual([]);
    expect(waits).toEqual([]);
  });
});
