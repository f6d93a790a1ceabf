import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { configProblems } from '@parlance/platform/testing/config-problems';
import { createSpeechEngine, loadTranscriptionConfig } from './config.js';

describe('loadTranscriptionConfig', () => {
  it('uses PocketSphinx on every CPU but one, four activities at once, with a one-minute lease when nothing is set', () => {
    expect(loadTranscriptionConfig({})).toEqual({
      speech: { engine: 'pocketsphinx' },
      concurrency: Math.max(1, availableParallelism() - 1),
      workers: 4,
      leaseMs: 60_000,
      representativeChannel: undefined,
    });
    expect(
      loadTranscriptionConfig({
        TRANSCRIPTION_SPEECH_ENGINE: 'pocketsphinx',
        TRANSCRIPTION_SPEECH_URL: '',
        TRANSCRIPTION_CONCURRENCY: '3',
        TRANSCRIPTION_WORKERS: '4',
        TRANSCRIPTION_LEASE_SECONDS: '10',
        TRANSCRIPTION_REPRESENTATIVE_CHANNEL: 'right',
      }),
    ).toEqual({ speech: { engine: 'pocketsphinx' }, concurrency: 3, workers: 4, leaseMs: 10_000, representativeChannel: 1 });
    expect(loadTranscriptionConfig({ TRANSCRIPTION_REPRESENTATIVE_CHANNEL: 'left' }).representativeChannel).toBe(0);
    expect(configProblems(() => loadTranscriptionConfig({ TRANSCRIPTION_REPRESENTATIVE_CHANNEL: 'middle' }))).toEqual([expect.stringContaining('TRANSCRIPTION_REPRESENTATIVE_CHANNEL')]);
  });

  it('refuses a lease too short to renew and workers that are not whole numbers', () => {
    expect(configProblems(() => loadTranscriptionConfig({ TRANSCRIPTION_LEASE_SECONDS: '1', TRANSCRIPTION_WORKERS: 'two' }))).toEqual([
      expect.stringContaining('TRANSCRIPTION_WORKERS'),
      expect.stringContaining('TRANSCRIPTION_LEASE_SECONDS'),
    ]);
  });

  it('reads the speech server, dropping a trailing slash, with a 120 s timeout by default', () => {
    expect(loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_URL: 'http://127.0.0.1:8000/v1/', TRANSCRIPTION_SPEECH_MODEL: 'Systran/faster-whisper-small' }).speech).toEqual({
      engine: 'openai',
      baseUrl: 'http://127.0.0.1:8000/v1',
      model: 'Systran/faster-whisper-small',
      apiKey: undefined,
      timeoutMs: 120_000,
    });
    expect(
      loadTranscriptionConfig({
        TRANSCRIPTION_SPEECH_ENGINE: 'openai',
        TRANSCRIPTION_SPEECH_URL: 'https://api.openai.com/v1',
        TRANSCRIPTION_SPEECH_MODEL: 'whisper-1',
        TRANSCRIPTION_SPEECH_API_KEY: 'sk-abc',
        TRANSCRIPTION_SPEECH_TIMEOUT_MS: '30000',
      }).speech,
    ).toEqual({ engine: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'whisper-1', apiKey: 'sk-abc', timeoutMs: 30_000 });
  });

  it('requires the URL and the model for the openai engine', () => {
    expect(configProblems(() => loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_URL: 'http://127.0.0.1:8000/v1' }))).toEqual([
      'TRANSCRIPTION_SPEECH_MODEL is required when TRANSCRIPTION_SPEECH_URL is set (the model name the server should run, e.g. whisper-1)',
    ]);
    expect(configProblems(() => loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_ENGINE: 'openai' }))).toEqual([
      "TRANSCRIPTION_SPEECH_URL is required when TRANSCRIPTION_SPEECH_ENGINE is openai (the server's base URL, e.g. https://api.openai.com/v1)",
      'TRANSCRIPTION_SPEECH_MODEL is required when TRANSCRIPTION_SPEECH_ENGINE is openai (the model name the server should run, e.g. whisper-1)',
    ]);
  });

  it('names server settings that PocketSphinx would ignore', () => {
    expect(configProblems(() => loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_MODEL: 'whisper-1', TRANSCRIPTION_SPEECH_API_KEY: 'sk-abc' }))).toEqual([
      'TRANSCRIPTION_SPEECH_MODEL is set but TRANSCRIPTION_SPEECH_URL is not (set TRANSCRIPTION_SPEECH_URL and TRANSCRIPTION_SPEECH_MODEL to use a speech server, or neither for PocketSphinx)',
      'TRANSCRIPTION_SPEECH_API_KEY is set but TRANSCRIPTION_SPEECH_URL is not (set TRANSCRIPTION_SPEECH_URL and TRANSCRIPTION_SPEECH_MODEL to use a speech server, or neither for PocketSphinx)',
    ]);
    expect(
      configProblems(() =>
        loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_ENGINE: 'pocketsphinx', TRANSCRIPTION_SPEECH_URL: 'http://127.0.0.1:8000/v1', TRANSCRIPTION_SPEECH_MODEL: 'm' }),
      )[0],
    ).toMatch(/^TRANSCRIPTION_SPEECH_URL is set but TRANSCRIPTION_SPEECH_ENGINE is pocketsphinx/);
  });

  it('refuses an unknown engine', () => {
    expect(configProblems(() => loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_ENGINE: 'whisper' }))[0]).toMatch(/^TRANSCRIPTION_SPEECH_ENGINE .*\(got "whisper"\)/);
  });

  it('refuses a URL that is not http(s), masking any credentials in it', () => {
    const [problem] = configProblems(() =>
      loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_URL: 'ftp://user:hunter2@speech.example.com/v1', TRANSCRIPTION_SPEECH_MODEL: 'm' }),
    );
    expect(problem).toMatch(/^TRANSCRIPTION_SPEECH_URL .*\(got "ftp:\/\/\*\*\*@speech\.example\.com\/v1"\)/);
    expect(problem).not.toContain('hunter2');
  });

  it('refuses timeouts and concurrency that are not positive whole numbers', () => {
    for (const value of ['soon', '0', '-5']) {
      expect(configProblems(() => loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_TIMEOUT_MS: value }))[0]).toMatch(/^TRANSCRIPTION_SPEECH_TIMEOUT_MS /);
      expect(configProblems(() => loadTranscriptionConfig({ TRANSCRIPTION_CONCURRENCY: value }))[0]).toMatch(/^TRANSCRIPTION_CONCURRENCY /);
    }
  });

  it('never repeats the API key in an error', () => {
    const message = configProblems(() =>
      loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_URL: 'not a url', TRANSCRIPTION_SPEECH_MODEL: 'm', TRANSCRIPTION_SPEECH_API_KEY: 'sk-secret-value' }),
    ).join('\n');
    expect(message).toMatch(/TRANSCRIPTION_SPEECH_URL/);
    expect(message).not.toContain('sk-secret-value');
  });
});

describe('createSpeechEngine', () => {
  it('makes the engine the settings name', () => {
    expect(createSpeechEngine({ engine: 'pocketsphinx' }).name).toBe('pocketsphinx');
    expect(createSpeechEngine({ engine: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', model: 'whisper-1', apiKey: undefined, timeoutMs: 1000 }).name).toBe(
      'openai:whisper-1',
    );
  });
});
