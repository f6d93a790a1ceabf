/**
 * One channel of a recording transcribed: cut into pieces at silences (domain/silence-chunks), the
 * pieces transcribed in parallel, and their words put back in order with times from the start of
 * the channel. Silent pieces are not sent to the engine. A piece cut outside a pause is sent with a
 * second of its neighbours around it, and keeps only the words whose middle falls in its own span:
 * a word cut in two by the piece's edge is heard whole on both sides and kept once.
 *
 * How many pieces are transcribed at once is bounded by a limiter; pass the same limiter to both
 * channels of a stereo call (and to every job of a worker) so that together they never run more
 * than N engines at once. The first failure stops the pieces not yet started, cancels the ones
 * running, and is what the call rejects with.
 */
import { availableParallelism } from 'node:os';
import { samplesToMs, type Pcm16k } from '../domain/pcm.js';
import { planChunks, type ChunkOptions } from '../domain/silence-chunks.js';
import { shiftWords, type TimedWord } from '../domain/transcript-words.js';
import type { SpeechEngine } from './speech-engine.js';

/** Runs tasks with at most `concurrency` of them running at any moment, in the order given. */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

export function createLimiter(concurrency: number): Limiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a whole number of at least 1 (got ${concurrency})`);
  let running = 0;
  const waiting: Array<() => void> = [];
  const next = () => {
    if (running >= concurrency) return;
    const start = waiting.shift();
    if (start) {
      running += 1;
      start();
    }
  };
  return <T>(task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      waiting.push(() => {
        let pending: Promise<T>;
        try {
          pending = task();
        } catch (error) {
          pending = Promise.reject(error);
        }
        pending.then(resolve, reject).finally(() => {
          running -= 1;
          next();
        });
      });
      next();
    });
}

export interface TranscribeChannelOptions {
  /** How many pieces at once when no limiter is given. Default: the number of CPUs. */
  concurrency?: number;
  /** Shared with other channels and jobs; takes precedence over `concurrency`. */
  limiter?: Limiter;
  signal?: AbortSignal;
  /** Piece lengths (see planChunks). */
  chunking?: ChunkOptions;
}

export async function transcribeChannel(engine: SpeechEngine, pcm: Pcm16k, options: TranscribeChannelOptions = {}): Promise<TimedWord[]> {
  const limit = options.limiter ?? createLimiter(options.concurrency ?? availableParallelism());
  const chunks = planChunks(pcm, options.chunking).filter((chunk) => !chunk.silent);
  options.signal?.throwIfAborted();

  // Cancels the other pieces when one fails, as well as when the caller aborts.
  const failed = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, failed.signal]) : failed.signal;
  const pieces = chunks.map((chunk) =>
    limit(async () => {
      signal.throwIfAborted();
      const words = await engine.transcribe(pcm.subarray(chunk.contextStartSample, chunk.contextEndSample), { signal });
      const lengthMs = samplesToMs(chunk.contextEndSample - chunk.contextStartSample);
      const inContext = words
        .map((word) => ({ ...word, startMs: clamp(word.startMs, lengthMs), endMs: clamp(Math.max(word.startMs, word.endMs), lengthMs) }))
        .sort((a, b) => a.startMs - b.startMs);
      const inChannel = shiftWords(inContext, samplesToMs(chunk.contextStartSample));
      if (chunk.contextStartSample === chunk.startSample && chunk.contextEndSample === chunk.endSample) return inChannel;
      const fromMs = samplesToMs(chunk.startSample);
      const toMs = samplesToMs(chunk.endSample);
      const last = chunk.endSample === pcm.length;
      return inChannel.filter((word) => {
        const middle = (word.startMs + word.endMs) / 2;
        return middle >= fromMs && (middle < toMs || (last && middle <= toMs));
      });
    }).catch((error: unknown) => {
      failed.abort(error);
      throw error;
    }),
  );

  const settled = await Promise.allSettled(pieces);
  if (options.signal?.aborted) throw options.signal.reason;
  const rejected = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  // The piece that failed first set the reason; the others only report that they were cancelled.
  if (rejected) throw failed.signal.aborted ? failed.signal.reason : rejected.reason;
  return settled.flatMap((result) => (result.status === 'fulfilled' ? result.value : []));
}

function clamp(ms: number, lengthMs: number): number {
  return Math.min(lengthMs, Math.max(0, ms));
}
