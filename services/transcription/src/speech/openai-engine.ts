/**
 * The speech engine for any server speaking OpenAI's transcription API (OpenAI itself, a
 * faster-whisper or whisper.cpp server, vLLM, Parlance's own speech server): `POST
 * {baseUrl}/audio/transcriptions` with a multipart form holding the piece of audio as a 16 kHz
 * mono WAV file, the model, `response_format=verbose_json` and `timestamp_granularities[]` word and
 * segment.
 *
 * Word times come from the answer's `words` ([{word, start, end}] in seconds). A server that gives
 * only `segments` has each segment's time shared evenly among its words; one that gives only
 * `text` has the piece's whole length shared among them. The words of a segment Whisper itself
 * marks as unreliable are dropped (see UNRELIABLE_SEGMENT): that is how its hallucinations over
 * noise and its repetition loops look, and a transcript without them is better than one with.
 *
 * Every failure is a SpeechError that says what went wrong and never contains the API key. A
 * server that cannot be reached (refused, reset, not found) or says it is briefly unable
 * (502, 503, 504) gives a SpeechServerUnavailable: the recording can wait for it.
 */
import { encodeWav16k, pcmDurationMs, type Pcm16k } from '../domain/pcm.js';
import { normalizeRecognizedWord, type TimedWord } from '../domain/transcript-words.js';
import type { SpeechEngine, TranscribeOptions } from './speech-engine.js';
import { SpeechError, SpeechServerUnavailable } from './speech-error.js';

export interface OpenAiSpeechOptions {
  /** The OpenAI-compatible base URL, e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1. */
  baseUrl: string;
  /** e.g. whisper-1, Systran/faster-whisper-small. */
  model: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string | undefined;
  /** How long to wait for the answer to one piece of audio. */
  timeoutMs: number;
}

interface VerboseTranscription {
  text?: unknown;
  words?: unknown;
  segments?: unknown;
}

// Enough of a server's error message to explain it, not a page of HTML.
const SERVER_MESSAGE_MAX_LENGTH = 300;

export function createOpenAiSpeechEngine(options: OpenAiSpeechOptions): SpeechEngine {
  const url = `${options.baseUrl.trim().replace(/\/+$/, '')}/audio/transcriptions`;
  const scrub = (text: string) => withoutSecrets(text, options.apiKey);

  return {
    name: `openai:${options.model}`,
    async transcribe(pcm: Pcm16k, transcribeOptions: TranscribeOptions = {}): Promise<TimedWord[]> {
      if (pcm.length === 0) return [];
      const form = new FormData();
      form.append('file', new Blob([encodeWav16k(pcm)], { type: 'audio/wav' }), 'audio.wav');
      form.append('model', options.model);
      form.append('response_format', 'verbose_json');
      form.append('timestamp_granularities[]', 'word');
      form.append('timestamp_granularities[]', 'segment');
      const { status, text } = await postToSpeechServer(url, form, { apiKey: options.apiKey, timeoutMs: options.timeoutMs, signal: transcribeOptions.signal, scrub });
      if (status < 200 || status > 299) throw answerFailure(status, text, scrub);
      let body: VerboseTranscription;
      try {
        body = JSON.parse(text) as VerboseTranscription;
      } catch {
        throw new SpeechError('the speech server answered with something that is not JSON');
      }
      if (typeof body !== 'object' || body === null) throw new SpeechError('the speech server answered without a transcription');
      return wordsOfTranscription(body, pcmDurationMs(pcm));
    },
  };
}

/**
 * Whisper's own signs of a segment it made up (the thresholds its reference implementation uses):
 * it thinks there was no speech and is unsure of the words, or the words repeat themselves so
 * much that they compress like a loop. Servers that leave these fields out are taken at their word.
 */
export const UNRELIABLE_SEGMENT = { noSpeechProb: 0.6, avgLogprob: -1, compressionRatio: 2.4 } as const;

interface SegmentJson {
  text?: unknown;
  start?: unknown;
  end?: unknown;
  no_speech_prob?: unknown;
  avg_logprob?: unknown;
  compression_ratio?: unknown;
}

/**
 * The timed words of a verbose_json transcription of audio `durationMs` long: its `words` when it
 * has any, else its `segments` with times shared evenly, else its `text` spread over the audio;
 * without the words of unreliable segments.
 */
export function wordsOfTranscription(body: VerboseTranscription, durationMs: number): TimedWord[] {
  const clamp = (ms: number) => Math.min(durationMs, Math.max(0, Math.round(ms)));
  const segments = (Array.isArray(body.segments) ? (body.segments as SegmentJson[]) : []).filter((segment) => typeof segment === 'object' && segment !== null);
  const unreliable = segments.filter(isUnreliable).map((segment) => ({ startMs: clamp(Number(segment.start) * 1000), endMs: clamp(Number(segment.end) * 1000) }));
  const inUnreliable = (word: TimedWord) => {
    const middle = (word.startMs + word.endMs) / 2;
    return unreliable.some((segment) => middle >= segment.startMs && middle <= segment.endMs);
  };
  if (Array.isArray(body.words) && body.words.length > 0) {
    const words: TimedWord[] = [];
    for (const item of body.words as Array<{ word?: unknown; start?: unknown; end?: unknown }>) {
      const text = typeof item?.word === 'string' ? normalizeRecognizedWord(item.word) : undefined;
      if (text === undefined || typeof item.start !== 'number' || typeof item.end !== 'number') continue;
      const startMs = clamp(item.start * 1000);
      words.push({ text, startMs, endMs: Math.max(startMs, clamp(item.end * 1000)) });
    }
    return words.filter((word) => !inUnreliable(word)).sort((a, b) => a.startMs - b.startMs);
  }
  if (segments.length > 0) {
    const words: TimedWord[] = [];
    for (const segment of segments) {
      if (typeof segment.text !== 'string' || isUnreliable(segment)) continue;
      const start = typeof segment.start === 'number' ? clamp(segment.start * 1000) : 0;
      const end = typeof segment.end === 'number' ? clamp(segment.end * 1000) : durationMs;
      words.push(...spreadWords(segment.text, start, Math.max(start, end)));
    }
    return words.sort((a, b) => a.startMs - b.startMs);
  }
  return typeof body.text === 'string' ? spreadWords(body.text, 0, durationMs) : [];
}

function isUnreliable(segment: SegmentJson): boolean {
  const { no_speech_prob: noSpeech, avg_logprob: logprob, compression_ratio: compression } = segment;
  if (typeof segment.start !== 'number' || typeof segment.end !== 'number') return false;
  if (typeof noSpeech === 'number' && typeof logprob === 'number' && noSpeech > UNRELIABLE_SEGMENT.noSpeechProb && logprob < UNRELIABLE_SEGMENT.avgLogprob) return true;
  return typeof compression === 'number' && compression > UNRELIABLE_SEGMENT.compressionRatio;
}

/** Statuses of a server (or the proxy before it) that is there but briefly cannot answer. */
const UNAVAILABLE_STATUSES = new Set([502, 503, 504]);

export interface SpeechRequestOptions {
  apiKey: string | undefined;
  /** How long to wait for the whole answer. */
  timeoutMs: number;
  /** The caller's: when it aborts, the request rejects with its reason. */
  signal: AbortSignal | undefined;
  /** Masks secrets in what is said about a failure. */
  scrub: (text: string) => string;
}

/**
 * POSTs a multipart form to the speech server and reads its answer, whatever the status. No answer
 * at all rejects: with the caller's reason, a SpeechError for a time-out or a refused certificate,
 * or a SpeechServerUnavailable for a server that is not there (yet).
 */
export async function postToSpeechServer(url: string, form: FormData, options: SpeechRequestOptions): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const callerSignal = options.signal;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
  try {
    const response = await fetch(url, { method: 'POST', headers, body: form, signal });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    throw requestFailure(error, { callerSignal, timeout, timeoutMs: options.timeoutMs, scrub: options.scrub });
  }
}

/** Why a request to the speech server got no answer at all: gone, timed out, or stopped by the caller. */
function requestFailure(
  error: unknown,
  context: { callerSignal: AbortSignal | undefined; timeout: AbortSignal; timeoutMs: number; scrub: (text: string) => string },
): unknown {
  if (context.callerSignal?.aborted) return context.callerSignal.reason;
  if (context.timeout.aborted) return new SpeechError(`the speech server did not answer within ${describeMs(context.timeoutMs)}`, { cause: error });
  const reason = context.scrub(networkReason(error));
  // A certificate the client refuses does not get better by waiting; a server that is not there yet may come.
  if (/CERT|SSL|TLS/i.test(reason)) return new SpeechError(`the speech server could not be reached (${reason})`, { cause: error });
  return new SpeechServerUnavailable(`the speech server could not be reached (${reason})`, { cause: error });
}

/** The error for a server's answer that is not a success, with what it said. */
export function answerFailure(status: number, text: string, scrub: (text: string) => string): SpeechError {
  const detail = serverMessage(text);
  const message = `the speech server answered ${status}${detail ? `: ${scrub(detail)}` : ''}`;
  return UNAVAILABLE_STATUSES.has(status) ? new SpeechServerUnavailable(message) : new SpeechError(message);
}

/** The words of `text`, sharing the time from startMs to endMs evenly. */
function spreadWords(text: string, startMs: number, endMs: number): TimedWord[] {
  const tokens = text
    .split(/\s+/)
    .map((token) => normalizeRecognizedWord(token))
    .filter((token): token is string => token !== undefined);
  const each = tokens.length > 0 ? (endMs - startMs) / tokens.length : 0;
  return tokens.map((word, index) => ({
    text: word,
    startMs: Math.round(startMs + index * each),
    endMs: Math.round(startMs + (index + 1) * each),
  }));
}

/** OpenAI's `{"error": {"message": …}}`, or a plain `{"message": …}`, `{"error": "…"}` or `{"detail": "…"}`, or short text. */
function serverMessage(text: string): string | undefined {
  let message: string | undefined;
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown } | null;
    const error = body?.error;
    if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') message = (error as { message: string }).message;
    else if (typeof error === 'string') message = error;
    else if (typeof body?.message === 'string') message = body.message;
    else if (typeof body?.detail === 'string') message = body.detail;
  } catch {
    // Not JSON: a proxy's plain-text answer says something; an HTML error page does not.
    if (!/^\s*</.test(text)) message = text;
  }
  const trimmed = message?.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  if (!trimmed) return undefined;
  return trimmed.length > SERVER_MESSAGE_MAX_LENGTH ? `${trimmed.slice(0, SERVER_MESSAGE_MAX_LENGTH - 1)}…` : trimmed;
}

/** What undici's "fetch failed" hides in its cause: ECONNREFUSED, ENOTFOUND, a TLS error, the other side closing… */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  // undici's own code for a connection the server closed says less than its message.
  if (cause?.code === 'UND_ERR_SOCKET' && typeof cause.message === 'string') return `the connection was closed: ${cause.message}`;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** The text with the API key, and anything shaped like a bearer token or an OpenAI key, masked. */
export function withoutSecrets(text: string, apiKey: string | undefined): string {
  const masked = apiKey ? text.split(apiKey).join('***') : text;
  return masked.replace(/\bBearer\s+\S+/gi, 'Bearer ***').replace(/\bsk-[A-Za-z0-9_-]{8,}/g, 'sk-***');
}

function describeMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
