/**
 * The OpenAI-compatible engine against a real HTTP server speaking OpenAI's transcription API
 * (test/support/fake-speech-server.ts, because these machines cannot reach a real one).
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { msToSamples } from '../../src/domain/pcm.js';
import { createOpenAiSpeechEngine } from '../../src/speech/openai-engine.js';
import { SpeechError, SpeechServerUnavailable } from '../../src/speech/speech-error.js';
import { transcribeChannel } from '../../src/speech/transcribe-audio.js';
import { startOpenAICompatibleServer } from '../../../../test/support/openai-compatible-server.js';
import { readWavHeader, startFakeSpeechServer, type FakeSpeechServer, type FakeSpeechServerOptions, type HeardWord } from '../support/fake-speech-server.js';

const API_KEY = 'sk-speech-0123456789abcdef';
let fake: FakeSpeechServer | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function engineWith(options: FakeSpeechServerOptions, settings: { apiKey?: string; timeoutMs?: number; model?: string } = {}) {
  fake = await startFakeSpeechServer(options);
  return createOpenAiSpeechEngine({ baseUrl: `${fake.baseUrl}/`, model: settings.model ?? 'whisper-1', apiKey: settings.apiKey, timeoutMs: settings.timeoutMs ?? 5_000 });
}

/** `ms` of a quiet tone, so silence detection does not matter here. */
function tone(ms: number): Int16Array {
  const pcm = new Int16Array(msToSamples(ms));
  for (let index = 0; index < pcm.length; index += 1) pcm[index] = Math.round(3000 * Math.sin((2 * Math.PI * 220 * index) / 16_000));
  return pcm;
}

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(SpeechError);
  const message = (error as SpeechError).message;
  expect(message).not.toContain(API_KEY);
  expect(message).not.toMatch(/\.$/);
  return message;
}

const HEARD: HeardWord[] = [
  { word: ' Hello,', start: 0.1, end: 0.42 },
  { word: 'thanks', start: 0.5, end: 0.9 },
  { word: 'for', start: 0.9, end: 1.05 },
  { word: 'calling.', start: 1.05, end: 1.6 },
];

describe('createOpenAiSpeechEngine', () => {
  it('sends the piece as a 16 kHz mono WAV with the model, verbose_json, word and segment timestamps and the key', async () => {
    const engine = await engineWith({ apiKey: API_KEY }, { apiKey: API_KEY, model: 'Systran/faster-whisper-small' });
    const pcm = tone(2_000);
    await engine.transcribe(pcm);

    const [request] = fake!.requests();
    expect(fake!.requests()).toHaveLength(1);
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/audio/transcriptions',
      authorization: `Bearer ${API_KEY}`,
      model: 'Systran/faster-whisper-small',
      responseFormat: 'verbose_json',
      granularities: ['word', 'segment'],
    });
    expect(request!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(request!.file).toMatchObject({ name: 'audio.wav', type: 'audio/wav' });
    const header = readWavHeader(request!.file!.bytes);
    expect(header).toMatchObject({ format: 1, channels: 1, sampleRate: 16_000, bitsPerSample: 16, dataBytes: pcm.length * 2 });
    const samples = request!.file!.bytes.subarray(header!.dataOffset);
    expect(samples.readInt16LE(2 * 100)).toBe(pcm[100]);
    expect(engine.name).toBe('openai:Systran/faster-whisper-small');
  });

  it('sends no Authorization header without a key', async () => {
    const engine = await engineWith({});
    await engine.transcribe(tone(1_000));
    expect(fake!.requests()[0]!.authorization).toBeUndefined();
  });

  it('reads the timed words, in milliseconds, keeping their punctuation', async () => {
    const engine = await engineWith({ hear: () => HEARD });
    expect(await engine.transcribe(tone(2_000))).toEqual([
      { text: 'Hello,', startMs: 100, endMs: 420 },
      { text: 'thanks', startMs: 500, endMs: 900 },
      { text: 'for', startMs: 900, endMs: 1050 },
      { text: 'calling.', startMs: 1050, endMs: 1600 },
    ]);
  });

  it('keeps times within the piece and drops non-words', async () => {
    const engine = await engineWith({
      hear: () => [
        { word: '[BLANK_AUDIO]', start: 0, end: 0.4 },
        { word: 'late', start: 0.9, end: 3.5 },
        { word: 'early', start: -0.2, end: 0.1 },
      ],
    });
    expect(await engine.transcribe(tone(1_000))).toEqual([
      { text: 'early', startMs: 0, endMs: 100 },
      { text: 'late', startMs: 900, endMs: 1000 },
    ]);
  });

  it('drops the words of segments Whisper marks as made up: no speech and unsure, or a repetition loop', async () => {
    const heard: HeardWord[] = [
      { word: 'Thanks', start: 0.1, end: 0.4 },
      { word: 'for', start: 0.4, end: 0.6 },
      { word: 'calling.', start: 0.6, end: 1.0 },
      { word: 'you', start: 2.1, end: 2.3 },
      { word: 'the', start: 3.1, end: 3.2 },
      { word: 'the', start: 3.2, end: 3.3 },
      { word: 'bye.', start: 4.2, end: 4.5 },
    ];
    const segment = (start: number, end: number, text: string, fields: Record<string, number>) => ({ id: 0, seek: 0, start, end, text, tokens: [], temperature: 0, ...fields });
    const engine = await engineWith({
      rawBody: JSON.stringify({
        text: heard.map((word) => word.word).join(' '),
        words: heard,
        segments: [
          segment(0, 1.0, ' Thanks for calling.', { avg_logprob: -0.3, compression_ratio: 1.1, no_speech_prob: 0.02 }),
          segment(2.0, 2.5, ' you', { avg_logprob: -1.4, compression_ratio: 0.6, no_speech_prob: 0.8 }),
          segment(3.0, 3.5, ' the the', { avg_logprob: -0.9, compression_ratio: 3.1, no_speech_prob: 0.1 }),
          // Unsure but speech, or no speech but sure: kept.
          segment(4.0, 4.6, ' bye.', { avg_logprob: -1.3, compression_ratio: 1.0, no_speech_prob: 0.3 }),
        ],
      }),
    });
    expect((await engine.transcribe(tone(5_000))).map((word) => word.text)).toEqual(['Thanks', 'for', 'calling.', 'bye.']);
  });

  it('shares each segment’s time among its words when the server gives no word timestamps', async () => {
    const engine = await engineWith({ timing: 'segments', hear: () => HEARD });
    // One segment from 0.1 s to 1.6 s holding four words: 375 ms each.
    expect(await engine.transcribe(tone(2_000))).toEqual([
      { text: 'Hello,', startMs: 100, endMs: 475 },
      { text: 'thanks', startMs: 475, endMs: 850 },
      { text: 'for', startMs: 850, endMs: 1225 },
      { text: 'calling.', startMs: 1225, endMs: 1600 },
    ]);
  });

  it('spreads the text over the piece when the server gives only text', async () => {
    const engine = await engineWith({ timing: 'text', hear: () => HEARD });
    expect(await engine.transcribe(tone(2_000))).toEqual([
      { text: 'Hello,', startMs: 0, endMs: 500 },
      { text: 'thanks', startMs: 500, endMs: 1000 },
      { text: 'for', startMs: 1000, endMs: 1500 },
      { text: 'calling.', startMs: 1500, endMs: 2000 },
    ]);
  });

  it('reads a plain {"text"} answer and an empty transcription', async () => {
    const engine = await engineWith({ rawBody: JSON.stringify({ text: 'just text' }) });
    expect(await engine.transcribe(tone(1_000))).toEqual([
      { text: 'just', startMs: 0, endMs: 500 },
      { text: 'text', startMs: 500, endMs: 1000 },
    ]);
    await fake!.close();
    const silent = await engineWith({ hear: () => [] });
    expect(await silent.transcribe(tone(1_000))).toEqual([]);
  });

  it('sends nothing for no audio', async () => {
    const engine = await engineWith({});
    expect(await engine.transcribe(new Int16Array(0))).toEqual([]);
    expect(fake!.requests()).toHaveLength(0);
  });

  it('says what the server answered when it rejects the key, without repeating it', async () => {
    const wrong = await engineWith({ apiKey: API_KEY }, { apiKey: 'sk-not-the-right-key-123456' });
    expect(await failure(wrong.transcribe(tone(500)))).toBe('the speech server answered 401: Incorrect API key provided: sk-*****3456');
    await fake!.close();
    const none = await engineWith({ apiKey: API_KEY });
    expect(await failure(none.transcribe(tone(500)))).toMatch(/^the speech server answered 401: You didn't provide an API key/);
  });

  it('says what the server answered when it fails', async () => {
    const engine = await engineWith({ fail: { status: 500 } }, { apiKey: API_KEY });
    expect(await failure(engine.transcribe(tone(500)))).toBe('the speech server answered 500: The server had an error while processing your request');
    await fake!.close();
    const echoing = await engineWith({ fail: { status: 400, message: `Bad key ${API_KEY} for model` } }, { apiKey: API_KEY });
    expect(await failure(echoing.transcribe(tone(500)))).toBe('the speech server answered 400: Bad key *** for model');
  });

  it('tells a server that is briefly unable (502, 503, 504) from one that refuses the request', async () => {
    for (const status of [502, 503, 504]) {
      const unable = await engineWith({ fail: { status, message: 'the model is loading' } });
      const error = await unable.transcribe(tone(500)).catch((rejection: unknown) => rejection);
      expect(error).toBeInstanceOf(SpeechServerUnavailable);
      expect((error as Error).message).toBe(`the speech server answered ${status}: the model is loading`);
      await fake!.close();
    }
    for (const status of [400, 401, 413, 429, 500]) {
      const refusing = await engineWith({ fail: { status } });
      const error = await refusing.transcribe(tone(500)).catch((rejection: unknown) => rejection);
      expect(error).toBeInstanceOf(SpeechError);
      expect(error).not.toBeInstanceOf(SpeechServerUnavailable);
      await fake!.close();
    }
    fake = undefined;
  });

  it('says when the server answers something that is not a transcription', async () => {
    const html = await engineWith({ fail: { status: 502 }, rawBody: '' });
    expect(await failure(html.transcribe(tone(500)))).toMatch(/^the speech server answered 502/);
    await fake!.close();
    const notJson = await engineWith({ rawBody: '<html>proxy</html>', rawContentType: 'text/html' });
    expect(await failure(notJson.transcribe(tone(500)))).toBe('the speech server answered with something that is not JSON');
  });

  it('gives up when the server does not answer in time', async () => {
    const engine = await engineWith({ delayMs: 2_000 }, { timeoutMs: 100 });
    expect(await failure(engine.transcribe(tone(500)))).toBe('the speech server did not answer within 100 ms');
  });

  it('says when the server cannot be reached, as something a recording can wait for', async () => {
    const port = await closedPort();
    const engine = createOpenAiSpeechEngine({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'whisper-1', apiKey: API_KEY, timeoutMs: 5_000 });
    const transcribing = engine.transcribe(tone(500));
    expect(await failure(transcribing)).toBe('the speech server could not be reached (ECONNREFUSED)');
    await expect(transcribing).rejects.toBeInstanceOf(SpeechServerUnavailable);
  });

  it('waits for a server that drops the connection without answering, as a dying one does', async () => {
    const dropping = await startOpenAICompatibleServer({ endpoint: '/v1/audio/transcriptions', handle: (_request, _send, hangUp) => hangUp() });
    try {
      const engine = createOpenAiSpeechEngine({ baseUrl: dropping.baseUrl, model: 'whisper-1', timeoutMs: 5_000 });
      const error = await engine.transcribe(tone(500)).catch((rejection: unknown) => rejection);
      expect(error).toBeInstanceOf(SpeechServerUnavailable);
      expect((error as Error).message).toMatch(/^the speech server could not be reached \(/);
    } finally {
      await dropping.close();
    }
  });

  it('stops when aborted, rejecting with the reason', async () => {
    const engine = await engineWith({ delayMs: 2_000 });
    const controller = new AbortController();
    const transcribing = engine.transcribe(tone(500), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('job cancelled')), 50);
    await expect(transcribing).rejects.toThrow('job cancelled');
  });

  it('transcribes a long recording piece by piece with times from its start', async () => {
    // One heard word a second of each piece; 70 s of tone is cut at the maximum length (30 s).
    const engine = await engineWith({ apiKey: API_KEY }, { apiKey: API_KEY });
    const words = await transcribeChannel(engine, tone(70_000), { concurrency: 2 });
    expect(fake!.requests().length).toBeGreaterThanOrEqual(3);
    expect(words.length).toBeGreaterThanOrEqual(68);
    for (let index = 1; index < words.length; index += 1) expect(words[index]!.startMs).toBeGreaterThan(words[index - 1]!.startMs);
    expect(words.at(-1)!.endMs).toBeLessThanOrEqual(70_000);
    expect(words.at(-1)!.startMs).toBeGreaterThan(68_000);
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
