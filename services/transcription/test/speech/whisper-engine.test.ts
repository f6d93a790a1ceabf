/**
 * The OpenAI-compatible engine against a real Whisper: the product's speech server (services/speech/server) runs
 * Whisper tiny.en with faster-whisper behind OpenAI's transcription API, standing in for the
 * faster-whisper or vLLM server a deployment uses (services/speech/install.sh installs it; these
 * machines cannot download the real ones). It transcribes the LibriVox recordings Debian ships in
 * `pocketsphinx-testdata`, through transcribeChannel as the pipeline does, and PocketSphinx does
 * the same beside it so that the two word error rates can be compared.
 */
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWhisperServer, type WhisperServer } from '../../../../test/support/whisper-server.js';
import { overallWordErrorRate, wordErrorRate, type WordErrorRate } from '../../src/domain/word-error-rate.js';
import type { TimedWord } from '../../src/domain/transcript-words.js';
import { createOpenAiSpeechEngine } from '../../src/speech/openai-engine.js';
import { createPocketSphinxEngine } from '../../src/speech/pocketsphinx-engine.js';
import type { SpeechEngine } from '../../src/speech/speech-engine.js';
import { SpeechError } from '../../src/speech/speech-error.js';
import { transcribeChannel } from '../../src/speech/transcribe-audio.js';
import { expectWordTimesWithin, loadLibriVox, transcribeJoinedLibriVox, type LibriVoxRecording } from '../support/librivox.js';

const API_KEY = 'sk-whisper-test-0123456789abcdef';
// The bound the default engine is held to. Measured: 5.6%, 4 errors in 71 words ("Mr." for
// "mister", "old-sposed" for "ill disposed", and the reader's stumbling "a more a amiable" heard
// as "a more amiable"); PocketSphinx: 36.6%. One more error would be 7.0%; two, 8.5%.
const MAX_WER = 0.08;
// The 25 s of LibriVox take Whisper a few seconds and PocketSphinx about ten on two idle cores;
// a machine shared with other work takes many times that.
const TIMEOUT_MS = 240_000;

interface Measured {
  overall: WordErrorRate;
  words: TimedWord[][];
  seconds: number;
}

/** Every recording through transcribeChannel, one after another, and the overall word error rate. */
async function measure(engine: SpeechEngine): Promise<Measured> {
  const started = performance.now();
  const words: TimedWord[][] = [];
  for (const recording of recordings) words.push(await transcribeChannel(engine, recording.pcm));
  const seconds = (performance.now() - started) / 1000;
  const overall = overallWordErrorRate(recordings.map((recording, index) => wordErrorRate(recording.reference, words[index]!.map((word) => word.text).join(' '))));
  return { overall, words, seconds };
}

const describeRate = ({ overall, seconds }: Measured) =>
  `${(overall.wer * 100).toFixed(1)}% (${overall.substitutions} substitutions, ${overall.deletions} deletions, ${overall.insertions} insertions; ${seconds.toFixed(1)} s)`;

let server: WhisperServer;
let recordings: LibriVoxRecording[];

beforeAll(async () => {
  [server, recordings] = await Promise.all([startWhisperServer({ apiKey: API_KEY }), loadLibriVox()]);
});

afterAll(async () => {
  await server?.stop();
});

describe('the OpenAI-compatible engine on a real Whisper server', () => {
  it(`recognises the LibriVox recordings with a word error rate of at most ${MAX_WER * 100}% overall, better than PocketSphinx`, { timeout: TIMEOUT_MS }, async () => {
    expect(recordings).toHaveLength(5);
    const whisper = await measure(createOpenAiSpeechEngine({ baseUrl: server.url, model: server.model, apiKey: API_KEY, timeoutMs: TIMEOUT_MS }));
    const pocketSphinx = await measure(createPocketSphinxEngine());
    const audioSeconds = recordings.reduce((sum, recording) => sum + recording.durationMs, 0) / 1000;
    // eslint-disable-next-line no-console -- the figures the issue asks to report
    console.log(
      `LibriVox WER over ${whisper.overall.referenceWords} words (${audioSeconds.toFixed(1)} s of audio, ${availableParallelism()} CPUs): Whisper tiny.en ${describeRate(whisper)}, PocketSphinx ${describeRate(pocketSphinx)}`,
    );
    expect(whisper.overall.wer).toBeLessThanOrEqual(MAX_WER);
    expect(whisper.overall.wer).toBeLessThan(pocketSphinx.overall.wer);

    // Each sentence fills its recording: speech starts within a second and ends near its end.
    for (const [index, words] of whisper.words.entries()) expectWordTimesWithin(words, recordings[index]!.durationMs);
  });

  it('keeps its accuracy and word times when the recordings, as one, are cut into pieces', { timeout: TIMEOUT_MS }, async () => {
    const engine = createOpenAiSpeechEngine({ baseUrl: server.url, model: server.model, apiKey: API_KEY, timeoutMs: TIMEOUT_MS });
    const { words, pieces, result, durationMs } = await transcribeJoinedLibriVox(engine, recordings);
    expect(pieces).toBeGreaterThanOrEqual(2);
    // eslint-disable-next-line no-console -- the figure the issue asks to report
    console.log(`Whisper tiny.en LibriVox WER ${(result.wer * 100).toFixed(1)}% on the ${(durationMs / 1000).toFixed(1)} s recording cut into ${pieces} pieces`);
    expect(result.wer).toBeLessThanOrEqual(MAX_WER);
    expectWordTimesWithin(words, durationMs);
  });

  it('reports the server’s own message, without the key, when the key is wrong', async () => {
    const wrongKey = 'sk-not-the-whisper-key-987654';
    const engine = createOpenAiSpeechEngine({ baseUrl: server.url, model: server.model, apiKey: wrongKey, timeoutMs: 10_000 });
    const error = await engine.transcribe(recordings[1]!.pcm).catch((rejection: unknown) => rejection);
    expect(error).toBeInstanceOf(SpeechError);
    expect((error as SpeechError).message).toBe('the speech server answered 401: Incorrect API key provided: sk-*****7654');
    expect((error as SpeechError).message).not.toContain(wrongKey);
  });
});
