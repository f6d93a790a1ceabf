import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { configProblems } from '@parlance/platform/testing/config-problems';
import { createSpeechEngine, loadTranscriptionConfig } from './config.js';

describe('loadTranscriptionConfig', () => {
  it('uses the local Whisper server one request at a time, four activities at once, a one-minute lease and a 30-minute wait when nothing is set', () => {
    expect(loadTranscriptionConfig({})).toEqual({
      speech: { engine: 'local', timeoutMs: 120_000 },
      speechWaitMs: 30 * 60_000,
      concurrency: 1,
      workers: 4,
      leaseMs: 60_000,
      representativeChannel: undefined,
    });
    expect(loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_ENGINE: 'local', TRANSCRIPTION_SPEECH_TIMEOUT_MS: '5000', TRANSCRIPTION_CONCURRENCY: '2' })).toMatchObject({
      speech: { engine: 'local', timeoutMs: 5_000 },
      concurrency: 2,
    });
  });

  it('uses PocketSphinx only when named, on every CPU but one', () => {
    expect(loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_ENGINE: 'pocketsphinx' })).toMatchObject({
      speech: { engine: 'pocketsphinx' },
      concurrency: Math.max(1, availableParallelism() - 1),
    });
    expect(
      loadTranscriptionConfig({
        TRANSCRIPTION_SPEECH_ENGINE: 'pocketsphinx',
        TRANSCRIPTION_SPEECH_URL: '',
        TRANSCRIPTION_CONCURRENCY: '3',
        TRANSCRIPTION_WORKERS: '4',
        TRANSCRIPTION_LEASE_SECONDS: '10',
        TRANSCRIPTION_REPRESENTATIVE_CHANNEL: 'right',
        TRANSCRIPTION_SPEECH_WAIT_SECONDS: '60',
      }),
    ).toEqual({ speech: { engine: 'pocketsphinx' }, speechWaitMs: 60_000, concurrency: 3, workers: 4, leaseMs: 10_000, representativeChannel: 1 });
    expect(loadTranscriptionConfig({ TRANSCRIPTION_REPRESENTATIVE_CHANNEL: 'left' }).representativeChannel).toBe(0);
    expect(configProblems(() => loadTranscriptionConfig({ TRANSCRIPTION_REPRESENTATIVE_CHANNEL: 'middle' }))).toEqual([expect.stringContaining('TRANSCRIPTION_REPRESENTATIVE_CHANNEL')]);
  });

  it('refuses a wait for the speech server that is not a positive whole number of seconds', () => {
    for (const value of ['0', 'long', '-5']) {
      expect(configProblems(() => loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_WAIT_SECONDS: value }))).toEqual([expect.stringMatching(/^TRANSCRIPTION_SPEECH_WAIT_SECONDS /)]);
    }
  });

  it('refuses a lease too short to renew and workers that are not whole numbers', () => {
    expect(configProblems(() => loadTranscriptionConfig({ TRANSCRIPTION_LEASE_SECONDS: '1', TRANSCRIPTION_WORKERS: 'two' }))).toEqual([
      expect.stringContaining('TRANSCRIPTION_WORKERS'),
      expect.stringContaining('TRANSCRIPTION_LEASE_SECONDS'),
    ]);
  });

  it('reads the speech server, dropping a trailing slash, with a 120 s timeout by default, on every CPU but one', () => {
    const config = loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_URL: 'http://127.0.0.1:8000/v1/', TRANSCRIPTION_SPEECH_MODEL: 'Systran/faster-whisper-small' });
    expect(config.concurrency).toBe(Math.max(1, availableParallelism() - 1));
    expect(config.speech).toEqual({
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

  it('names server settings that the local engine or PocketSphinx would ignore', () => {
    expect(configProblems(() => loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_MODEL: 'whisper-1', TRANSCRIPTION_SPEECH_API_KEY: 'sk-abc' }))).toEqual([
      'TRANSCRIPTION_SPEECH_MODEL is set but TRANSCRIPTION_SPEECH_URL is not (set TRANSCRIPTION_SPEECH_URL and TRANSCRIPTION_SPEECH_MODEL to use another speech server, or neither for the local one)',
      'TRANSCRIPTION_SPEECH_API_KEY is set but TRANSCRIPTION_SPEECH_URL is not (set TRANSCRIPTION_SPEECH_URL and TRANSCRIPTION_SPEECH_MODEL to use another speech server, or neither for the local one)',
    ]);
    expect(configProblems(() => loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_ENGINE: 'local', TRANSCRIPTION_SPEECH_URL: 'http://127.0.0.1:8000/v1', TRANSCRIPTION_SPEECH_MODEL: 'm' }))).toEqual([
      'TRANSCRIPTION_SPEECH_URL is set but TRANSCRIPTION_SPEECH_ENGINE is local (the local engine runs its own speech server: set TRANSCRIPTION_SPEECH_ENGINE=openai to use another one, or remove the server settings)',
      'TRANSCRIPTION_SPEECH_MODEL is set but TRANSCRIPTION_SPEECH_ENGINE is local (the local engine runs its own speech server: set TRANSCRIPTION_SPEECH_ENGINE=openai to use another one, or remove the server settings)',
    ]);
    expect(
      configProblems(() =>
        loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_ENGINE: 'pocketsphinx', TRANSCRIPTION_SPEECH_URL: 'http://127.0.0.1:8000/v1', TRANSCRIPTION_SPEECH_MODEL: 'm' }),
      )[0],
    ).toBe(
      'TRANSCRIPTION_SPEECH_URL is set but TRANSCRIPTION_SPEECH_ENGINE is pocketsphinx (set TRANSCRIPTION_SPEECH_ENGINE=openai with TRANSCRIPTION_SPEECH_URL and TRANSCRIPTION_SPEECH_MODEL to use a speech server, or none of them for PocketSphinx)',
    );
  });

  it('refuses an unknown engine', () => {
    const [problem] = configProblems(() => loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_ENGINE: 'whisper' }));
    expect(problem).toMatch(/^TRANSCRIPTION_SPEECH_ENGINE .*\(got "whisper"\)/);
    expect(problem).toContain("'local'");
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
  it('refuses the local engine, which is made from the speech module’s server', () => {
    expect(() => createSpeechEngine({ engine: 'local', timeoutMs: 1000 })).toThrow(/createLocalSpeech/);
  });

  it('makes the engine the settings name', () => {
    expect(createSpeechEngine({ engine: 'pocketsphinx' }).name).toBe('pocketsphinx');
    expect(createSpeechEngine({ engine: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', model: 'whisper-1', apiKey: undefined, timeoutMs: 1000 }).name).toBe(
      'openai:whisper-1',
    );
  });
});
