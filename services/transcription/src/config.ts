import { availableParallelism } from 'node:os';
import Type from 'typebox';
import { ConfigError, loadConfig } from '@parlance/platform/config';
import { createOpenAiSpeechEngine } from './speech/openai-engine.js';
import { createPocketSphinxEngine } from './speech/pocketsphinx-engine.js';
import type { SpeechEngine } from './speech/speech-engine.js';

/**
 * The transcription service's settings. The speech engine is Whisper in every mode: 'local' runs
 * Parlance's own speech server in this process (the `speech` module), 'openai' uses any
 * OpenAI-compatible server (the speech process of `make up`, the chart's speech Deployment,
 * OpenAI itself), and 'pocketsphinx' is the basic offline engine, chosen only explicitly (and
 * stood in by the local engine where Python cannot be set up).
 */
export const TranscriptionConfigSchema = Type.Object({
  // One enum rather than a union of literals, so a wrong value gets one problem naming the choices.
  TRANSCRIPTION_SPEECH_ENGINE: Type.Optional(
    Type.Unsafe<'local' | 'openai' | 'pocketsphinx'>({
      type: 'string',
      enum: ['local', 'openai', 'pocketsphinx'],
      description:
        "which speech engine transcribes audio: 'local' (Whisper on the speech server this process installs and runs, see SPEECH_*), 'openai' (an OpenAI-compatible server at TRANSCRIPTION_SPEECH_URL) or 'pocketsphinx' (the basic offline engine, Debian packages pocketsphinx and pocketsphinx-en-us); unset means 'openai' when TRANSCRIPTION_SPEECH_URL is set, else 'local'",
    }),
  ),
  TRANSCRIPTION_SPEECH_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^/?#\\s]+(/[^?#\\s]*)?$',
      // A URL may carry user:password; a config error shows it with those masked.
      secret: maskUserInfo,
      description:
        'base URL of an OpenAI-compatible transcription API, e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1 (requests go to {url}/audio/transcriptions)',
    }),
  ),
  TRANSCRIPTION_SPEECH_MODEL: Type.Optional(
    Type.String({ minLength: 1, description: 'model name sent to TRANSCRIPTION_SPEECH_URL, e.g. whisper-1; required with it' }),
  ),
  TRANSCRIPTION_SPEECH_API_KEY: Type.Optional(
    Type.String({ minLength: 1, secret: true, description: 'API key sent as a Bearer token to TRANSCRIPTION_SPEECH_URL; unset sends none' }),
  ),
  TRANSCRIPTION_SPEECH_TIMEOUT_MS: Type.Integer({
    minimum: 1,
    maximum: 3_600_000,
    default: 120_000,
    description:
      'how long to wait for the speech server to transcribe one piece of audio (at most about 30 s of it); a diarization request of a whole recording gets this plus the recording’s length',
  }),
  TRANSCRIPTION_SPEECH_WAIT_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 7 * 24 * 3_600,
    default: 1_800,
    description:
      'how long a recording waits for a speech server that cannot be reached (being installed, starting, restarting, down, or answering 502/503/504) before its job fails; meanwhile it is tried again every few seconds',
  }),
  TRANSCRIPTION_CONCURRENCY: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1024,
      description:
        'how many requests (pieces of audio, diarizations) this process sends to the speech engine at once, across channels and activities (default: 1 for the local engine, whose server works on one request at a time with every CPU; else the number of CPUs less one, at least one)',
    }),
  ),
  TRANSCRIPTION_WORKERS: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 4,
    description:
      'how many recordings this process transcribes at once (those beyond TRANSCRIPTION_CONCURRENCY wait for a CPU meanwhile), and as many texts: texts have workers of their own, so a text never waits behind recordings',
  }),
  // One enum rather than a union of literals, so a wrong value gets one problem naming the choices.
  TRANSCRIPTION_REPRESENTATIVE_CHANNEL: Type.Unsafe<'auto' | 'left' | 'right'>({
    type: 'string',
    enum: ['auto', 'left', 'right'],
    default: 'auto',
    description:
      "the channel a two-channel call recorder puts the representative on ('left' or 'right'), which makes the roles of stereo calls exact; 'auto' tells them by names and greetings",
  }),
  TRANSCRIPTION_LEASE_SECONDS: Type.Integer({
    minimum: 3,
    maximum: 3_600,
    default: 60,
    description: 'how long a claim on an activity lasts unless renewed; the work of a process that died is taken up again after this long',
  }),
});

export type SpeechSettings =
  | { engine: 'pocketsphinx' }
  | {
      engine: 'local';
      /** How long to wait for the server to transcribe one piece. */
      timeoutMs: number;
    }
  | {
      engine: 'openai';
      /** Without a trailing slash; requests go to `${baseUrl}/audio/transcriptions`. */
      baseUrl: string;
      model: string;
      apiKey: string | undefined;
      timeoutMs: number;
    };

export interface TranscriptionConfig {
  speech: SpeechSettings;
  /** How long a recording waits for an unreachable speech server before it fails. */
  speechWaitMs: number;
  /** At most this many pieces of audio are transcribed at once, across channels and jobs. */
  concurrency: number;
  /** Activities transcribed at once. */
  workers: number;
  leaseMs: number;
  /** 0 left, 1 right; undefined: told by what is said. */
  representativeChannel: 0 | 1 | undefined;
}

const SERVER_VARIABLES = ['TRANSCRIPTION_SPEECH_URL', 'TRANSCRIPTION_SPEECH_MODEL', 'TRANSCRIPTION_SPEECH_API_KEY'] as const;

/**
 * The local engine's server works on one request at a time with every CPU, so more at once only
 * queue there, where their timeouts run: a piece queued behind the diarization of an hour-long
 * call would time out. Here they wait in the limiter instead, which has no timeout.
 */
export const LOCAL_ENGINE_CONCURRENCY = 1;

/** Reads the transcription settings; throws ConfigError naming each bad variable. */
export function loadTranscriptionConfig(env: NodeJS.ProcessEnv = process.env): TranscriptionConfig {
  const raw = loadConfig(TranscriptionConfigSchema, env);
  const engine = raw.TRANSCRIPTION_SPEECH_ENGINE ?? (raw.TRANSCRIPTION_SPEECH_URL ? 'openai' : 'local');
  // One CPU is left to the process itself: in standalone it runs every service, and a speech
  // engine on every CPU slowed the rest of the pipeline more than it sped the recordings.
  const concurrency = raw.TRANSCRIPTION_CONCURRENCY ?? (engine === 'local' ? LOCAL_ENGINE_CONCURRENCY : Math.max(1, availableParallelism() - 1));
  const channel = { auto: undefined, left: 0, right: 1 } as const;
  const work = {
    speechWaitMs: raw.TRANSCRIPTION_SPEECH_WAIT_SECONDS * 1000,
    workers: raw.TRANSCRIPTION_WORKERS,
    leaseMs: raw.TRANSCRIPTION_LEASE_SECONDS * 1000,
    representativeChannel: channel[raw.TRANSCRIPTION_REPRESENTATIVE_CHANNEL],
  };

  if (engine === 'pocketsphinx' || engine === 'local') {
    // Server settings beside an engine that does not use them would be silently ignored; say so instead.
    const stray = SERVER_VARIABLES.filter((name) => raw[name]);
    if (stray.length > 0) {
      const why = raw.TRANSCRIPTION_SPEECH_ENGINE ? `TRANSCRIPTION_SPEECH_ENGINE is ${engine}` : 'TRANSCRIPTION_SPEECH_URL is not';
      const instead = !raw.TRANSCRIPTION_SPEECH_ENGINE
        ? 'set TRANSCRIPTION_SPEECH_URL and TRANSCRIPTION_SPEECH_MODEL to use another speech server, or neither for the local one'
        : engine === 'local'
          ? 'the local engine runs its own speech server: set TRANSCRIPTION_SPEECH_ENGINE=openai to use another one, or remove the server settings'
          : 'set TRANSCRIPTION_SPEECH_ENGINE=openai with TRANSCRIPTION_SPEECH_URL and TRANSCRIPTION_SPEECH_MODEL to use a speech server, or none of them for PocketSphinx';
      throw new ConfigError(stray.map((name) => `${name} is set but ${why} (${instead})`));
    }
    const speech: SpeechSettings = engine === 'local' ? { engine, timeoutMs: raw.TRANSCRIPTION_SPEECH_TIMEOUT_MS } : { engine };
    return { speech, concurrency, ...work };
  }

  const problems: string[] = [];
  if (!raw.TRANSCRIPTION_SPEECH_URL) problems.push('TRANSCRIPTION_SPEECH_URL is required when TRANSCRIPTION_SPEECH_ENGINE is openai (the server\'s base URL, e.g. https://api.openai.com/v1)');
  if (!raw.TRANSCRIPTION_SPEECH_MODEL) {
    problems.push(
      raw.TRANSCRIPTION_SPEECH_URL
        ? 'TRANSCRIPTION_SPEECH_MODEL is required when TRANSCRIPTION_SPEECH_URL is set (the model name the server should run, e.g. whisper-1)'
        : 'TRANSCRIPTION_SPEECH_MODEL is required when TRANSCRIPTION_SPEECH_ENGINE is openai (the model name the server should run, e.g. whisper-1)',
    );
  }
  if (problems.length > 0 || !raw.TRANSCRIPTION_SPEECH_URL || !raw.TRANSCRIPTION_SPEECH_MODEL) throw new ConfigError(problems);
  return {
    speech: {
      engine: 'openai',
      baseUrl: raw.TRANSCRIPTION_SPEECH_URL.replace(/\/+$/, ''),
      model: raw.TRANSCRIPTION_SPEECH_MODEL,
      apiKey: raw.TRANSCRIPTION_SPEECH_API_KEY,
      timeoutMs: raw.TRANSCRIPTION_SPEECH_TIMEOUT_MS,
    },
    concurrency,
    ...work,
  };
}

/** The engine the settings name; not the local engine, which needs the speech module's server (speech/local-speech). */
export function createSpeechEngine(settings: SpeechSettings): SpeechEngine {
  if (settings.engine === 'pocketsphinx') return createPocketSphinxEngine();
  if (settings.engine === 'local') throw new Error('the local engine is made from the speech module’s server (createLocalSpeech), not from settings alone');
  const { baseUrl, model, apiKey, timeoutMs } = settings;
  return createOpenAiSpeechEngine({ baseUrl, model, apiKey, timeoutMs });
}

/** The URL with any user and password replaced, safe to print in an error. */
function maskUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/i, '$1***@');
}
