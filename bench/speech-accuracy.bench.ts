/**
 * How well the speech engines hear, side by side in one run: the default engine (the product's
 * speech server, Whisper tiny.en, through the OpenAI-compatible engine) and PocketSphinx.
 *
 * - LibriVox: the five recordings Debian ships in pocketsphinx-testdata (one reader, about 25 s),
 *   each through transcribeChannel as the pipeline cuts a channel; the word error rate over all of
 *   them, and the time, median of RUNS.
 * - The demo's recorded calls: the first BENCH_DEMO_CALLS_PER_TEAM recorded calls of every demo
 *   team, spoken and mixed exactly as `make run` seeds them (services/demo's recordedCall: two
 *   espeak-ng voices, the representative on the left), transcribed by transcribeRecording, the
 *   function the transcription service runs on a recording; the word error rate against the text
 *   they were spoken from, the real-time factor (median over the calls), whether the pipeline took
 *   the right speaker for the representative, and how often the offline evaluator's verdicts on
 *   what was heard agree with the truth the demo generator kept (the text of the same calls beside
 *   it). One pass: both the recognition and the evaluation are deterministic.
 * - The speech server's memory: resident once the model is loaded, and its peak (the kernel's
 *   high-water mark) after all of the above.
 *
 * The word error rate counts every difference from the reference, numbers written as digits
 * ("30" for "thirty") and spellings ("e-mail") included; see the transcription service's
 * domain/word-error-rate.ts.
 *
 *   node --import tsx bench/speech-accuracy.bench.ts    # BENCH_RUNS=3, BENCH_DEMO_CALLS_PER_TEAM=2
 *
 * Prints JSON lines: {"bench":"speech.librivox",…}, {"bench":"speech.demo-calls",…} (one per
 * engine) and {"bench":"speech.server-memory",…}.
 */
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { overallWordErrorRate, wordErrorRate, type WordErrorRate } from '@parlance/transcription/domain/word-error-rate';
import { createOpenAiSpeechEngine } from '@parlance/transcription/speech/openai-engine';
import { createPocketSphinxEngine } from '@parlance/transcription/speech/pocketsphinx-engine';
import type { SpeechEngine } from '@parlance/transcription/speech/speech-engine';
import { createLimiter, transcribeChannel } from '@parlance/transcription/speech/transcribe-audio';
import { agreementOf, hearRecordedCall, judgeAgainstTruth, recordedCallSample, textTranscript, type HeardCall } from '../services/demo/test/support/demo-truth.js';
import { loadLibriVox } from '../services/transcription/test/support/librivox.js';
import { startWhisperServer } from '../test/support/whisper-server.js';
import { median } from './support/measure.js';
import { memoryOf } from './support/process-memory.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CALLS_PER_TEAM = Number(process.env.BENCH_DEMO_CALLS_PER_TEAM ?? 2);
const CORES = availableParallelism();
const AUDIO_DIRECTORY = join('.run', 'bench-audio', 'demo-calls');

const round = (value: number, digits: number) => +value.toFixed(digits);
const load = () => round(loadavg()[0]!, 2);
const percent = (rate: WordErrorRate) => round(rate.wer * 100, 1);

const recordings = await loadLibriVox();
const librivoxSeconds = recordings.reduce((sum, recording) => sum + recording.durationMs, 0) / 1000;

async function librivox(engine: SpeechEngine, label: string): Promise<void> {
  const loadBefore = load();
  const seconds: number[] = [];
  let overall: WordErrorRate | undefined;
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    const rates: WordErrorRate[] = [];
    for (const recording of recordings) {
      const words = await transcribeChannel(engine, recording.pcm, { concurrency: CORES });
      rates.push(wordErrorRate(recording.reference, words.map((word) => word.text).join(' ')));
    }
    seconds.push((performance.now() - started) / 1000);
    const rate = overallWordErrorRate(rates);
    // The engines are deterministic; a different answer on a later run would be worth knowing.
    if (overall && rate.wer !== overall.wer) throw new Error(`${label} heard LibriVox differently on run ${run + 1}: ${percent(rate)}% against ${percent(overall)}%`);
    overall = rate;
  }
  console.log(
    JSON.stringify({
      bench: 'speech.librivox',
      engine: label,
      recordings: recordings.length,
      audio_s: round(librivoxSeconds, 1),
      reference_words: overall!.referenceWords,
      wer_percent: percent(overall!),
      substitutions: overall!.substitutions,
      deletions: overall!.deletions,
      insertions: overall!.insertions,
      runs: RUNS,
      median_s: round(median(seconds), 2),
      real_time_factor: round(median(seconds) / librivoxSeconds, 3),
      runs_s: seconds.map((value) => round(value, 2)),
      cores: CORES,
      load_1m: [loadBefore, load()],
    }),
  );
}

const sample = recordedCallSample(CALLS_PER_TEAM);
const textAgreement = agreementOf(sample.map((activity) => judgeAgainstTruth(activity, textTranscript(activity))));

async function demoCalls(engine: SpeechEngine, label: string): Promise<void> {
  const loadBefore = load();
  const limiter = createLimiter(CORES);
  // One call after another, so each call's time is its own.
  const heard: HeardCall[] = [];
  for (const activity of sample) heard.push(await hearRecordedCall({ engine, limiter }, activity, AUDIO_DIRECTORY));
  const overall = overallWordErrorRate(heard.map((call) => call.wordErrors));
  const audioSeconds = heard.reduce((sum, call) => sum + call.audioMs, 0) / 1000;
  const agreement = agreementOf(sample.map((activity, index) => judgeAgainstTruth(activity, heard[index]!.transcript)));
  console.log(
    JSON.stringify({
      bench: 'speech.demo-calls',
      engine: label,
      calls: sample.length,
      calls_per_team: CALLS_PER_TEAM,
      sequences: sample.map((activity) => activity.sequence),
      audio_s: round(audioSeconds, 1),
      reference_words: overall.referenceWords,
      wer_percent: percent(overall),
      substitutions: overall.substitutions,
      deletions: overall.deletions,
      insertions: overall.insertions,
      median_call_wer_percent: round(median(heard.map((call) => call.wordErrors.wer * 100)), 1),
      worst_call_wer_percent: round(Math.max(...heard.map((call) => call.wordErrors.wer * 100)), 1),
      representative_right: heard.filter((call) => call.representativeRight).length,
      total_s: round(heard.reduce((sum, call) => sum + call.seconds, 0), 1),
      median_real_time_factor: round(median(heard.map((call) => call.seconds / (call.audioMs / 1000))), 3),
      verdicts_agree: agreement.overall,
      success_agrees: agreement.success,
      text_verdicts_agree: textAgreement.overall,
      text_success_agrees: textAgreement.success,
      cores: CORES,
      load_1m: [loadBefore, load()],
    }),
  );
}

const whisper = await startWhisperServer();
try {
  const loaded = await memoryOf(whisper.pid);
  const engine = createOpenAiSpeechEngine({ baseUrl: whisper.url, model: whisper.model, apiKey: undefined, timeoutMs: 600_000 });
  const whisperLabel = `whisper (${whisper.model}, local server)`;
  const pocketSphinx = createPocketSphinxEngine();
  await librivox(engine, whisperLabel);
  await librivox(pocketSphinx, 'pocketsphinx');
  await demoCalls(engine, whisperLabel);
  await demoCalls(pocketSphinx, 'pocketsphinx');
  const after = await memoryOf(whisper.pid);
  console.log(
    JSON.stringify({
      bench: 'speech.server-memory',
      engine: whisperLabel,
      loaded_rss_mb: loaded ? Math.round(loaded.rssKb / 1024) : null,
      peak_rss_mb: after ? Math.round(after.hwmKb / 1024) : null,
      rss_after_mb: after ? Math.round(after.rssKb / 1024) : null,
      after: `the LibriVox recordings ${RUNS} times and ${sample.length} demo calls`,
    }),
  );
} finally {
  await whisper.stop();
}
