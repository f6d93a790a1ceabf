import { describe, expect, it } from 'vitest';
import { SAMPLE_RATE } from './pcm.js';
import { analyseSpeakerTurns, assignWordsToTurns, findSpeakerTurns, type SpeakerTurn } from './speaker-turns.js';

// Synthetic voices: a harmonic source shaped by formants, spoken in syllables whose pitch rises and
// falls around the voice's own (as intonation does, by a few semitones) and drifts down over each
// utterance. Enough of a voice for pitch and timbre to tell two apart; the espeak-ng calls in
// test/ are the real measurement.

interface Voice {
  /** Typical pitch in Hz. */
  f0: number;
  /** Formant frequencies are multiplied by this (longer vocal tract, lower formants). */
  formantScale: number;
}

const LOW: Voice = { f0: 105, formantScale: 1 };
const HIGH: Voice = { f0: 215, formantScale: 1.18 };
const VOWELS = [
  [730, 1090, 2440],
  [270, 2290, 3010],
  [530, 1840, 2480],
  [570, 840, 2410],
  [300, 870, 2240],
];

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

interface Utterance {
  voice: Voice;
  ms: number;
  /** Silence before it. */
  pauseMs: number;
}

/** The signal and the truth: utterances laid end to end, with a faint hiss throughout. */
function speak(utterances: Utterance[], seed = 7): { pcm: Int16Array; truth: SpeakerTurn[] } {
  const random = seeded(seed);
  const total = utterances.reduce((sum, utterance) => sum + utterance.pauseMs + utterance.ms, 500);
  const signal = new Float64Array(Math.round((total * SAMPLE_RATE) / 1000));
  const truth: SpeakerTurn[] = [];
  const speakers: Voice[] = [];
  let at = 0;
  for (const { voice, ms, pauseMs } of utterances) {
    at += pauseMs;
    if (!speakers.includes(voice)) speakers.push(voice);
    truth.push({ startMs: at, endMs: at + ms, speaker: speakers.indexOf(voice) as 0 | 1 });
    const start = Math.round((at * SAMPLE_RATE) / 1000);
    const length = Math.round((ms * SAMPLE_RATE) / 1000);
    const phrasePitch = voice.f0 * (0.96 + 0.08 * random());
    const phases = new Float64Array(40);
    let syllableStart = 0;
    let syllableLength = 0;
    let vowel = VOWELS[0] as number[];
    let accent = 1;
    let previousAccent = 1;
    for (let i = 0; i < length; i += 1) {
      if (i - syllableStart >= syllableLength) {
        syllableStart = i;
        syllableLength = Math.round(SAMPLE_RATE * (0.14 + 0.14 * random()));
        vowel = VOWELS[Math.floor(random() * VOWELS.length)] as number[];
        previousAccent = accent;
        accent = 0.8 + 0.4 * random();
      }
      const progress = i / length;
      const glide = (i - syllableStart) / syllableLength;
      const intonation = previousAccent + (accent - previousAccent) * Math.min(1, glide * 3);
      const f0 = phrasePitch * intonation * (1.1 - 0.2 * progress);
      const syllable = Math.sin((Math.PI * (i - syllableStart)) / syllableLength);
      let sample = 0;
      for (let harmonic = 1; harmonic <= phases.length; harmonic += 1) {
        const frequency = f0 * harmonic;
        if (frequency > 3800) break;
        phases[harmonic - 1] = ((phases[harmonic - 1] ?? 0) + (2 * Math.PI * frequency) / SAMPLE_RATE) % (2 * Math.PI);
        const gain = vowel.reduce((sum, formant, index) => sum + 1 / (1 + ((frequency - formant * voice.formantScale) / (60 + 40 * index)) ** 2), 0) / harmonic ** 0.5;
        sample += gain * Math.sin(phases[harmonic - 1] ?? 0);
      }
      signal[start + i] = 0.08 * syllable * sample;
    }
    at += ms;
  }
  const pcm = Int16Array.from(signal, (value) => Math.round(Math.max(-1, Math.min(1, value + 0.0008 * (random() - 0.5))) * 32767));
  return { pcm, truth };
}

/** Share of the true speech time given the right speaker (under the better of the two namings). */
function accuracy(truth: SpeakerTurn[], turns: SpeakerTurn[]): number {
  let total = 0;
  const agree = [0, 0];
  for (const turn of truth) {
    for (let ms = turn.startMs; ms < turn.endMs; ms += 10) {
      total += 1;
      const found = turns.find((candidate) => candidate.startMs <= ms && ms < candidate.endMs);
      if (found?.speaker === turn.speaker) agree[0] = (agree[0] ?? 0) + 1;
      else if (found) agree[1] = (agree[1] ?? 0) + 1;
    }
  }
  return Math.max(agree[0] ?? 0, agree[1] ?? 0) / total;
}

const dialogue = (pauseMs: number): Utterance[] => [
  { voice: LOW, ms: 3_200, pauseMs: 300 },
  { voice: HIGH, ms: 2_400, pauseMs },
  { voice: LOW, ms: 4_100, pauseMs },
  { voice: HIGH, ms: 1_500, pauseMs },
  { voice: LOW, ms: 2_600, pauseMs },
  { voice: HIGH, ms: 3_300, pauseMs },
];

describe('findSpeakerTurns', () => {
  it('finds no turns in silence, in a faint hiss or in an empty recording', () => {
    expect(findSpeakerTurns(new Int16Array(SAMPLE_RATE * 3))).toEqual([]);
    const random = seeded(1);
    expect(findSpeakerTurns(Int16Array.from({ length: SAMPLE_RATE * 3 }, () => Math.round((random() - 0.5) * 40)))).toEqual([]);
    expect(findSpeakerTurns(new Int16Array(0))).toEqual([]);
  });

  it('tells two voices apart and numbers the first to speak 0', () => {
    const { pcm, truth } = speak(dialogue(500));
    const analysis = analyseSpeakerTurns(pcm);
    expect(analysis.speakers).toBe(2);
    expect(analysis.turns.map((turn) => turn.speaker)).toEqual([0, 1, 0, 1, 0, 1]);
    expect(accuracy(truth, analysis.turns)).toBeGreaterThan(0.95);
    analysis.turns.forEach((turn, index) => {
      expect(Math.abs(turn.startMs - (truth[index]?.startMs ?? 0))).toBeLessThanOrEqual(60);
      expect(Math.abs(turn.endMs - (truth[index]?.endMs ?? 0))).toBeLessThanOrEqual(260);
    });
  });

  it('numbers the voice that opens the call 0 whichever it is', () => {
    const { pcm } = speak(dialogue(500).map((utterance) => ({ ...utterance, voice: utterance.voice === LOW ? HIGH : LOW })));
    expect(findSpeakerTurns(pcm).map((turn) => turn.speaker)).toEqual([0, 1, 0, 1, 0, 1]);
  });

  it('finds a change of speaker after a pause shorter than the hangover', () => {
    const { pcm, truth } = speak(dialogue(120));
    const turns = findSpeakerTurns(pcm);
    expect(turns.map((turn) => turn.speaker)).toEqual([0, 1, 0, 1, 0, 1]);
    expect(accuracy(truth, turns)).toBeGreaterThan(0.9);
  });

  it('keeps a short answer as a turn of its own', () => {
    const { pcm } = speak([
      { voice: LOW, ms: 3_000, pauseMs: 300 },
      { voice: HIGH, ms: 500, pauseMs: 400 },
      { voice: LOW, ms: 3_000, pauseMs: 400 },
    ]);
    expect(findSpeakerTurns(pcm).map((turn) => turn.speaker)).toEqual([0, 1, 0]);
  });

  it('does not invent a second speaker when one voice talks', () => {
    const { pcm } = speak(dialogue(500).map((utterance) => ({ ...utterance, voice: LOW })));
    const analysis = analyseSpeakerTurns(pcm);
    expect(analysis.speakers).toBe(1);
    expect(new Set(analysis.turns.map((turn) => turn.speaker))).toEqual(new Set([0]));
  });

  it('joins the phrases of one speaker into one turn across short pauses', () => {
    const { pcm } = speak([
      { voice: HIGH, ms: 2_000, pauseMs: 300 },
      { voice: HIGH, ms: 2_000, pauseMs: 600 },
      { voice: LOW, ms: 3_000, pauseMs: 500 },
    ]);
    const turns = findSpeakerTurns(pcm);
    expect(turns.map((turn) => turn.speaker)).toEqual([0, 1]);
    expect(turns[0]?.startMs).toBeLessThanOrEqual(320);
    expect(turns[0]?.endMs).toBeGreaterThanOrEqual(4_900);
  });

  it('lets the contrast needed for two voices be set', () => {
    const { pcm } = speak(dialogue(500));
    expect(analyseSpeakerTurns(pcm, { minContrast: 1_000 }).speakers).toBe(1);
  });

  it('gives the same turns for the same recording', () => {
    const { pcm } = speak(dialogue(300), 3);
    expect(findSpeakerTurns(pcm)).toEqual(findSpeakerTurns(pcm.slice()));
  });
});

describe('assignWordsToTurns', () => {
  const turns: SpeakerTurn[] = [
    { startMs: 0, endMs: 1_000, speaker: 0 },
    { startMs: 1_200, endMs: 3_000, speaker: 1 },
    { startMs: 5_000, endMs: 6_000, speaker: 0 },
  ];

  it('gives a word the speaker of the turn it overlaps most', () => {
    expect(assignWordsToTurns([{ text: 'a', startMs: 900, endMs: 1_400 }], turns)[0]?.speaker).toBe(1);
    expect(assignWordsToTurns([{ text: 'b', startMs: 700, endMs: 1_300 }], turns)[0]?.speaker).toBe(0);
  });

  it('gives a word outside every turn the speaker of the nearest one', () => {
    const words = [
      { text: 'late', startMs: 3_200, endMs: 3_500 },
      { text: 'early', startMs: 4_500, endMs: 4_800 },
      { text: 'gap', startMs: 1_130, endMs: 1_180 },
    ];
    expect(assignWordsToTurns(words, turns).map((word) => word.speaker)).toEqual([1, 0, 1]);
  });

  it('keeps every field of the word, and their order', () => {
    const words = [
      { text: 'yes', startMs: 5_100, endMs: 5_300, confidence: 0.8 },
      { text: 'hello', startMs: 10, endMs: 300 },
    ];
    expect(assignWordsToTurns(words, [...turns].reverse())).toEqual([
      { text: 'yes', startMs: 5_100, endMs: 5_300, confidence: 0.8, speaker: 0 },
      { text: 'hello', startMs: 10, endMs: 300, speaker: 0 },
    ]);
  });

  it('gives every word speaker 0 when there are no turns', () => {
    expect(assignWordsToTurns([{ text: 'hm', startMs: 0, endMs: 100 }], [])).toEqual([{ text: 'hm', startMs: 0, endMs: 100, speaker: 0 }]);
  });
});
