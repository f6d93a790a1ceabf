/**
 * Whether a recording holds a conversation to evaluate, judged from what the speech engine heard
 * in it: a recording that is silent, holds only music or noise (the speech server hears no words
 * in those), or is too short or too bare to hold a conversation fails with a reason a manager can
 * read; one where speech fills little of the recording, or where few words were heard in a lot of
 * sound, gets a warning on its transcript rather than a confident score.
 *
 * Figures:
 * - under 1 s of audio cannot hold a conversation (a click, a cut-off upload), nor can under
 *   0.5 s of recognized speech (one short word);
 * - speech covering under a fifth of a recording of 30 s or more (a call mostly on hold, a
 *   voicemail with music) is worth a warning;
 * - fewer than 30 words a minute of audible sound, over 20 s of it, is worth a warning: people
 *   say 120–180 words a minute, and a recognizer that hears so few in that much sound is hearing
 *   music, noise or a language it does not know.
 * Speech time is the words' own times, joined across pauses under 0.5 s.
 */
import type { TimedWord } from './transcript-words.js';

export const SPEECH_AMOUNT_LIMITS = {
  minRecordingMs: 1_000,
  minSpeechMs: 500,
  sparseShare: 0.2,
  sparseFromMs: 30_000,
  minWordsPerMinute: 30,
  fewWordsFromSoundMs: 20_000,
  joinGapMs: 500,
} as const;

export interface SpeechAmountInput {
  /** The recording's length. */
  durationMs: number;
  /** How much of it is audible at all (not digital or near-digital silence), on any channel. */
  soundMs: number;
  /** Every word heard, on every channel. */
  words: readonly TimedWord[];
}

export type SpeechAmount = { kind: 'fails'; reason: string } | { kind: 'enough'; speechMs: number; warnings: string[] };

/** Whether the recording is too short, silent or wordless to transcribe at all (before sending it to an engine). */
export function tooShortOrSilent(durationMs: number, soundMs: number): string | undefined {
  if (durationMs < SPEECH_AMOUNT_LIMITS.minRecordingMs) return `the recording is too short to hold a conversation (${seconds(durationMs)} of audio)`;
  if (soundMs === 0) return 'the recording is silent';
  return undefined;
}

export function judgeSpeechAmount(input: SpeechAmountInput): SpeechAmount {
  const early = tooShortOrSilent(input.durationMs, input.soundMs);
  if (early) return { kind: 'fails', reason: early };
  if (input.words.length === 0) return { kind: 'fails', reason: 'no speech was found in the recording (only silence, music or noise)' };
  const speechMs = speechTime(input.words);
  if (speechMs < SPEECH_AMOUNT_LIMITS.minSpeechMs) {
    return { kind: 'fails', reason: `the recording holds too little speech to evaluate (${input.words.length === 1 ? 'one word' : `${input.words.length} words`}, ${seconds(speechMs)})` };
  }

  const warnings: string[] = [];
  if (input.durationMs >= SPEECH_AMOUNT_LIMITS.sparseFromMs && speechMs < input.durationMs * SPEECH_AMOUNT_LIMITS.sparseShare) {
    warnings.push(
      `Speech was found in only ${seconds(speechMs)} of this ${duration(input.durationMs)} recording; the rest is silence, music or noise, so there may be little to evaluate.`,
    );
  } else if (input.soundMs >= SPEECH_AMOUNT_LIMITS.fewWordsFromSoundMs && input.words.length < (input.soundMs / 60_000) * SPEECH_AMOUNT_LIMITS.minWordsPerMinute) {
    warnings.push(
      `Only ${input.words.length} words were recognized in ${duration(input.soundMs)} of sound: the recording may be mostly music or noise, or in a language other than English, so the transcript may be incomplete.`,
    );
  }
  return { kind: 'enough', speechMs, warnings };
}

/** The time the words cover, with pauses shorter than joinGapMs counted as speech. */
export function speechTime(words: readonly TimedWord[]): number {
  const spans = words.map((word) => ({ startMs: word.startMs, endMs: Math.max(word.startMs, word.endMs) })).sort((a, b) => a.startMs - b.startMs);
  let total = 0;
  let current: { startMs: number; endMs: number } | undefined;
  for (const span of spans) {
    if (current && span.startMs - current.endMs < SPEECH_AMOUNT_LIMITS.joinGapMs) {
      current.endMs = Math.max(current.endMs, span.endMs);
      continue;
    }
    if (current) total += current.endMs - current.startMs;
    current = { ...span };
  }
  if (current) total += current.endMs - current.startMs;
  return total;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** "45 s", "3 min", "1 min 20 s". */
function duration(ms: number): string {
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 60) return `${totalSeconds} s`;
  const minutes = Math.floor(totalSeconds / 60);
  const rest = totalSeconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}
