/**
 * Starts the product's speech server (services/speech/server/server.py), a real OpenAI-compatible
 * transcription server running Whisper tiny.en offline, from the Python environment
 * services/speech/install.sh installs in .run/speech-venv (`make test` and `make bench` run it
 * first). Listens on 127.0.0.1 only.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface WhisperServer {
  /** The OpenAI-compatible base URL, like http://127.0.0.1:PORT/v1. */
  url: string;
  /** The model it serves, for the request's `model` field (it accepts any name). */
  model: string;
  /** The server's process id, for benchmarks that measure its memory. */
  pid: number;
  stop(): Promise<void>;
}

export interface WhisperServerOptions {
  /** Requests must then carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** How long loading the model may take. */
  startTimeoutMs?: number;
}

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const PYTHON = join(repoRoot, '.run', 'speech-venv', 'bin', 'python');
const SERVER = join(repoRoot, 'services', 'speech', 'server', 'server.py');
const STOP_GRACE_MS = 5_000;

export async function startWhisperServer(options: WhisperServerOptions = {}): Promise<WhisperServer> {
  if (!existsSync(PYTHON)) throw new Error(`Whisper is not installed in ${PYTHON}: run services/speech/install.sh (make test does)`);
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HF_HUB_OFFLINE: '1', PYTHONUNBUFFERED: '1' };
  if (options.apiKey) env.WHISPER_API_KEY = options.apiKey;
  const child = spawn(PYTHON, [SERVER, '--port', '0'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });

  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const failure = (what: string) => new Error(`the Whisper server ${what}${stderr.trim() ? `:\n${stderr.trim()}` : ''}`);

  const timeoutMs = options.startTimeoutMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  const lines = createInterface({ input: child.stdout });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      timer = setTimeout(() => reject(failure(`did not start listening within ${timeoutMs / 1000} s`)), timeoutMs);
      child.once('error', (error) => reject(failure(`could not be started (${error.message})`)));
      // 'close' rather than 'exit': by then its last words on stderr have been read.
      child.once('close', (code, signal) => reject(failure(`exited before listening (${signal ?? `exit code ${code}`})`)));
      lines.once('line', (line) => {
        const match = /^listening on 127\.0\.0\.1:(\d+)$/.exec(line.trim());
        if (match) resolve(Number(match[1]));
        else reject(failure(`said something unexpected first: ${JSON.stringify(line)}`));
      });
    });
    return {
      url: `http://127.0.0.1:${port}/v1`,
      model: 'whisper-tiny.en',
      pid: child.pid!,
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

async function stop(child: ReturnType<typeof spawn>, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(killer);
}
