/**
 * Installs, starts and watches over the speech server (services/speech/server/server.py).
 *
 * - Install: services/speech/install.sh runs in the background at once (it returns within a
 *   fraction of a second when the environment is already there). Exit 69 means Python cannot be
 *   set up on this machine: the server is `unavailable` for good and dependants fall back. Any
 *   other failure is tried again after a minute, then after longer pauses.
 * - Start: with the environment's Python and HF_HUB_OFFLINE=1, either as soon as it is installed
 *   ('eager', the speech process of `make up`) or on the first request for it ('on-demand', a host
 *   that also runs everything else: one that never sees a recording never loads Whisper). It
 *   serves once it printed `listening on HOST:PORT` and answers `GET /health`.
 * - Supervise: a server that dies is started again after 1 s, then 2, 4… up to 30 s while it
 *   keeps dying; a server that served a minute starts the count afresh. Each death is logged with
 *   the end of what it wrote to stderr.
 * - Stop: SIGTERM, then SIGKILL after a grace period, to the server's whole process group (and to
 *   the install's, when one runs).
 * - No orphans, even when this process is killed: both children are run in their own process
 *   group with a pipe from this process on their stdin, which nothing writes; the kernel closes it
 *   when this process dies, and the end of file makes the group end itself (a watcher thread in the
 *   server's Python, a watcher subshell around install.sh). Their own process group also keeps a
 *   terminal's Ctrl-C away from them, so they stop when the host stops them, not before.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '@parlance/platform/logger';
import { REPO_ROOT, type SpeechConfig } from './config.js';
import type { SpeechServer, SpeechServerState, SpeechServerStatus, WhenServingOptions } from './speech-server.js';

export interface SupervisorTiming {
  /** The pause before the first restart; it doubles with each death in a row. */
  restartDelayMs: number;
  maxRestartDelayMs: number;
  /** A server that served this long counts as stable: its next death restarts it after restartDelayMs again. */
  stableAfterMs: number;
  /** How long the server may take to listen and answer /health. */
  startTimeoutMs: number;
  /** How long a stopped child has after SIGTERM before SIGKILL. */
  stopGraceMs: number;
  /** The pause before installing again after a failed install; it doubles up to maxInstallRetryMs. */
  installRetryMs: number;
  maxInstallRetryMs: number;
}

export const DEFAULT_SUPERVISOR_TIMING: SupervisorTiming = {
  restartDelayMs: 1_000,
  maxRestartDelayMs: 30_000,
  stableAfterMs: 60_000,
  startTimeoutMs: 120_000,
  stopGraceMs: 5_000,
  installRetryMs: 60_000,
  maxInstallRetryMs: 15 * 60_000,
};

export interface SpeechSupervisorOptions {
  config: SpeechConfig;
  logger: Logger;
  /** 'eager': start the server as soon as it is installed; 'on-demand': on the first whenServing(). */
  start: 'eager' | 'on-demand';
  /** Default services/speech/install.sh. */
  installScript?: string;
  /** Default services/speech/server/server.py. */
  serverScript?: string;
  timing?: Partial<SupervisorTiming>;
}

export interface SpeechSupervisor extends SpeechServer {
  /** Stops the server and any install, and resolves once both have exited. */
  stop(): Promise<void>;
}

/** install.sh's exit code when Python (with venv and pip) cannot be set up on this machine. */
export const PYTHON_UNAVAILABLE_EXIT_CODE = 69;

const STDERR_TAIL_CHARS = 4_000;

// Runs the server script as __main__ (so its own `if __name__ == "__main__"` starts it), with a
// thread that ends the process group when stdin reaches its end: the parent holds the other end
// and never writes, so the end comes only when the parent closes it or dies.
const PYTHON_WITH_PARENT_WATCH = `
import os, runpy, signal, sys, threading
def end_with_parent():
    try:
        while os.read(0, 65536):
            pass
    except OSError:
        pass
    os.killpg(os.getpgrp(), signal.SIGKILL)
threading.Thread(target=end_with_parent, name="parent-watch", daemon=True).start()
script = os.path.abspath(sys.argv[1])
sys.argv = sys.argv[1:]
sys.path.insert(0, os.path.dirname(script))
runpy.run_path(script, run_name="__main__")
`;

// Runs "$@" in the background of this (new) process group and exits with its status; if stdin
// reaches its end first (the parent died), the whole group is ended. A background job's stdin is
// /dev/null unless redirected, hence the copy on fd 3.
const SHELL_WITH_PARENT_WATCH = `
exec 3<&0
"$@" </dev/null 3<&- &
command=$!
{ read -r _ <&3; kill -TERM -- -$$ 2>/dev/null; } &
watcher=$!
wait "$command"
status=$?
kill "$watcher" 2>/dev/null
exit "$status"
`;

/** Only what Python and pip need from the environment, and nothing secret the host holds. */
function childEnvironment(extra: Record<string, string>): Record<string, string> {
  const passed = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'PIP_INDEX_URL', 'PIP_EXTRA_INDEX_URL', 'PIP_TRUSTED_HOST', 'PIP_CERT', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'no_proxy'];
  const env: Record<string, string> = {};
  for (const name of passed) if (process.env[name] !== undefined) env[name] = process.env[name]!;
  return { ...env, ...extra };
}

export function startSpeechSupervisor(options: SpeechSupervisorOptions): SpeechSupervisor {
  const { config, logger } = options;
  const timing = { ...DEFAULT_SUPERVISOR_TIMING, ...options.timing };
  const installScript = options.installScript ?? join(REPO_ROOT, 'services', 'speech', 'install.sh');
  const serverScript = options.serverScript ?? join(REPO_ROOT, 'services', 'speech', 'server', 'server.py');
  const python = join(config.venvDir, 'bin', 'python');

  let status: SpeechServerStatus = { state: 'installing', reason: 'the speech server is being installed' };
  const listeners = new Set<(status: SpeechServerStatus) => void>();
  let wanted = options.start === 'eager';
  let stopping = false;
  let installer: ChildProcess | undefined;
  let server: { child: ChildProcess; exited: Promise<void> } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let deathsInARow = 0;
  let failedInstalls = 0;

  function setStatus(next: SpeechServerStatus): void {
    status = next;
    for (const listener of [...listeners]) listener(status);
  }

  function later(ms: number, action: () => void): void {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (!stopping) action();
    }, ms);
  }

  // ---------------------------------------------------------------------------------------------
  // Install

  function install(): void {
    setStatus({ state: 'installing', reason: 'the speech server is being installed' });
    const started = performance.now();
    const child = spawn('bash', ['-c', SHELL_WITH_PARENT_WATCH, 'speech-install', installScript, config.venvDir], {
      cwd: REPO_ROOT,
      env: childEnvironment({ PYTHON: config.python }),
      stdio: ['pipe', 'ignore', 'pipe'],
      detached: true,
    });
    installer = child;
    child.stdin?.on('error', () => undefined);
    let lastLine = '';
    const lines = createInterface({ input: child.stderr! });
    lines.on('line', (line) => {
      if (!line.trim()) return;
      lastLine = line.trim();
      logger.info({ line: lastLine }, 'speech server install');
    });
    let done = false;
    const finished = (code: number | null, signal: NodeJS.Signals | null) => {
      if (done) return;
      done = true;
      installer = undefined;
      child.stdin?.destroy();
      if (stopping) return;
      const tookMs = Math.round(performance.now() - started);
      if (code === 0) {
        failedInstalls = 0;
        logger.info({ venv: config.venvDir, tookMs }, 'the speech server is installed');
        if (wanted) launch();
        else setStatus({ state: 'idle', reason: 'the speech server has not been started yet' });
        return;
      }
      if (code === PYTHON_UNAVAILABLE_EXIT_CODE) {
        const reason = `Python cannot be set up on this machine (${withoutPeriod(lastLine) || `${config.python} is missing`})`;
        logger.warn({ python: config.python, reason }, 'the speech server cannot run on this machine');
        setStatus({ state: 'unavailable', reason });
        return;
      }
      failedInstalls += 1;
      const retryMs = Math.min(timing.maxInstallRetryMs, timing.installRetryMs * 2 ** (failedInstalls - 1));
      const how = signal ? `stopped by ${signal}` : `exit code ${code}`;
      const reason = `the speech server could not be installed (${withoutPeriod(lastLine) || how})`;
      logger.error({ how, reason, retryInMs: retryMs }, 'the speech server could not be installed; trying again later');
      setStatus({ state: 'install-failed', reason });
      later(retryMs, install);
    };
    child.once('error', (error) => {
      lastLine = error.message;
      finished(1, null);
    });
    child.once('close', finished);
  }

  // ---------------------------------------------------------------------------------------------
  // Run

  function launch(): void {
    if (stopping || server) return;
    const started = performance.now();
    const args = ['-c', PYTHON_WITH_PARENT_WATCH, serverScript, '--host', config.host, '--port', String(config.port), '--threads', String(config.threads)];
    const child = spawn(python, args, {
      cwd: REPO_ROOT,
      env: childEnvironment({ HF_HUB_OFFLINE: '1', PYTHONUNBUFFERED: '1' }),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdin?.on('error', () => undefined);
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS)));
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const current = { child, exited };
    server = current;

    let servingSince: number | undefined;
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      const match = /^listening on (.+):(\d+)$/.exec(line.trim());
      if (!match) {
        logger.error({ line }, 'the speech server said something unexpected instead of where it listens');
        killGroup(child, 'SIGKILL');
        return;
      }
      const url = `http://${urlHost(match[1]!)}:${match[2]}`;
      waitForHealth(url, started + timing.startTimeoutMs, () => server !== current || stopping)
        .then((healthy) => {
          if (server !== current || stopping) return;
          if (!healthy) {
            logger.error({ url, timeoutMs: timing.startTimeoutMs }, 'the speech server did not answer /health in time');
            killGroup(child, 'SIGKILL');
            return;
          }
          servingSince = performance.now();
          logger.info({ url: `${url}/v1`, pid: child.pid, tookMs: Math.round(servingSince - started), threads: config.threads }, 'the speech server is serving');
          setStatus({ state: 'serving', url: `${url}/v1`, pid: child.pid! });
        })
        .catch(() => undefined);
      // Whatever it prints later is drained, so that it never blocks on a full pipe.
      lines.on('line', () => undefined);
    });
    setStatus({ state: 'starting', pid: child.pid!, reason: 'the speech server is starting' });
    const startTimer = setTimeout(() => {
      if (server === current && status.state === 'starting') {
        logger.error({ timeoutMs: timing.startTimeoutMs }, 'the speech server did not start listening in time');
        killGroup(child, 'SIGKILL');
      }
    }, timing.startTimeoutMs);

    let spawnError: Error | undefined;
    child.once('error', (error) => (spawnError = error));
    void exited.then(() => {
      clearTimeout(startTimer);
      if (server === current) server = undefined;
      child.stdin?.destroy();
      if (stopping) return;
      if (servingSince !== undefined && performance.now() - servingSince >= timing.stableAfterMs) deathsInARow = 0;
      const delayMs = Math.min(timing.maxRestartDelayMs, timing.restartDelayMs * 2 ** deathsInARow);
      deathsInARow += 1;
      const how = spawnError ? `could not be started: ${spawnError.message}` : child.signalCode ? `killed by ${child.signalCode}` : `exit code ${child.exitCode}`;
      const said = stderr.trim().split('\n').slice(-5).join('\n');
      logger.warn(
        { how, pid: child.pid, stderr: said || undefined, restartInMs: delayMs, deathsInARow, servedMs: servingSince === undefined ? undefined : Math.round(performance.now() - servingSince) },
        servingSince === undefined ? 'the speech server stopped before it served; starting it again' : 'the speech server stopped unexpectedly; restarting it',
      );
      setStatus({ state: 'restarting', reason: `the speech server stopped (${how}) and is being restarted` });
      later(delayMs, launch);
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Stop

  /**
   * Stops the child and everything it started: the leader's exit is not enough, since what it
   * started (pip, a sleep in a test's install) gets the signal at the same time and may outlive it
   * by a moment. Done when its process group is empty.
   */
  async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
    if (child.exitCode === null && child.signalCode === null) killGroup(child, 'SIGTERM');
    const killer = setTimeout(() => killGroup(child, 'SIGKILL'), timing.stopGraceMs);
    await exited;
    if (!(await groupEmptied(child, timing.stopGraceMs))) {
      killGroup(child, 'SIGKILL');
      await groupEmptied(child, timing.stopGraceMs);
    }
    clearTimeout(killer);
  }

  const supervisor: SpeechSupervisor = {
    status: () => status,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async whenServing(waitOptions: WhenServingOptions = {}) {
      wanted = true;
      if (status.state === 'idle') launch();
      if (settled(status.state)) return status;
      const { timeoutMs = 0, signal } = waitOptions;
      if (timeoutMs <= 0 || signal?.aborted) return status;
      return new Promise<SpeechServerStatus>((resolve) => {
        const done = () => {
          clearTimeout(waitTimer);
          unsubscribe();
          signal?.removeEventListener('abort', done);
          resolve(status);
        };
        const waitTimer = setTimeout(done, timeoutMs);
        const unsubscribe = supervisor.onChange((next) => {
          if (settled(next.state)) done();
        });
        signal?.addEventListener('abort', done, { once: true });
      });
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      clearTimeout(timer);
      const stopped: Array<Promise<void>> = [];
      if (server) stopped.push(stopChild(server.child, server.exited));
      if (installer) {
        const child = installer;
        stopped.push(stopChild(child, new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('close', () => resolve())))));
      }
      await Promise.all(stopped);
      server = undefined;
      setStatus({ state: 'stopped', reason: 'the speech server was stopped' });
      listeners.clear();
    },
  };

  install();
  return supervisor;
}

/** States a wait for the server ends in. */
function settled(state: SpeechServerState): boolean {
  return state === 'serving' || state === 'unavailable' || state === 'stopped';
}

/** Signals the child's whole process group (it leads one: it was spawned detached). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Whether the child's process group has no process left, waiting up to `withinMs` for it. */
async function groupEmptied(child: ChildProcess, withinMs: number): Promise<boolean> {
  if (child.pid === undefined) return true;
  const deadline = performance.now() + withinMs;
  for (;;) {
    try {
      process.kill(-child.pid, 0);
    } catch {
      return true;
    }
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Where to reach a server listening on `host`: a wildcard address is reached on loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Polls `${url}/health` until it answers 200 (true), the deadline passes or `gone()` (false). */
async function waitForHealth(url: string, deadline: number, gone: () => boolean): Promise<boolean> {
  while (!gone() && performance.now() < deadline) {
    const ok = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) })
      .then(async (response) => {
        await response.body?.cancel();
        return response.status === 200;
      })
      .catch(() => false);
    if (ok) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

function withoutPeriod(text: string): string {
  return text.trim().replace(/\.$/, '');
}
