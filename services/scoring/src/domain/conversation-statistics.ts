/**
 * What Gong shows on every call, measured from the transcript alone: who talked how much, the
 * longest monologues, questions, interruptions, filler words and pace. Pure: the same transcript
 * always gives the same numbers, and every number is finite.
 *
 * The rules:
 * - Speakers come in the transcript's order, then any label found only in segments (role
 *   unspecified), in the order they first speak. A segment without words is ignored throughout.
 * - Words are counted from each segment's text (or its recognised words when the text is blank);
 *   what a word, a question and a filler are is in `conversation-language.ts`.
 * - Times. A segment's time is its start to its end; with only one of them it is an instant; with
 *   neither, the span of its timed words. One speaker's overlapping times are merged, so nothing is
 *   counted twice. The transcript is `timed` when that gives anyone any talk time; then talk share
 *   is by time and pace is measured, otherwise talk share is by words and `talkMs`, `durationMs`
 *   and pace are 0 or unset. Segments without times add words but no time.
 * - Talk share: each speaker's talk time (or words) over everyone's; shares are rounded to 3
 *   decimals so that those of the speakers who spoke add up to exactly 1 (largest remainder). The
 *   representatives' share is the sum of theirs, unset when the transcript names no representative.
 * - Questions: in a punctuated transcript (any segment holds . ! or ?), sentences ending with "?";
 *   otherwise each segment, split where its speaker pauses 600 ms or more between recognised words,
 *   is one sentence, counted when it opens like a question.
 * - Longest monologue: the longest run of consecutive segments by one speaker with nobody else
 *   speaking in between (an interjection as short as "yeah" ends it), measured from its first start
 *   to its last end when timed, and in words. "Longest" is by time when timed, else by words; on a
 *   tie, the earlier run. A speaker's `longestMonologueMs` and `longestMonologueWords` describe the
 *   same run, and so do the conversation's.
 * - Interruptions, only from recognised word times (`wordTimings`): a speaker interrupts when they
 *   start a word while another speaker's word, begun while they were silent, still runs for more
 *   than 200 ms. It counts for the one who started. Someone already talking when the other began is
 *   talking over them, not interrupting again.
 * - Filler rate: fillers per 100 words. Words per minute: the words of segments that have a time
 *   span over the talk minutes, only when timed and the speaker has talk time. Both are rounded to
 *   3 decimals.
 * - Duration: from the first start to the last end when timed, else 0.
 */
import type { ConversationStatistics, SpeakerStatistics } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { SpeakerRole, type Segment, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { countFillers, countQuestions, tokenize, type TokenizedText } from './conversation-language.js';

/** How long another speaker's word must still run for a new word to count as an interruption. */
const INTERRUPTION_TOLERANCE_MS = 200;
/** In a transcript without punctuation, a pause this long between words starts a new sentence. */
const SENTENCE_PAUSE_MS = 600;

interface Interval {
  startMs: number;
  endMs: number;
}

interface SpokenWord extends Interval {
  speaker: string;
  text: string;
}

/** A segment with words, as the statistics read it. */
interface Turn {
  speaker: string;
  tokens: TokenizedText;
  words: number;
  /** Undefined when the segment has no time. */
  time: Interval | undefined;
  timedWords: SpokenWord[];
}

interface Monologue {
  speaker: string;
  ms: number;
  words: number;
}

export function conversationStatistics(transcript: Transcript): ConversationStatistics {
  const turns = transcript.segments.map(turnOf).filter((turn) => turn.words > 0);
  const roles = new Map<string, SpeakerRole>();
  for (const speaker of transcript.speakers) if (!roles.has(speaker.label)) roles.set(speaker.label, speaker.role);
  for (const turn of turns) if (!roles.has(turn.speaker)) roles.set(turn.speaker, SpeakerRole.SPEAKER_ROLE_UNSPECIFIED);
  const labels = [...roles.keys()];
  const turnsOf = new Map<string, Turn[]>(labels.map((label) => [label, []]));
  for (const turn of turns) turnsOf.get(turn.speaker)!.push(turn);

  const talkMs = new Map(labels.map((label) => [label, mergedLength(turnsOf.get(label)!.flatMap((turn) => (turn.time ? [turn.time] : [])))]));
  const timed = [...talkMs.values()].some((ms) => ms > 0);
  const words = new Map(labels.map((label) => [label, sum(turnsOf.get(label)!.map((turn) => turn.words))]));
  const shares = roundedShares(labels.map((label) => (timed ? talkMs.get(label)! : words.get(label)!)));

  const punctuated = turns.some((turn) => turn.tokens.punctuated);
  const spokenWords = turns.flatMap((turn) => turn.timedWords);
  const wordTimings = spokenWords.length > 0;
  const interruptions = wordTimings ? countInterruptions(spokenWords) : new Map<string, number>();
  const monologues = longestMonologues(turns, timed);

  const speakers = labels.map((label, index): SpeakerStatistics => {
    const own = turnsOf.get(label)!;
    const spoken = words.get(label)!;
    const talk = timed ? talkMs.get(label)! : 0;
    const fillers = sum(own.map((turn) => countFillers(turn.tokens)));
    // Pace counts only the words said within some talk time.
    const pacedWords = sum(own.filter((turn) => turn.time && turn.time.endMs > turn.time.startMs).map((turn) => turn.words));
    const monologue = monologues.bySpeaker.get(label);
    return {
      speaker: label,
      role: roles.get(label)!,
      words: spoken,
      talkMs: talk,
      talkShare: shares[index]! / 1000,
      questions: sum(own.map((turn) => questionsIn(turn, punctuated))),
      longestMonologueMs: monologue?.ms ?? 0,
      longestMonologueWords: monologue?.words ?? 0,
      interruptions: interruptions.get(label) ?? 0,
      fillerWords: fillers,
      fillerRate: spoken > 0 ? round3((fillers / spoken) * 100) : 0,
      ...(talk > 0 ? { wordsPerMinute: round3(pacedWords / (talk / 60_000)) } : {}),
    };
  });

  const representatives = labels.flatMap((label, index) => (roles.get(label) === SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE ? [shares[index]!] : []));
  const times = turns.flatMap((turn) => (turn.time ? [turn.time] : []));
  return {
    speakers,
    durationMs: timed ? spanOf(times) : 0,
    timed,
    wordTimings,
    ...(representatives.length > 0 ? { representativeTalkShare: sum(representatives) / 1000 } : {}),
    longestMonologueSpeaker: monologues.overall?.speaker ?? '',
    longestMonologueMs: monologues.overall?.ms ?? 0,
    longestMonologueWords: monologues.overall?.words ?? 0,
  };
}

function turnOf(segment: Segment): Turn {
  const timedWords: SpokenWord[] = [];
  for (const word of segment.words) {
    const time = intervalOf(word.startMs, word.endMs);
    if (time && word.text.trim() !== '') timedWords.push({ speaker: segment.speaker, text: word.text, ...time });
  }
  const text = segment.text.trim() !== '' ? segment.text : segment.words.map((word) => word.text).join(' ');
  const wordsSpan = timedWords.length > 0 ? { startMs: timedWords.reduce((min, word) => Math.min(min, word.startMs), Infinity), endMs: timedWords.reduce((max, word) => Math.max(max, word.endMs), 0) } : undefined;
  const tokens = tokenize(text);
  return { speaker: segment.speaker, tokens, words: tokens.words.length, time: intervalOf(segment.startMs, segment.endMs) ?? wordsSpan, timedWords };
}

/** start to end; an instant when only one is known (or the end is before the start); undefined without either. */
function intervalOf(startMs: number | undefined, endMs: number | undefined): Interval | undefined {
  const start = isTime(startMs) ? startMs : undefined;
  const end = isTime(endMs) ? endMs : undefined;
  if (start === undefined && end === undefined) return undefined;
  const from = start ?? end!;
  return { startMs: from, endMs: Math.max(from, end ?? from) };
}

function isTime(value: number | undefined): value is number {
  return value !== undefined && Number.isFinite(value) && value >= 0;
}

/** The time the intervals cover, counting overlaps once. */
function mergedLength(intervals: readonly Interval[]): number {
  const ordered = [...intervals].sort((a, b) => a.startMs - b.startMs);
  let total = 0;
  let current: Interval | undefined;
  for (const interval of ordered) {
    if (current && interval.startMs <= current.endMs) {
      current.endMs = Math.max(current.endMs, interval.endMs);
      continue;
    }
    if (current) total += current.endMs - current.startMs;
    current = { ...interval };
  }
  return current ? total + current.endMs - current.startMs : total;
}

/** Shares in thousandths that add up to exactly 1000 when anything is positive (largest remainder). */
function roundedShares(amounts: readonly number[]): number[] {
  const total = sum(amounts);
  if (!(total > 0)) return amounts.map(() => 0);
  const exact = amounts.map((amount) => (amount / total) * 1000);
  const shares = exact.map(Math.floor);
  const byRemainder = exact.map((value, index) => ({ index, remainder: value - shares[index]! })).sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (let left = 1000 - sum(shares), next = 0; left > 0; left -= 1, next += 1) shares[byRemainder[next]!.index]! += 1;
  return shares;
}

function questionsIn(turn: Turn, punctuated: boolean): number {
  if (punctuated || turn.timedWords.length === 0) return countQuestions(turn.tokens, punctuated);
  // Unpunctuated recognised speech: the speaker's pauses are the only sentence ends there are.
  const sentences: string[][] = [];
  let previousEnd = Number.NEGATIVE_INFINITY;
  for (const word of [...turn.timedWords].sort((a, b) => a.startMs - b.startMs)) {
    if (word.startMs - previousEnd >= SENTENCE_PAUSE_MS || sentences.length === 0) sentences.push([]);
    sentences.at(-1)!.push(word.text);
    previousEnd = Math.max(previousEnd, word.endMs);
  }
  return sum(sentences.map((sentence) => countQuestions(tokenize(sentence.join(' ')), false)));
}

function longestMonologues(turns: readonly Turn[], timed: boolean): { bySpeaker: Map<string, Monologue>; overall: Monologue | undefined } {
  const runs: Monologue[] = [];
  let run: { speaker: string; words: number; times: Interval[] } | undefined;
  const close = () => {
    if (!run) return;
    runs.push({ speaker: run.speaker, ms: timed ? spanOf(run.times) : 0, words: run.words });
  };
  for (const turn of turns) {
    if (run?.speaker !== turn.speaker) {
      close();
      run = { speaker: turn.speaker, words: 0, times: [] };
    }
    run.words += turn.words;
    if (turn.time) run.times.push(turn.time);
  }
  close();

  const longer = (a: Monologue, b: Monologue | undefined) => !b || a.ms > b.ms || (a.ms === b.ms && a.words > b.words);
  const bySpeaker = new Map<string, Monologue>();
  let overall: Monologue | undefined;
  for (const monologue of runs) {
    if (longer(monologue, bySpeaker.get(monologue.speaker))) bySpeaker.set(monologue.speaker, monologue);
    if (longer(monologue, overall)) overall = monologue;
  }
  return { bySpeaker, overall };
}

/**
 * Interruptions per interrupting speaker. Words are read in order of their start; for each
 * speaker the word reaching furthest among those begun earlier is kept. A word interrupts when
 * another speaker's such word still runs more than the tolerance past its start and its own
 * speaker had fallen silent before that word began.
 */
function countInterruptions(words: readonly SpokenWord[]): Map<string, number> {
  const ordered = [...words].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  const furthest = new Map<string, SpokenWord>();
  const counts = new Map<string, number>();
  for (let first = 0; first < ordered.length; ) {
    // Words starting at the same moment do not interrupt each other.
    let next = first;
    while (next < ordered.length && ordered[next]!.startMs === ordered[first]!.startMs) next += 1;
    const together = ordered.slice(first, next);
    for (const word of together) {
      const own = furthest.get(word.speaker);
      for (const [speaker, running] of furthest) {
        const stillRunning = running.endMs - word.startMs > INTERRUPTION_TOLERANCE_MS;
        const wasSilent = !own || own.endMs <= running.startMs;
        if (speaker !== word.speaker && stillRunning && wasSilent) {
          counts.set(word.speaker, (counts.get(word.speaker) ?? 0) + 1);
          break;
        }
      }
    }
    for (const word of together) {
      const kept = furthest.get(word.speaker);
      if (!kept || word.endMs > kept.endMs) furthest.set(word.speaker, word);
    }
    first = next;
  }
  return counts;
}

/** From the earliest start to the latest end; 0 without intervals. */
function spanOf(intervals: readonly Interval[]): number {
  if (intervals.length === 0) return 0;
  return intervals.reduce((max, time) => Math.max(max, time.endMs), 0) - intervals.reduce((min, time) => Math.min(min, time.startMs), Infinity);
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function round3(value: number): number {
  return Number.isFinite(value) ? Math.round(value * 1000) / 1000 : 0;
}
