/**
 * The demo data as `make run` makes it, on a smaller scale: the standalone product (one process,
 * PGlite, in-memory bus) started with DEMO_DATA sends the demo company's calls and meetings
 * through ingest, transcription, scoring and analytics, and lists them like any upload. A recorded
 * call is spoken by espeak-ng and transcribed by Whisper on the speech server the host supervises.
 * A second start sends nothing again; a start stopped half-way resumes and ends with exactly the
 * planned activities.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from './support/api-client.js';
import { standaloneEnv, startDemoProduct, type HostProcess } from './support/host-process.js';
import { waitFor } from './support/wait-for.js';

const CALLS = 36;
const MEETINGS = 4;
const RECORDED = 1;

interface ListedActivity {
  id: string;
  status: string;
  score: number | null;
  contact_id?: string;
  contactName?: string;
  media?: string;
  fileName?: string;
}

let dataDir: string;
const running: HostProcess[] = [];

async function startProduct() {
  const { host, demo: browser, signInStatus } = await startDemoProduct({
    ...(await standaloneEnv(dataDir)),
    IDENTITY_DEMO_ACCOUNT: 'true',
    DEMO_DATA: 'true',
    DEMO_CALLS: String(CALLS),
    DEMO_MEETINGS: String(MEETINGS),
    DEMO_RECORDED_CALLS: String(RECORDED),
  });
  running.push(host);
  expect(signInStatus).toBe(200);
  return { host, browser };
}

async function stop(host: HostProcess): Promise<void> {
  host.child.kill('SIGTERM');
  await host.exited;
}

/** Every call or meeting of the demo company over the two quarters the demo data covers. */
async function listAll(browser: ApiClient, kind: 'calls' | 'meetings'): Promise<ListedActivity[]> {
  const startDate = new Date(Date.UTC(new Date().getUTCFullYear() - 1, 0, 1)).toISOString();
  const path = kind === 'calls' ? '/api/calls/' : '/api/meetings';
  const response = await browser.get<{ data: ListedActivity[]; pagination: { total: number } }>(`${path}?limit=100&startDate=${encodeURIComponent(startDate)}`);
  expect(response.status).toBe(200);
  return response.body.data;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'parlance-demo-data-'));
});

afterAll(async () => {
  for (const host of running) if (host.child.exitCode === null) await stop(host);
  await rm(dataDir, { recursive: true, force: true });
});

describe('demo data', () => {
  it('goes through the real pipeline once, resuming where a stopped start left off', async () => {
    // A first start stopped as soon as sending has begun.
    const first = await startProduct();
    await waitFor('the demo data to start sending', async () => (first.host.output().includes('sending the demo data through the pipeline') ? true : undefined), 60_000);
    await stop(first.host);

    const second = await startProduct();
    await waitFor('the demo data to be ready', async () => (second.host.output().includes('demo data ready') ? true : undefined), 240_000);
    expect(second.host.output()).toMatch(/demo data: \d+\/40 sent/);

    // The lists follow the pipeline's events, and what the stopped start sent is followed by no
    // one's jobs: wait for the rows to settle before looking at them.
    const { calls, meetings } = await waitFor(
      'every demo activity to be listed as scored',
      async () => {
        const [calls, meetings] = await Promise.all([listAll(second.browser, 'calls'), listAll(second.browser, 'meetings')]);
        return [...calls, ...meetings].every((activity) => activity.status === 'scored') ? { calls, meetings } : undefined;
      },
      120_000,
    );
    expect(calls).toHaveLength(CALLS);
    expect(meetings).toHaveLength(MEETINGS);
    // Nothing sent twice across the restart.
    expect(new Set(calls.map((call) => call.fileName)).size).toBe(CALLS);
    for (const activity of [...calls, ...meetings]) {
      expect(activity.status).toBe('scored');
      expect(activity.score).toEqual(expect.any(Number));
    }
    expect(calls.every((call) => /^demo-contact-\d{4}$/.test(call.contact_id ?? ''))).toBe(true);
    expect(calls.filter((call) => call.media === 'audio')).toHaveLength(RECORDED);
    expect(new Set(calls.map((call) => call.score)).size).toBeGreaterThan(3);
    await stop(second.host);

    const third = await startProduct();
    await waitFor('the demo data to be found seeded', async () => (third.host.output().includes('demo data already seeded') ? true : undefined), 60_000);
    expect(await listAll(third.browser, 'calls')).toHaveLength(CALLS);
    expect(await listAll(third.browser, 'meetings')).toHaveLength(MEETINGS);
    expect(third.host.output()).not.toContain('sending the demo data');
  }, 420_000);
});
