/**
 * A worker thread of bench/scoring-engine.bench.ts: builds its own evaluator for the workload,
 * warms up, says it is ready, then evaluates for the seconds of each `run` message it gets and
 * answers with the batch. Each thread has its own heap, JIT and caches, as a process would.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { evaluateFor, evaluatorFor, type Workload } from './offline-evaluations.js';

const { workload, warmUpSeconds } = workerData as { workload: Workload; warmUpSeconds: number };
const port = parentPort!;
const evaluator = evaluatorFor(workload);
await evaluateFor(evaluator, warmUpSeconds);
port.on('message', (message: { run: number; seconds: number }) => {
  // A failing evaluation rejects here, which ends the thread with an error the bench reports.
  void evaluateFor(evaluator, message.seconds).then((batch) => port.postMessage({ run: message.run, evaluations: batch.evaluations, wallMs: batch.wallMs, threadCpuMs: batch.threadCpuMs }));
});
port.postMessage('ready');
