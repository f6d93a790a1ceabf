/**
 * What transcribing a recorded call costs on this machine: a 10-minute two-party stereo call
 * spoken by espeak-ng (each party on its own channel), decoded, cut at silences and transcribed by
 * the speech engines side by side in one run, through the pipeline the service runs
 * (transcribeRecording), with the engines on every core.
 *
 * - time to transcribe and real-time factor (processing time / recording length), median of RUNS;
 * - memory: the peak resident memory of this process and of its engine processes, sampled every
 *   100 ms while transcribing (the engine processes are PocketSphinx's; Whisper's server is a
 *   separate process measured the same way), and for the speech server also its resident memory
 *   once the model is loaded and its peak over the whole bench (the kernel's high-water mark).
 *
 *   npx tsx bench/transcription.bench.ts      # BENCH_CALL_MINUTES=10, BENCH_RUNS=3
 *
 * Prints JSON lines: {"bench":"transcription.stereo-call","engine":…}.
 */
import { readFile, readdir, mkdir } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import type { WorkRequest } from '@parlance/transcription/db/schema';
import { transcribeRecording } from '@parlance/transcription/pipeline/transcribe-activity';
import { createOpenAiSpeechEngine } from '@parlance/transcription/speech/openai-engine';
import { createPocketSphinxEngine } from '@parlance/transcription/speech/pocketsphinx-engine';
import type { SpeechEngine } from '@parlance/transcription/speech/speech-engine';
import { createLimiter } from '@parlance/transcription/speech/transcribe-audio';
import { synthesizeCall } from '../services/transcription/test/support/synthesized-call.js';
import { startWhisperServer } from '../test/support/whisper-server.js';
import { median } from './support/measure.js';
import { memoryOf } from './support/process-memory.js';

const MINUTES = Number(process.env.BENCH_CALL_MINUTES ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CORES = availableParallelism();

const request: WorkRequest = {
  kind: 'call',
  teamId: 'bench',
  representativeEmail: 'daniel@example.com',
  representativeName: 'Daniel',
  fileName: 'call.wav',
  mediaKind: 'audio',
  mediaFormat: 'wav',
};

const directory = join('.run', 'bench-audio');
await mkdir(directory, { recursive: true });
const call = await synthesizeCall(directory, { minutes: MINUTES, name: `call-${MINUTES}min`, seed: 10 });
const megabytes = (await readFile(call.stereoPath)).length / 1_048_576;

/** Resident memory (kB) of a process, from /proc; 0 once it has gone. */
async function residentKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** The processes whose parent is `pid`. */
async function childrenOf(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The command name (field 2) may hold spaces; the parent pid is the second field after it.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent === pid) children.push(Number(entry));
  }
  return children;
}

/** Samples memory until `work` settles: the peaks of this process, of one engine process, and of all together. */
async function withMemory<T>(work: Promise<T>, enginePids: () => Promise<number[]>): Promise<{ result: T; peakSelfMb: number; peakEngineMb: number; peakTotalMb: number }> {
  let peakSelf = 0;
  let peakEngine = 0;
  let peakTotal = 0;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      const self = process.memoryUsage().rss / 1024;
      const engines = await Promise.all((await enginePids()).map(residentKb));
      peakSelf = Math.max(peakSelf, self);
      peakEngine = Math.max(peakEngine, ...engines, 0);
      peakTotal = Math.max(peakTotal, self + engines.reduce((sum, kb) => sum + kb, 0));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  try {
    const result = await work;
    return { result, peakSelfMb: peakSelf / 1024, peakEngineMb: peakEngine / 1024, peakTotalMb: peakTotal / 1024 };
  } finally {
    done = true;
    await sampler;
  }
}

async function measure(engine: SpeechEngine, label: string, enginePids: () => Promise<number[]>, serverPid?: number): Promise<void> {
  const loadBefore = +loadavg()[0]!.toFixed(2);
  const loaded = serverPid === undefined ? undefined : await memoryOf(serverPid);
  const seconds: number[] = [];
  const memory: Array<{ peakSelfMb: number; peakEngineMb: number; peakTotalMb: number }> = [];
  let words = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const { result, ...peaks } = await withMemory(transcribeRecording({ engine, limiter: createLimiter(CORES) }, request, call.stereoPath), enginePids);
    seconds.push((performance.now() - started) / 1_000);
    memory.push(peaks);
    words = result.segments.reduce((sum, segment) => sum + segment.words.length, 0);
  }
  const audioSeconds = call.durationMs / 1_000;
  const after = serverPid === undefined ? undefined : await memoryOf(serverPid);
  console.log(
    JSON.stringify({
      bench: 'transcription.stereo-call',
      engine: label,
      audio_s: +audioSeconds.toFixed(1),
      file_mb: +megabytes.toFixed(1),
      channels: 2,
      cores: CORES,
      runs: RUNS,
      median_s: +median(seconds).toFixed(1),
      real_time_factor: +(median(seconds) / audioSeconds).toFixed(3),
      runs_s: seconds.map((value) => +value.toFixed(1)),
      words,
      peak_worker_rss_mb: Math.round(median(memory.map((m) => m.peakSelfMb))),
      peak_engine_process_rss_mb: Math.round(median(memory.map((m) => m.peakEngineMb))),
      peak_total_rss_mb: Math.round(median(memory.map((m) => m.peakTotalMb))),
      ...(loaded && after ? { server_loaded_rss_mb: Math.round(loaded.rssKb / 1024), server_peak_rss_mb: Math.round(after.hwmKb / 1024) } : {}),
      load_1m: [loadBefore, +loadavg()[0]!.toFixed(2)],
    }),
  );
}

await measure(createPocketSphinxEngine(), 'pocketsphinx', () => childrenOf(process.pid));

const whisper = await startWhisperServer();
try {
  await measure(createOpenAiSpeechEngine({ baseUrl: whisper.url, model: whisper.model, apiKey: undefined, timeoutMs: 600_000 }), `whisper (${whisper.model}, local server)`, async () => [whisper.pid], whisper.pid);
} finally {
  await whisper.stop();
}
