/**
 * How well mono diarization (src/domain/speaker-turns.ts) tells the two people on a call apart,
 * measured on calls spoken by espeak-ng with two different voices: the share of the speech time of
 * the true turns that the diarization gives to the right speaker, under the better of the two ways
 * of matching its speakers 0 and 1 to the real ones. Time inside a true turn that no diarized turn
 * covers counts as wrong.
 *
 * The calls differ in script, voices (male/female pairs, and harder same-sex pairs), pauses between
 * turns (80–700 ms, some shorter than the 200 ms hangover) and line quality (wide-band, or
 * 300–3400 Hz at 8 kHz with louder hiss). Synthetic voices are steadier than people and never talk
 * over each other, so these figures are an upper bound for real calls, not a promise.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseSpeakerTurns, type SpeakerTurn } from '../src/domain/speaker-turns.js';
import { readPcm16k, scriptLines, synthesizeCall, type CallTurn, type SynthesizeCallOptions } from './support/synthesized-call.js';

/** Floors set from the measured figures (lowest call 95.4%, overall 98.5%), with room to spare. */
const MIN_CALL_ACCURACY = 0.9;
const MIN_OVERALL_ACCURACY = 0.95;

const CALLS: { name: string; options: SynthesizeCallOptions }[] = [
  { name: 'support, male and female', options: { script: 'support', turns: 14, seed: 1 } },
  {
    name: 'billing, female and male, short pauses',
    options: {
      script: 'billing',
      seed: 2,
      pauseMs: { min: 80, max: 350 },
      voices: { representative: { voice: 'en-us+f2', pitch: 55, speed: 165 }, contact: { voice: 'en-gb+m3', pitch: 30, speed: 160 } },
    },
  },
  {
    name: 'sales, male and female, telephone line',
    options: {
      script: 'sales',
      seed: 3,
      telephone: true,
      noiseDbfs: -45,
      voices: { representative: { voice: 'en-gb', pitch: 45, speed: 170 }, contact: { voice: 'en-us+f4', pitch: 75, speed: 175, gain: 0.7 } },
    },
  },
  {
    name: 'delivery, two male voices',
    options: {
      script: 'delivery',
      seed: 4,
      voices: { representative: { voice: 'en-us', pitch: 30, speed: 160 }, contact: { voice: 'en-gb+m3', pitch: 60, speed: 170 } },
    },
  },
  {
    name: 'support, two female voices',
    options: {
      script: 'support',
      turns: 14,
      seed: 5,
      voices: { representative: { voice: 'en-us+f5', pitch: 55, speed: 160 }, contact: { voice: 'en-us+f1', pitch: 40, speed: 170 } },
    },
  },
  {
    name: 'billing, two male voices, telephone line, short pauses',
    options: {
      script: 'billing',
      seed: 6,
      telephone: true,
      pauseMs: { min: 80, max: 350 },
      voices: { representative: { voice: 'en-us+m3', pitch: 40, speed: 160 }, contact: { voice: 'en-us+m7', pitch: 25, speed: 150 } },
    },
  },
];

interface Score {
  speechMs: number;
  rightMs: number;
}

/** Speech time of the true turns, and how much of it the diarization attributes correctly. */
function score(truth: CallTurn[], turns: SpeakerTurn[]): Score {
  let same = 0;
  let swapped = 0;
  let speechMs = 0;
  for (const real of truth) {
    speechMs += real.endMs - real.startMs;
    for (const found of turns) {
      const overlap = Math.min(real.endMs, found.endMs) - Math.max(real.startMs, found.startMs);
      if (overlap > 0 && found.speaker === real.speaker) same += overlap;
      else if (overlap > 0) swapped += overlap;
    }
  }
  return { speechMs, rightMs: Math.max(same, swapped) };
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'speaker-turns-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('mono diarization on synthesized two-voice calls', () => {
  it('attributes the speech of every call to the right speaker', async () => {
    const results = await Promise.all(
      CALLS.map(async ({ name, options }, index) => {
        const call = await synthesizeCall(dir, { ...options, name: `call-${index}` });
        expect(call.durationMs).toBeGreaterThanOrEqual(40_000);
        expect(call.durationMs).toBeLessThanOrEqual(90_000);
        const analysis = analyseSpeakerTurns(await readPcm16k(call.monoPath));
        return { name, call, analysis, score: score(call.turns, analysis.turns) };
      }),
    );

    for (const { name, call, analysis, score: { speechMs, rightMs } } of results) {
      // eslint-disable-next-line no-console -- the figure the issue asks to report
      console.log(
        `Diarization ${percent(rightMs / speechMs)} of speech time right: ${name} (${(call.durationMs / 1000).toFixed(1)} s, ${call.turns.length} turns, found ${analysis.turns.length}; separation ${analysis.separation.toFixed(1)}, contrast ${analysis.contrast.toFixed(2)})`,
      );
      expect(analysis.speakers).toBe(2);
      expect(rightMs / speechMs).toBeGreaterThanOrEqual(MIN_CALL_ACCURACY);
    }
    const overall = results.reduce((sum, { score: { rightMs } }) => sum + rightMs, 0) / results.reduce((sum, { score: { speechMs } }) => sum + speechMs, 0);
    // eslint-disable-next-line no-console -- the figure the issue asks to report
    console.log(`Diarization overall ${percent(overall)} of speech time right on ${results.length} calls`);
    expect(overall).toBeGreaterThanOrEqual(MIN_OVERALL_ACCURACY);
  });

  it('finds one speaker when one voice says a whole call', async () => {
    const voices = [
      { voice: 'en-us', pitch: 35, speed: 160 },
      { voice: 'en-us+f3', pitch: 65, speed: 170, telephone: true },
    ];
    const lines = scriptLines('billing').map((line) => ({ ...line, speaker: 0 as const }));
    await Promise.all(
      voices.map(async ({ telephone, ...voice }, index) => {
        const call = await synthesizeCall(dir, { lines, name: `one-voice-${index}`, telephone: telephone ?? false, voices: { representative: voice } });
        const analysis = analyseSpeakerTurns(await readPcm16k(call.monoPath));
        expect(analysis.speakers, `separation ${analysis.separation.toFixed(2)}, contrast ${analysis.contrast.toFixed(2)}`).toBe(1);
        expect(new Set(analysis.turns.map((turn) => turn.speaker))).toEqual(new Set([0]));
        expect(score(call.turns, analysis.turns).rightMs / score(call.turns, analysis.turns).speechMs).toBeGreaterThan(0.97);
      }),
    );
  });
});
