/**
 * The supervisor with the real install.sh and the real speech server (Whisper tiny.en and the
 * speaker encoder from .run/speech-venv): it serves, answers a transcription, comes back on a new
 * process when killed, stops cleanly, leaves nothing behind when its own process is killed, and
 * says Python is unavailable when it cannot be set up. The speech process of `make up`
 * (src/main.ts) is run as the real process it is.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '@parlance/platform/testing/captured-logs';
import { loadSpeechConfig, REPO_ROOT } from '../src/config.js';
import { SPEECH_SERVER_MODEL, type SpeechServerStatus } from '../src/speech-server.js';
import { startSpeechSupervisor, type SpeechSupervisor } from '../src/supervisor.js';
import { isRunning } from './support/stand-in-speech.js';

const logs = captureLogs('speech-test');
const logger = logs.logger;

let supervisor: SpeechSupervisor;
let serving: SpeechServerStatus;
let startedInMs: number;

beforeAll(async () => {
  const started = performance.now();
  supervisor = startSpeechSupervisor({ config: loadSpeechConfig({}), logger, start: 'eager' });
  serving = await supervisor.whenServing({ timeoutMs: 120_000 });
  startedInMs = performance.now() - started;
}, 180_000);

afterAll(async () => {
  await supervisor?.stop();
});

function residentMiB(pid: number): number {
  const kib = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return Math.round(kib / 1024);
}

describe('the supervisor running the real speech server', () => {
  it('installs (already there: a quick check), starts and serves Whisper, and answers a transcription', async () => {
    expect(serving).toMatchObject({ state: 'serving', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/), pid: expect.any(Number) });
    const models = (await (await fetch(`${serving.url}/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((model) => model.id)).toContain(SPEECH_SERVER_MODEL);
    // eslint-disable-next-line no-console -- the figures the issue asks to report
    console.log(`speech server: serving ${(startedInMs / 1000).toFixed(1)} s after the supervisor started (install check included), resident ${residentMiB(serving.pid!)} MiB`);

    const form = new FormData();
    const espeak = spawn('espeak-ng', ['-v', 'en-us', '-s', '150', '--stdout', 'Thank you for calling, how can I help you today?']);
    const chunks: Buffer[] = [];
    for await (const chunk of espeak.stdout) chunks.push(chunk as Buffer);
    form.append('file', new Blob([Buffer.concat(chunks)], { type: 'audio/wav' }), 'hello.wav');
    form.append('model', SPEECH_SERVER_MODEL);
    const answer = (await (await fetch(`${serving.url}/audio/transcriptions`, { method: 'POST', body: form })).json()) as { text: string };
    expect(answer.text.toLowerCase()).toMatch(/thank you for calling/);
  }, 60_000);

  it('starts it again on a new process when it is killed, and logs why', async () => {
    const killed = serving.pid!;
    process.kill(killed, 'SIGKILL');
    const started = performance.now();
    await waitUntil(() => supervisor.status().state !== 'serving' || supervisor.status().pid !== killed, 10_000);
    const again = await supervisor.whenServing({ timeoutMs: 60_000 });
    expect(again.state).toBe('serving');
    expect(again.pid).not.toBe(killed);
    // eslint-disable-next-line no-console -- the figure the issue asks to report
    console.log(`speech server: serving again ${((performance.now() - started) / 1000).toFixed(1)} s after SIGKILL`);
    expect(logs.text()).toContain('"how":"killed by SIGKILL"');
    expect(isRunning(killed)).toBe(false);
    serving = again;
  }, 90_000);

  it('stops it with the host, leaving no process', async () => {
    const { pid } = supervisor.status();
    await supervisor.stop();
    expect(supervisor.status().state).toBe('stopped');
    expect(isRunning(pid!)).toBe(false);
  }, 30_000);

  it('says Python is unavailable, without starting anything, when it cannot be set up', async () => {
    const venvDir = await mkdtemp(join(tmpdir(), 'parlance-no-python-'));
    const without = startSpeechSupervisor({ config: { ...loadSpeechConfig({}), venvDir, python: '/nonexistent/python3' }, logger, start: 'eager' });
    try {
      const status = await without.whenServing({ timeoutMs: 30_000 });
      expect(status).toEqual({ state: 'unavailable', reason: 'Python cannot be set up on this machine (No Python (/nonexistent/python3) on this machine: the speech server cannot be installed)' });
    } finally {
      await without.stop();
      await rm(venvDir, { recursive: true, force: true });
      await rm(`${venvDir}.lock`, { force: true });
    }
  }, 60_000);
});

describe('the speech process of `make up` (src/main.ts)', () => {
  it('serves on the port it is given, is ready, and stops its server with it on SIGTERM', async () => {
    const [adminPort, speechPort] = [await freePort(), await freePort()];
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/speech/src/main.ts'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ADMIN_PORT: String(adminPort), SPEECH_PORT: String(speechPort), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let pid: number | undefined;
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const entry = JSON.parse(line) as { msg?: string; pid?: number };
      if (entry.msg === 'the speech server is serving') pid = entry.pid;
    });
    try {
      await waitUntilAsync(async () => (await fetch(`http://127.0.0.1:${speechPort}/health`).catch(() => undefined))?.status === 200, 120_000);
      expect((await fetch(`http://127.0.0.1:${adminPort}/readyz`)).status).toBe(200);
      await waitUntil(() => pid !== undefined, 5_000);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await waitUntil(() => !isRunning(pid!), 5_000);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 180_000);

  it('leaves no server behind when it is killed', async () => {
    const speechPort = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/speech/src/main.ts'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ADMIN_PORT: '0', SPEECH_PORT: String(speechPort), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let pid: number | undefined;
    for await (const line of createInterface({ input: child.stdout })) {
      const entry = JSON.parse(line) as { msg?: string; pid?: number };
      if (entry.msg === 'the speech server is serving') {
        pid = entry.pid;
        break;
      }
    }
    child.kill('SIGKILL');
    await exited;
    await waitUntil(() => !isRunning(pid!), 5_000);
    expect(await fetch(`http://127.0.0.1:${speechPort}/health`).catch(() => 'refused')).toBe('refused');
  }, 180_000);
});

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  await waitUntilAsync(async () => condition(), timeoutMs);
}

async function waitUntilAsync(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`the condition did not come true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
