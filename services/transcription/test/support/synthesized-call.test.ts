import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPcm16k, scriptLines, synthesizeCall } from './synthesized-call.js';

const run = promisify(execFile);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'synthesized-call-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Root mean square of 16 kHz samples between two times, in dBFS. */
function level(pcm: Int16Array, startMs: number, endMs: number): number {
  let sum = 0;
  const from = Math.round(startMs * 16);
  const to = Math.min(pcm.length, Math.round(endMs * 16));
  for (let i = from; i < to; i += 1) sum += ((pcm[i] ?? 0) / 32768) ** 2;
  return 10 * Math.log10(sum / Math.max(1, to - from) + 1e-12);
}

describe('synthesizeCall', () => {
  it('puts the representative on the left, the contact on the right, and both in the mono mix', async () => {
    const call = await synthesizeCall(dir, { lines: scriptLines('billing').slice(0, 4), name: 'channels' });
    expect(call.turns.map((turn) => turn.speaker)).toEqual([0, 1, 0, 1]);
    const [left, right, mono] = await Promise.all([readPcm16k(call.stereoPath, { channel: 0 }), readPcm16k(call.stereoPath, { channel: 1 }), readPcm16k(call.monoPath)]);
    expect(Math.abs(mono.length - Math.round(call.durationMs * 16))).toBeLessThanOrEqual(16);
    for (const turn of call.turns) {
      const [speaking, silent] = turn.speaker === 0 ? [left, right] : [right, left];
      expect(level(speaking, turn.startMs, turn.endMs)).toBeGreaterThan(-35);
      expect(level(silent, turn.startMs, turn.endMs)).toBeLessThan(-55);
      expect(level(mono, turn.startMs, turn.endMs)).toBeGreaterThan(-35);
    }
  });

  it('lays the turns one after the other with a pause between them', async () => {
    const call = await synthesizeCall(dir, { script: 'support', turns: 8, name: 'timeline', pauseMs: { min: 300, max: 300 } });
    expect(call.turns).toHaveLength(8);
    expect(call.turns[0]?.startMs).toBe(500);
    call.turns.slice(1).forEach((turn, index) => {
      expect(turn.speaker).not.toBe(call.turns[index]?.speaker);
      expect(turn.startMs - (call.turns[index]?.endMs ?? 0)).toBeGreaterThanOrEqual(299);
      expect(turn.startMs - (call.turns[index]?.endMs ?? 0)).toBeLessThanOrEqual(301);
    });
    expect(call.durationMs - (call.turns.at(-1)?.endMs ?? 0)).toBeGreaterThanOrEqual(499);
  });

  it('writes the same files for the same options', async () => {
    const options = { lines: scriptLines('sales').slice(0, 2), seed: 9 };
    const [first, second] = [await synthesizeCall(dir, { ...options, name: 'first' }), await synthesizeCall(dir, { ...options, name: 'second' })];
    expect(second.turns).toEqual(first.turns);
    expect((await readFile(second.stereoPath)).equals(await readFile(first.stereoPath))).toBe(true);
  });

  it('reaches a target length by repeating and varying the exchanges', async () => {
    const call = await synthesizeCall(dir, { minutes: 1.5, name: 'long' });
    expect(call.durationMs).toBeGreaterThanOrEqual(90_000);
    expect(call.durationMs).toBeLessThan(110_000);
    expect(call.turns.at(-1)?.text).toBe(scriptLines('support').at(-1)?.text);
  });

  it('makes telephone-quality files at 8 kHz', async () => {
    const call = await synthesizeCall(dir, { lines: scriptLines('delivery').slice(0, 2), name: 'phone', telephone: true });
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=sample_rate,channels', '-of', 'csv=p=0', call.stereoPath]);
    expect(stdout.trim()).toBe('8000,2');
  });
});
