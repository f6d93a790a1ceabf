/**
 * What the speech module hands to the modules that depend on it (transcription in local mode):
 * the state of the speech server it supervises and, while it serves, its URL. Types and constants
 * only, so a dependant imports nothing that runs.
 */

/** The module's name, as dependants declare it. */
export const SPEECH_MODULE = 'speech';

/** The model the speech server serves (Whisper tiny.en), as its `/v1/models` names it. */
export const SPEECH_SERVER_MODEL = 'whisper-tiny.en';

export type SpeechServerState =
  /** services/speech/install.sh is building the Python environment (or checking that it is there). */
  | 'installing'
  /** The install failed; it is tried again after a while. */
  | 'install-failed'
  /** Python cannot be set up on this machine (install.sh exit 69): the server will never run here. */
  | 'unavailable'
  /** Installed, and started on the first request for it. */
  | 'idle'
  | 'starting'
  | 'serving'
  /** It stopped unexpectedly and is started again after a pause. */
  | 'restarting'
  /** The host is stopping (or stopped) it. */
  | 'stopped';

export interface SpeechServerStatus {
  state: SpeechServerState;
  /** The OpenAI-compatible base URL, like http://127.0.0.1:PORT/v1, while serving. */
  url?: string;
  /** The Python process, while starting or serving. */
  pid?: number;
  /** Why it does not serve, in a short sentence a person can read (no trailing period). */
  reason?: string;
}

export interface WhenServingOptions {
  /** How long to wait at most; the status is whatever it is then. Default 0: do not wait. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface SpeechServer {
  status(): SpeechServerStatus;
  /**
   * Starts the server if it waits to be asked for (installed but idle), and resolves with its
   * status once it serves, once it never can (unavailable, stopped), or when the wait is over.
   */
  whenServing(options?: WhenServingOptions): Promise<SpeechServerStatus>;
  /** Calls `listener` on every change of state; returns what removes it. */
  onChange(listener: (status: SpeechServerStatus) => void): () => void;
}
