import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait-for.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface HostProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts `services/host/src/main.ts` (or another entry point) as a real process. */
export function startHostProcess(args: string[], env: Record<string, string>, entry = 'services/host/src/main.ts'): HostProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export function waitUntilReady(adminPort: number, process: HostProcess, timeoutMs = 60_000): Promise<true> {
  return waitFor(
    'the host to report ready',
    async () => {
      if (process.child.exitCode !== null) throw new Error(`host exited early:\n${process.output()}`);
      const response = await fetch(`http://127.0.0.1:${adminPort}/readyz`).catch(() => undefined);
      return response?.status === 200 ? (true as const) : undefined;
    },
    timeoutMs,
  );
}
