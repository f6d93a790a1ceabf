/**
 * The local engine: Whisper on the speech server this process supervises (the `speech` module,
 * services/speech). For each recording it asks the module for the server: one that waits to be
 * started on demand is started, and one that is starting or restarting is waited for a little;
 * while it still cannot serve (installing, restarting, stopped) the recording waits (a
 * SpeechServerUnavailable). Where Python cannot be set up at all, recordings are heard by
 * PocketSphinx instead, with a warning in the log (once) and on each such transcript.
 */
import type { Logger } from '@parlance/platform/logger';
import { SPEECH_SERVER_MODEL, type SpeechServer, type SpeechServerStatus } from '@parlance/speech/speech-server';
import { createServerDiarizer, type Diarizer } from './diarization-client.js';
import { createOpenAiSpeechEngine } from './openai-engine.js';
import { createPocketSphinxEngine } from './pocketsphinx-engine.js';
import type { RecordingSpeech, SpeechProvider } from './recording-speech.js';
import type { SpeechEngine } from './speech-engine.js';
import { SpeechServerUnavailable } from './speech-error.js';

export const LOCAL_ENGINE_NAME = `local:${SPEECH_SERVER_MODEL}`;

export const BASIC_ENGINE_WARNING =
  'This recording was transcribed by the basic offline speech engine, because the Whisper speech server could not be set up on this server: some words may be wrong.';

export interface LocalSpeechOptions {
  server: SpeechServer;
  logger: Logger;
  /** How long to wait for the server to transcribe one piece of audio. */
  timeoutMs: number;
  /** How long a recording waits for a server that is starting before it is handed back to wait. Default 30 s. */
  startWaitMs?: number;
  /** What hears recordings where Python cannot be set up. Default PocketSphinx. */
  fallback?: SpeechEngine;
}

export function createLocalSpeech(options: LocalSpeechOptions): SpeechProvider {
  const { server, logger } = options;
  const startWaitMs = options.startWaitMs ?? 30_000;
  let current: { url: string; speech: RecordingSpeech } | undefined;
  let fallback: RecordingSpeech | undefined;

  function whisperAt(url: string): RecordingSpeech {
    if (current?.url !== url) {
      // A restarted server may listen on another port: the engine follows it.
      const whisper = createOpenAiSpeechEngine({ baseUrl: url, model: SPEECH_SERVER_MODEL, timeoutMs: options.timeoutMs });
      const diarizer: Diarizer = createServerDiarizer({ baseUrl: url, timeoutMs: options.timeoutMs });
      current = { url, speech: { engine: { name: LOCAL_ENGINE_NAME, transcribe: (pcm, transcribeOptions) => whisper.transcribe(pcm, transcribeOptions) }, diarizer, warnings: [] } };
    }
    return current.speech;
  }

  function basicEngine(status: SpeechServerStatus): RecordingSpeech {
    if (!fallback) {
      logger.warn({ reason: status.reason }, 'the Whisper speech server cannot run here, so recordings are transcribed by PocketSphinx, the basic offline engine; their transcripts say so');
      fallback = { engine: options.fallback ?? createPocketSphinxEngine(), warnings: [BASIC_ENGINE_WARNING] };
    }
    return fallback;
  }

  return {
    name: LOCAL_ENGINE_NAME,
    async forRecording(signal) {
      const now = server.status();
      const worthWaiting = now.state === 'idle' || now.state === 'starting' || now.state === 'restarting';
      const status = await server.whenServing({ timeoutMs: worthWaiting ? startWaitMs : 0, ...(signal ? { signal } : {}) });
      signal?.throwIfAborted();
      if (status.state === 'serving' && status.url) return whisperAt(status.url);
      if (status.state === 'unavailable') return basicEngine(status);
      throw new SpeechServerUnavailable(status.reason ?? 'the speech server is not serving');
    },
  };
}
