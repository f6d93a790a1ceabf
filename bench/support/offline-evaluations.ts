/**
 * One offline evaluation as the scoring worker does it, for the engine bench: the offline
 * engine's judgement, then assembleEvaluation (score, script match, statistics, improvements),
 * on a transcript object of its own (the engine reads a transcript once per object and
 * remembers it, so reusing one object would measure a cache hit). Used on the main thread and in
 * the worker threads of bench/scoring-engine.bench.ts.
 */
import { readFileSync } from 'node:fs';
import { assembleEvaluation } from '@parlance/scoring/domain/assemble-evaluation';
import type { EvaluationInput } from '@parlance/scoring/engines/evaluation-engine';
import { createOfflineEngine } from '@parlance/scoring/offline/offline-engine';
import { loadSentenceEncoder, type SentenceEncoder } from '@parlance/scoring/semantic/sentence-encoder';
import type { Evaluation } from '@parlance/proto/parlance/scoring/v1/evaluation';
import type { Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { callDialogue, transcriptOf, type ConversationKind } from './call-dialogue.js';
import { cpuMsOfStat } from './process-memory.js';
import { benchTeamSnapshot, CRITERIA_COUNT } from './scoring-team.js';

export interface Workload {
  kind: ConversationKind;
  words: number;
  seed: number;
  /** With the sentence-embedding model (the product's default when it is installed). */
  meaning?: boolean;
}

export interface Evaluator {
  /** Words and segments of the transcript evaluated. */
  words: number;
  segments: number;
  /** One whole evaluation, on a fresh copy of the transcript. */
  evaluate(): Promise<Evaluation>;
  /** Texts the sentence-embedding model has encoded so far (0 without it). */
  encodedTexts(): number;
}

export interface Batch {
  evaluations: number;
  wallMs: number;
  /** CPU of the whole process (every thread, the garbage collector's included). */
  cpuMs: number;
  /** CPU of the thread that evaluated alone; undefined where /proc/thread-self is not there. */
  threadCpuMs: number | undefined;
  /** Each evaluation's own time. */
  eachMs: number[];
}

/** A transcript object of its own, as the worker gets one decoded from the database for each activity. */
const copyOf = (transcript: Transcript): Transcript => ({
  ...transcript,
  speakers: transcript.speakers.map((speaker) => ({ ...speaker })),
  segments: transcript.segments.map((segment) => ({ ...segment })),
  warnings: [...transcript.warnings],
});

export function evaluatorFor(workload: Workload): Evaluator {
  const dialogue = callDialogue({ kind: workload.kind, words: workload.words, seed: workload.seed, representative: 'Daniel' });
  const transcript = transcriptOf(dialogue);
  const team = benchTeamSnapshot();
  let encoded = 0;
  const counting = async (): Promise<SentenceEncoder> => {
    const encoder = await loadSentenceEncoder();
    return { ...encoder, encode: (texts) => ((encoded += texts.length), encoder.encode(texts)) };
  };
  const engine = createOfflineEngine(workload.meaning ? { encoder: counting } : {});
  const signal = new AbortController().signal;
  let activity = 0;
  return {
    words: dialogue.words,
    segments: transcript.segments.length,
    encodedTexts: () => encoded,
    async evaluate() {
      const input: EvaluationInput = {
        activityId: `activity-${++activity}`,
        kind: workload.kind,
        transcript: copyOf(transcript),
        team,
        representative: { email: 'daniel@example.com', name: 'Daniel' },
      };
      const judgement = await engine.judge(input, signal);
      const evaluation = assembleEvaluation(input, judgement, new Date());
      if (evaluation.verdicts.length !== CRITERIA_COUNT) throw new Error(`expected ${CRITERIA_COUNT} verdicts, got ${evaluation.verdicts.length}`);
      return evaluation;
    },
  };
}

/**
 * CPU time (ms) this thread has used, from /proc/thread-self/stat (utime and stime, in clock
 * ticks of 10 ms): Node 20 has no per-thread CPU usage. Read synchronously, so on this thread.
 */
export function threadCpuMs(): number | undefined {
  try {
    return cpuMsOfStat(readFileSync('/proc/thread-self/stat', 'utf8'));
  } catch {
    return undefined;
  }
}

/** Evaluates one after another until `seconds` have passed. */
export async function evaluateFor(evaluator: Evaluator, seconds: number): Promise<Batch> {
  const eachMs: number[] = [];
  const thread = threadCpuMs();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const until = started + seconds * 1_000;
  for (let now = started; now < until; ) {
    await evaluator.evaluate();
    const done = performance.now();
    eachMs.push(done - now);
    now = done;
  }
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const threadNow = threadCpuMs();
  return {
    evaluations: eachMs.length,
    wallMs,
    cpuMs: (used.user + used.system) / 1_000,
    threadCpuMs: thread === undefined || threadNow === undefined ? undefined : threadNow - thread,
    eachMs,
  };
}
