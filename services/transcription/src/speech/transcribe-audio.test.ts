import { describe, expect, it } from 'vitest';
import { msToSamples, samplesToMs, type Pcm16k } from '../domain/pcm.js';
import type { TimedWord } from '../domain/transcript-words.js';
import type { SpeechEngine, TranscribeOptions } from './speech-engine.js';
import { createLimiter, transcribeChannel } from './transcribe-audio.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Loud noise for each `true` second, digital silence for each `false` one. */
function seconds(...loud: boolean[]): Int16Array {
  const pcm = new Int16Array(loud.length * 16_000);
  let seed = 7;
  loud.forEach((isLoud, second) => {
    if (!isLoud) return;
    for (let index = second * 16_000; index < (second + 1) * 16_000; index += 1) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      pcm[index] = Math.round((seed / 2147483648 - 0.5) * 12_000);
    }
  });
  return pcm;
}

/** Answers each piece with one word named after its length, after a delay the test chooses. */
function scriptedEngine(options: { delayMs?: (pieceIndex: number) => number; fail?: (pieceIndex: number) => Error | undefined; words?: (pcm: Pcm16k) => TimedWord[] } = {}) {
  const calls: Array<{ samples: number; signal: AbortSignal | undefined }> = [];
  let running = 0;
  let mostAtOnce = 0;
  const engine: SpeechEngine = {
    name: 'scripted',
    async transcribe(pcm: Pcm16k, transcribeOptions: TranscribeOptions = {}) {
      const index = calls.length;
      calls.push({ samples: pcm.length, signal: transcribeOptions.signal });
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      try {
        await delay(options.delayMs?.(index) ?? 5);
        transcribeOptions.signal?.throwIfAborted();
        const failure = options.fail?.(index);
        if (failure) throw failure;
        return options.words?.(pcm) ?? [{ text: `piece${index}`, startMs: 100, endMs: 200 }];
      } finally {
        running -= 1;
      }
    },
  };
  return { engine, calls, mostAtOnce: () => mostAtOnce };
}

// 5 s pieces at most, cut in the silent seconds.
const SMALL = { targetMs: 4_000, maxMs: 5_000, minSilenceMs: 200 };

describe('createLimiter', () => {
  it('runs at most N tasks at once, in the order given, and passes results and errors through', async () => {
    const limit = createLimiter(2);
    const started: number[] = [];
    let running = 0;
    let mostAtOnce = 0;
    const task = (id: number) => async () => {
      started.push(id);
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await delay(10 - id);
      running -= 1;
      if (id === 3) throw new Error('three failed');
      return id * 10;
    };
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((id) => limit(task(id))));
    expect(mostAtOnce).toBe(2);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message))).toEqual([10, 20, 'three failed', 40, 50]);
  });

  it('turns a task that throws before returning a promise into a rejection', async () => {
    const limit = createLimiter(1);
    await expect(
      limit(() => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    await expect(limit(async () => 'next')).resolves.toBe('next');
  });

  it('refuses a concurrency below 1', () => {
    expect(() => createLimiter(0)).toThrow(RangeError);
    expect(() => createLimiter(1.5)).toThrow(RangeError);
  });
});

describe('transcribeChannel', () => {
  it('transcribes nothing for no audio', async () => {
    const { engine, calls } = scriptedEngine();
    expect(await transcribeChannel(engine, new Int16Array(0))).toEqual([]);
    expect(calls).toHaveLength(0);
  });

  it('moves each piece’s words to channel time and keeps them in order when later pieces finish first', async () => {
    // Speech with a silent second every 4 s: pieces of 4 s (the last one 3 s).
    const pcm = seconds(true, true, true, false, true, true, true, false, true, true, true);
    const { engine, calls } = scriptedEngine({ delayMs: (index) => 40 - index * 15 });
    const words = await transcribeChannel(engine, pcm, { concurrency: 3, chunking: SMALL });
    const offsets = calls.reduce<number[]>((starts, call) => [...starts, starts.at(-1)! + call.samples], [0]).slice(0, -1);
    expect(calls.length).toBe(3);
    expect(words).toEqual(
      offsets.map((offset, index) => ({ text: `piece${index}`, startMs: samplesToMs(offset) + 100, endMs: samplesToMs(offset) + 200 })),
    );
    for (const offset of offsets.slice(1)) {
      const second = samplesToMs(offset) / 1000;
      expect(second % 4).toBeGreaterThanOrEqual(3);
    }
  });

  it('does not send silent pieces to the engine', async () => {
    const pcm = seconds(true, true, true, false, false, false, false, false, false, false, false, true, true);
    const { engine, calls } = scriptedEngine();
    const words = await transcribeChannel(engine, pcm, { chunking: SMALL });
    expect(calls.length).toBeGreaterThanOrEqual(2);
    const total = calls.reduce((sum, call) => sum + call.samples, 0);
    expect(total).toBeLessThan(pcm.length - msToSamples(3_000));
    expect(words).toHaveLength(calls.length);
  });

  it('keeps words inside their piece and sorted, whatever the engine says', async () => {
    const pcm = seconds(true, true);
    const { engine } = scriptedEngine({
      words: () => [
        { text: 'late', startMs: 1_500, endMs: 9_000 },
        { text: 'early', startMs: -20, endMs: 300 },
        { text: 'backwards', startMs: 800, endMs: 700 },
      ],
    });
    expect(await transcribeChannel(engine, pcm)).toEqual([
      { text: 'early', startMs: 0, endMs: 300 },
      { text: 'backwards', startMs: 800, endMs: 800 },
      { text: 'late', startMs: 1_500, endMs: 2_000 },
    ]);
  });

  it('keeps every word once where speech without a pause had to be cut, each piece hearing a second of its neighbours', async () => {
    // 12 s of talk without a pause, in pieces of at most 5 s: the cuts fall inside "words".
    const pcm = seconds(...Array.from({ length: 12 }, () => true));
    // The talk: a word of 250 ms every 300 ms. The engine hears those whole inside its piece, and
    // the cut part of one at either edge; a piece is a view of the channel, so its offset is known.
    const spoken = Array.from({ length: 40 }, (_, index) => ({ text: `w${index}`, startMs: index * 300, endMs: index * 300 + 250 }));
    const { engine, calls } = scriptedEngine({
      words: (piece) => {
        const fromMs = samplesToMs(piece.byteOffset / 2);
        const toMs = fromMs + samplesToMs(piece.length);
        return spoken
          .filter((word) => word.endMs > fromMs && word.startMs < toMs)
          .map((word) => ({ text: word.text, startMs: Math.max(word.startMs, fromMs) - fromMs, endMs: Math.min(word.endMs, toMs) - fromMs }));
      },
    });
    const words = await transcribeChannel(engine, pcm, { chunking: SMALL });
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.reduce((sum, call) => sum + call.samples, 0)).toBeGreaterThan(pcm.length);
    expect(words.map((word) => word.text)).toEqual(spoken.map((word) => word.text));
  });

  it('shares a limiter between the two channels of a call', async () => {
    const left = scriptedEngine({ delayMs: () => 20 });
    const right = scriptedEngine({ delayMs: () => 20 });
    let running = 0;
    let mostAtOnce = 0;
    const counted = (engine: SpeechEngine): SpeechEngine => ({
      name: engine.name,
      async transcribe(pcm, options) {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        try {
          return await engine.transcribe(pcm, options);
        } finally {
          running -= 1;
        }
      },
    });
    const pcm = seconds(true, true, true, false, true, true, true, false, true, true, true, false, true, true);
    const limiter = createLimiter(3);
    const [a, b] = await Promise.all([
      transcribeChannel(counted(left.engine), pcm, { limiter, chunking: SMALL }),
      transcribeChannel(counted(right.engine), pcm, { limiter, chunking: SMALL }),
    ]);
    expect(a.length + b.length).toBeGreaterThanOrEqual(8);
    expect(mostAtOnce).toBe(3);
  });

  it('rejects with the first failure and cancels the other pieces', async () => {
    const pcm = seconds(true, true, true, false, true, true, true, false, true, true, true, false, true, true);
    const failure = new Error('the speech server answered 500: overloaded');
    const { engine, calls } = scriptedEngine({ delayMs: (index) => (index === 1 ? 5 : 60), fail: (index) => (index === 1 ? failure : undefined) });
    await expect(transcribeChannel(engine, pcm, { concurrency: 2, chunking: SMALL })).rejects.toBe(failure);
    expect(calls.length).toBeLessThan(4);
    expect(calls[0]!.signal?.aborted).toBe(true);
  });

  it('stops when the caller aborts, rejecting with the reason', async () => {
    const pcm = seconds(true, true, true, false, true, true, true);
    const { engine } = scriptedEngine({ delayMs: () => 200 });
    const controller = new AbortController();
    const transcribing = transcribeChannel(engine, pcm, { chunking: SMALL, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('job cancelled')), 20);
    await expect(transcribing).rejects.toThrow('job cancelled');
    await expect(transcribeChannel(engine, pcm, { signal: AbortSignal.abort(new Error('too late')) })).rejects.toThrow('too late');
  });
});
