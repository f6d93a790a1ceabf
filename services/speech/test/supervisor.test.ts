/**
 * The supervisor's own behaviour (install, start, restart with backoff, stop, fallback, no
 * orphans) on a stand-in server and installer that do on cue what the real ones rarely do (see
 * support/stand-in-speech.ts). supervisor-real-server.test.ts runs the real ones.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureLogs } from '@parlance/platform/testing/captured-logs';
import type { SpeechConfig } from '../src/config.js';
import type { SpeechServerStatus } from '../src/speech-server.js';
import { startSpeechSupervisor, type SpeechSupervisor, type SupervisorTiming } from '../src/supervisor.js';
import { createStandInSpeech, isRunning, type StandInSpeech } from './support/stand-in-speech.js';

const FAST: Partial<SupervisorTiming> = { restartDelayMs: 100, maxRestartDelayMs: 400, stableAfterMs: 60_000, startTimeoutMs: 10_000, stopGraceMs: 500, installRetryMs: 200 };

let stand: StandInSpeech;
let supervisor: SpeechSupervisor | undefined;
const logs = captureLogs('speech-test');

beforeEach(async () => {
  stand = await createStandInSpeech();
  logs.clear();
});

afterEach(async () => {
  await supervisor?.stop();
  supervisor = undefined;
  await stand.remove();
});

function start(mode: 'eager' | 'on-demand', timing: Partial<SupervisorTiming> = FAST): SpeechSupervisor {
  const config: SpeechConfig = { host: '127.0.0.1', port: 0, venvDir: stand.venvDir, python: 'python3', threads: 3 };
  supervisor = startSpeechSupervisor({ config, logger: logs.logger, start: mode, serverScript: stand.serverScript, installScript: stand.installScript, timing });
  return supervisor;
}

/** The next status `supervisor` reaches that `matches`. */
function reaches(server: SpeechSupervisor, matches: (status: SpeechServerStatus) => boolean, timeoutMs = 10_000): Promise<SpeechServerStatus> {
  if (matches(server.status())) return Promise.resolve(server.status());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no such status within ${timeoutMs} ms; it is ${JSON.stringify(server.status())}`)), timeoutMs);
    const unsubscribe = server.onChange((status) => {
      if (!matches(status)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(status);
    });
  });
}

describe('the speech supervisor', () => {
  it('installs, starts the server with its settings once installed, and reports where it serves', async () => {
    const server = start('eager');
    expect(server.status().state).toBe('installing');
    const serving = await reaches(server, (status) => status.state === 'serving');
    expect(serving.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const health = await fetch(serving.url!.replace(/\/v1$/, '/health'));
    expect(health.status).toBe(200);
    expect(await stand.starts()).toEqual([{ atMs: expect.any(Number), pid: serving.pid, threads: 3 }]);
  });

  it('starts an on-demand server only when asked for, and a wait for it ends when it serves', async () => {
    const server = start('on-demand');
    await reaches(server, (status) => status.state === 'idle');
    expect(await stand.starts()).toEqual([]);
    const status = await server.whenServing({ timeoutMs: 10_000 });
    expect(status.state).toBe('serving');
    expect(await stand.starts()).toHaveLength(1);
  });

  it('a wait that runs out answers with the status as it is', async () => {
    await stand.install(0, 2);
    const server = start('on-demand');
    const started = performance.now();
    const status = await server.whenServing({ timeoutMs: 200 });
    expect(status.state).toBe('installing');
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('restarts a server that keeps dying after 100, 200 and 400 ms, then 400 ms again, and logs each death', async () => {
    await stand.behave('die-before-listening');
    const server = start('eager');
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    const starts = await stand.starts();
    expect(starts.length).toBeGreaterThanOrEqual(4);
    const gaps = starts.slice(1).map((entry, index) => entry.atMs - starts[index]!.atMs);
    // Each gap is the pause plus the time Python takes to start and die (tens of ms).
    const pauses = [100, 200, 400, 400];
    gaps.slice(0, 4).forEach((gap, index) => {
      expect(gap).toBeGreaterThanOrEqual(pauses[index]!);
      expect(gap).toBeLessThan(pauses[index]! + 400);
    });
    const deaths = logs.lines().filter((line) => line.msg === 'the speech server stopped before it served; starting it again');
    expect(deaths.length).toBeGreaterThanOrEqual(3);
    expect(deaths[0]).toMatchObject({ level: 40, how: 'exit code 3', stderr: 'stand-in: told to die before listening', restartInMs: 100 });

    // Once it can serve again, it does.
    await stand.behave('serve');
    expect((await reaches(server, (status) => status.state === 'serving', 5_000)).url).toBeDefined();
  });

  it('restarts a serving server that was killed, on a new process', async () => {
    const server = start('eager');
    const first = await reaches(server, (status) => status.state === 'serving');
    process.kill(first.pid!, 'SIGKILL');
    await reaches(server, (status) => status.state === 'restarting');
    const second = await reaches(server, (status) => status.state === 'serving');
    expect(second.pid).not.toBe(first.pid);
    expect(logs.lines().find((line) => line.msg === 'the speech server stopped unexpectedly; restarting it')).toMatchObject({ how: 'killed by SIGKILL', restartInMs: 100 });
  });

  it('stops the server with SIGTERM and leaves no process behind', async () => {
    const server = start('eager');
    const { pid } = await reaches(server, (status) => status.state === 'serving');
    await server.stop();
    expect(server.status().state).toBe('stopped');
    expect(isRunning(pid!)).toBe(false);
    expect(await stand.starts()).toHaveLength(1);
  });

  it('kills a server that ignores SIGTERM after the grace period', async () => {
    await stand.behave('serve-ignoring-sigterm');
    const server = start('eager');
    const { pid } = await reaches(server, (status) => status.state === 'serving');
    const started = performance.now();
    await server.stop();
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);
    expect(isRunning(pid!)).toBe(false);
  });

  it('stops an install in progress, with everything it started', async () => {
    await stand.install(0, 30);
    const server = start('eager');
    await waitUntil(async () => (await stand.installPids()).length === 1);
    const [sleep] = await stand.installPids();
    expect(isRunning(sleep!)).toBe(true);
    await server.stop();
    expect(isRunning(sleep!)).toBe(false);
  });

  it('is unavailable for good when Python cannot be set up (install exit 69), saying why', async () => {
    await stand.install(69, 0, 'No Python (python3) on this machine: the speech server cannot be installed.');
    const server = start('eager');
    const status = await reaches(server, (next) => next.state === 'unavailable');
    expect(status.reason).toBe('Python cannot be set up on this machine (No Python (python3) on this machine: the speech server cannot be installed)');
    expect(await server.whenServing({ timeoutMs: 5_000 })).toEqual(status);
    expect(await stand.starts()).toEqual([]);
  });

  it('installs again after a failed install, and then serves', async () => {
    await stand.install(1, 0, 'ERROR: Could not find a version that satisfies the requirement faster-whisper==1.2.1');
    const server = start('eager');
    const failed = await reaches(server, (status) => status.state === 'install-failed');
    expect(failed.reason).toBe('the speech server could not be installed (ERROR: Could not find a version that satisfies the requirement faster-whisper==1.2.1)');
    await stand.install(0);
    await reaches(server, (status) => status.state === 'serving');
    expect(await stand.installPids()).toHaveLength(2);
  });
});

describe('a supervisor whose process is killed', () => {
  it('leaves neither the server nor an install running', async () => {
    // A server, then an install, each under a supervisor in a process of its own that is killed.
    const paths = { venvDir: stand.venvDir, serverScript: stand.serverScript, installScript: stand.installScript };
    const serverPid = await killedSupervisor(paths, async (status) => (status.state === 'serving' ? status.pid : undefined));
    await waitUntil(async () => !isRunning(serverPid), 3_000);

    await stand.install(0, 30);
    const sleep = await killedSupervisor(paths, async (status) => {
      if (status.state !== 'installing') return undefined;
      await waitUntil(async () => (await stand.installPids()).length === 2);
      const pid = (await stand.installPids()).at(-1)!;
      // Alive before its supervisor is killed (checking after the kill raced the parent watch,
      // which may already have ended it), so that its end below is the kill's doing.
      expect(isRunning(pid)).toBe(true);
      return pid;
    });
    // The install sleeps 30 s: only the watch on its dead parent ends it this soon.
    await waitUntil(async () => !isRunning(sleep), 10_000);
  });
});

/** Runs a supervisor in a process of its own until `pick` returns something, SIGKILLs that process, and returns what `pick` returned. */
async function killedSupervisor(options: Record<string, string>, pick: (status: SpeechServerStatus) => Promise<number | undefined>): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./support/run-supervisor.ts', import.meta.url).pathname, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      const picked = await pick(JSON.parse(line) as SpeechServerStatus);
      if (picked !== undefined) return picked;
    }
    throw new Error('the supervisor process ended early');
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error('the condition did not come true in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
