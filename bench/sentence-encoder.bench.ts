/**
 * What the scoring service's sentence encoder costs (services/scoring/src/semantic): all-MiniLM-L6-v2
 * with int8 weights on onnxruntime-node, in this process.
 *
 * - load: the first loadSentenceEncoder (the native runtime, the tokenizer and the model), and the
 *   process's resident memory before it, after it and at its peak (VmHWM) once every run is done;
 * - encode: a 1,500-word support call (bench/support/call-dialogue.ts) cut into its sentences
 *   (about 145: many replies are short), plus the 10 criteria of the bench team
 *   (bench/support/scoring-team.ts), in one `encode` call, as scoring would match a conversation
 *   against a team; BENCH_CONVERSATIONS different calls, each encoded BENCH_RUNS times after a
 *   warm-up. Reported: the median time of
 *   a call (`median_ms_per_call`) and of one of its batches of `batch_size` texts
 *   (`median_ms_per_batch`), texts encoded per wall-clock second (`sentences_per_s`) and per
 *   CPU-second of the process (`sentences_per_cpu_s`, less sensitive to other work on the machine);
 * - the same for other batch sizes (BENCH_BATCH_SIZES), to show what batching buys.
 *
 * onnxruntime runs on BENCH_THREADS threads (1, the service's default: one core per process).
 *
 *   node --import tsx bench/sentence-encoder.bench.ts    # BENCH_RUNS=5 BENCH_CONVERSATIONS=4 BENCH_THREADS=1
 *
 * Prints JSON lines: {"bench":"semantic.encoder-load",…}, then {"bench":"semantic.encode",…} for
 * the default batch size and for each of BENCH_BATCH_SIZES.
 */
import { readFileSync } from 'node:fs';
import { loadSentenceEncoder, type SentenceEncoder } from '@parlance/scoring/semantic/sentence-encoder';
import { callDialogue } from './support/call-dialogue.js';
import { machine, median, percentile } from './support/measure.js';
import { benchTeamSnapshot } from './support/scoring-team.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 4);
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const DEFAULT_BATCH_SIZE = 8; // the encoder's default
const BATCH_SIZES = (process.env.BENCH_BATCH_SIZES ?? '4,16,32').split(',').filter(Boolean).map(Number);
const WORDS = 1_500;

const round = (value: number, digits: number) => +value.toFixed(digits);
/** Resident memory now and its high-water mark (MB), from /proc/self/status. */
function memoryMb(): { rss: number; peak: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]) / 1024;
  return { rss: round(field('VmRSS'), 1), peak: round(field('VmHWM'), 1) };
}
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
};

/** A call's sentences: each turn cut after ".", "?" or "!". */
function sentencesOf(seed: number): string[] {
  return callDialogue({ words: WORDS, seed }).lines.flatMap((line) => line.text.split(/(?<=[.?!])\s+/).filter(Boolean));
}

const criteria = benchTeamSnapshot().criteriaGroups.flatMap((group) => group.criteria.map((criterion) => criterion.prompt));
const conversations = Array.from({ length: CONVERSATIONS }, (_, index) => [...sentencesOf(index + 1), ...criteria]);
const textsPerCall = median(conversations.map((texts) => texts.length));

const beforeLoad = memoryMb();
const loadStarted = performance.now();
const encoder = await loadSentenceEncoder({ intraOpThreads: THREADS, batchSize: DEFAULT_BATCH_SIZE });
const loadMs = performance.now() - loadStarted;
const afterLoad = memoryMb();
console.log(
  JSON.stringify({
    bench: 'semantic.encoder-load',
    model: 'all-MiniLM-L6-v2 int8 (onnxruntime-node)',
    threads: THREADS,
    load_ms: round(loadMs, 0),
    rss_before_load_mb: beforeLoad.rss,
    rss_after_load_mb: afterLoad.rss,
    rss_load_delta_mb: round(afterLoad.rss - beforeLoad.rss, 1),
    ...machine(),
  }),
);

async function measure(encoder: SentenceEncoder, batchSize: number): Promise<void> {
  for (const texts of conversations) await encoder.encode(texts); // warm-up: the runtime's buffers for each shape
  const callMs: number[] = [];
  let texts = 0;
  const cpuBefore = cpuMs();
  const started = performance.now();
  for (let run = 0; run < RUNS; run += 1) {
    for (const conversation of conversations) {
      const callStarted = performance.now();
      await encoder.encode(conversation);
      callMs.push(performance.now() - callStarted);
      texts += conversation.length;
    }
  }
  const seconds = (performance.now() - started) / 1_000;
  const cpuSeconds = (cpuMs() - cpuBefore) / 1_000;
  const memory = memoryMb();
  console.log(
    JSON.stringify({
      bench: 'semantic.encode',
      threads: THREADS,
      batch_size: batchSize,
      conversations: CONVERSATIONS,
      words_per_conversation: WORDS,
      texts_per_call: textsPerCall,
      runs: RUNS,
      median_ms_per_call: round(median(callMs), 1),
      p90_ms_per_call: round(percentile(callMs, 0.9), 1),
      median_ms_per_batch: round(median(callMs) / Math.ceil(textsPerCall / batchSize), 1),
      sentences_per_s: round(texts / seconds, 0),
      sentences_per_cpu_s: round(texts / cpuSeconds, 0),
      rss_mb: memory.rss,
      rss_peak_mb: memory.peak,
      ...machine(),
    }),
  );
}

await measure(encoder, DEFAULT_BATCH_SIZE);
await encoder.close();
for (const batchSize of BATCH_SIZES) {
  const other = await loadSentenceEncoder({ intraOpThreads: THREADS, batchSize });
  await measure(other, batchSize);
  await other.close();
}
