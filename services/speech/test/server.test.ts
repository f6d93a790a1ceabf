/**
 * The speech server (services/speech/server/server.py) as its clients see it, run for real from
 * .run/speech-venv (services/speech/install.sh): health, models, OpenAI's transcription API with
 * word timings on a LibriVox recording, every error in OpenAI's shape, no words from silence, music,
 * noise or a modem, the diarization extension's contract and errors, and a clean stop on SIGTERM.
 */
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWhisperServer, type WhisperServer } from '../../../test/support/whisper-server.js';
import { encodeWav16k } from '@parlance/transcription/domain/pcm';
import { wordErrorRate } from '@parlance/transcription/domain/word-error-rate';
import { loadDiarizationRecordings } from './support/diarization-mixes.js';
import { CODEC2, librivoxSentences } from './support/recorded-voices.js';
import { NOT_SPEECH, postForm, synthesize, type DiarizationBody, type OpenAiError } from './support/speech-requests.js';

const API_KEY = 'sk-speech-test-0123456789abcdef';
const MAX_BODY_BYTES = 256 * 1024 * 1024;

let server: WhisperServer;
let mixes: ReturnType<typeof loadDiarizationRecordings> | undefined;
const recordings = () => (mixes ??= loadDiarizationRecordings());
let transcriptions: string;
let diarization: string;

/** `apiKey` null sends no key at all. */
const transcribe = (fields: Record<string, string | string[]>, file?: { bytes: Uint8Array; name: string }, apiKey: string | null = API_KEY) =>
  postForm(transcriptions, fields, file, apiKey ?? undefined);
const diarize = (fields: Record<string, string>, file?: { bytes: Uint8Array; name: string }, apiKey: string | null = API_KEY) =>
  postForm(diarization, fields, file, apiKey ?? undefined);

function expectError(answer: { status: number; body: unknown }, status: number, param: string | null, code: string | null = null) {
  expect(answer.status).toBe(status);
  const { error } = answer.body as OpenAiError;
  expect(Object.keys(error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(error.type).toBe('invalid_request_error');
  expect(error.param).toBe(param);
  expect(error.code).toBe(code);
  expect(error.message.length).toBeGreaterThan(10);
  return error.message;
}

beforeAll(async () => {
  server = await startWhisperServer({ apiKey: API_KEY });
  transcriptions = `${server.url}/audio/transcriptions`;
  diarization = `${server.url}/audio/diarization`;
});

afterAll(async () => {
  await server?.stop();
});

describe('the speech server', () => {
  it('answers its health check and lists the one model it serves', async () => {
    const health = await fetch(`${server.origin}/health`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('OK');
    const models = await fetch(`${server.url}/models`);
    expect(await models.json()).toEqual({ object: 'list', data: [{ id: 'whisper-tiny.en', object: 'model', created: 0, owned_by: 'openai' }] });
  });

  it('transcribes a LibriVox recording with word timings, in OpenAI’s verbose_json shape', async () => {
    const [sentence] = await librivoxSentences();
    const bytes = await readFile(sentence!.file);
    const answer = await transcribe({ model: 'whisper-1', response_format: 'verbose_json', 'timestamp_granularities[]': ['word', 'segment'] }, { bytes, name: 'clip.wav' });
    expect(answer.status).toBe(200);
    const body = answer.body as { task: string; language: string; duration: number; text: string; words: { word: string; start: number; end: number }[]; segments: Record<string, unknown>[] };
    expect(body.task).toBe('transcribe');
    expect(body.language).toBe('english');
    expect(Object.keys(body.segments[0]!).sort()).toEqual(['avg_logprob', 'compression_ratio', 'end', 'id', 'no_speech_prob', 'seek', 'start', 'temperature', 'text', 'tokens']);
    const heard = body.words.map((word) => word.word).join(' ');
    expect(wordErrorRate(sentence!.reference, heard).wer).toBeLessThanOrEqual(0.15);
    // Speech fills the clip: the words run from its start to its end, in order.
    expect(body.words[0]!.start).toBeLessThan(1);
    expect(body.words.at(-1)!.end).toBeGreaterThan(body.duration - 1.5);
    for (const [index, word] of body.words.entries()) {
      expect(word.end).toBeGreaterThanOrEqual(word.start);
      expect(word.end).toBeLessThanOrEqual(body.duration);
      if (index > 0) expect(word.start).toBeGreaterThanOrEqual(body.words[index - 1]!.start);
    }

    const plain = await transcribe({ model: 'whisper-1', response_format: 'text' }, { bytes, name: 'clip.wav' });
    expect(plain.body).toBe(`${body.text}\n`);
    const json = await transcribe({ model: 'whisper-1' }, { bytes, name: 'clip.wav' });
    expect(json.body).toEqual({ text: body.text });
  });

  it('refuses, in OpenAI’s shape, a request without a file, an undecodable file or a bad parameter', async () => {
    const [sentence] = await librivoxSentences();
    const clip = { bytes: await readFile(sentence!.file), name: 'clip.wav' };
    expectError(await transcribe({ model: 'whisper-1' }), 400, 'file');
    expect(expectError(await transcribe({ model: 'whisper-1' }, { bytes: Buffer.from('not audio at all, just some words'), name: 'notes.txt' }), 400, 'file')).toMatch(
      /could not be decoded/,
    );
    expectError(await transcribe({ model: 'whisper-1' }, { bytes: encodeWav16k(new Int16Array(800)), name: 'blip.wav' }), 400, 'file', 'audio_too_short');
    expectError(await transcribe({}, clip), 400, 'model');
    expectError(await transcribe({ model: 'whisper-1', response_format: 'srt' }, clip), 400, 'response_format');
    expectError(await transcribe({ model: 'whisper-1', response_format: 'verbose_json', 'timestamp_granularities[]': 'phoneme' }, clip), 400, 'timestamp_granularities');
    expectError(await transcribe({ model: 'whisper-1', 'timestamp_granularities[]': 'word' }, clip), 400, 'timestamp_granularities');
    expectError(await transcribe({ model: 'whisper-1', temperature: 'warm' }, clip), 400, 'temperature');
    expectError(await transcribe({ model: 'whisper-1', temperature: '1.5' }, clip), 400, 'temperature');
    expectError(await transcribe({ model: 'whisper-1', language: 'fr' }, clip), 400, 'language');
  });

  it('refuses a missing or wrong key without echoing it', async () => {
    const [sentence] = await librivoxSentences();
    const clip = { bytes: await readFile(sentence!.file), name: 'clip.wav' };
    for (const ask of [transcribe, diarize]) {
      expect(expectError(await ask({ model: 'whisper-1' }, clip, null), 401, null)).toMatch(/didn't provide an API key/);
      const wrongKey = 'sk-not-the-speech-key-987654';
      const message = expectError(await ask({ model: 'whisper-1' }, clip, wrongKey), 401, null, 'invalid_api_key');
      expect(message).toBe('Incorrect API key provided: sk-*****7654.');
    }
  });

  it('refuses a body over 256 MiB with 413, after reading it, on both endpoints', { timeout: 60_000 }, async () => {
    for (const path of ['/v1/audio/transcriptions', '/v1/audio/diarization']) {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const post = request(`${server.origin}${path}`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': MAX_BODY_BYTES + 1, authorization: `Bearer ${API_KEY}` } }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body }));
        });
        post.on('error', reject);
        // Streamed a megabyte at a time, never held whole.
        const chunk = Buffer.alloc(1024 * 1024);
        let sent = 0;
        const write = () => {
          while (sent < MAX_BODY_BYTES + 1) {
            const size = Math.min(chunk.length, MAX_BODY_BYTES + 1 - sent);
            sent += size;
            if (!post.write(size === chunk.length ? chunk : chunk.subarray(0, size))) return void post.once('drain', write);
          }
          post.end();
        };
        write();
      });
      expectError({ status: answer.status, body: JSON.parse(answer.body) as unknown }, 413, null);
    }
  });

  it('answers 404 in OpenAI’s shape for a path it does not serve', async () => {
    expectError(await postForm(`${server.url}/audio/translations`, { model: 'whisper-1' }, undefined, API_KEY), 404, null);
  });

  it('hears no words, and no speakers, in silence, noise, music or a modem signal', { timeout: 120_000 }, async () => {
    const sounds: [string, Buffer][] = [];
    for (const [name, source] of Object.entries(NOT_SPEECH)) sounds.push([name, await synthesize(source, 12)]);
    // Digital voice on the air, not decoded: a modem's hiss and warble.
    sounds.push(['modem (david4.wav)', await readFile(`${CODEC2}/wav/david4.wav`)], ['modem (vk2tpm_004.wav)', await readFile(`${CODEC2}/wav/vk2tpm_004.wav`)]);
    for (const [name, bytes] of sounds) {
      const answer = await transcribe({ model: 'whisper-1', response_format: 'verbose_json', 'timestamp_granularities[]': 'word' }, { bytes, name: 'sound.wav' });
      expect(answer.status, name).toBe(200);
      const body = answer.body as { text: string; words: unknown[] };
      expect({ name, text: body.text, words: body.words.length }).toEqual({ name, text: '', words: 0 });
      const speakers = await diarize({}, { bytes, name: 'sound.wav' });
      expect({ name, ...(speakers.body as DiarizationBody), duration: 0, model: '' }).toEqual({ name, duration: 0, model: '', speakers: [], segments: [] });
    }
  });

  it('diarizes a two-voice recording in its contract’s shape, within the speaker bounds asked for', { timeout: 180_000 }, async () => {
    const { heldOut } = await recordings();
    const mix = heldOut[1]!;
    const file = { bytes: encodeWav16k(mix.pcm), name: 'call.wav' };
    const answer = await diarize({}, file);
    expect(answer.status).toBe(200);
    const body = answer.body as DiarizationBody;
    expect(Object.keys(body).sort()).toEqual(['duration', 'model', 'segments', 'speakers']);
    expect(body.duration).toBeCloseTo(mix.durationMs / 1000, 2);
    expect(body.model).toBe('resemblyzer-ge2e-0.1.4');
    expect(body.speakers).toEqual(['SPEAKER_00', 'SPEAKER_01']);
    // Sorted, not overlapping, inside the recording, in milliseconds at most, each speaker named
    // in order of first speech.
    const firstSpeech: string[] = [];
    for (const [index, segment] of body.segments.entries()) {
      expect(Object.keys(segment).sort()).toEqual(['end', 'speaker', 'start']);
      expect(segment.end).toBeGreaterThan(segment.start);
      expect(segment.start).toBeGreaterThanOrEqual(index === 0 ? 0 : body.segments[index - 1]!.end);
      expect(segment.end).toBeLessThanOrEqual(body.duration);
      for (const time of [segment.start, segment.end]) expect(Math.round(time * 1000) / 1000).toBe(time);
      if (!firstSpeech.includes(segment.speaker)) firstSpeech.push(segment.speaker);
    }
    expect(firstSpeech).toEqual(body.speakers);

    const one = (await diarize({ max_speakers: '1' }, file)).body as DiarizationBody;
    expect(one.speakers).toEqual(['SPEAKER_00']);
    const three = (await diarize({ min_speakers: '3', max_speakers: '3' }, file)).body as DiarizationBody;
    expect(three.speakers).toHaveLength(3);
  });

  it('refuses a diarization without a file, of an undecodable file, or with bad speaker bounds', async () => {
    const { single } = await recordings();
    const file = { bytes: encodeWav16k(single[1]!.pcm), name: 'reader.wav' };
    expectError(await diarize({}), 400, 'file');
    expectError(await diarize({}, { bytes: Buffer.from('RIFF but not really a wave file'), name: 'bad.wav' }), 400, 'file');
    expectError(await diarize({ min_speakers: '0' }, file), 400, 'min_speakers');
    expectError(await diarize({ min_speakers: 'two' }, file), 400, 'min_speakers');
    expectError(await diarize({ max_speakers: '1.5' }, file), 400, 'max_speakers');
    expect(expectError(await diarize({ min_speakers: '3', max_speakers: '2' }, file), 400, 'max_speakers')).toMatch(/at least min_speakers \(3\)/);
  });

  it('stops on SIGTERM with exit code 0', async () => {
    await server.stop();
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});
