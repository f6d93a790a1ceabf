import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEMO_ACCOUNT } from '@parlance/identity/demo-account';
import { ApiClient } from './api-client.js';
import { freePort } from './free-port.js';
import { waitFor } from './wait-for.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Where a standalone product started by a test keeps its data, and the free loopback ports it listens on. */
export async function standaloneEnv(dataDir: string): Promise<{ DATA_DIR: string; GRPC_PORT: string; ADMIN_PORT: string; GATEWAY_PORT: string }> {
  return { DATA_DIR: dataDir, GRPC_PORT: String(await freePort()), ADMIN_PORT: String(await freePort()), GATEWAY_PORT: String(await freePort()) };
}

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

export interface DemoProduct {
  host: HostProcess;
  /** A browser signed in (if `signInStatus` is 200) as the demo account. */
  demo: ApiClient;
  /** What the demo sign-in answered, for the test to check. */
  signInStatus: number;
}

/** Starts the standalone product (`env` needs ADMIN_PORT, GATEWAY_PORT and IDENTITY_DEMO_ACCOUNT) and signs in as the demo account. */
export async function startDemoProduct(env: Record<string, string>): Promise<DemoProduct> {
  const host = startHostProcess([], env);
  await waitUntilReady(Number(env.ADMIN_PORT), host);
  const demo = new ApiClient(`http://127.0.0.1:${env.GATEWAY_PORT}`);
  const signedIn = await demo.post('/api/auth/login', { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password });
  return { host, demo, signInStatus: signedIn.status };
}
