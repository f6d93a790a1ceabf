import { availableParallelism } from 'node:os';
import Type from 'typebox';
import { ConfigError, loadConfig } from '@parlance/platform/config';
import { createOpenAiSpeechEngine } from './speech/openai-engine.js';
import { createPocketSphinxEngine } from './speech/pocketsphinx-engine.js';
import type { SpeechEngine } from './speech/speech-engine.js';

export const TranscriptionConfigSchema = Type.Object({
  TRANSCRIPTION_SPEECH_ENGINE: Type.Optional(
    Type.Union([Type.Literal('pocketsphinx'), Type.Literal('openai')], {
      description:
        "which speech engine transcribes audio: 'pocketsphinx' (offline, Debian packages pocketsphinx and pocketsphinx-en-us) or 'openai' (an OpenAI-compatible server at TRANSCRIPTION_SPEECH_URL); unset means 'openai' when TRANSCRIPTION_SPEECH_URL is set, else 'pocketsphinx'",
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
    description: 'how long to wait for the speech server to transcribe one piece of audio (at most 30 s of it)',
  }),
  TRANSCRIPTION_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 1024,
    // One CPU is left to the process itself: in standalone it runs every service, and a speech
    // engine on every CPU slowed the rest of the pipeline more than it sped the recordings.
    default: Math.max(1, availableParallelism() - 1),
    description: 'how many pieces of audio this process transcribes at once, across channels and activities (default: the number of CPUs less one, at least one)',
  }),
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
      engine: 'openai';
      /** Without a trailing slash; requests go to `${baseUrl}/audio/transcriptions`. */
      baseUrl: string;
      model: string;
      apiKey: string | undefined;
      timeoutMs: number;
    };

export interface TranscriptionConfig {
  speech: SpeechSettings;
  /** At most this many pieces of audio are transcribed at once, across channels and jobs. */
  concurrency: number;
  /** Activities transcribed at once. */
  workers: number;
  leaseMs: number;
  /** 0 left, 1 right; undefined: told by what is said. */
  representativeChannel: 0 | 1 | undefined;
}

const SERVER_VARIABLES = ['TRANSCRIPTION_SPEECH_URL', 'TRANSCRIPTION_SPEECH_MODEL', 'TRANSCRIPTION_SPEECH_API_KEY'] as const;

/** Reads the transcription settings; throws ConfigError naming each bad variable. */
export function loadTranscriptionConfig(env: NodeJS.ProcessEnv = process.env): TranscriptionConfig {
  const raw = loadConfig(TranscriptionConfigSchema, env);
  const engine = raw.TRANSCRIPTION_SPEECH_ENGINE ?? (raw.TRANSCRIPTION_SPEECH_URL ? 'openai' : 'pocketsphinx');
  const concurrency = raw.TRANSCRIPTION_CONCURRENCY;
  const channel = { auto: undefined, left: 0, right: 1 } as const;
  const work = {
    workers: raw.TRANSCRIPTION_WORKERS,
    leaseMs: raw.TRANSCRIPTION_LEASE_SECONDS * 1000,
    representativeChannel: channel[raw.TRANSCRIPTION_REPRESENTATIVE_CHANNEL],
  };

  if (engine === 'pocketsphinx') {
    // Server settings beside the offline engine would be silently ignored; say so instead.
    const stray = SERVER_VARIABLES.filter((name) => raw[name]);
    if (stray.length > 0) {
      const why = raw.TRANSCRIPTION_SPEECH_ENGINE ? 'TRANSCRIPTION_SPEECH_ENGINE is pocketsphinx' : 'TRANSCRIPTION_SPEECH_URL is not';
      throw new ConfigError(stray.map((name) => `${name} is set but ${why} (set TRANSCRIPTION_SPEECH_URL and TRANSCRIPTION_SPEECH_MODEL to use a speech server, or neither for PocketSphinx)`));
    }
    return { speech: { engine: 'pocketsphinx' }, concurrency, ...work };
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

/** The engine the settings name. */
export function createSpeechEngine(settings: SpeechSettings): SpeechEngine {
  if (settings.engine === 'pocketsphinx') return createPocketSphinxEngine();
  const { baseUrl, model, apiKey, timeoutMs } = settings;
  return createOpenAiSpeechEngine({ baseUrl, model, apiKey, timeoutMs });
}

/** The URL with any user and password replaced, safe to print in an error. */
function maskUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/i, '$1***@');
}
