import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configProblems } from '@parlance/platform/testing/config-problems';
import { loadSpeechConfig, REPO_ROOT } from './config.js';

describe('loadSpeechConfig', () => {
  it('listens on loopback on a free port, runs from .run/speech-venv, built by python3, on every CPU, when nothing is set', () => {
    expect(loadSpeechConfig({})).toEqual({ host: '127.0.0.1', port: 0, venvDir: resolve(REPO_ROOT, '.run', 'speech-venv'), python: 'python3', threads: availableParallelism() });
  });

  it('reads every setting, the environment’s directory made absolute', () => {
    expect(loadSpeechConfig({ SPEECH_HOST: '0.0.0.0', SPEECH_PORT: '8765', SPEECH_VENV_DIR: 'some/venv', SPEECH_PYTHON: '/usr/bin/python3.11', SPEECH_THREADS: '3' })).toEqual({
      host: '0.0.0.0',
      port: 8765,
      venvDir: resolve('some/venv'),
      python: '/usr/bin/python3.11',
      threads: 3,
    });
  });

  it('names each bad value', () => {
    expect(configProblems(() => loadSpeechConfig({ SPEECH_PORT: '70000', SPEECH_THREADS: '0' }))).toEqual([
      expect.stringMatching(/^SPEECH_PORT .*\(got "70000"\)/),
      expect.stringMatching(/^SPEECH_THREADS .*\(got "0"\)/),
    ]);
    expect(configProblems(() => loadSpeechConfig({ SPEECH_THREADS: 'many' }))).toEqual([expect.stringMatching(/^SPEECH_THREADS /)]);
  });
});
