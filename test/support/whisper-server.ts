/**
 * Starts the product's speech server (services/speech/server/server.py), a real OpenAI-compatible
 * transcription server running Whisper tiny.en offline, with Parlance's diarization extension
 * (POST /v1/audio/diarization), from the Python environment services/speech/install.sh installs in
 * .run/speech-venv (`make test` and `make bench` run it first). Listens on 127.0.0.1 unless told
 * otherwise (tests and benchmarks never need another address).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface WhisperServer {
  /** The OpenAI-compatible base URL, like http://127.0.0.1:PORT/v1. */
  url: string;
  /** The server's root, like http://127.0.0.1:PORT (for /health). */
  origin: string;
  /** The model it serves, for the request's `model` field (it accepts any name). */
  model: string;
  /** The server's process id, for benchmarks that measure its memory. */
  pid: number;
  /** How the process ended, once it has. */
  exited: Promise<ServerExit>;
  stop(): Promise<void>;
}

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface WhisperServerOptions {
  /** Requests must then carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** How long loading the model may take. */
  startTimeoutMs?: number;
  /** The address to listen on (default 127.0.0.1). */
  host?: string;
  /** CPU threads a request may use (default: the server's own, every CPU it may use). */
  threads?: number;
}

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const PYTHON = join(repoRoot, '.run', 'speech-venv', 'bin', 'python');
const SERVER = join(repoRoot, 'services', 'speech', 'server', 'server.py');
const STOP_GRACE_MS = 5_000;

export async function startWhisperServer(options: WhisperServerOptions = {}): Promise<WhisperServer> {
  if (!existsSync(PYTHON)) throw new Error(`Whisper is not installed in ${PYTHON}: run services/speech/install.sh (make test does)`);
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HF_HUB_OFFLINE: '1', PYTHONUNBUFFERED: '1' };
  if (options.apiKey) env.WHISPER_API_KEY = options.apiKey;
  const args = [SERVER, '--host', options.host ?? '127.0.0.1', '--port', '0'];
  if (options.threads !== undefined) args.push('--threads', String(options.threads));
  const child = spawn(PYTHON, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });

  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4_000)));
  const exited = new Promise<ServerExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const failure = (what: string) => new Error(`the speech server ${what}${stderr.trim() ? `:\n${stderr.trim()}` : ''}`);

  const timeoutMs = options.startTimeoutMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  const lines = createInterface({ input: child.stdout });
  try {
    const address = await new Promise<{ host: string; port: number }>((resolve, reject) => {
      timer = setTimeout(() => reject(failure(`did not start listening within ${timeoutMs / 1000} s`)), timeoutMs);
      child.once('error', (error) => reject(failure(`could not be started (${error.message})`)));
      // 'close' rather than 'exit': by then its last words on stderr have been read.
      child.once('close', (code, signal) => reject(failure(`exited before listening (${signal ?? `exit code ${code}`})`)));
      lines.once('line', (line) => {
        const match = /^listening on (\S+):(\d+)$/.exec(line.trim());
        if (match) resolve({ host: match[1]!, port: Number(match[2]) });
        else reject(failure(`said something unexpected first: ${JSON.stringify(line)}`));
      });
    });
    const origin = `http://${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
    return {
      url: `${origin}/v1`,
      origin,
      model: 'whisper-tiny.en',
      pid: child.pid!,
      exited,
      stop: () => stop(child, exited),
    };
  } catch (error) {
    await stop(child, exited);
    throw error;
  } finally {
    clearTimeout(timer);
    lines.close();
    // Keep reading stdout so that the server never blocks on a full pipe.
    child.stdout.resume();
  }
}

async function stop(child: ReturnType<typeof spawn>, exited: Promise<ServerExit>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(killer);
}
