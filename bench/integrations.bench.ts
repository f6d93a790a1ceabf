/**
 * What bringing calls in from a CRM costs (issue 16, point 9), against local stand-ins for the
 * CRMs (third-party SaaS a bench cannot reach; they speak the vendors' documented APIs) and the
 * local PostgreSQL and Kafka, on loopback only.
 *
 * 1. `integration.hubspot-initial-sync`: a first HubSpot sync of BENCH_HUBSPOT_CALLS (10,000)
 *    calls. The HubSpot stand-in runs as a process of its own (bench/support/hubspot-standin-
 *    process.ts: HubSpot is another machine, so its answering neither shares the sync's event
 *    loop nor counts in its memory) and holds the calls of one owner whose e-mail is a team
 *    member's, each with a 4 KB recording and a contact, their hs_lastmodifieddate spread
 *    (distinct) over the last 30 days. The real syncHubSpotCalls runs with the real HubSpot
 *    client over HTTP, the real token access (sealed tokens on a connection row) and
 *    integration's schema on PostgreSQL, migrated as the tests do; ingest is played by an
 *    importer that accepts each call at once and keeps nothing (the bytes are not decoded), so
 *    the memory is the sync's. Reported: calls imported per second and seconds (median of
 *    BENCH_HUBSPOT_RUNS runs, each for a new company whose rows are deleted after), the stand-in's
 *    searches and the restarts past HubSpot's 10,000-result cap, pages, this process's RSS
 *    before, at its peak and after (process.memoryUsage() every 50 ms), heapUsed's peak and what
 *    the heap still holds after a full collection, and the time of a second sync right after
 *    (nothing new: the checkpoint's read only).
 *
 * 2. `integration.call-to-writeback`: the whole stack as test/integrations/close-sync.test.ts
 *    starts it (gateway, identity, ingest, transcription, scoring, analytics and integration on
 *    PostgreSQL and Kafka, one sync and one write-back worker, the schedule looked at every
 *    second and automatic syncs 60 s apart, the shortest INTEGRATION_SYNC_INTERVAL_SECONDS
 *    allows), Close connected through the gateway with autoSync and createActivities on. A
 *    transcribed call is added to the Close stand-in, one at a time, and followed until its score
 *    is a note in the stand-in: when a sync read it, when it was listed (GET /api/calls/, status
 *    processing), when it was listed scored, and when the note came. Twice: on the schedule
 *    alone (BENCH_SCHEDULED_CALLS calls, added 1/2N, 3/2N… of the interval after a sync started,
 *    so their median is the average wait), and with "Sync now" asked right after each call
 *    (BENCH_SYNC_NOW_CALLS), which is the pipeline's own latency. One call goes through first
 *    to warm the stack up, and is not counted. The stack's sync worker also runs the automatic
 *    syncs of other companies' Close connections left on the shared PostgreSQL (by tests), against
 *    this stand-in: the calls are a Close user's of the bench's own, so those pass over them, and
 *    this company's syncs are told from theirs by the window they read (from its cursor); how
 *    many there were is reported. Close is disconnected at the end.
 *
 *   node --import tsx bench/integrations.bench.ts   # BENCH_HUBSPOT_CALLS=10000 BENCH_HUBSPOT_RUNS=3 BENCH_SCHEDULED_CALLS=3 BENCH_SYNC_NOW_CALLS=5
 *   BENCH_INTEGRATIONS=hubspot node --import tsx bench/integrations.bench.ts   # only the first (or =close, only the second)
 *
 * Prints JSON lines: {"bench":"integration.hubspot-initial-sync",…} and
 * {"bench":"integration.call-to-writeback","trigger":"schedule"|"sync-now",…}.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { and, eq } from 'drizzle-orm';
import type { ConnectionRow } from '@parlance/integration/db/connections.repository';
import { connections, imports } from '@parlance/integration/db/schema';
import { closeCursorOf } from '@parlance/integration/domain/close-import';
import { parseKeyring, sealCredential } from '@parlance/integration/domain/credential-cipher';
import { HUBSPOT_DEFAULTS } from '@parlance/integration/domain/integrations';
import { tokensText } from '@parlance/integration/domain/oauth';
import { emptyCounts, SYNC_LAG_MS, type ActivityImporter } from '@parlance/integration/sync/import-call';
import { syncHubSpotCalls } from '@parlance/integration/sync/hubspot-sync';
import { createHubSpotClient, createHubSpotOAuth, type HubSpotClient } from '@parlance/integration/vendors/hubspot-client';
import { oauthAccessToken } from '@parlance/integration/vendors/oauth-access';
import { openDatabase } from '@parlance/platform/db/database';
import { migrate } from '@parlance/platform/db/migrate';
import { createLogger } from '@parlance/platform/logger';
import { startTelemetry } from '@parlance/platform/telemetry';
import { testDatabaseUrl } from '@parlance/platform/testing/infra';
import { startCloseStandin, STANDIN_SEED, type CloseCallRecord, type CloseStandin } from '../services/integration/test/support/close-standin.js';
import { HUBSPOT_STANDIN_SEED } from '../services/integration/test/support/hubspot-standin.js';
import { startIdentityStack } from '../test/support/identity-stack.js';
import { uploadingCompany, type UploadingCompany } from '../test/uploads/upload-fixtures.js';
import { startHubSpotStandinProcess, type StandinCounts } from './support/hubspot-standin-process.js';
import { machine, median } from './support/measure.js';

const HUBSPOT_CALLS = Number(process.env.BENCH_HUBSPOT_CALLS ?? 10_000);
const HUBSPOT_RUNS = Number(process.env.BENCH_HUBSPOT_RUNS ?? 3);
const SCHEDULED_CALLS = Number(process.env.BENCH_SCHEDULED_CALLS ?? 3);
const SYNC_NOW_CALLS = Number(process.env.BENCH_SYNC_NOW_CALLS ?? 5);
/** Which measurements to make: `hubspot` (1), `close` (2), or both (the default). */
const PARTS = new Set((process.env.BENCH_INTEGRATIONS ?? 'hubspot,close').split(','));

const DAY_MS = 24 * 60 * 60_000;
const RECORDING_BYTES = 4_096;
/** The HubSpot client's page of search results (its default; integration's module sets none). */
const HUBSPOT_PAGE_SIZE = 100;
/** HubSpot's 10,000 results at most for one search (the stand-in's, as HubSpot's). */
const HUBSPOT_SEARCH_CAP = 10_000;
/** HubSpot's ten-secondly limit for an app installed in a Professional account: the stand-in counts it, and does not enforce it. */
const HUBSPOT_REQUESTS_PER_10_S = 190;
const MEMORY_SAMPLE_MS = 50;
const SYNC_INTERVAL_S = 60;
const SYNC_TICK_S = 1;
/** How far in the past a call added to Close is dated: past the sync's lag, so the next sync reads it. */
const DATED_BACK_MS = SYNC_LAG_MS + 1_000;
const POLL_MS = 100;
/** After the call is read: listed, scored and written back within this, or the bench fails. */
const PIPELINE_TIMEOUT_MS = 120_000;

const ANNA = { firstName: 'Anna', lastName: 'Lee', email: 'anna.lee@example.com' };
/** The representative of the Close measurement: a Close user of the bench's own (see callToWriteback). */
const REP = { closeUserId: 'user_bench_rep', firstName: 'Dana', lastName: 'Reyes', email: `dana.reyes.${randomUUID().slice(0, 8)}@example.com` };
const MIGRATIONS = fileURLToPath(new URL('../services/integration/src/db/migrations', import.meta.url));
const logger = createLogger({ service: 'bench-integration', level: 'warn', pretty: false, destination: process.stderr });
const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));
const seconds = (ms: number) => +(ms / 1_000).toFixed(2);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** `step` run the first time only, for what the end of a measurement and the bench's clean-up may both close. */
const once = (step: () => Promise<void>) => {
  let done: Promise<void> | undefined;
  return () => (done ??= step());
};

/** Ingest for the HubSpot measurement: takes each call at once and keeps nothing of it. */
function acceptingIngest(): ActivityImporter & { accepted: number; bytes: number } {
  const ingest = {
    accepted: 0,
    bytes: 0,
    async importCall(_companyId: string, activity: Parameters<ActivityImporter['importCall']>[1]) {
      ingest.accepted += 1;
      ingest.bytes += activity.media.kind === 'audio' ? activity.media.bytes.length : Buffer.byteLength(activity.media.text);
      return { activityId: randomUUID(), jobId: randomUUID() };
    },
  };
  return ingest;
}

/** This process's memory every `everyMs`, and once more when stopped. */
function sampleOwnMemory(everyMs: number) {
  const readings: { rss: number; heapUsed: number }[] = [];
  const read = () => {
    const { rss, heapUsed } = process.memoryUsage();
    readings.push({ rss, heapUsed });
  };
  read();
  const timer = setInterval(read, everyMs);
  return {
    stop() {
      clearInterval(timer);
      read();
      return { peakRss: Math.max(...readings.map((reading) => reading.rss)), peakHeapUsed: Math.max(...readings.map((reading) => reading.heapUsed)), samples: readings.length };
    },
  };
}

/** A full garbage collection now (V8's gc(), reached without --expose-gc), so heapUsed is what is held. */
const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** The requests of each route between two counts of the stand-in. */
const requestsBetween = (before: StandinCounts, after: StandinCounts, route: string) => (after.byRoute[route] ?? 0) - (before.byRoute[route] ?? 0);

async function hubspotInitialSync() {
  const keyring = parseKeyring(`bench:${randomBytes(32).toString('base64')}`);
  const database = await openDatabase<Record<string, unknown>>({ driver: 'postgres', url: testDatabaseUrl(), schema: 'integration' });
  const closeDatabase = once(() => database.close());
  cleanup.unshift(closeDatabase);
  await migrate(database, { migrationsFolder: MIGRATIONS });
  const { db } = database;

  // Spread over the 30 days a first sync reads, an hour inside its start and five minutes before its end (now less the lag).
  const firstModifiedMs = Date.now() - 30 * DAY_MS + 60 * 60_000;
  const lastModifiedMs = Date.now() - 5 * 60_000;
  const hubspot = await startHubSpotStandinProcess({
    calls: HUBSPOT_CALLS,
    firstCallId: 5_000_001,
    firstContactId: 8_000_001,
    ownerEmail: ANNA.email,
    firstModifiedMs,
    modifiedStepMs: Math.floor((lastModifiedMs - firstModifiedMs) / HUBSPOT_CALLS),
    durationMs: 95_000,
    recordingBytes: RECORDING_BYTES,
  });
  cleanup.unshift(() => hubspot.stop());
  const oauth = createHubSpotOAuth({ clientId: HUBSPOT_STANDIN_SEED.clientId, clientSecret: HUBSPOT_STANDIN_SEED.clientSecret, authorizeUrl: hubspot.authorizeUrl, baseUrl: hubspot.baseUrl, logger });
  const teams = [{ id: randomUUID(), department: 'sales', members: [{ email: ANNA.email, firstName: ANNA.firstName, crmId: '' }] }];

  interface Run {
    ms: number;
    imported: number;
    pages: number;
    rssBefore: number;
    rssPeak: number;
    rssAfter: number;
    heapUsedPeak: number;
    heapBefore: number;
    heapAfterGc: number;
    samples: number;
    searches: number;
    restarts: number;
    contactBatches: number;
    recordings: number;
    hubspotRequests: number;
    secondMs: number;
    secondSearches: number;
    secondImported: number;
  }
  const runs: Run[] = [];
  for (let run = 0; run < HUBSPOT_RUNS; run++) {
    const companyId = randomUUID();
    try {
      const tokens = await hubspot.issueTokens();
      await db.insert(connections).values({
        companyId,
        integrationId: 'hubspot-crm',
        status: 'connected',
        connectedBy: ANNA,
        connectedAt: new Date(),
        credentials: sealCredential(keyring, tokensText({ ...tokens, expiresAt: new Date(Date.now() + 30 * 60_000) })),
        settings: { ...HUBSPOT_DEFAULTS, syncCalls: true },
      });
      const connection = async () => (await db.select().from(connections).where(eq(connections.companyId, companyId)))[0]!;
      let pages = 0;
      const client = (row: ConnectionRow): Pick<HubSpotClient, 'calls' | 'owners' | 'callContacts' | 'recording' | 'transcript'> => {
        const real = createHubSpotClient({ baseUrl: hubspot.baseUrl, accessToken: oauthAccessToken({ db, keyring, oauth }, row), logger });
        return {
          async *calls(window) {
            for await (const page of real.calls(window)) {
              pages += 1;
              yield page;
            }
          },
          owners: () => real.owners(),
          callContacts: (ids) => real.callContacts(ids),
          recording: (url) => real.recording(url),
          transcript: (id) => real.transcript(id),
        };
      };
      const ingest = acceptingIngest();
      const deps = { db, keyring, teams: async () => teams, ingest, logger, hubspot: client };

      const countsBefore = await hubspot.counts();
      collectGarbage();
      const { rss: rssBefore, heapUsed: heapBefore } = process.memoryUsage();
      const memory = sampleOwnMemory(MEMORY_SAMPLE_MS);
      const counts = emptyCounts();
      const started = performance.now();
      await syncHubSpotCalls(deps, await connection(), counts);
      const ms = performance.now() - started;
      const { peakRss, peakHeapUsed, samples } = memory.stop();
      const rssAfter = process.memoryUsage().rss;
      collectGarbage();
      const heapAfterGc = process.memoryUsage().heapUsed;
      const countsAfter = await hubspot.counts();
      if (counts.imported !== HUBSPOT_CALLS || ingest.accepted !== HUBSPOT_CALLS) {
        throw new Error(`the sync imported ${counts.imported} of ${HUBSPOT_CALLS} calls (ingest took ${ingest.accepted}): ${JSON.stringify(counts)}`);
      }
      if (ingest.bytes !== HUBSPOT_CALLS * RECORDING_BYTES) throw new Error(`ingest took ${ingest.bytes} bytes of recordings, not ${HUBSPOT_CALLS * RECORDING_BYTES}`);

      // Right after: nothing modified since, so one search from the checkpoint finds nothing.
      const secondCounts = emptyCounts();
      const secondStarted = performance.now();
      await syncHubSpotCalls(deps, await connection(), secondCounts);
      const secondMs = performance.now() - secondStarted;
      const countsSecond = await hubspot.counts();

      const search = 'POST /crm/v3/objects/calls/search';
      runs.push({
        ms,
        imported: counts.imported,
        pages,
        rssBefore,
        rssPeak: Math.max(peakRss, rssAfter),
        rssAfter,
        heapUsedPeak: peakHeapUsed,
        heapBefore,
        heapAfterGc,
        samples,
        searches: requestsBetween(countsBefore, countsAfter, search),
        // The first search of a sync starts from the first page; any other that does is a restart past the cap.
        restarts: countsAfter.searchesFromTheStart - countsBefore.searchesFromTheStart - 1,
        contactBatches: requestsBetween(countsBefore, countsAfter, 'POST /crm/v4/associations/calls/contacts/batch/read'),
        recordings: requestsBetween(countsBefore, countsAfter, 'GET /recordings/{id}'),
        hubspotRequests: countsAfter.requests - countsBefore.requests,
        secondMs,
        secondSearches: requestsBetween(countsAfter, countsSecond, search),
        secondImported: secondCounts.imported,
      });
      console.error(`hubspot initial sync run ${run + 1}/${HUBSPOT_RUNS}: ${seconds(ms)} s, peak RSS ${mb(peakRss)} MB`);
    } finally {
      await db.delete(imports).where(eq(imports.companyId, companyId));
      await db.delete(connections).where(eq(connections.companyId, companyId));
    }
  }
  await hubspot.stop();
  await closeDatabase();

  const middle = (pick: (run: Run) => number) => median(runs.map(pick));
  const totalMs = middle((run) => run.ms);
  const requests = middle((run) => run.hubspotRequests);
  return {
    bench: 'integration.hubspot-initial-sync',
    calls: HUBSPOT_CALLS,
    runs: HUBSPOT_RUNS,
    history_days: 30,
    recording_bytes: RECORDING_BYTES,
    contacts_per_call: 1,
    page_size: HUBSPOT_PAGE_SIZE,
    ingest: 'accepting stand-in',
    hubspot: 'stand-in in its own process, HTTP on loopback',
    database: 'postgres (local), schema integration',
    imported: middle((run) => run.imported),
    calls_per_s: Math.round((HUBSPOT_CALLS * 1_000) / totalMs),
    total_s: seconds(totalMs),
    runs_s: runs.map((run) => seconds(run.ms)),
    searches: middle((run) => run.searches),
    search_result_cap: HUBSPOT_SEARCH_CAP,
    restarts_past_cap: middle((run) => run.restarts),
    // With exactly 10,000 calls the last page (after 9,900) has no next one: no restart is needed; a 10,001st call would take one.
    restarts_note: `a search restarts from the last modification reached when paging on would pass ${HUBSPOT_SEARCH_CAP} results`,
    pages: middle((run) => run.pages),
    contact_batches: middle((run) => run.contactBatches),
    recording_downloads: middle((run) => run.recordings),
    hubspot_requests: requests,
    // HubSpot would allow these requests at 190 per 10 s at best (if recordings count against the limit): the stand-in does not hold the sync back.
    at_hubspot_rate_limit_s: Math.round((requests / HUBSPOT_REQUESTS_PER_10_S) * 10),
    // The first run's, in a process that had synced nothing yet; then every run's.
    rss_before_mb: mb(runs[0]!.rssBefore),
    rss_peak_mb: mb(runs[0]!.rssPeak),
    rss_after_mb: mb(runs[0]!.rssAfter),
    heap_used_peak_mb: mb(runs[0]!.heapUsedPeak),
    // What the heap still held after the sync once garbage was collected.
    heap_used_after_gc_mb: mb(runs[0]!.heapAfterGc),
    heap_used_before_mb: mb(runs[0]!.heapBefore),
    rss_before_runs_mb: runs.map((run) => mb(run.rssBefore)),
    rss_peak_runs_mb: runs.map((run) => mb(run.rssPeak)),
    rss_after_runs_mb: runs.map((run) => mb(run.rssAfter)),
    heap_used_peak_runs_mb: runs.map((run) => mb(run.heapUsedPeak)),
    memory_sample_ms: MEMORY_SAMPLE_MS,
    memory_samples: runs[0]!.samples,
    second_sync_ms: Math.round(middle((run) => run.secondMs)),
    second_sync_searches: middle((run) => run.secondSearches),
    second_sync_imported: middle((run) => run.secondImported),
    ...machine(),
  };
}

interface CallRow {
  id: string;
  contact_id: string;
  status: string;
}

/** When one call reached each step, in ms after it was added to Close. */
interface CallTimes {
  read: number;
  listed: number;
  scored: number;
  written: number;
}

async function callToWriteback() {
  // The representative's Close user is the bench's own: other companies' Close connections on the
  // shared PostgreSQL (earlier tests' ones, with autoSync on) that this stack's sync worker also
  // runs, against this stand-in, pass over its calls instead of importing and scoring them too.
  const organizations = STANDIN_SEED.me.organizations.map((organization) => organization.id);
  const close = await startCloseStandin({ users: [...STANDIN_SEED.users, { id: REP.closeUserId, email: REP.email, first_name: REP.firstName, last_name: REP.lastName, organizations }] });
  cleanup.unshift(() => close.close());
  const stackStarted = performance.now();
  const stack = await startIdentityStack({
    logLevel: 'warn',
    withIngest: true,
    withIntegration: true,
    env: {
      CLOSE_API_URL: close.baseUrl,
      INTEGRATION_SYNC_WORKERS: '1',
      INTEGRATION_WRITEBACK_WORKERS: '1',
      INTEGRATION_SYNC_TICK_SECONDS: String(SYNC_TICK_S),
      INTEGRATION_SYNC_INTERVAL_SECONDS: String(SYNC_INTERVAL_S),
    },
  });
  cleanup.unshift(() => stack.stop());
  const acme = await uploadingCompany(stack, { first_name: REP.firstName, last_name: REP.lastName, email: REP.email });
  const stackMs = performance.now() - stackStarted;

  const integrationDb = stack.runtime('integration').database.db;
  const cursorOf = async () =>
    (await integrationDb.select({ cursor: connections.syncCursor }).from(connections).where(and(eq(connections.companyId, acme.companyId), eq(connections.integrationId, 'close-crm'))))[0]
      ?.cursor ?? null;
  const watch = closeWatch(close, cursorOf);
  cleanup.unshift(() => watch.stop());

  await expectStatus(acme.browser.post('/api/integrations/close/connect', { apiKey: STANDIN_SEED.apiKey }), 200, 'connecting Close');
  // Disconnected at the end, so no connection of the bench is left syncing on the shared database; its imports (kept by design) go too.
  cleanup.unshift(async () => {
    await expectStatus(acme.browser.delete('/api/integrations/close/disconnect'), 200, 'disconnecting Close');
    await integrationDb.delete(imports).where(eq(imports.companyId, acme.companyId));
  });
  await expectStatus(acme.browser.put('/api/integrations/close/settings', { createActivities: true }), 200, 'turning createActivities on');
  await expectStatus(acme.browser.put('/api/integrations/close/settings', { autoSync: true }), 200, 'turning autoSync on');
  await watch.firstSync(60_000);
  await sleep(2_000);

  // Should the measurement fail, integration's warnings say why (the stack keeps its logs to itself).
  cleanup.unshift(async () => {
    if (!failed) return;
    const warnings = stack
      .logs()
      .split('\n')
      .filter((line) => /"level":(4|5|6)\d/.test(line));
    console.error(`the stack's last warnings:\n${warnings.slice(-20).join('\n')}`);
  });
  const follow = callFollower(acme, close, watch);
  // Warm-up: one call through every part of the stack, not counted.
  await follow('sync-now', 'warm-up');

  const syncNowFrom = performance.now();
  const syncNow: CallTimes[] = [];
  for (let i = 0; i < SYNC_NOW_CALLS; i++) syncNow.push(await follow('sync-now', `now-${i + 1}`));
  const syncNowOthers = watch.othersSyncs(syncNowFrom, performance.now());

  const scheduledFrom = performance.now();
  const scheduled: CallTimes[] = [];
  for (let i = 0; i < SCHEDULED_CALLS; i++) {
    // Added a known part of the way through the interval after this company's sync started, so the waits sample the interval evenly.
    const phaseMs = phaseOf(i, SCHEDULED_CALLS);
    let start = watch.lastSyncAt();
    if (performance.now() > start + phaseMs) start = await watch.syncAfter(performance.now(), (SYNC_INTERVAL_S + 30) * 1_000);
    await sleep(start + phaseMs - performance.now());
    scheduled.push(await follow('schedule', `scheduled-${i + 1}`));
  }
  const scheduledOthers = watch.othersSyncs(scheduledFrom, performance.now());

  const summary = (trigger: 'schedule' | 'sync-now', times: CallTimes[], othersSyncs: number) => {
    const step = (name: keyof CallTimes) => ({
      [`until_${name}_median_s`]: seconds(median(times.map((t) => t[name]))),
      [`until_${name}_mean_s`]: seconds(times.reduce((sum, t) => sum + t[name], 0) / times.length),
      [`until_${name}_max_s`]: seconds(Math.max(...times.map((t) => t[name]))),
    });
    return {
      bench: 'integration.call-to-writeback',
      trigger,
      calls: times.length,
      crm: 'close stand-in (in this process)',
      call: 'a 95 s call with Close’s transcript (4 utterances)',
      writes: 'createActivities: a note on the lead',
      stack: 'gateway, identity, ingest, transcription, scoring, analytics, integration in one process; local PostgreSQL and Kafka',
      sync_interval_s: SYNC_INTERVAL_S,
      sync_tick_s: SYNC_TICK_S,
      sync_lag_s: SYNC_LAG_MS / 1_000,
      call_dated_back_s: DATED_BACK_MS / 1_000,
      sync_workers: 1,
      writeback_workers: 1,
      poll_ms: POLL_MS,
      ...(trigger === 'schedule' ? { added_at_phase_s: times.map((_, i) => seconds(phaseOf(i, times.length))) } : {}),
      // Each "until" is from the call's addition to Close: read by this company's sync, listed (GET /api/calls/), listed scored, its note in Close.
      ...step('read'),
      ...step('listed'),
      ...step('scored'),
      ...step('written'),
      written_s: times.map((t) => seconds(t.written)),
      other_companies_syncs: othersSyncs,
      note:
        trigger === 'schedule'
          ? `A sync reads Close only up to ${SYNC_LAG_MS / 1_000} s before it starts (SYNC_LAG_MS), so a call Close logs as it ends waits that long at least; ` +
            `here each call is dated ${DATED_BACK_MS / 1_000} s back, so the lag is already served. An automatic sync starts ${SYNC_INTERVAL_S} s after the last one ended, ` +
            `noticed within ${SYNC_TICK_S} s, so a call then waits 0-${SYNC_INTERVAL_S + SYNC_TICK_S} s for it, half that on average; the calls were added at even phases of the ` +
            `interval, so the mean (and median) until_read is that average. A call logged as it ends is written back after lag + that wait + the sync-now figures: ` +
            `about ${SYNC_LAG_MS / 1_000 + SYNC_INTERVAL_S / 2} s on average and at most about ${SYNC_LAG_MS / 1_000 + SYNC_INTERVAL_S + SYNC_TICK_S} s plus the pipeline.`
          : 'Sync now asked right after each call was added: the pipeline itself (sync, ingest, transcription, scoring, write-back), with no wait for the schedule or the lag.',
      stack_start_s: seconds(stackMs),
      ...machine(),
    };
  };
  return [summary('schedule', scheduled, scheduledOthers), summary('sync-now', syncNow, syncNowOthers)];
}

/** When the i-th of n calls on the schedule is added, after this company's sync started: the middle of its share of the interval. */
const phaseOf = (i: number, n: number) => (SYNC_INTERVAL_S * 1_000 * (i + 0.5)) / n;

async function expectStatus(request: Promise<{ status: number; body: unknown }>, status: number, what: string) {
  const response = await request;
  if (response.status !== status) throw new Error(`${what} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response;
}

/**
 * Watches the Close stand-in (every 20 ms): each call listing (the first page of a sync's window)
 * and when each note arrived. A listing is this company's when its window opens where the
 * connection's cursor says the last window ended (less the millisecond nextCloseWindow takes
 * off); the cursor is read from integration's database every 100 ms. The others are syncs of
 * other companies' connections.
 */
function closeWatch(close: CloseStandin, cursorOf: () => Promise<string | null>) {
  const listings: { at: number; after: number; before: number }[] = [];
  const noteTimes: number[] = [];
  const cursors = new Set<number>();
  let seen = 0;
  const look = () => {
    const at = performance.now();
    for (; seen < close.requests.length; seen++) {
      const request = close.requests[seen]!;
      if (request.method !== 'GET' || request.path !== '/activity/call/' || (request.query.get('_skip') ?? '0') !== '0') continue;
      listings.push({ at, after: Date.parse(request.query.get('date_created__gt') ?? ''), before: Date.parse(request.query.get('date_created__lt') ?? '') });
    }
    while (noteTimes.length < close.notes.length) noteTimes.push(at);
  };
  const timer = setInterval(look, 20);
  let watching = true;
  const cursorLoop = (async () => {
    while (watching) {
      const windowEnd = closeCursorOf(await cursorOf().catch(() => null)).windowEnd;
      if (windowEnd) cursors.add(windowEnd.getTime());
      await sleep(100);
    }
  })();
  const ours = () => listings.filter((listing) => cursors.has(listing.after + 1));
  const until = async <T>(what: string, found: () => T | undefined, timeoutMs: number): Promise<T> => {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      look();
      const value = found();
      if (value !== undefined) return value;
      if (performance.now() > deadline) throw new Error(`timed out after ${seconds(timeoutMs)} s waiting for ${what}`);
      await sleep(20);
    }
  };
  return {
    /** The first sync (autoSync turned on) has ended: the connection has a cursor. */
    firstSync: (timeoutMs: number) => until('the first Close sync to end', () => (cursors.size > 0 ? true : undefined), timeoutMs),
    /** When this company's last sync read Close (a few ms after it started). */
    lastSyncAt: () => ours().at(-1)?.at ?? -Infinity,
    syncAfter: (after: number, timeoutMs: number) => until('this company’s next Close sync', () => ours().find((listing) => listing.at > after)?.at, timeoutMs),
    /** When this company's sync first listed the window holding a call created at `createdMs`, after `after`. */
    readOf: (createdMs: number, after: number, timeoutMs: number) =>
      until(
        'a sync of this company to read the call',
        () => ours().find((listing) => listing.at > after && listing.after < createdMs && createdMs < listing.before)?.at,
        timeoutMs,
      ).catch((error: unknown) => {
        const iso = (ms: number) => new Date(ms).toISOString();
        const read = listings.filter((listing) => listing.at > after).map((listing) => `${iso(listing.after + 1)}..${iso(listing.before)}`);
        throw new Error(
          `${(error as Error).message}: the call was created at ${iso(createdMs)}; this company's cursors were ${[...cursors].map(iso).join(', ')}; ` +
            `Close was read since for the windows ${read.join(', ') || '(none)'} (a stack syncing on the same PostgreSQL elsewhere may have taken this company's sync)`,
        );
      }),
    /** When the note naming the activity arrived. */
    noteOf: (activityId: string, timeoutMs: number) =>
      until(
        `the note of activity ${activityId}`,
        () => {
          const index = close.notes.findIndex((note) => note.note.includes(`Parlance activity ${activityId}`));
          return index < 0 ? undefined : noteTimes[index];
        },
        timeoutMs,
      ),
    /** Listings of other companies' syncs between two times. */
    othersSyncs: (from: number, to: number) => listings.filter((listing) => listing.at >= from && listing.at <= to && !cursors.has(listing.after + 1)).length,
    async stop() {
      clearInterval(timer);
      watching = false;
      await cursorLoop;
    },
  };
}

/** Adds a call to Close and follows it to its note; its times, in ms after it was added. */
function callFollower(acme: UploadingCompany, close: CloseStandin, watch: ReturnType<typeof closeWatch>) {
  return async (trigger: 'schedule' | 'sync-now', name: string): Promise<CallTimes> => {
    // A sync of this company that started under 2 s ago may already have read past a call dated back now, and moved its cursor after it.
    while (performance.now() - watch.lastSyncAt() < 2_000) await sleep(100);
    const id = `acti_bench_${name}_${randomUUID().slice(0, 8)}`;
    const createdMs = Date.now() - DATED_BACK_MS;
    const added = performance.now();
    close.addCall(closeCall(id, new Date(createdMs)));
    if (trigger === 'sync-now') {
      for (;;) {
        const asked = await acme.browser.post('/api/integrations/close/sync', {});
        if (asked.status === 202) break;
        // 409 while a sync of this company runs (an automatic one that began before the call was added): ask again once it ends.
        if (asked.status !== 409) throw new Error(`Sync now answered ${asked.status}: ${JSON.stringify(asked.body)}`);
        await sleep(50);
      }
    }
    const readAt = await watch.readOf(createdMs, added, (SYNC_INTERVAL_S + 30) * 1_000);

    const deadline = performance.now() + PIPELINE_TIMEOUT_MS;
    let listedAt: number | undefined;
    let scoredAt: number | undefined;
    let activityId = '';
    while (scoredAt === undefined) {
      if (performance.now() > deadline) throw new Error(`call ${id} was not listed scored within ${PIPELINE_TIMEOUT_MS / 1_000} s of its read`);
      const list = await acme.browser.get<{ data: CallRow[] }>(`/api/calls/?teamId=${acme.teamId}&limit=50`);
      const at = performance.now();
      if (list.status !== 200) throw new Error(`the call list answered ${list.status}: ${JSON.stringify(list.body)}`);
      const row = list.body.data.find((call) => call.contact_id === `cont_${id}`);
      if (row?.status === 'failed') throw new Error(`call ${id} failed in the pipeline`);
      if (row) {
        activityId = row.id;
        listedAt ??= at;
        if (row.status === 'scored') scoredAt = at;
      }
      if (scoredAt === undefined) await sleep(POLL_MS);
    }
    const writtenAt = await watch.noteOf(activityId, Math.max(1_000, deadline - performance.now()));
    const times = { read: readAt - added, listed: listedAt! - added, scored: scoredAt - added, written: writtenAt - added };
    console.error(`${trigger} ${name}: read ${seconds(times.read)} s, listed ${seconds(times.listed)} s, scored ${seconds(times.scored)} s, written back ${seconds(times.written)} s`);
    return times;
  };
}

/** A transcribed call of the representative's, as close-sync.test.ts makes them. */
function closeCall(id: string, createdAt: Date): CloseCallRecord {
  return {
    id,
    lead_id: 'lead_acme',
    contact_id: `cont_${id}`,
    user_id: REP.closeUserId,
    direction: 'outbound',
    duration: 95,
    recording_url: null,
    date_created: createdAt.toISOString(),
    note: 'Discovery call',
    recording_transcript: {
      utterances: [
        { speaker_label: `${REP.firstName} ${REP.lastName}`, speaker_side: 'close-user', start: 1, end: 6, text: `Thank you for taking my call, this is ${REP.firstName} from Parlance. How are you today?` },
        { speaker_label: 'Morgan', speaker_side: 'contact', start: 6, end: 12, text: 'Fine, thanks. We review our support calls by hand and it takes far too long.' },
        { speaker_label: `${REP.firstName} ${REP.lastName}`, speaker_side: 'close-user', start: 12, end: 20, text: 'Understood. What would you like to improve first? I could show you a demo on Thursday at 10am.' },
        { speaker_label: 'Morgan', speaker_side: 'contact', start: 20, end: 95, text: 'Thursday at 10 works, we agree to the demo.' },
      ],
      summary_text: '',
      summary_html: '',
    },
  };
}

const telemetry = startTelemetry({ serviceName: 'bench' });
const benchStarted = performance.now();
const cleanup: Array<() => Promise<unknown>> = [];
let failed = false;
try {
  if (PARTS.has('hubspot')) console.log(JSON.stringify(await hubspotInitialSync()));
  if (PARTS.has('close')) for (const line of await callToWriteback()) console.log(JSON.stringify(line));
  console.error(`integrations bench: ${seconds(performance.now() - benchStarted)} s in all`);
} catch (error) {
  failed = true;
  throw error;
} finally {
  for (const step of cleanup) await step().catch((error: unknown) => console.error('cleanup failed:', error));
  await telemetry.shutdown();
}
