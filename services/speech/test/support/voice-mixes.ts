/**
 * Conversations made from separate real recordings, for measuring speaker diarization: the voices
 * take turns of 1.5–8 s with short pauses between them (and now and then one says a short
 * back-channel, under a second, in a pause of the other's turn), in one mono 16 kHz recording. No
 * two voices overlap. The reference keeps who speaks when: each turn's speech, its silent ends
 * left out and pauses of 0.5 s or more inside it cut out (speechFrames). Deterministic for a seed.
 */
import { speechFrames, SAMPLE_RATE, type RecordedVoice } from './recorded-voices.js';

export interface ReferenceTurn {
  startMs: number;
  endMs: number;
  speaker: string;
}

export interface VoiceMix {
  name: string;
  pcm: Int16Array;
  reference: ReferenceTurn[];
  durationMs: number;
}

export interface MixOptions {
  seed: number;
  /** How many back-channels to try to place (default 2). */
  backChannels?: number;
}

const FRAME = SAMPLE_RATE / 50; // 20 ms
const MIN_TURN_S = 1.5;
const MAX_TURN_S = 8;

/** A small deterministic random number generator (mulberry32). */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

interface VoiceCursor {
  voice: RecordedVoice;
  speech: Uint8Array;
  /** The next unused sample. */
  at: number;
}

/** The next piece of a voice of about `seconds`, cut where it is silent (or quietest) near that length. */
function takePiece(cursor: VoiceCursor, seconds: number): { from: number; to: number } | null {
  const startFrame = Math.ceil(cursor.at / FRAME);
  // Start at its next speech.
  let first = startFrame;
  while (first < cursor.speech.length && !cursor.speech[first]) first += 1;
  if (first >= cursor.speech.length) return null;
  const wanted = first + Math.round(seconds * 50);
  if (wanted > cursor.speech.length) {
    // What is left, if it is long enough.
    if ((cursor.speech.length - first) / 50 < MIN_TURN_S) return null;
    cursor.at = cursor.voice.pcm.length;
    return { from: first * FRAME, to: cursor.speech.length * FRAME };
  }
  // The nearest silent frame within 0.6 s of the wanted end, else the wanted end itself.
  let cut = wanted;
  for (let distance = 0; distance <= 30; distance += 1) {
    if (wanted + distance < cursor.speech.length && !cursor.speech[wanted + distance]) {
      cut = wanted + distance;
      break;
    }
    if (!cursor.speech[wanted - distance]) {
      cut = wanted - distance;
      break;
    }
  }
  cursor.at = cut * FRAME;
  return { from: first * FRAME, to: cut * FRAME };
}

/** The speech of a piece as reference turns placed at `offset` samples in the mix. */
function referenceOf(cursor: VoiceCursor, piece: { from: number; to: number }, offset: number): ReferenceTurn[] {
  const turns: ReferenceTurn[] = [];
  const firstFrame = piece.from / FRAME;
  const lastFrame = piece.to / FRAME;
  let runStart = -1;
  for (let frame = firstFrame; frame <= lastFrame; frame += 1) {
    const speaking = frame < lastFrame && cursor.speech[frame] === 1;
    if (speaking && runStart < 0) runStart = frame;
    if (!speaking && runStart >= 0) {
      const toMs = (samples: number) => Math.round(((samples + offset) / SAMPLE_RATE) * 1000);
      turns.push({ startMs: toMs((runStart - firstFrame) * FRAME), endMs: toMs((frame - firstFrame) * FRAME), speaker: cursor.voice.name });
      runStart = -1;
    }
  }
  return turns;
}

/**
 * The voices taking turns until one has no speech left (so each is heard about as long as the
 * shortest allows). With more than two voices the next speaker is any other than the current one.
 */
export function mixConversation(name: string, voices: RecordedVoice[], options: MixOptions): VoiceMix {
  const random = randomFrom(options.seed);
  const cursors: VoiceCursor[] = voices.map((voice) => ({ voice, speech: speechFrames(voice.pcm), at: 0 }));
  const pieces: { cursor: VoiceCursor; from: number; to: number; pauseAfterS: number }[] = [];
  let backChannelsLeft = options.backChannels ?? 2;
  let current = 0;
  for (;;) {
    const cursor = cursors[current]!;
    const piece = takePiece(cursor, MIN_TURN_S + random() * (MAX_TURN_S - MIN_TURN_S));
    if (!piece) break;
    const listener = cursors[(current + 1) % cursors.length]!;
    // A back-channel: the listener's short piece in a pause cut into a long turn.
    const seconds = (piece.to - piece.from) / SAMPLE_RATE;
    if (backChannelsLeft > 0 && seconds > 4 && random() < 0.5) {
      const middle = piece.from + Math.round(((piece.to - piece.from) / 2 / FRAME) * (0.8 + 0.4 * random())) * FRAME;
      const saved = listener.at;
      const short = takeShort(listener, 0.5 + random() * 0.4);
      if (short) {
        backChannelsLeft -= 1;
        pieces.push({ cursor, from: piece.from, to: middle, pauseAfterS: 0.3 + 0.2 * random() });
        pieces.push({ cursor: listener, ...short, pauseAfterS: 0.3 + 0.2 * random() });
        pieces.push({ cursor, from: middle, to: piece.to, pauseAfterS: 0.2 + 0.6 * random() });
      } else {
        listener.at = saved;
        pieces.push({ cursor, ...piece, pauseAfterS: 0.2 + 0.6 * random() });
      }
    } else {
      pieces.push({ cursor, ...piece, pauseAfterS: 0.2 + 0.6 * random() });
    }
    current = cursors.length === 2 ? 1 - current : (current + 1 + Math.floor(random() * (cursors.length - 1))) % cursors.length;
  }

  const lengths = pieces.map((piece) => piece.to - piece.from + Math.round(piece.pauseAfterS * SAMPLE_RATE));
  const lead = Math.round(0.5 * SAMPLE_RATE);
  const pcm = new Int16Array(lead + lengths.reduce((sum, length) => sum + length, 0));
  const reference: ReferenceTurn[] = [];
  let offset = lead;
  for (const [index, piece] of pieces.entries()) {
    pcm.set(piece.cursor.voice.pcm.subarray(piece.from, piece.to), offset);
    reference.push(...referenceOf(piece.cursor, piece, offset));
    offset += lengths[index]!;
  }
  return { name, pcm, reference, durationMs: Math.round((pcm.length / SAMPLE_RATE) * 1000) };
}

/** A short stretch (a word or two) from the start of the voice's next speech. */
function takeShort(cursor: VoiceCursor, seconds: number): { from: number; to: number } | null {
  let first = Math.ceil(cursor.at / FRAME);
  while (first < cursor.speech.length && !cursor.speech[first]) first += 1;
  const last = first + Math.round(seconds * 50);
  if (last >= cursor.speech.length) return null;
  cursor.at = last * FRAME;
  return { from: first * FRAME, to: last * FRAME };
}

/** One voice alone, as a recording with its reference. */
export function singleVoice(name: string, voice: RecordedVoice): VoiceMix {
  const cursor: VoiceCursor = { voice, speech: speechFrames(voice.pcm), at: 0 };
  const piece = { from: 0, to: Math.floor(voice.pcm.length / FRAME) * FRAME };
  return { name, pcm: voice.pcm, reference: referenceOf(cursor, piece, 0), durationMs: Math.round((voice.pcm.length / SAMPLE_RATE) * 1000) };
}
