/**
 * A Parlance service as its own process, the way `make up` (scripts/up.sh) starts it:
 * `node --enable-source-maps --import tsx services/<name>/src/main.ts`, in distributed mode. The
 * process's JSON log lines are handed to the bench; it is ready once it logs "ready", and stops on
 * SIGTERM (SIGKILL if it has not exited after 20 s).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { repoRoot } from '../../test/support/host-process.js';

export interface ServiceProcess {
  pid: number;
  /** The last lines it wrote that were not JSON log lines (a stack trace, a config error). */
  tail(): string;
  stop(): Promise<void>;
}

export interface ServiceProcessOptions {
  /** e.g. `scoring`: runs services/<service>/src/main.ts. */
  service: string;
  env: Record<string, string>;
  /** Each JSON log line, parsed. */
  onLog?: (line: Record<string, unknown>) => void;
  readyTimeoutMs?: number;
}

export async function startServiceProcess(options: ServiceProcessOptions): Promise<ServiceProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', '--import', 'tsx', `services/${options.service}/src/main.ts`], {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const tail: string[] = [];
  const keep = (line: string) => {
    tail.push(line);
    if (tail.length > 40) tail.shift();
  };
  let ready: () => void = () => undefined;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      if (!line.startsWith('{')) return keep(line);
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return keep(line);
      }
      if (typeof entry.level === 'number' && entry.level >= 50) keep(line);
      if (entry.msg === 'ready') ready();
      options.onLog?.(entry);
    });
  }

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(killer);
  };

  const timeoutMs = options.readyTimeoutMs ?? 120_000;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    isReady.then(() => 'ready' as const),
    exited.then((code) => `exited with ${code}` as const),
    new Promise<'timed out'>((resolve) => (timer = setTimeout(() => resolve('timed out'), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (outcome !== 'ready') {
    await stop();
    throw new Error(`${options.service} ${outcome} before it was ready:\n${tail.join('\n')}`);
  }
  return { pid: child.pid!, tail: () => tail.join('\n'), stop };
}
