/**
 * Stands in for an OpenAI-compatible transcription server (OpenAI itself, or a faster-whisper,
 * whisper.cpp or vLLM server), which these machines cannot reach: a real HTTP server on 127.0.0.1
 * speaking the documented Audio API at `POST /v1/audio/transcriptions`. It reads the multipart
 * form the way OpenAI does (a `file` part, `model`, `response_format`, `timestamp_granularities[]`),
 * checks the Bearer key when it was started with one, and answers in OpenAI's shapes: a
 * `verbose_json` transcription with `words` and/or `segments`, `{ text }` for `json`, plain text
 * for `text`, or `{ error: { message, type, param, code } }`.
 *
 * It recognises no speech: what it "hears" comes from the `hear` function the test passes in
 * (by default one word per second of the WAV it was sent). `timing` makes it behave like servers
 * that give fewer timings than OpenAI; `fail`, `delayMs` and `rawBody` make it misbehave. Every
 * request that reached the endpoint is recorded for the test to inspect.
 */
import { apiKeyError, failureError, openAIError, startOpenAICompatibleServer, type OpenAIFailure } from '../../../../test/support/openai-compatible-server.js';

export interface HeardWord {
  word: string;
  /** Seconds from the start of the file. */
  start: number;
  end: number;
}

export interface RecordedTranscriptionRequest {
  method: string;
  path: string;
  /** The Authorization header as sent, if any. */
  authorization: string | undefined;
  contentType: string | undefined;
  model: string | undefined;
  responseFormat: string | undefined;
  /** The `timestamp_granularities[]` values, in order. */
  granularities: string[];
  /** The uploaded `file` part, when there was one. */
  file: { name: string; type: string; bytes: Buffer } | undefined;
  /** The form's other fields, by name. */
  fields: Record<string, string>;
}

export interface FakeSpeechServerOptions {
  /** When set, requests must carry `Authorization: Bearer <apiKey>`, else 401 as OpenAI answers. */
  apiKey?: string;
  /** The words the "model" hears in the request. Default: 'word1', 'word2'… one a second of the WAV. */
  hear?: (request: RecordedTranscriptionRequest) => HeardWord[];
  /**
   * What timings a verbose_json answer holds: 'openai' (words when asked for with
   * timestamp_granularities[]=word, segments when asked for or by default, as OpenAI does),
   * 'segments' (a server without word timestamps), 'text' (a server that gives only the text).
   */
  timing?: 'openai' | 'segments' | 'text';
  /** Answer every valid request with this status and an OpenAI-style error body. */
  fail?: OpenAIFailure;
  /** Wait this long before answering (to test timeouts). */
  delayMs?: number;
  /** Answer 200 with exactly this body instead of a transcription (to test malformed answers). */
  rawBody?: string;
  /** Content type of `rawBody`; default application/json. */
  rawContentType?: string;
}

export interface FakeSpeechServer {
  /** http://127.0.0.1:<port>/v1, what a client is configured with. */
  baseUrl: string;
  /** The requests that reached /v1/audio/transcriptions, oldest first. */
  requests(): RecordedTranscriptionRequest[];
  close(): Promise<void>;
}

const RESPONSE_FORMATS = new Set(['json', 'text', 'srt', 'verbose_json', 'vtt']);
const GRANULARITIES = new Set(['word', 'segment']);
const WORDS_PER_SEGMENT = 6;

export async function startFakeSpeechServer(options: FakeSpeechServerOptions = {}): Promise<FakeSpeechServer> {
  const recorded: RecordedTranscriptionRequest[] = [];

  const server = await startOpenAICompatibleServer({
    endpoint: '/v1/audio/transcriptions',
    delayMs: options.delayMs,
    handle: async (request, send) => {
      const { method, path, authorization, contentType } = request;
      const form = await readForm(request.body, contentType);
      const recordedRequest: RecordedTranscriptionRequest = {
        method,
        path,
        authorization,
        contentType,
        model: form?.fields.model,
        responseFormat: form?.fields.response_format,
        granularities: form?.granularities ?? [],
        file: form?.file,
        fields: form?.fields ?? {},
      };
      recorded.push(recordedRequest);

      const refused = apiKeyError(options.apiKey, authorization);
      if (refused) return send(401, refused);
      if (!form) return send(400, openAIError('Could not parse multipart form', 'invalid_request_error'));
      if (!form.file) {
        return send(400, openAIError('1 validation error for Request\nbody -> file\n  field required (type=value_error.missing)', 'invalid_request_error', null, 'file'));
      }
      if (!recordedRequest.model) return send(400, openAIError('you must provide a model parameter', 'invalid_request_error', null, 'model'));
      const format = recordedRequest.responseFormat ?? 'json';
      if (!RESPONSE_FORMATS.has(format)) {
        return send(400, openAIError(`Invalid value for 'response_format': '${format}'.`, 'invalid_request_error', null, 'response_format'));
      }
      const unknown = recordedRequest.granularities.find((value) => !GRANULARITIES.has(value));
      if (unknown !== undefined) {
        return send(400, openAIError(`Invalid value for 'timestamp_granularities[]': '${unknown}'.`, 'invalid_request_error', null, 'timestamp_granularities'));
      }
      if (recordedRequest.granularities.length > 0 && format !== 'verbose_json') {
        return send(400, openAIError('timestamp_granularities requires response_format=verbose_json', 'invalid_request_error', null, 'timestamp_granularities'));
      }
      if (options.fail) return send(options.fail.status, failureError(options.fail));
      if (options.rawBody !== undefined) return send(200, options.rawBody, options.rawContentType);

      const heard = (options.hear ?? oneWordPerSecond)(recordedRequest);
      const text = heard.map((word) => word.word).join(' ');
      if (format === 'text') return send(200, text, 'text/plain');
      if (format !== 'verbose_json') return send(200, { text });
      const timing = options.timing ?? 'openai';
      const body: Record<string, unknown> = { task: 'transcribe', language: 'english', duration: wavSeconds(form.file.bytes) ?? 0, text };
      const wantsWords = recordedRequest.granularities.includes('word');
      const wantsSegments = recordedRequest.granularities.includes('segment') || recordedRequest.granularities.length === 0;
      if (timing === 'openai' && wantsWords) body.words = heard;
      if ((timing === 'openai' && wantsSegments) || timing === 'segments') body.segments = segmentsOf(heard);
      send(200, body);
    },
  });

  return { baseUrl: server.baseUrl, requests: () => recorded.map((request) => ({ ...request })), close: () => server.close() };
}

/** The WAV's length in seconds from its header, or undefined when it is not a plain PCM WAV. */
export function wavSeconds(bytes: Buffer): number | undefined {
  const header = readWavHeader(bytes);
  return header ? header.dataBytes / header.byteRate : undefined;
}

export function readWavHeader(bytes: Buffer): { format: number; channels: number; sampleRate: number; byteRate: number; bitsPerSample: number; dataBytes: number; dataOffset: number } | undefined {
  if (bytes.length < 44 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') return undefined;
  let fmt: { format: number; channels: number; sampleRate: number; byteRate: number; bitsPerSample: number } | undefined;
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ') {
      fmt = {
        format: bytes.readUInt16LE(offset + 8),
        channels: bytes.readUInt16LE(offset + 10),
        sampleRate: bytes.readUInt32LE(offset + 12),
        byteRate: bytes.readUInt32LE(offset + 16),
        bitsPerSample: bytes.readUInt16LE(offset + 22),
      };
    }
    if (id === 'data') return fmt ? { ...fmt, dataBytes: size, dataOffset: offset + 8 } : undefined;
    offset += 8 + size + (size % 2);
  }
  return undefined;
}

/** The form a client sent, parsed by the same multipart reader fetch uses, or undefined when it is not one. */
async function readForm(body: Buffer, contentType: string | undefined) {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) return undefined;
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return undefined;
  }
  const fields: Record<string, string> = {};
  const granularities: string[] = [];
  let file: RecordedTranscriptionRequest['file'];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') {
      if (name === 'timestamp_granularities[]') granularities.push(value);
      else fields[name] = value;
    } else if (name === 'file') {
      file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
    }
  }
  return { fields, granularities, file };
}

function oneWordPerSecond(request: RecordedTranscriptionRequest): HeardWord[] {
  const seconds = request.file ? Math.floor(wavSeconds(request.file.bytes) ?? 0) : 0;
  return Array.from({ length: seconds }, (_, index) => ({ word: `word${index + 1}`, start: index + 0.2, end: index + 0.7 }));
}

function segmentsOf(words: HeardWord[]) {
  const segments = [];
  for (let index = 0; index < words.length; index += WORDS_PER_SEGMENT) {
    const group = words.slice(index, index + WORDS_PER_SEGMENT);
    segments.push({
      id: segments.length,
      seek: 0,
      start: group[0]!.start,
      end: group.at(-1)!.end,
      text: ` ${group.map((word) => word.word).join(' ')}`,
      tokens: [],
      temperature: 0,
      avg_logprob: -0.25,
      compression_ratio: 1.2,
      no_speech_prob: 0.01,
    });
  }
  return segments;
}
