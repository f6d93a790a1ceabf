/**
 * The diarization client against a local HTTP stand-in that speaks Parlance's contract for
 * `POST /v1/audio/diarization` (/work/notes/contracts.md; the real server is exercised in
 * test/speech and test/uploads): what it sends, what it reads, and how it fails.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAICompatibleServer, type OpenAICompatibleServer, type ReceivedRequest, type Send } from '../../../../test/support/openai-compatible-server.js';
import { msToSamples } from '../../src/domain/pcm.js';
import { createServerDiarizer } from '../../src/speech/diarization-client.js';
import { SpeechError, SpeechServerUnavailable } from '../../src/speech/speech-error.js';
import { readWavHeader } from '../support/fake-speech-server.js';

const API_KEY = 'sk-diarize-0123456789abcdef';
let server: OpenAICompatibleServer | undefined;
let received: Array<{ request: ReceivedRequest; fields: Record<string, string>; file: Buffer | undefined }> = [];

afterEach(async () => {
  await server?.close();
  server = undefined;
  received = [];
});

async function standIn(answer: (send: Send, hangUp: () => void) => void): Promise<string> {
  server = await startOpenAICompatibleServer({
    endpoint: '/v1/audio/diarization',
    async handle(request, send, hangUp) {
      const form = await new Response(request.body, { headers: { 'content-type': request.contentType ?? '' } }).formData();
      const fields: Record<string, string> = {};
      let file: Buffer | undefined;
      for (const [name, value] of form.entries()) {
        if (typeof value === 'string') fields[name] = value;
        else file = Buffer.from(await value.arrayBuffer());
      }
      received.push({ request, fields, file });
      answer(send, hangUp);
    },
  });
  return server.baseUrl;
}

const tone = (ms: number) => Int16Array.from({ length: msToSamples(ms) }, (_, index) => Math.round(3000 * Math.sin((2 * Math.PI * 220 * index) / 16_000)));

const ANSWER = {
  duration: 6,
  model: 'speaker-embedding-test',
  speakers: ['SPEAKER_00', 'SPEAKER_01'],
  segments: [
    { start: 0.52, end: 2.911, speaker: 'SPEAKER_00' },
    { start: 3.1, end: 4.4, speaker: 'SPEAKER_01' },
    { start: 4.6, end: 9.0, speaker: 'SPEAKER_00' },
  ],
};

describe('createServerDiarizer', () => {
  it('sends the recording as a 16 kHz mono WAV with the speaker bounds and the key, and reads the segments in milliseconds', async () => {
    const baseUrl = await standIn((send) => send(200, ANSWER));
    const diarizer = createServerDiarizer({ baseUrl, apiKey: API_KEY, timeoutMs: 5_000 });
    const pcm = tone(6_000);
    const diarization = await diarizer.diarize(pcm, { minSpeakers: 1, maxSpeakers: 2 });
    expect(diarization).toEqual({
      model: 'speaker-embedding-test',
      speakers: ['SPEAKER_00', 'SPEAKER_01'],
      segments: [
        { startMs: 520, endMs: 2_911, speaker: 'SPEAKER_00' },
        { startMs: 3_100, endMs: 4_400, speaker: 'SPEAKER_01' },
        // Kept within the recording.
        { startMs: 4_600, endMs: 6_000, speaker: 'SPEAKER_00' },
      ],
    });
    const [{ request, fields, file }] = received as [(typeof received)[number]];
    expect(request).toMatchObject({ method: 'POST', path: '/v1/audio/diarization', authorization: `Bearer ${API_KEY}` });
    expect(fields).toEqual({ min_speakers: '1', max_speakers: '2' });
    expect(readWavHeader(file!)).toMatchObject({ format: 1, channels: 1, sampleRate: 16_000, bitsPerSample: 16, dataBytes: pcm.length * 2 });
  });

  it('reads an answer without speech as no segments', async () => {
    const baseUrl = await standIn((send) => send(200, { duration: 3, model: 'm', speakers: [], segments: [] }));
    expect(await createServerDiarizer({ baseUrl, timeoutMs: 5_000 }).diarize(tone(3_000))).toEqual({ model: 'm', speakers: [], segments: [] });
    expect(received[0]!.fields).toEqual({});
  });

  it('answers undefined when the server has no diarization (404), and does not ask it again for a while', async () => {
    const baseUrl = await standIn((send) => send(404, { error: { message: 'Invalid URL (POST /v1/audio/diarization)', type: 'invalid_request_error', param: null, code: null } }));
    const diarizer = createServerDiarizer({ baseUrl, timeoutMs: 5_000 });
    expect(await diarizer.diarize(tone(1_000))).toBeUndefined();
    expect(await diarizer.diarize(tone(1_000))).toBeUndefined();
    expect(received).toHaveLength(1);
  });

  it('says what the server answered when it refuses, without repeating the key', async () => {
    const baseUrl = await standIn((send) => send(401, { error: { message: `Incorrect API key provided: ${API_KEY}.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }));
    const error = await createServerDiarizer({ baseUrl, apiKey: API_KEY, timeoutMs: 5_000 })
      .diarize(tone(1_000))
      .catch((rejection: unknown) => rejection);
    expect(error).toBeInstanceOf(SpeechError);
    expect(error).not.toBeInstanceOf(SpeechServerUnavailable);
    expect((error as Error).message).toBe('the speech server answered 401: Incorrect API key provided: ***');
  });

  it('waits for a server that is briefly unable, drops the connection, or is not there', async () => {
    let baseUrl = await standIn((send) => send(503, { error: { message: 'busy', type: 'server_error', param: null, code: null } }));
    await expect(createServerDiarizer({ baseUrl, timeoutMs: 5_000 }).diarize(tone(1_000))).rejects.toBeInstanceOf(SpeechServerUnavailable);
    await server!.close();
    baseUrl = await standIn((_send, hangUp) => hangUp());
    await expect(createServerDiarizer({ baseUrl, timeoutMs: 5_000 }).diarize(tone(1_000))).rejects.toBeInstanceOf(SpeechServerUnavailable);
    await expect(createServerDiarizer({ baseUrl: `http://127.0.0.1:${await closedPort()}/v1`, timeoutMs: 5_000 }).diarize(tone(1_000))).rejects.toThrow(
      new SpeechServerUnavailable('the speech server could not be reached (ECONNREFUSED)'),
    );
  });

  it('says when the answer is not a diarization', async () => {
    const baseUrl = await standIn((send) => send(200, { text: 'a transcription' }));
    await expect(createServerDiarizer({ baseUrl, timeoutMs: 5_000 }).diarize(tone(1_000))).rejects.toThrow(new SpeechError('the speech server answered the diarization request without segments'));
  });

  it('gives the server the recording’s length on top of the timeout, and stops when aborted', async () => {
    const baseUrl = await standIn((send) => setTimeout(() => send(200, ANSWER), 1_200));
    // A 100 ms timeout plus 6 s of recording.
    expect(await createServerDiarizer({ baseUrl, timeoutMs: 100 }).diarize(tone(6_000))).toMatchObject({ speakers: ['SPEAKER_00', 'SPEAKER_01'] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('job cancelled')), 50);
    await expect(createServerDiarizer({ baseUrl, timeoutMs: 100 }).diarize(tone(2_000), { signal: controller.signal })).rejects.toThrow('job cancelled');
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as { port: number };
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  return port;
}
