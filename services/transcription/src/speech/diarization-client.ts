/**
 * Who speaks when in a mono recording, from the speech server: `POST {baseUrl}/audio/diarization`,
 * Parlance's extension of OpenAI's API (see services/speech/server), with the whole recording as a
 * 16 kHz mono WAV file. It answers with speech segments and a speaker label for each. A server
 * without it (OpenAI itself, other OpenAI-compatible servers) answers 404: then the caller finds
 * the turns itself (domain/speaker-turns), and this server is not asked again for a while.
 *
 * Failures are those of the transcription requests (openai-engine.ts): a SpeechServerUnavailable
 * when the server cannot be reached or is briefly unable, else a SpeechError with what it said.
 */
import { encodeWav16k, pcmDurationMs, type Pcm16k } from '../domain/pcm.js';
import type { DiarizedSegment } from '../domain/speaker-diarization.js';
import { answerFailure, postToSpeechServer, withoutSecrets } from './openai-engine.js';
import { SpeechError } from './speech-error.js';

export interface Diarization {
  /** Speaker labels in the order they first speak. */
  speakers: string[];
  /** Sorted, not overlapping, speech only. */
  segments: DiarizedSegment[];
  /** The speaker-embedding model the server used, for logs. */
  model: string;
}

export interface DiarizeOptions {
  signal?: AbortSignal;
  /** Bounds the server may keep to (default: the server's, 1 to 8). */
  minSpeakers?: number;
  maxSpeakers?: number;
}

export interface Diarizer {
  /** Who speaks when in `pcm`; undefined when the server does not offer diarization. */
  diarize(pcm: Pcm16k, options?: DiarizeOptions): Promise<Diarization | undefined>;
}

export interface ServerDiarizerOptions {
  /** The OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1. */
  baseUrl: string;
  apiKey?: string | undefined;
  /** How long to wait for the answer, besides the recording's own length (it is heard whole). */
  timeoutMs: number;
}

/** How long a server that answered 404 is believed to have no diarization. */
const UNSUPPORTED_FOR_MS = 10 * 60_000;

export function createServerDiarizer(options: ServerDiarizerOptions): Diarizer {
  const url = `${options.baseUrl.trim().replace(/\/+$/, '')}/audio/diarization`;
  const scrub = (text: string) => withoutSecrets(text, options.apiKey);
  let unsupportedUntil = 0;

  return {
    async diarize(pcm, diarizeOptions = {}) {
      if (Date.now() < unsupportedUntil) return undefined;
      if (pcm.length === 0) return { speakers: [], segments: [], model: '' };
      const form = new FormData();
      form.append('file', new Blob([encodeWav16k(pcm)], { type: 'audio/wav' }), 'audio.wav');
      if (diarizeOptions.minSpeakers !== undefined) form.append('min_speakers', String(diarizeOptions.minSpeakers));
      if (diarizeOptions.maxSpeakers !== undefined) form.append('max_speakers', String(diarizeOptions.maxSpeakers));
      // The recording is heard whole: it gets its own length on top of the usual wait.
      const timeoutMs = options.timeoutMs + pcmDurationMs(pcm);
      const { status, text } = await postToSpeechServer(url, form, { apiKey: options.apiKey, timeoutMs, signal: diarizeOptions.signal, scrub });
      if (status === 404) {
        unsupportedUntil = Date.now() + UNSUPPORTED_FOR_MS;
        return undefined;
      }
      if (status < 200 || status > 299) throw answerFailure(status, text, scrub);
      return readDiarization(text, pcmDurationMs(pcm));
    },
  };
}

/** The answer's segments in whole milliseconds within the recording, or a SpeechError when it is not a diarization. */
export function readDiarization(text: string, durationMs: number): Diarization {
  let body: { speakers?: unknown; segments?: unknown; model?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new SpeechError('the speech server answered the diarization request with something that is not JSON');
  }
  if (typeof body !== 'object' || body === null || !Array.isArray(body.segments)) throw new SpeechError('the speech server answered the diarization request without segments');
  const clamp = (seconds: number) => Math.min(durationMs, Math.max(0, Math.round(seconds * 1000)));
  const segments: DiarizedSegment[] = [];
  for (const item of body.segments as Array<{ start?: unknown; end?: unknown; speaker?: unknown }>) {
    if (typeof item?.start !== 'number' || typeof item.end !== 'number' || typeof item.speaker !== 'string') continue;
    const startMs = clamp(item.start);
    const endMs = clamp(item.end);
    if (endMs > startMs) segments.push({ startMs, endMs, speaker: item.speaker });
  }
  segments.sort((a, b) => a.startMs - b.startMs);
  const listed = Array.isArray(body.speakers) ? body.speakers.filter((speaker): speaker is string => typeof speaker === 'string') : [];
  const speakers = [...new Set([...listed.filter((speaker) => segments.some((segment) => segment.speaker === speaker)), ...segments.map((segment) => segment.speaker)])];
  return { speakers, segments, model: typeof body.model === 'string' ? body.model : '' };
}
