import { describe, expect, it } from 'vitest';
import { captureLogs } from '@parlance/platform/testing/captured-logs';
import type { SpeechServer, SpeechServerStatus, WhenServingOptions } from '@parlance/speech/speech-server';
import { BASIC_ENGINE_WARNING, createLocalSpeech, LOCAL_ENGINE_NAME } from './local-speech.js';
import type { SpeechEngine } from './speech-engine.js';
import { SpeechServerUnavailable } from './speech-error.js';

/** The speech module's exports as a recording finds them: a status, and what a wait for it turns into. */
function serverIn(status: SpeechServerStatus, afterWait: SpeechServerStatus = status) {
  const waits: WhenServingOptions[] = [];
  let current = status;
  const server: SpeechServer = {
    status: () => current,
    async whenServing(options = {}) {
      waits.push(options);
      if ((options.timeoutMs ?? 0) > 0 || current.state === 'idle') current = afterWait;
      return current;
    },
    onChange: () => () => undefined,
  };
  return { server, waits, set: (next: SpeechServerStatus) => (current = next) };
}

const basic: SpeechEngine = { name: 'pocketsphinx', transcribe: async () => [] };

describe('createLocalSpeech', () => {
  it('hears with Whisper on the server while it serves, and follows it to a new address', async () => {
    const { server, set } = serverIn({ state: 'serving', url: 'http://127.0.0.1:40001/v1', pid: 1 });
    const local = createLocalSpeech({ server, logger: captureLogs('test').logger, timeoutMs: 1_000, fallback: basic });
    const first = await local.forRecording();
    expect(first.engine.name).toBe(LOCAL_ENGINE_NAME);
    expect(first.diarizer).toBeDefined();
    expect(first.warnings).toEqual([]);
    expect(await local.forRecording()).toBe(first);
    set({ state: 'serving', url: 'http://127.0.0.1:40002/v1', pid: 2 });
    expect(await local.forRecording()).not.toBe(first);
  });

  it('starts a server that waits to be asked for, and waits for one that is starting', async () => {
    const serving: SpeechServerStatus = { state: 'serving', url: 'http://127.0.0.1:40001/v1', pid: 1 };
    for (const state of ['idle', 'starting', 'restarting'] as const) {
      const { server, waits } = serverIn({ state, reason: `the speech server is ${state}` }, serving);
      const local = createLocalSpeech({ server, logger: captureLogs('test').logger, timeoutMs: 1_000, startWaitMs: 5_000, fallback: basic });
      expect((await local.forRecording()).engine.name).toBe(LOCAL_ENGINE_NAME);
      expect(waits).toEqual([{ timeoutMs: 5_000 }]);
    }
  });

  it('makes a recording wait, without waiting here, while the server is being installed', async () => {
    const { server, waits } = serverIn({ state: 'installing', reason: 'the speech server is being installed' });
    const local = createLocalSpeech({ server, logger: captureLogs('test').logger, timeoutMs: 1_000, fallback: basic });
    await expect(local.forRecording()).rejects.toEqual(new SpeechServerUnavailable('the speech server is being installed'));
    expect(waits).toEqual([{ timeoutMs: 0 }]);
  });

  it('hears with the basic engine where Python cannot be set up, warning once in the log and on every transcript', async () => {
    const { server } = serverIn({ state: 'unavailable', reason: 'Python cannot be set up on this machine (No Python (python3) on this machine)' });
    const log = captureLogs('test');
    const local = createLocalSpeech({ server, logger: log.logger, timeoutMs: 1_000, fallback: basic });
    for (let recording = 0; recording < 3; recording += 1) {
      const speech = await local.forRecording();
      expect(speech.engine).toBe(basic);
      expect(speech.diarizer).toBeUndefined();
      expect(speech.warnings).toEqual([BASIC_ENGINE_WARNING]);
    }
    expect(log.messages()).toEqual(['the Whisper speech server cannot run here, so recordings are transcribed by PocketSphinx, the basic offline engine; their transcripts say so']);
  });
});
