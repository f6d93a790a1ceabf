/**
 * A transcript as the offline engine reads it: one Turn per segment, its text analysed into
 * sentences and tokens, with who said it and in which role. Evidence is cut from these sentences,
 * so every quote is an exact substring of its segment's text.
 */
import type { Evidence } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { SpeakerRole, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { MatchIndex } from '../language/match-index.js';
import { analyzeTexts, type Sentence, type Token } from '../language/text-analysis.js';

export type Side = 'representative' | 'contact';

export interface Turn {
  /** Index of the segment in the transcript. */
  readonly index: number;
  readonly speaker: string;
  readonly role: SpeakerRole;
  readonly side: Side;
  readonly text: string;
  readonly sentences: readonly Sentence[];
  readonly startMs: number | undefined;
  /** When each sentence began, from the recognised words' times; the turn's start without them. */
  readonly sentenceStartsMs: ReadonlyMap<Sentence, number>;
  /** Content words in the turn. */
  readonly words: number;
}

/** Where a token was said: the turn (its segment index) and the sentence in it. */
export interface Place {
  readonly turn: Turn;
  readonly sentence: Sentence;
}

export interface Conversation {
  readonly turns: readonly Turn[];
  /** Every content token of the conversation, by the match keys it offers. */
  readonly index: MatchIndex<Place>;
  /** Whether any speaker has the representative role; if not, every turn counts as either side. */
  readonly hasRepresentative: boolean;
  readonly speakers: ReadonlyArray<{ label: string; role: SpeakerRole }>;
}

// The engine and the measures after it (script match) read the same transcript: once is enough.
const read = new WeakMap<Transcript, Conversation>();

export function readConversation(transcript: Transcript): Conversation {
  let conversation = read.get(transcript);
  if (!conversation) read.set(transcript, (conversation = readTranscript(transcript)));
  return conversation;
}

function readTranscript(transcript: Transcript): Conversation {
  const roles = new Map(transcript.speakers.map((speaker) => [speaker.label, speaker.role]));
  const analysedSegments = analyzeTexts(transcript.segments.map((segment) => segment.text));
  const turns = transcript.segments.map((segment, index): Turn => {
    const role = roles.get(segment.speaker) ?? SpeakerRole.SPEAKER_ROLE_UNSPECIFIED;
    const analysed = analysedSegments[index]!;
    return {
      index,
      speaker: segment.speaker,
      role,
      side: role === SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE ? 'representative' : 'contact',
      text: segment.text,
      sentences: analysed.sentences,
      startMs: segment.startMs,
      sentenceStartsMs: sentenceStarts(segment, analysed.sentences),
      words: wordsIn(analysed.sentences),
    };
  });
  const index = new MatchIndex<Place>();
  for (const turn of turns) for (const sentence of turn.sentences) for (const token of sentence.tokens) index.add(token, { turn, sentence });
  addEchoes(turns, index);
  const speakers = transcript.speakers.length > 0 ? transcript.speakers : [...new Set(turns.map((turn) => turn.speaker))].map((label) => ({ label, role: SpeakerRole.SPEAKER_ROLE_UNSPECIFIED }));
  return { turns, index, hasRepresentative: turns.some((turn) => turn.side === 'representative'), speakers };
}

/** Words the other side said recently that a sentence must take up to echo them. */
const ECHO_WORDS = 2;
const ECHO_MEMORY_TURNS = 4;

/**
 * Marks the representative's sentences that take up at least ECHO_WORDS distinct content words
 * the contact said in their last ECHO_MEMORY_TURNS turns ("…so your managers get consistent
 * scores": the caller had said "managers" and "scoring"), with an 'echo' act in the index.
 */
function addEchoes(turns: readonly Turn[], index: MatchIndex<Place>): void {
  const recent: Array<Set<string>> = [];
  for (const turn of turns) {
    if (turn.side === 'contact') {
      const said = new Set<string>();
      for (const sentence of turn.sentences) for (const token of sentence.tokens) if (echoable(token)) for (const lemma of token.lemmas) said.add(lemma);
      recent.push(said);
      if (recent.length > ECHO_MEMORY_TURNS) recent.shift();
      continue;
    }
    if (recent.length === 0) continue;
    for (const sentence of turn.sentences) {
      const taken = new Set<string>();
      for (const token of sentence.tokens) {
        if (!echoable(token)) continue;
        if (recent.some((said) => token.lemmas.some((lemma) => said.has(lemma)))) taken.add(token.lemmas[0]!);
      }
      if (taken.size >= ECHO_WORDS) {
        index.add({ normal: 'echo', lemmas: ['echo'], kind: 'act', content: true, negated: false, proper: false, start: sentence.start, end: sentence.end }, { turn, sentence });
      }
    }
  }
}

const echoable = (token: Token) => token.content && token.kind === 'word' && !token.proper && token.normal.length > 3;

function wordsIn(sentences: readonly Sentence[]): number {
  let words = 0;
  for (const sentence of sentences) for (const token of sentence.tokens) if (token.kind === 'word') words += 1;
  return words;
}

/**
 * When each sentence of a segment began: the time of its first recognised word. The words are the
 * segment's text split at blanks when their counts agree, else spread over it in proportion.
 */
function sentenceStarts(segment: Transcript['segments'][number], sentences: readonly Sentence[]): Map<Sentence, number> {
  const starts = new Map<Sentence, number>();
  if (segment.words.length === 0) return starts;
  const offsets = [...segment.text.matchAll(/\S+/g)].map((match) => match.index);
  if (offsets.length === 0) return starts;
  for (const sentence of sentences) {
    let at = offsets.findIndex((offset) => offset >= sentence.start);
    if (at < 0) at = offsets.length - 1;
    const word = offsets.length === segment.words.length ? at : Math.min(segment.words.length - 1, Math.round((at * segment.words.length) / offsets.length));
    starts.set(sentence, segment.words[word]!.startMs);
  }
  return starts;
}

/** When the sentence was said: its first word's time, or its turn's start. */
export function timeOf(turn: Turn, sentence: Sentence): number | undefined {
  return turn.sentenceStartsMs.get(sentence) ?? turn.startMs;
}

/** The sentence as evidence: its exact words, with the segment's index, speaker, role and the time it was said. */
export function evidenceOf(turn: Turn, sentence: Sentence): Evidence {
  const startMs = timeOf(turn, sentence);
  return {
    quote: turn.text.slice(sentence.start, sentence.end),
    segmentIndex: turn.index,
    speaker: turn.speaker,
    role: turn.role,
    ...(startMs !== undefined ? { startMs } : {}),
  };
}

/** "m:ss" of a time in the conversation, or undefined without one. */
export function clock(ms: number | undefined): string | undefined {
  if (ms === undefined) return undefined;
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
