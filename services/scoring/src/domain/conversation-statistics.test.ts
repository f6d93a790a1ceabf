import { describe, expect, it } from 'vitest';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import type { ConversationStatistics } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { SpeakerRole, type Segment, type Speaker, type Transcript, type Word } from '@parlance/proto/parlance/transcription/v1/transcription';
import { conversationStatistics } from './conversation-statistics.js';

const { SPEAKER_ROLE_REPRESENTATIVE: REP, SPEAKER_ROLE_CONTACT: CONTACT, SPEAKER_ROLE_UNSPECIFIED: UNSPECIFIED } = SpeakerRole;

function transcript(segments: Segment[], speakers: Speaker[] = [{ label: 'Anna', role: REP }, { label: 'Ben', role: CONTACT }]): Transcript {
  return { activityId: 'act-1', kind: ActivityKind.ACTIVITY_KIND_CALL, sourceFormat: 'test', engine: 'text', durationMs: 0, speakers, segments, warnings: [] };
}

/** A segment as a plain `Name: text` transcript gives it: no times, no words. */
const line = (speaker: string, text: string): Segment => ({ speaker, text, words: [] });
const timedLine = (speaker: string, startMs: number, endMs: number | undefined, text: string): Segment => ({ speaker, startMs, endMs, text, words: [] });
/** `count` words of text, for segments where only the number matters. */
const filler = (count: number) => Array.from({ length: count }, () => 'word').join(' ');

/** Recognised words back to back from startMs, each msPerWord long. */
function wordsFrom(startMs: number, text: string, msPerWord = 400): Word[] {
  return text.split(' ').map((word, index) => ({ text: word, startMs: startMs + index * msPerWord, endMs: startMs + (index + 1) * msPerWord }));
}

/** Segments as speech recognition makes them from a stereo call: every word in time order, a new segment whenever the speaker changes. */
function recognised(channels: Record<string, Word[]>): Segment[] {
  const words = Object.entries(channels)
    .flatMap(([speaker, spoken]) => spoken.map((word) => ({ speaker, word })))
    .sort((a, b) => a.word.startMs - b.word.startMs);
  const segments: Segment[] = [];
  for (const { speaker, word } of words) {
    const last = segments.at(-1);
    if (last?.speaker === speaker) {
      last.words.push(word);
      last.endMs = word.endMs;
      last.text += ` ${word.text}`;
    } else segments.push({ speaker, startMs: word.startMs, endMs: word.endMs, text: word.text, words: [word] });
  }
  return segments;
}

const speakerNamed = (statistics: ConversationStatistics, label: string) => statistics.speakers.find((speaker) => speaker.speaker === label)!;

function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.flatMap(numbersIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(numbersIn);
  return [];
}

describe('conversationStatistics: talk share', () => {
  it('shares the talking by words in a transcript without times, and leaves time and pace empty', () => {
    const statistics = conversationStatistics(
      transcript([line('Anna', 'Hi Ben, thanks for joining today.'), line('Ben', 'Happy to be here.'), line('Anna', "Let's look at the numbers.")]),
    );
    expect(statistics).toEqual({
      speakers: [
        { speaker: 'Anna', role: REP, words: 11, talkMs: 0, talkShare: 0.733, questions: 0, longestMonologueMs: 0, longestMonologueWords: 6, interruptions: 0, fillerWords: 0, fillerRate: 0 },
        { speaker: 'Ben', role: CONTACT, words: 4, talkMs: 0, talkShare: 0.267, questions: 0, longestMonologueMs: 0, longestMonologueWords: 4, interruptions: 0, fillerWords: 0, fillerRate: 0 },
      ],
      durationMs: 0,
      timed: false,
      wordTimings: false,
      representativeTalkShare: 0.733,
      longestMonologueSpeaker: 'Anna',
      longestMonologueMs: 0,
      longestMonologueWords: 6,
    });
    expect(statistics.speakers[0]).not.toHaveProperty('wordsPerMinute');
  });

  it('rounds shares to 3 decimals that still add up to exactly 1', () => {
    const speakers = ['A', 'B', 'C'].map((label) => ({ label, role: CONTACT }));
    const statistics = conversationStatistics(transcript([line('A', 'One two.'), line('B', 'Three four.'), line('C', 'Five six.')], speakers));
    expect(statistics.speakers.map((speaker) => speaker.talkShare)).toEqual([0.334, 0.333, 0.333]);
    expect(statistics.speakers.reduce((total, speaker) => total + speaker.talkShare * 1000, 0)).toBe(1000);
  });

  it('shares the talking by time in a timed transcript, with pace and duration from first start to last end', () => {
    const statistics = conversationStatistics(
      transcript([timedLine('Anna', 1_000, 21_000, filler(40)), timedLine('Ben', 21_000, 31_000, filler(20)), timedLine('Anna', 32_000, 37_000, filler(10))]),
    );
    expect(statistics).toMatchObject({ timed: true, durationMs: 36_000, representativeTalkShare: 0.714, longestMonologueSpeaker: 'Anna', longestMonologueMs: 20_000, longestMonologueWords: 40 });
    expect(speakerNamed(statistics, 'Anna')).toMatchObject({ words: 50, talkMs: 25_000, talkShare: 0.714, wordsPerMinute: 120 });
    expect(speakerNamed(statistics, 'Ben')).toMatchObject({ words: 20, talkMs: 10_000, talkShare: 0.286, wordsPerMinute: 120 });
  });

  it('counts the overlapping segments of one speaker once', () => {
    const statistics = conversationStatistics(
      transcript([timedLine('Anna', 0, 10_000, filler(20)), timedLine('Anna', 5_000, 15_000, filler(20)), timedLine('Ben', 15_000, 20_000, filler(10))]),
    );
    expect(speakerNamed(statistics, 'Anna')).toMatchObject({ talkMs: 15_000, talkShare: 0.75, wordsPerMinute: 160 });
    expect(speakerNamed(statistics, 'Ben')).toMatchObject({ talkMs: 5_000, talkShare: 0.25 });
    expect(statistics.durationMs).toBe(20_000);
  });

  it('gives a segment with only a start its words but no time, as the last line of a Zoom transcript', () => {
    const statistics = conversationStatistics(transcript([timedLine('Anna', 4_000, 31_000, filler(60)), timedLine('Ben', 31_000, 61_000, filler(50)), timedLine('Anna', 61_000, undefined, 'Thanks, bye.')]));
    expect(speakerNamed(statistics, 'Anna')).toMatchObject({ words: 62, talkMs: 27_000, wordsPerMinute: 133.333 });
    expect(statistics.durationMs).toBe(57_000);
  });

  it('takes the time of a segment without one from its recognised words', () => {
    const words = wordsFrom(2_000, 'hello there everyone', 500);
    const statistics = conversationStatistics(transcript([{ speaker: 'Anna', text: 'hello there everyone', words }]));
    expect(statistics).toMatchObject({ timed: true, wordTimings: true, durationMs: 1_500 });
    expect(speakerNamed(statistics, 'Anna')).toMatchObject({ talkMs: 1_500, talkShare: 1, wordsPerMinute: 120 });
  });

  it('leaves the representative share unset when nobody is a representative, and 0 when the representative said nothing', () => {
    const noRepresentative = conversationStatistics(transcript([line('Ben', 'Hello.')], [{ label: 'Ben', role: CONTACT }]));
    expect(noRepresentative).not.toHaveProperty('representativeTalkShare');
    const silentRepresentative = conversationStatistics(transcript([line('Ben', 'Hello.')]));
    expect(silentRepresentative.representativeTalkShare).toBe(0);
    expect(speakerNamed(silentRepresentative, 'Ben').talkShare).toBe(1);
  });
});

describe('conversationStatistics: speakers', () => {
  it('lists the transcript’s speakers first, then labels found only in segments, and ignores segments without words', () => {
    const statistics = conversationStatistics(
      transcript([line('Guest', 'Can I join?'), line('Anna', 'Sure.'), line('Ghost', '  '), line('Host', 'Welcome.')], [
        { label: 'Anna', role: REP },
        { label: 'Ben', role: CONTACT },
      ]),
    );
    expect(statistics.speakers.map(({ speaker, role, words, talkShare }) => ({ speaker, role, words, talkShare }))).toEqual([
      { speaker: 'Anna', role: REP, words: 1, talkShare: 0.2 },
      { speaker: 'Ben', role: CONTACT, words: 0, talkShare: 0 },
      { speaker: 'Guest', role: UNSPECIFIED, words: 3, talkShare: 0.6 },
      { speaker: 'Host', role: UNSPECIFIED, words: 1, talkShare: 0.2 },
    ]);
    expect(statistics.longestMonologueSpeaker).toBe('Guest');
  });

  it('answers zeros, without a single NaN, for an empty transcript', () => {
    const empty = conversationStatistics(transcript([], []));
    expect(empty).toEqual({ speakers: [], durationMs: 0, timed: false, wordTimings: false, longestMonologueSpeaker: '', longestMonologueMs: 0, longestMonologueWords: 0 });

    const silent = conversationStatistics(transcript([line('Anna', ''), timedLine('Ben', 0, 0, '')]));
    expect(silent.speakers.map((speaker) => [speaker.speaker, speaker.words, speaker.talkShare, speaker.fillerRate, speaker.wordsPerMinute])).toEqual([
      ['Anna', 0, 0, 0, undefined],
      ['Ben', 0, 0, 0, undefined],
    ]);
    expect(silent).toMatchObject({ durationMs: 0, timed: false, representativeTalkShare: 0 });
    expect(numbersIn([empty, silent]).every(Number.isFinite)).toBe(true);
  });

  it('treats impossible times as no times', () => {
    const statistics = conversationStatistics(transcript([timedLine('Anna', Number.NaN, -5, 'Hello there.'), timedLine('Ben', -1, Number.POSITIVE_INFINITY, 'Hi.')]));
    expect(statistics).toMatchObject({ timed: false, durationMs: 0 });
    expect(speakerNamed(statistics, 'Anna').talkShare).toBe(0.667);
    expect(numbersIn(statistics).every(Number.isFinite)).toBe(true);
  });
});

describe('conversationStatistics: monologues', () => {
  it('joins consecutive segments of one speaker into one monologue, from its first start to its last end', () => {
    const statistics = conversationStatistics(
      transcript([
        timedLine('Anna', 0, 10_000, filler(20)),
        timedLine('Anna', 10_500, 20_000, filler(10)),
        timedLine('Ben', 20_000, 35_000, filler(25)),
        timedLine('Anna', 35_000, 40_000, filler(15)),
      ]),
    );
    expect(speakerNamed(statistics, 'Anna')).toMatchObject({ longestMonologueMs: 20_000, longestMonologueWords: 30 });
    expect(speakerNamed(statistics, 'Ben')).toMatchObject({ longestMonologueMs: 15_000, longestMonologueWords: 25 });
    expect(statistics).toMatchObject({ longestMonologueSpeaker: 'Anna', longestMonologueMs: 20_000, longestMonologueWords: 30 });
  });

  it('measures monologues in words without times, and ends one at any word from someone else', () => {
    const statistics = conversationStatistics(
      transcript([line('Anna', filler(8)), line('Anna', filler(8)), line('Ben', 'Yeah.'), line('Anna', filler(12)), line('Ben', filler(14))]),
    );
    expect(speakerNamed(statistics, 'Anna')).toMatchObject({ longestMonologueMs: 0, longestMonologueWords: 16 });
    expect(statistics).toMatchObject({ longestMonologueSpeaker: 'Anna', longestMonologueMs: 0, longestMonologueWords: 16 });
  });

  it('picks the longest monologue by time when timed, even when a shorter one has more words', () => {
    const statistics = conversationStatistics(transcript([timedLine('Anna', 0, 30_000, filler(30)), timedLine('Ben', 30_000, 40_000, filler(50))]));
    expect(statistics).toMatchObject({ longestMonologueSpeaker: 'Anna', longestMonologueMs: 30_000, longestMonologueWords: 30 });
  });
});

describe('conversationStatistics: interruptions', () => {
  // Speaker 1 explains the plan; Speaker 2 breaks in at 900 ms, while "plan" (800–1200) runs for
  // 300 ms more. Speaker 1 breaks in on Speaker 2 at 5900 ms. Speaker 2's "right" overlaps "thing"
  // by only 100 ms. At 12900 Speaker 2 talks over six words of Speaker 1: one interruption.
  const call = recognised({
    'Speaker 1': [
      ...wordsFrom(0, 'so our plan covers the whole team for a year'),
      ...wordsFrom(5_900, 'sure go ahead'),
      ...wordsFrom(9_000, 'one more thing'),
      ...wordsFrom(12_000, 'the price includes onboarding and support for every seat'),
    ],
    'Speaker 2': [
      ...wordsFrom(900, 'wait what about'),
      ...wordsFrom(5_000, 'let me explain how our setup works today'),
      ...wordsFrom(10_100, 'right', 300),
      ...wordsFrom(12_900, 'but we only need ten seats'),
    ],
  });
  const speakers = [
    { label: 'Speaker 1', role: REP },
    { label: 'Speaker 2', role: CONTACT },
  ];

  it('counts each interruption once, for the speaker who broke in', () => {
    const statistics = conversationStatistics(transcript(call, speakers));
    expect(statistics.wordTimings).toBe(true);
    expect(speakerNamed(statistics, 'Speaker 1').interruptions).toBe(1);
    expect(speakerNamed(statistics, 'Speaker 2').interruptions).toBe(2);
  });

  it('measures talk time over the interleaved segments of overlapping speech without counting any twice', () => {
    const statistics = conversationStatistics(transcript(call, speakers));
    expect(speakerNamed(statistics, 'Speaker 1')).toMatchObject({ talkMs: 10_000, talkShare: 0.585, words: 25 });
    expect(speakerNamed(statistics, 'Speaker 2')).toMatchObject({ talkMs: 7_100, talkShare: 0.415, words: 18 });
    expect(statistics).toMatchObject({ timed: true, durationMs: 15_600, representativeTalkShare: 0.585 });
  });

  it('does not count an overlap within the 200 ms tolerance, nor words starting at the same moment', () => {
    const statistics = conversationStatistics(
      transcript(
        recognised({
          'Speaker 1': [...wordsFrom(0, 'one two three'), ...wordsFrom(5_000, 'together now')],
          'Speaker 2': [...wordsFrom(1_000, 'four five'), ...wordsFrom(5_000, 'at once')],
        }),
        speakers,
      ),
    );
    // "four" starts at 1000 while "three" (800–1200) runs 200 ms more: not beyond the tolerance.
    expect(statistics.speakers.map((speaker) => speaker.interruptions)).toEqual([0, 0]);
  });

  it('leaves interruptions at 0 and says so without word timings', () => {
    const statistics = conversationStatistics(transcript([timedLine('Anna', 0, 10_000, filler(20)), timedLine('Ben', 2_000, 8_000, filler(10))]));
    expect(statistics.wordTimings).toBe(false);
    expect(statistics.speakers.map((speaker) => speaker.interruptions)).toEqual([0, 0]);
  });
});

describe('conversationStatistics: questions', () => {
  it('counts sentences ending with a question mark in a punctuated transcript', () => {
    const statistics = conversationStatistics(
      transcript([
        line('Anna', 'How are you? Good to hear. Really?! And what is the budget'),
        line('Ben', 'Could you send the contract? Also, what does onboarding include?? Thanks.'),
        line('Anna', 'what we need is a faster rollout'),
      ]),
    );
    expect(speakerNamed(statistics, 'Anna').questions).toBe(2);
    expect(speakerNamed(statistics, 'Ben').questions).toBe(2);
  });

  it('recognises interrogative openings in a transcript without punctuation (a decimal point is not punctuation)', () => {
    const asked = [
      'so what is your budget for this year',
      'could you send me the contract',
      'where do you see the biggest risk',
      'do you have a minute',
      'is there anything else',
      "okay um how's the team finding it",
      'why',
    ];
    const stated = ['what we need is a faster rollout', 'when the contract ends we renew', 'do it now', 'how it works is simple', 'i think it works', 'what a great quarter', 'we grew 3.5 percent'];
    const statistics = conversationStatistics(transcript([...asked.map((text) => line('Anna', text)), ...stated.map((text) => line('Ben', text))]));
    expect(speakerNamed(statistics, 'Anna').questions).toBe(asked.length);
    expect(speakerNamed(statistics, 'Ben').questions).toBe(0);
  });

  it('starts a new sentence at a pause in unpunctuated recognised speech', () => {
    const withPause = [...wordsFrom(0, 'good thanks', 300), ...wordsFrom(1_300, 'how about you', 300)];
    const withoutPause = wordsFrom(0, 'good thanks how about you', 300);
    const segmentOf = (words: Word[]): Segment => ({ speaker: 'Anna', text: words.map((word) => word.text).join(' '), words });
    expect(conversationStatistics(transcript([segmentOf(withPause)])).speakers[0]!.questions).toBe(1);
    expect(conversationStatistics(transcript([segmentOf(withoutPause)])).speakers[0]!.questions).toBe(0);
  });

  it('counts Chinese characters as words and full-width question marks as question marks', () => {
    const statistics = conversationStatistics(transcript([line('Anna', '你们的预算是多少？'), line('Ben', '大概十万。')]));
    expect(speakerNamed(statistics, 'Anna')).toMatchObject({ words: 8, questions: 1 });
    expect(speakerNamed(statistics, 'Ben')).toMatchObject({ words: 4, questions: 0 });
  });
});

describe('conversationStatistics: filler words', () => {
  const fillersIn = (text: string) => conversationStatistics(transcript([line('Anna', text)])).speakers[0]!.fillerWords;

  it('counts "like" only when set off from the sentence', () => {
    expect(fillersIn('I like it.')).toBe(0);
    expect(fillersIn('Things like that matter.')).toBe(0);
    expect(fillersIn('Like I said, it works.')).toBe(0);
    expect(fillersIn('It was, like, huge.')).toBe(1);
    expect(fillersIn('Like, I do not know.')).toBe(1);
  });

  it('counts um, uh and their kin anywhere, whole words only, in any case', () => {
    expect(fillersIn('UM, well. Uhh, hmm, er, erm, ah.')).toBe(6);
    expect(fillersIn('The umbrella stood by the human.')).toBe(0);
  });

  it('counts "you know" and "I mean" as one filler each, only when set off', () => {
    expect(fillersIn('I mean, you know, it is hard.')).toBe(2);
    expect(fillersIn('It is hard, you know.')).toBe(1);
    expect(fillersIn('Do you know the price? I mean it.')).toBe(0);
  });

  it('counts "kind of" and "sort of" as hedges, but not after a determiner', () => {
    expect(fillersIn('It is kind of expensive and we sort of agreed.')).toBe(2);
    expect(fillersIn('What kind of plan is it, a different sort of deal?')).toBe(0);
  });

  it('gives the filler rate per 100 words, to 3 decimals', () => {
    const statistics = conversationStatistics(transcript([line('Anna', 'Um, it was, like, huge, you know.'), line('Ben', 'Right.')]));
    expect(speakerNamed(statistics, 'Anna')).toMatchObject({ words: 7, fillerWords: 3, fillerRate: 42.857 });
    expect(speakerNamed(statistics, 'Ben')).toMatchObject({ fillerWords: 0, fillerRate: 0 });
  });
});
