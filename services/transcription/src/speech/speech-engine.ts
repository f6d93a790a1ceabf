/**
 * A speech recogniser: PocketSphinx offline, or any OpenAI-compatible transcription server. It is
 * given one channel of audio at a time, a piece of at most about 30 s (see domain/silence-chunks),
 * and answers with the words it heard, timed from the start of that piece. Failures are
 * SpeechErrors; an aborted signal rejects with the signal's reason.
 */
import type { Pcm16k } from '../domain/pcm.js';
import type { TimedWord } from '../domain/transcript-words.js';

export interface TranscribeOptions {
  signal?: AbortSignal;
}

export interface SpeechEngine {
  /** For logs and metrics, e.g. 'pocketsphinx' or 'openai:whisper-1'. */
  readonly name: string;
  /** The words in `pcm`, in order, with times in ms from its first sample. */
  transcribe(pcm: Pcm16k, options?: TranscribeOptions): Promise<TimedWord[]>;
}
