/**
 * The host as a person runs it: a real process, its command line, its config errors, its
 * health endpoints and its shutdown on SIGTERM.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { DIAGNOSTICS_TOKEN, operatorHeaders } from './support/diagnostics.js';
import { standaloneEnv, startHostProcess, waitUntilReady } from './support/host-process.js';
import { waitFor } from './support/wait-for.js';

const dataDirs: string[] = [];
afterAll(async () => {
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function hostEnv(dataDir?: string) {
  const dir = dataDir ?? (await mkdtemp(path.join(tmpdir(), 'parlance-host-')));
  if (!dataDir) dataDirs.push(dir);
  return { ...(await standaloneEnv(dir)), DIAGNOSTICS_TOKEN };
}

/** Restarts the host on `dataDir` and waits until every probe's event has been consumed. */
async function expectReceivedAfterRestart(dataDir: string, service: string, probeIds: string[]): Promise<void> {
  const again = startHostProcess([], await hostEnv(dataDir));
  const url = await waitFor('the restarted host', async () => /Parlance is running at (http:\/\/[0-9.:]+)/.exec(again.output())?.[1], 60_000);
  for (const probeId of probeIds) {
    await waitFor(`probe ${probeId} to be received`, async () => {
      const report = (await (await fetch(`${url}/api/diagnostics/probes/${service}/${probeId}`, { headers: operatorHeaders })).json()) as { state?: string };
      return report.state === 'received' ? true : undefined;
    });
  }
  again.child.kill('SIGTERM');
  expect(await again.exited).toBe(0);
}

describe('parlance host process', () => {
  it('prints the module graph with --list-targets and exits 0', async () => {
    const host = startHostProcess(['--list-targets'], {});
    expect(await host.exited).toBe(0);
    expect(host.output()).toContain('all (target) → identity, ingest, transcription, scoring, analytics, integration, gateway');
    expect(host.output()).toContain('scoring ← needs bus, database, grpc-server');
    expect(host.output()).toMatch(/gateway\n\s+REST API/);
  });

  it('refuses to start with a missing setting and names the variables', async () => {
    const host = startHostProcess([], { PARLANCE_MODE: 'distributed' });
    expect(await host.exited).toBe(78);
    expect(host.output()).toContain('KAFKA_BROKERS is required when BUS_ADAPTER is kafka');
    expect(host.output()).toContain('DATABASE_URL is required when DATABASE_DRIVER is postgres');
  });

  it('refuses a malformed setting and names it', async () => {
    const host = startHostProcess([], { GRPC_PORT: 'fifty' });
    expect(await host.exited).toBe(78);
    expect(host.output()).toMatch(/GRPC_PORT must be integer \(got "fifty"\)/);
  });

  it('refuses to start a distributed gateway that does not know where a service is', async () => {
    const host = startHostProcess(
      [],
      { PARLANCE_MODE: 'distributed', KAFKA_BROKERS: '127.0.0.1:9', DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' },
      'gateway/src/main.ts',
    );
    expect(await host.exited).toBe(78);
    expect(host.output()).toContain('IDENTITY_GRPC_ADDR is required in distributed mode');
  });

  it('refuses a malformed gateway setting before starting anything', async () => {
    const host = startHostProcess([], { GATEWAY_PORT: '80800' });
    expect(await host.exited).toBe(78);
    expect(host.output()).toMatch(/GATEWAY_PORT must be .*\(got "80800"\)/);
    expect(host.output()).not.toContain('module started');
  });

  it('rejects an unknown target by name', async () => {
    const env = await hostEnv();
    const host = startHostProcess(['--target=scorring'], env);
    expect(await host.exited).toBe(1);
    expect(host.output()).toContain('Unknown target \\"scorring\\"');
  });

  it('starts only the targets asked for, with their dependencies', async () => {
    const env = await hostEnv();
    const host = startHostProcess(['--target=scoring,analytics'], env);
    await waitUntilReady(Number(env.ADMIN_PORT), host);
    const readiness = (await (await fetch(`http://127.0.0.1:${env.ADMIN_PORT}/readyz`)).json()) as { modules: Array<{ name: string }> };
    expect(readiness.modules.map((module) => module.name)).toEqual(['bus', 'database', 'grpc-server', 'scoring', 'analytics']);
    host.child.kill('SIGTERM');
    expect(await host.exited).toBe(0);
  }, 90_000);

  it('serves the web app and /api/health standalone, and on SIGTERM finishes what it accepted and exits 0', async () => {
    // As `make run` starts it: with the demo account.
    const env = { ...(await hostEnv()), IDENTITY_DEMO_ACCOUNT: 'true' };
    const api = `http://127.0.0.1:${env.GATEWAY_PORT}`;
    const host = startHostProcess([], env);
    await waitUntilReady(Number(env.ADMIN_PORT), host);
    expect(host.output()).toContain(`Parlance is running at ${api}`);
    const [, demoEmail, demoPassword] = /Demo login: (\S+) \/ (\S+)/.exec(host.output()) ?? [];
    const demo = new ApiClient(api);
    const signedIn = await demo.post<{ user: { role: string } }>('/api/auth/login', { email: demoEmail, password: demoPassword });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.role).toBe('admin');

    const health = await fetch(`${api}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', mode: 'standalone' });
    const page = await fetch(`${api}/teams/new`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<div id="root">');
    expect((await fetch(`http://127.0.0.1:${env.ADMIN_PORT}/healthz`)).status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${env.ADMIN_PORT}/metrics`)).text()).toContain('process_cpu_seconds_total');
    const probe = (await (
      await fetch(`${api}/api/diagnostics/probes`, { method: 'POST', headers: { 'content-type': 'application/json', ...operatorHeaders }, body: '{"service":"scoring"}' })
    ).json()) as { probeId: string };
    await waitFor('the probe to be consumed', async () => {
      const report = (await (await fetch(`${api}/api/diagnostics/probes/scoring/${probe.probeId}`, { headers: operatorHeaders })).json()) as { state: string };
      return report.state === 'received' ? true : undefined;
    });
    const metrics = await (await fetch(`http://127.0.0.1:${env.ADMIN_PORT}/metrics`)).text();
    expect(metrics).toMatch(/parlance_http_request_duration_seconds_count\{[^}]*method="POST",route="\/api\/diagnostics\/probes",status="201"/);
    expect(metrics).toMatch(/parlance_grpc_server_duration_seconds_count\{[^}]*method="parlance.platform.v1.Probe\/SendProbe",code="OK"/);
    expect(metrics).toMatch(/parlance_events_consumed_total\{[^}]*topic="scoring.probe-sent.v1",group="scoring.probe-receiver",outcome="applied"/);

    // Probes in flight when SIGTERM arrives: each is either accepted (201) and then kept, or
    // refused outright; none is half-done or lost.
    const sends = Array.from({ length: 30 }, (_, index) =>
      fetch(`${api}/api/diagnostics/probes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...operatorHeaders },
        body: JSON.stringify({ service: 'ingest', note: `in flight ${index}` }),
      })
        .then(async (response) => ({ status: response.status, body: (await response.json()) as { probeId?: string } }))
        .catch(() => ({ status: 0, body: {} as { probeId?: string } })),
    );
    await new Promise((resolve) => setTimeout(resolve, 15));
    host.child.kill('SIGTERM');
    const results = await Promise.all(sends);
    expect(await host.exited).toBe(0);
    expect(host.output()).toMatch(/"module":"gateway","msg":"module stopped"[\s\S]*"module":"bus","msg":"module stopped"/);
    const accepted = results.filter((result) => result.status === 201).map((result) => result.body.probeId!);
    for (const result of results) expect([0, 201, 503]).toContain(result.status);

    // Restarted on the same data, every accepted probe is there and its event gets consumed.
    await expectReceivedAfterRestart(env.DATA_DIR, 'ingest', accepted);
  }, 120_000);

  it('keeps every accepted probe when killed outright, and consumes them after a restart', async () => {
    const env = await hostEnv();
    const host = startHostProcess([], env);
    await waitUntilReady(Number(env.ADMIN_PORT), host);
    const api = `http://127.0.0.1:${env.GATEWAY_PORT}`;
    const accepted = await Promise.all(
      Array.from({ length: 40 }, async (_, index) => {
        const response = await fetch(`${api}/api/diagnostics/probes`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...operatorHeaders },
          body: JSON.stringify({ service: 'analytics', note: `before the crash ${index}` }),
        });
        expect(response.status).toBe(201);
        return ((await response.json()) as { probeId: string }).probeId;
      }),
    );
    host.child.kill('SIGKILL');
    await host.exited;

    await expectReceivedAfterRestart(env.DATA_DIR, 'analytics', accepted);
  }, 120_000);
});
