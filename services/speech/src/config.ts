/**
 * The speech module's settings: where the speech server listens, where its Python environment
 * lives and which Python builds it, and how many CPU threads it may use. A bad value stops the
 * process at start with a message naming the variable (exit 78, like every other setting).
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Type from 'typebox';
import { loadConfig, Port } from '@parlance/platform/config';

/** The repository (or image) root: install.sh, server.py and the default environment are found from it. */
export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export const SpeechConfigSchema = Type.Object({
  SPEECH_HOST: Type.String({ minLength: 1, default: '127.0.0.1', description: 'the interface the speech server listens on' }),
  SPEECH_PORT: Port('the port the speech server listens on (0 picks a free one)', 0),
  SPEECH_VENV_DIR: Type.String({
    minLength: 1,
    default: resolve(REPO_ROOT, '.run', 'speech-venv'),
    description: 'the Python virtual environment the speech server runs from; services/speech/install.sh creates it when missing',
  }),
  SPEECH_PYTHON: Type.String({ minLength: 1, default: 'python3', description: 'the Python that creates the virtual environment (a name on the PATH or a path)' }),
  SPEECH_THREADS: Type.Integer({
    minimum: 1,
    maximum: 1024,
    default: availableParallelism(),
    description: 'CPU threads the speech server uses for one request (default: the CPUs this process may use)',
  }),
});

export interface SpeechConfig {
  host: string;
  port: number;
  /** Absolute. */
  venvDir: string;
  python: string;
  threads: number;
}

/** Reads the speech settings; throws ConfigError naming each bad variable. */
export function loadSpeechConfig(env: NodeJS.ProcessEnv = process.env): SpeechConfig {
  const raw = loadConfig(SpeechConfigSchema, env);
  return { host: raw.SPEECH_HOST, port: raw.SPEECH_PORT, venvDir: resolve(raw.SPEECH_VENV_DIR), python: raw.SPEECH_PYTHON, threads: raw.SPEECH_THREADS };
}
