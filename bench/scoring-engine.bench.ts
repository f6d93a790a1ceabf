/**
 * What an offline evaluation costs: the offline engine's judgement of one transcript against a
 * team of 10 weighted criteria (a prohibition and a conditional among them), a success prompt and
 * a call script, then assembleEvaluation (score, script match, statistics, improvements), the
 * way the scoring worker does it, each on a transcript object of its own (bench/support/
 * offline-evaluations.ts). No database, no bus: the engine alone.
 *
 * - one thread: evaluations one after another for BENCH_SECONDS, RUNS times after a warm-up.
 *   `per_core_per_s` is evaluations per CPU-second of the process (every thread of it, the
 *   garbage collector's included, from process.cpuUsage): what one core gets done, and less
 *   sensitive than wall time to other work on the machine; `one_thread_per_s` is per wall-clock
 *   second (the same on an idle machine, less under load); `thread_cpu_ms_per_evaluation` is the
 *   evaluating thread's own CPU (/proc/thread-self/stat, 10 ms ticks);
 * - one worker thread per core (os.availableParallelism()), each with its own engine, all
 *   evaluating at once: total evaluations per wall-clock second, and how that scales against
 *   one thread;
 * - the same on one thread for a 150-word call and a 10,000-word meeting, to show how the cost
 *   grows with the length of the conversation.
 *
 * - the 1,500-word call again with the sentence-embedding model (target 2 per second per core),
 *   and the process's peak resident memory before and after it.
 *
 * The conversations are generated (bench/support/call-dialogue.ts): a broadband provider's support
 * call with two speakers, and an hour's video consultation with three; the team is in
 * bench/support/scoring-team.ts. The target is 200 evaluations per second per core for the
 * 1,500-word call.
 *
 *   node --import tsx bench/scoring-engine.bench.ts     # BENCH_RUNS=5 runs of BENCH_SECONDS=2 s
 *
 * Prints JSON lines: {"bench":"scoring.offline",…} (one per conversation, and the call with the
 * model), {"bench":"scoring.offline-parallel",…} and {"bench":"scoring.offline-memory",…}.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { evaluateFor, evaluatorFor, type Batch, type Workload } from './support/offline-evaluations.js';
import { machine, median, percentile } from './support/measure.js';
import { CRITERIA_COUNT } from './support/scoring-team.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const WARM_UP_SECONDS = 4;
const CORES = availableParallelism();
const TARGET_PER_CORE = 200;
/** With the sentence-embedding model: evaluations per second per core it must at least reach. */
const TARGET_PER_CORE_WITH_MODEL = 2;

const CALL: Workload = { kind: 'call', words: 1_500, seed: 1 };
const SHORT_CALL: Workload = { kind: 'call', words: 150, seed: 1 };
const MEETING: Workload = { kind: 'meeting', words: 10_000, seed: 1 };
const CALL_WITH_MODEL: Workload = { ...CALL, meaning: true };

/**
 * A worker thread running a TypeScript file: a worker does not inherit the tsx loader this process
 * was started with, so it registers tsx before importing the file.
 */
function typeScriptWorker(file: URL, workerData: unknown): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => api.register()).then(() => import(${JSON.stringify(file.href)}));`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/** The process's peak resident memory so far, from /proc/self/status. */
function peakRssMb(): number | undefined {
  const peak = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return peak ? round(Number(peak[1]) / 1024, 1) : undefined;
}

const round = (value: number, digits: number) => +value.toFixed(digits);

/** Evaluations per second on this thread alone, RUNS times after a warm-up; answers the per-second median. */
async function oneThread(workload: Workload): Promise<number> {
  const evaluator = evaluatorFor(workload);
  const started = performance.now();
  await evaluator.evaluate();
  const firstMs = performance.now() - started;
  const warmUps = (await evaluateFor(evaluator, WARM_UP_SECONDS)).evaluations;
  const batches: Batch[] = [];
  for (let run = 0; run < RUNS; run++) batches.push(await evaluateFor(evaluator, SECONDS));
  const perSecond = batches.map((batch) => (batch.evaluations * 1_000) / batch.wallMs);
  const perCpuSecond = batches.map((batch) => (batch.evaluations * 1_000) / batch.cpuMs);
  const threadCpu = batches.map((batch) => batch.threadCpuMs);
  const each = batches.flatMap((batch) => batch.eachMs);
  console.log(
    JSON.stringify({
      bench: 'scoring.offline',
      conversation: workload.kind,
      words: evaluator.words,
      segments: evaluator.segments,
      criteria: CRITERIA_COUNT,
      threads: 1,
      runs: RUNS,
      seconds: SECONDS,
      per_core_per_s: round(median(perCpuSecond), 1),
      one_thread_per_s: round(median(perSecond), 1),
      model: workload.meaning ? 'all-MiniLM-L6-v2 int8' : 'none',
      ...(workload === CALL ? { target_per_core_per_s: TARGET_PER_CORE } : workload === CALL_WITH_MODEL ? { target_per_core_per_s: TARGET_PER_CORE_WITH_MODEL } : {}),
      ...(workload.meaning ? { encoded_texts_per_evaluation: round(evaluator.encodedTexts() / (1 + warmUps + batches.reduce((sum, batch) => sum + batch.evaluations, 0)), 1) } : {}),
      ms_per_evaluation: round(median(batches.map((batch) => batch.wallMs / batch.evaluations)), 2),
      cpu_ms_per_evaluation: round(median(batches.map((batch) => batch.cpuMs / batch.evaluations)), 2),
      ...(threadCpu.every((ms) => ms !== undefined)
        ? { thread_cpu_ms_per_evaluation: round(median(batches.map((batch) => batch.threadCpuMs! / batch.evaluations)), 2) }
        : {}),
      p50_ms: round(median(each), 2),
      p95_ms: round(percentile(each, 0.95), 2),
      first_ms: round(firstMs, 1),
      runs_per_core_per_s: perCpuSecond.map((value) => round(value, 1)),
      runs_one_thread_per_s: perSecond.map((value) => round(value, 1)),
      ...machine(),
    }),
  );
  return median(perSecond);
}

interface WorkerBatch {
  evaluations: number;
  wallMs: number;
  threadCpuMs: number | undefined;
}

/** One worker thread per core, all evaluating at once, RUNS times; their total per second. */
async function allCores(workload: Workload, oneThreadPerSecond: number): Promise<void> {
  const workers = Array.from({ length: CORES }, () => typeScriptWorker(new URL('./support/offline-evaluations.worker.ts', import.meta.url), { workload, warmUpSeconds: WARM_UP_SECONDS }));
  let failed: (error: Error) => void = () => undefined;
  const failure = new Promise<never>((_, reject) => (failed = reject));
  failure.catch(() => undefined); // seen by whichever wait is pending
  for (const worker of workers) worker.on('error', (error) => failed(error));
  const next = <T>(worker: Worker) => Promise.race([failure, new Promise<T>((resolve) => worker.once('message', resolve))]);
  try {
    await Promise.all(workers.map((worker) => next<'ready'>(worker))); // each has warmed up
    const totals: number[] = [];
    const perCpuSecond: number[] = [];
    const threadCpuPerEvaluation: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const answers = workers.map((worker) => next<WorkerBatch>(worker));
      for (const worker of workers) worker.postMessage({ run, seconds: SECONDS });
      const batches = await Promise.all(answers);
      const wallMs = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const evaluations = batches.reduce((sum, batch) => sum + batch.evaluations, 0);
      totals.push((evaluations * 1_000) / wallMs);
      perCpuSecond.push((evaluations * 1_000_000) / (used.user + used.system));
      if (batches.every((batch) => batch.threadCpuMs !== undefined)) threadCpuPerEvaluation.push(batches.reduce((sum, batch) => sum + batch.threadCpuMs!, 0) / evaluations);
    }
    console.log(
      JSON.stringify({
        bench: 'scoring.offline-parallel',
        conversation: workload.kind,
        words: workload.words,
        criteria: CRITERIA_COUNT,
        threads: CORES,
        runs: RUNS,
        seconds: SECONDS,
        total_per_s: round(median(totals), 1),
        per_thread_per_s: round(median(totals) / CORES, 1),
        per_core_per_s: round(median(perCpuSecond), 1),
        ...(threadCpuPerEvaluation.length === RUNS ? { thread_cpu_ms_per_evaluation: round(median(threadCpuPerEvaluation), 2) } : {}),
        scaling: round(median(totals) / oneThreadPerSecond, 2),
        runs_total_per_s: totals.map((value) => round(value, 1)),
        ...machine(),
      }),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

const callPerSecond = await oneThread(CALL);
await allCores(CALL, callPerSecond);
await oneThread(SHORT_CALL);
await oneThread(MEETING);
// Resident memory at its peak (VmHWM), before and after the model is loaded and used.
const withoutModelMb = peakRssMb();
await oneThread(CALL_WITH_MODEL);
console.log(JSON.stringify({ bench: 'scoring.offline-memory', peak_rss_mb_without_model: withoutModelMb, peak_rss_mb_with_model: peakRssMb(), ...machine() }));
