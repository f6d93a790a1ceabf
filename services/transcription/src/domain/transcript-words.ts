/**
 * Recognised words with their times, the common output of every speech engine. Times are whole
 * milliseconds: from the start of the audio an engine was given, and, once a channel has been put
 * back together from its chunks, from the start of the recording.
 */

export interface TimedWord {
  text: string;
  startMs: number;
  endMs: number;
  /** 0 to 1, when the engine gives one. */
  confidence?: number;
}

// PocketSphinx's silence and noise units (its model's noisedict: <s>, </s>, <sil>, [NOISE],
// [SPEECH]), CMU Sphinx's older "++NOISE++" style fillers, and bracketed tags other engines emit
// for sounds that are not words ([MUSIC], (laughs), <unk>).
const FILLER = /^(?:<[^<>]*>|\[[^[\]]*\]|\+\+[^+]*\+\+|\([^()]*\))$/;
// "and(2)" is the second pronunciation of "and" in the dictionary, not a different word.
const ALTERNATE_PRONUNCIATION = /\(\d+\)$/;

/**
 * The word as it should appear in a transcript, or undefined when the recogniser's token is not a
 * word at all (sentence marks, silence, noise). Alternate-pronunciation suffixes are removed.
 */
export function normalizeRecognizedWord(token: string): string | undefined {
  const trimmed = token.trim();
  if (trimmed === '' || FILLER.test(trimmed)) return undefined;
  const word = trimmed.replace(ALTERNATE_PRONUNCIATION, '');
  return word === '' ? undefined : word;
}

/** The words moved later by `offsetMs` (a chunk's start within its channel). */
export function shiftWords(words: readonly TimedWord[], offsetMs: number): TimedWord[] {
  return words.map((word) => ({ ...word, startMs: word.startMs + offsetMs, endMs: word.endMs + offsetMs }));
}
