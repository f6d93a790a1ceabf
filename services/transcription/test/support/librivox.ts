/**
 * The LibriVox recordings Debian ships in `pocketsphinx-testdata` (five sentences of Sense and
 * Sensibility read by one speaker, 16 kHz mono WAVs) with their reference transcripts, for tests
 * that measure a speech engine on real speech: alone, or joined into one recording.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { pcmDurationMs, type Pcm16k } from '../../src/domain/pcm.js';
import type { TimedWord } from '../../src/domain/transcript-words.js';
import { wordErrorRate, type WordErrorRate } from '../../src/domain/word-error-rate.js';
import { decodeAudio } from '../../src/speech/decode-audio.js';
import type { SpeechEngine } from '../../src/speech/speech-engine.js';
import { transcribeChannel } from '../../src/speech/transcribe-audio.js';

export const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';

export interface LibriVoxRecording {
  id: string;
  /** What is said, lower case without punctuation. */
  reference: string;
  pcm: Pcm16k;
  durationMs: number;
}

/** The recordings of the `<s> words </s> (file-id)` lines of the transcription file, decoded, in its order. */
export async function loadLibriVox(): Promise<LibriVoxRecording[]> {
  const text = await readFile(join(LIBRIVOX, 'transcription'), 'utf8');
  const lines = text
    .split('\n')
    .map((line) => /^(.*)\((\S+)\)\s*$/.exec(line.trim()))
    .filter((match): match is RegExpExecArray => match !== null);
  return Promise.all(
    lines.map(async (match) => {
      const { channels, durationMs } = await decodeAudio(join(LIBRIVOX, `${match[2]!}.wav`));
      return { id: match[2]!, reference: match[1]!.replace(/<\/?s>/g, ' ').trim(), pcm: channels[0]!, durationMs };
    }),
  );
}

/** The recordings one after another as one recording (about 25 s), with the references joined the same way. */
export function joinedLibriVox(recordings: LibriVoxRecording[]): Omit<LibriVoxRecording, 'id'> {
  const pcm = new Int16Array(recordings.reduce((sum, recording) => sum + recording.pcm.length, 0));
  let offset = 0;
  for (const recording of recordings) {
    pcm.set(recording.pcm, offset);
    offset += recording.pcm.length;
  }
  return { reference: recordings.map((recording) => recording.reference).join(' '), pcm, durationMs: pcmDurationMs(pcm) };
}

export interface JoinedTranscription {
  words: TimedWord[];
  /** How many pieces transcribeChannel cut the recording into. */
  pieces: number;
  result: WordErrorRate;
  durationMs: number;
}

/** The recordings joined into one, through transcribeChannel as the pipeline cuts it, and its word error rate. */
export async function transcribeJoinedLibriVox(engine: SpeechEngine, recordings: LibriVoxRecording[]): Promise<JoinedTranscription> {
  const { reference, pcm, durationMs } = joinedLibriVox(recordings);
  let pieces = 0;
  const counting: SpeechEngine = {
    name: engine.name,
    transcribe: (piece, options) => {
      pieces += 1;
      return engine.transcribe(piece, options);
    },
  };

  // About 25 s of audio: pieces of about 10 s make this three.
  const words = await transcribeChannel(counting, pcm, { chunking: { targetMs: 10_000, maxMs: 15_000 } });
  return { words, pieces, result: wordErrorRate(reference, words.map((word) => word.text).join(' ')), durationMs };
}

/**
 * Words in order and inside a recording of `durationMs` that speech fills: the first word starts
 * within a second and the last ends within 1.5 s of the end.
 */
export function expectWordTimesWithin(words: TimedWord[], durationMs: number): void {
  expect(words.length).toBeGreaterThan(0);
  for (const [index, word] of words.entries()) {
    expect(word.startMs).toBeGreaterThanOrEqual(index === 0 ? 0 : words[index - 1]!.startMs);
    expect(word.endMs).toBeGreaterThanOrEqual(word.startMs);
    expect(word.endMs).toBeLessThanOrEqual(durationMs);
  }
  expect(words[0]!.startMs).toBeLessThan(1_000);
  expect(words.at(-1)!.endMs).toBeGreaterThan(durationMs - 1_500);
}
