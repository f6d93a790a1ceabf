/**
 * A stand-in for Close (https://developer.close.com), the third-party SaaS CRM, which tests cannot
 * reach: a local HTTP server answering the endpoints integration uses as Close documents them.
 * HTTP Basic auth with the API key as the user name and an empty password (401 otherwise);
 * `_skip`/`_limit` paging with `has_more`; the calls' `date_created__gt`/`__lt` filters and
 * `_fields` (a transcript only when asked for); call recordings behind the same API key; and, when
 * a test arms it, a 429 whose body carries `rate_reset`, a 5xx, or a 5xx sent after the request
 * was carried out (an answer lost on the way back). Notes are listed by lead (`lead_id`). It
 * records every request, and the notes and lead status changes it accepted. Calls can be added while it runs, and the key
 * revoked, as a Close user would.
 *
 * Where Close's documentation does not give an answer's exact words (the 401's and 404's
 * messages), the wording here is this stand-in's own; their shapes follow Close's.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A call as Close's API sends it (snake_case, dates as ISO strings). */
export interface CloseCallRecord {
  id: string;
  lead_id: string | null;
  contact_id: string | null;
  user_id: string | null;
  direction: 'inbound' | 'outbound';
  duration: number;
  recording_url: string | null;
  date_created: string;
  note: string;
  recording_transcript: {
    utterances: { speaker_label: string; speaker_side: string; start: number; end: number; text: string }[];
    summary_text: string;
    summary_html: string;
  } | null;
}

export interface CloseUserRecord {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  organizations: string[];
}

export interface CloseStandinSeed {
  apiKey: string;
  /** The API key's own user, with its organizations in full. */
  me: Omit<CloseUserRecord, 'organizations'> & { organizations: { id: string; name: string }[] };
  users: CloseUserRecord[];
  leadStatuses: { id: string; label: string }[];
  /** The leads a status can be set on: lead id → its status id. */
  leads: Record<string, string>;
  calls: CloseCallRecord[];
  /** Recordings by call id, served at the call's `recording_url` (recordingUrlOf). */
  recordings: Record<string, Buffer>;
  /** Contacts' names by contact id (GET /contact/{id}/); any other contact is unknown (404). */
  contacts: Record<string, string>;
}

export interface ReceivedRequest {
  method: string;
  /** The path under /api/v1, e.g. /activity/call/. */
  path: string;
  query: URLSearchParams;
}

export interface CloseStandin {
  /** Where a client points its base URL: http://127.0.0.1:<port>/api/v1. */
  baseUrl: string;
  /** Every request, in the order received, refused ones included. */
  requests: ReceivedRequest[];
  /** The notes created: the bodies accepted by POST /activity/note/, with the id given. */
  notes: { id: string; lead_id: string; note: string }[];
  /** The lead status changes accepted by PUT /lead/{id}/. */
  leadStatusChanges: { leadId: string; statusId: string }[];
  /** Answers the next `count` authenticated requests with a 429 asking to wait `rateResetSeconds`. */
  rateLimitNext(count: number, rateResetSeconds: number): void;
  /** Answers the next `count` authenticated requests whose path starts with `pathPrefix` with HTTP `status` (a 5xx). */
  failNext(count: number, status: number, pathPrefix?: string): void;
  /** Carries out the next `count` authenticated requests whose path starts with `pathPrefix`, then answers them with HTTP `status` as if the answer was lost. */
  loseAnswerOfNext(count: number, status: number, pathPrefix?: string): void;
  /** A call made in Close from now on (with its recording, if given). */
  addCall(call: CloseCallRecord, recording?: Buffer): void;
  /** A call changed in Close (a recording or transcript added later): the change is logged in the event log at `at` (now unless said). */
  updateCall(callId: string, change: Partial<CloseCallRecord>, options?: { recording?: Buffer; at?: Date }): void;
  /** The API key deleted in Close: from now on every request with it is refused. */
  revokeKey(): void;
  /** Where Close serves the call's recording. */
  recordingUrlOf(callId: string): string;
  close(): Promise<void>;
}

/** What the stand-in answers: a status and a JSON body, or bytes (a recording). */
type Answer = { status: number; body: unknown } | { status: number; bytes: Buffer; contentType: string };

const API_PREFIX = '/api/v1';
const DEFAULT_LIMIT = 100;
const ORGANIZATION_ID = 'orga_standin';
const NOTE_FIELDS = new Set(['lead_id', 'note', 'note_html', 'contact_id', 'user_id', 'title', 'pinned', 'activity_at', 'date_created', 'created_by', 'organization_id', 'attachments']);

export const STANDIN_SEED: CloseStandinSeed = {
  apiKey: 'api_standin.0123456789abcdef',
  me: { id: 'user_anna', email: 'anna.lee@example.com', first_name: 'Anna', last_name: 'Lee', organizations: [{ id: ORGANIZATION_ID, name: 'Acme Sales' }] },
  users: [
    { id: 'user_anna', email: 'anna.lee@example.com', first_name: 'Anna', last_name: 'Lee', organizations: [ORGANIZATION_ID] },
    { id: 'user_ben', email: 'ben.ode@example.com', first_name: 'Ben', last_name: 'Ode', organizations: [ORGANIZATION_ID] },
    { id: 'user_cleo', email: 'cleo.park@example.com', first_name: 'Cleo', last_name: 'Park', organizations: [ORGANIZATION_ID] },
  ],
  leadStatuses: [
    { id: 'stat_potential', label: 'Potential' },
    { id: 'stat_qualified', label: 'Qualified' },
    { id: 'stat_bad_fit', label: 'Bad Fit' },
  ],
  leads: { lead_acme: 'stat_potential', lead_globex: 'stat_potential' },
  calls: [],
  recordings: {},
  contacts: {},
};

export async function startCloseStandin(seed: Partial<CloseStandinSeed> = {}): Promise<CloseStandin> {
  const world: CloseStandinSeed = {
    ...STANDIN_SEED,
    ...seed,
    leads: { ...(seed.leads ?? STANDIN_SEED.leads) },
    calls: [...(seed.calls ?? [])],
    recordings: { ...(seed.recordings ?? {}) },
    contacts: { ...(seed.contacts ?? {}) },
  };
  const requests: ReceivedRequest[] = [];
  const notes: CloseStandin['notes'] = [];
  const leadStatusChanges: CloseStandin['leadStatusChanges'] = [];
  let rateLimit = { remaining: 0, rateResetSeconds: 0 };
  let failure = { remaining: 0, status: 503, pathPrefix: '' };
  let lostAnswer = { remaining: 0, status: 502, pathPrefix: '' };
  /** The event log: what changed, oldest first (Close lists it newest first). */
  const events: { id: string; object_type: string; object_id: string; action: string; date_created: string; date_updated: string; lead_id: string | null }[] = [];

  async function answer(request: IncomingMessage): Promise<Answer> {
    const url = new URL(request.url ?? '/', 'http://standin');
    const method = request.method ?? 'GET';
    const path = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) : url.pathname;
    requests.push({ method, path, query: url.searchParams });

    if (!authenticated(request.headers.authorization, world.apiKey)) {
      return { status: 401, body: { error: 'Unauthorized: use your API key as the Basic auth user name with an empty password.' } };
    }
    if (rateLimit.remaining > 0) {
      rateLimit.remaining -= 1;
      return { status: 429, body: { error: { rate_reset: rateLimit.rateResetSeconds, message: 'Too many requests for this endpoint group; wait rate_reset seconds.' } } };
    }
    if (failure.remaining > 0 && path.startsWith(failure.pathPrefix)) {
      failure.remaining -= 1;
      return { status: failure.status, body: { error: 'The stand-in was told to fail this request.' } };
    }

    const answered = await carriedOut(request, method, path, url.searchParams);
    if (lostAnswer.remaining > 0 && path.startsWith(lostAnswer.pathPrefix)) {
      lostAnswer.remaining -= 1;
      return { status: lostAnswer.status, body: { error: 'The stand-in carried this request out and was told to lose its answer.' } };
    }
    return answered;
  }

  async function carriedOut(request: IncomingMessage, method: string, path: string, query: URLSearchParams): Promise<Answer> {
    const route = `${method} ${path}`;
    if (route === 'GET /me/') return { status: 200, body: world.me };
    // Close documents no paging for lead statuses but answers with has_more; they are paged like the rest.
    if (route === 'GET /status/lead/') return paged(world.leadStatuses.map((status) => ({ ...status, organization_id: ORGANIZATION_ID })), query);
    if (route === 'GET /user/') return paged(world.users, query);
    if (route === 'GET /activity/call/') return listCalls(query);
    if (route === 'GET /activity/note/') return listNotes(query);
    if (route === 'GET /event/') return listEvents(query);
    if (route === 'POST /activity/note/') return createNote(await jsonBody(request));
    const recording = /^\/activity\/call\/([^/]+)\/recording\/$/.exec(path);
    if (recording && method === 'GET') {
      const bytes = world.recordings[decodeURIComponent(recording[1]!)];
      return bytes ? { status: 200, bytes, contentType: 'audio/mpeg' } : { status: 404, body: { error: 'Recording not found.' } };
    }
    const oneCall = /^\/activity\/call\/([^/]+)\/$/.exec(path);
    if (oneCall && method === 'GET') {
      const call = world.calls.find((candidate) => candidate.id === decodeURIComponent(oneCall[1]!));
      return call ? { status: 200, body: projected(call, query.get('_fields')?.split(',')) } : { status: 404, body: { error: 'Activity not found.' } };
    }
    const contact = /^\/contact\/([^/]+)\/$/.exec(path);
    if (contact && method === 'GET') {
      const id = decodeURIComponent(contact[1]!);
      const name = world.contacts[id];
      return name === undefined ? { status: 404, body: { error: 'Contact not found.' } } : { status: 200, body: { id, name, organization_id: ORGANIZATION_ID } };
    }
    const lead = /^\/lead\/([^/]+)\/$/.exec(path);
    if (lead && method === 'PUT') return updateLead(decodeURIComponent(lead[1]!), await jsonBody(request));
    return { status: 404, body: { error: `No such endpoint: ${route}` } };
  }

  function listCalls(query: URLSearchParams): Answer {
    const after = dateParameter(query, 'date_created__gt');
    const before = dateParameter(query, 'date_created__lt');
    if (after === null || before === null) return { status: 400, body: { errors: ['date_created__gt and date_created__lt must be dates.'], 'field-errors': {} } };
    const fields = query.get('_fields')?.split(',');
    const calls = world.calls
      .filter((call) => (after === undefined || Date.parse(call.date_created) > after) && (before === undefined || Date.parse(call.date_created) < before))
      .map((call) => projected(call, fields));
    return paged(calls, query);
  }

  /**
   * The event log as Close serves it: newest first, filtered by object_type, action and
   * date_updated (__gt, __lt), paged with `_limit` and the opaque `_cursor` of `cursor_next`.
   */
  function listEvents(query: URLSearchParams): Answer {
    const after = dateParameter(query, 'date_updated__gt');
    const before = dateParameter(query, 'date_updated__lt');
    if (after === null || before === null) return validationError({ date_updated: 'Must be a date.' });
    const matching = [...events]
      .reverse()
      .filter((event) => (query.get('object_type') ?? event.object_type) === event.object_type && (query.get('action') ?? event.action) === event.action)
      .filter((event) => (after === undefined || Date.parse(event.date_updated) > after) && (before === undefined || Date.parse(event.date_updated) < before));
    const limit = Number(query.get('_limit') ?? DEFAULT_LIMIT);
    const cursor = query.get('_cursor');
    const start = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Number.isInteger(start) || start < 0) return validationError({ _cursor: 'Invalid cursor.' });
    const page = matching.slice(start, start + limit);
    const next = start + limit < matching.length ? Buffer.from(String(start + limit), 'utf8').toString('base64url') : null;
    return { status: 200, body: { data: page, cursor_next: next } };
  }

  /** Notes newest first, as Close lists activities; of one lead when `lead_id` is given. */
  function listNotes(query: URLSearchParams): Answer {
    const leadId = query.get('lead_id');
    const fields = query.get('_fields')?.split(',');
    const listed = notes
      .filter((note) => leadId === null || note.lead_id === leadId)
      .reverse()
      .map((note) => {
        const full: Record<string, unknown> = { _type: 'Note', organization_id: ORGANIZATION_ID, ...note };
        return fields ? Object.fromEntries(Object.entries(full).filter(([field]) => fields.includes(field))) : full;
      });
    return paged(listed, query);
  }

  function createNote(body: unknown): Answer {
    const fields = record(body);
    if (!fields) return NOT_AN_OBJECT;
    const unknown = Object.keys(fields).filter((field) => !NOTE_FIELDS.has(field));
    if (unknown.length > 0) return validationError(Object.fromEntries(unknown.map((field) => [field, 'Unknown field.'])));
    const leadId = fields.lead_id;
    if (typeof leadId !== 'string' || !(leadId in world.leads)) return validationError({ lead_id: 'Lead does not exist.' });
    const note = typeof fields.note === 'string' ? fields.note : '';
    const id = `acti_note_${notes.length + 1}`;
    notes.push({ id, lead_id: leadId, note });
    return { status: 200, body: { _type: 'Note', id, lead_id: leadId, note, organization_id: ORGANIZATION_ID, date_created: new Date().toISOString() } };
  }

  function updateLead(leadId: string, body: unknown): Answer {
    if (!(leadId in world.leads)) return { status: 404, body: { error: 'Lead not found.' } };
    const fields = record(body);
    if (!fields) return NOT_AN_OBJECT;
    const statusId = fields.status_id;
    const status = world.leadStatuses.find((candidate) => candidate.id === statusId);
    if (!status) return validationError({ status_id: 'No such lead status.' });
    world.leads[leadId] = status.id;
    leadStatusChanges.push({ leadId, statusId: status.id });
    return { status: 200, body: { id: leadId, status_id: status.id, status_label: status.label, organization_id: ORGANIZATION_ID } };
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    answer(request).then(
      (answered) =>
        'bytes' in answered
          ? response.writeHead(answered.status, { 'content-type': answered.contentType, 'content-length': answered.bytes.length }).end(answered.bytes)
          : response.writeHead(answered.status, { 'content-type': 'application/json' }).end(JSON.stringify(answered.body)),
      (error: unknown) => response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `The stand-in failed: ${String(error)}` })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${API_PREFIX}`;
  return {
    baseUrl,
    requests,
    notes,
    leadStatusChanges,
    rateLimitNext(count, rateResetSeconds) {
      rateLimit = { remaining: count, rateResetSeconds };
    },
    failNext(count, status, pathPrefix = '') {
      failure = { remaining: count, status, pathPrefix };
    },
    loseAnswerOfNext(count, status, pathPrefix = '') {
      lostAnswer = { remaining: count, status, pathPrefix };
    },
    addCall(call, recording) {
      world.calls.push(call);
      if (recording) world.recordings[call.id] = recording;
    },
    updateCall(callId, change, options = {}) {
      const call = world.calls.find((candidate) => candidate.id === callId);
      if (!call) throw new Error(`the stand-in has no call ${callId}`);
      Object.assign(call, change);
      if (options.recording) world.recordings[callId] = options.recording;
      const at = (options.at ?? new Date()).toISOString();
      events.push({ id: `ev_${events.length + 1}`, object_type: 'activity.call', object_id: callId, action: 'updated', date_created: at, date_updated: at, lead_id: call.lead_id });
    },
    revokeKey() {
      world.apiKey = `revoked-${world.apiKey}`;
    },
    recordingUrlOf: (callId) => `${baseUrl}/activity/call/${encodeURIComponent(callId)}/recording/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Basic auth: the API key as the user name, and an empty password. */
function authenticated(header: string | undefined, apiKey: string): boolean {
  const basic = /^Basic\s+(\S+)$/i.exec(header ?? '');
  return basic !== null && Buffer.from(basic[1]!, 'base64').toString('utf8') === `${apiKey}:`;
}

/** Offset paging as Close does it: `_skip` records skipped, up to `_limit` returned, `has_more` if any are left. */
function paged(all: readonly unknown[], query: URLSearchParams): Answer {
  const skip = Number(query.get('_skip') ?? 0);
  const limit = Number(query.get('_limit') ?? DEFAULT_LIMIT);
  if (!Number.isInteger(skip) || skip < 0 || !Number.isInteger(limit) || limit < 1) {
    return validationError({ _skip: 'Must be a whole number from 0.', _limit: 'Must be a whole number from 1.' });
  }
  return { status: 200, body: { data: all.slice(skip, skip + limit), has_more: skip + limit < all.length } };
}

/** The call with only the `_fields` asked for; without them, all but the transcript, which Close sends only when asked. */
function projected(call: CloseCallRecord, fields: string[] | undefined): Record<string, unknown> {
  const entries = Object.entries({ _type: 'Call', organization_id: ORGANIZATION_ID, ...call });
  return Object.fromEntries(entries.filter(([field]) => (fields ? fields.includes(field) : field !== 'recording_transcript')));
}

/** The parameter as epoch milliseconds; undefined when absent, null when not a date. */
function dateParameter(query: URLSearchParams, name: string): number | undefined | null {
  const value = query.get(name);
  if (value === null) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : at;
}

const NOT_AN_OBJECT = { status: 400, body: { errors: ['The body must be a JSON object.'], 'field-errors': {} } };

function validationError(fieldErrors: Record<string, string>): Answer {
  return { status: 400, body: { errors: [], 'field-errors': fieldErrors } };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The request's JSON body; undefined when it is not JSON (answered as not an object). */
async function jsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
