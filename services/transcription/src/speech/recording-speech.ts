/**
 * What a recording is heard with: a speech engine, the speech server's diarization when it has
 * one (for mono recordings), and what its transcript should say about how it was heard. A
 * provider picks them for each recording, so that a host whose own speech server cannot be set up
 * can hear with PocketSphinx instead and say so (local-speech.ts).
 */
import type { Diarizer } from './diarization-client.js';
import type { SpeechEngine } from './speech-engine.js';

export interface RecordingSpeech {
  engine: SpeechEngine;
  /** Who speaks when in a mono recording; without it the built-in method (domain/speaker-turns). */
  diarizer?: Diarizer | undefined;
  /** Sentences for the transcript's warnings, for a manager reading the evaluation. */
  warnings: string[];
}

export interface SpeechProvider {
  /** For logs and the service's description, e.g. 'local:whisper-tiny.en'. */
  readonly name: string;
  /** What the next recording is heard with; a SpeechServerUnavailable when it has to wait for the speech server. */
  forRecording(signal?: AbortSignal): Promise<RecordingSpeech>;
}

/** Always the same engine (and diarizer), without warnings. */
export function fixedSpeech(engine: SpeechEngine, diarizer?: Diarizer): SpeechProvider {
  const speech: RecordingSpeech = { engine, diarizer, warnings: [] };
  return { name: engine.name, forRecording: async () => speech };
}
