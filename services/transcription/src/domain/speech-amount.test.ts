import { describe, expect, it } from 'vitest';
import { judgeSpeechAmount, speechTime, tooShortOrSilent } from './speech-amount.js';
import type { TimedWord } from './transcript-words.js';

/** `count` words of 300 ms, one every `everyMs` from `fromMs`. */
function words(count: number, everyMs = 400, fromMs = 0): TimedWord[] {
  return Array.from({ length: count }, (_, index) => ({ text: `w${index}`, startMs: fromMs + index * everyMs, endMs: fromMs + index * everyMs + 300 }));
}

describe('judgeSpeechAmount', () => {
  it('fails a recording under a second, and a silent one, before anything is heard', () => {
    expect(tooShortOrSilent(600, 600)).toBe('the recording is too short to hold a conversation (0.6 s of audio)');
    expect(tooShortOrSilent(60_000, 0)).toBe('the recording is silent');
    expect(tooShortOrSilent(1_000, 10)).toBeUndefined();
    expect(judgeSpeechAmount({ durationMs: 800, soundMs: 800, words: words(2) })).toEqual({ kind: 'fails', reason: 'the recording is too short to hold a conversation (0.8 s of audio)' });
  });

  it('fails a recording of sound in which no word was heard: music or noise', () => {
    expect(judgeSpeechAmount({ durationMs: 30_000, soundMs: 30_000, words: [] })).toEqual({ kind: 'fails', reason: 'no speech was found in the recording (only silence, music or noise)' });
  });

  it('fails a recording with under half a second of speech', () => {
    expect(judgeSpeechAmount({ durationMs: 5_000, soundMs: 5_000, words: [{ text: 'Yes.', startMs: 1_000, endMs: 1_350 }] })).toEqual({
      kind: 'fails',
      reason: 'the recording holds too little speech to evaluate (one word, 0.3 s)',
    });
  });

  it('passes a conversation without warnings', () => {
    // 40 s of speech in a 45 s recording: 100 words, 150 a minute.
    expect(judgeSpeechAmount({ durationMs: 45_000, soundMs: 44_000, words: words(100) })).toEqual({ kind: 'enough', speechMs: 39_900, warnings: [] });
    // A short exchange is not sparse: too short to judge by share.
    expect(judgeSpeechAmount({ durationMs: 20_000, soundMs: 20_000, words: words(4, 400, 15_000) }).kind).toBe('enough');
  });

  it('warns when speech fills little of a long recording', () => {
    const amount = judgeSpeechAmount({ durationMs: 300_000, soundMs: 290_000, words: words(50) });
    expect(amount).toEqual({
      kind: 'enough',
      speechMs: 19_900,
      warnings: ['Speech was found in only 19.9 s of this 5 min recording; the rest is silence, music or noise, so there may be little to evaluate.'],
    });
  });

  it('warns when few words were heard in a lot of sound', () => {
    // 12 words spread over a minute of sound that speech seems to fill: 12 a minute.
    const sparse = Array.from({ length: 12 }, (_, index) => ({ text: `w${index}`, startMs: index * 5_000, endMs: index * 5_000 + 4_800 }));
    expect(judgeSpeechAmount({ durationMs: 62_000, soundMs: 61_000, words: sparse })).toMatchObject({
      kind: 'enough',
      warnings: ['Only 12 words were recognized in 1 min 1 s of sound: the recording may be mostly music or noise, or in a language other than English, so the transcript may be incomplete.'],
    });
  });
});

describe('speechTime', () => {
  it('joins words across short pauses and counts long pauses out', () => {
    expect(speechTime([])).toBe(0);
    expect(speechTime(words(3))).toBe(1_100);
    expect(speechTime([...words(2), ...words(2, 400, 5_000)])).toBe(1_400);
  });
});
