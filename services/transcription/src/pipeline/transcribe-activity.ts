/**
 * One activity's media into a transcript: a text transcript is parsed; a recording is decoded to
 * 16 kHz, and then either each channel of a two-party recording is transcribed as one speaker, or
 * a mono recording is transcribed once and split into speaker turns. Speakers are then labelled
 * representative or contact. A failure a person should read is a SpeechError.
 */
import { SpeakerRole, type Segment, type Speaker } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { WorkRequest } from '../db/schema.js';
import { channelLayout } from '../domain/channel-layout.js';
import { assignRoles } from '../domain/speaker-roles.js';
import { segmentsFromWords } from '../domain/speaker-segments.js';
import { assignWordsToTurns, findSpeakerTurns } from '../domain/speaker-turns.js';
import { parseTextTranscript } from '../domain/text-transcript.js';
import type { TimedWord } from '../domain/transcript-words.js';
import { decodeAudio } from '../speech/decode-audio.js';
import { SpeechError } from '../speech/speech-error.js';
import type { SpeechEngine } from '../speech/speech-engine.js';
import { transcribeChannel, type Limiter } from '../speech/transcribe-audio.js';

export interface TranscriptDraft {
  sourceFormat: string;
  engine: string;
  durationMs: number;
  speakers: Speaker[];
  segments: Segment[];
  warnings: string[];
}

export interface TranscribeDependencies {
  engine: SpeechEngine;
  /** Shared by every activity in the process, so engines never outnumber the cores given. */
  limiter: Limiter;
  /** The channel (0 left, 1 right) a two-party recorder puts the representative on; unset: told by what is said. */
  representativeChannel?: 0 | 1 | undefined;
}

export const TRANSCRIPTION_REASONS = {
  emptyFile: 'the file is empty',
  emptyTranscript: 'the transcript has no text',
  noSpeech: 'no speech was recognized in the recording',
} as const;

export const TRANSCRIPTION_WARNINGS = {
  speakersByVoice: 'The recording has one channel, so the speakers were told apart by their voices; where they talk over each other the labels may be wrong.',
} as const;

export function transcribeText(request: WorkRequest, content: Buffer): TranscriptDraft {
  if (content.length === 0) throw new SpeechError(TRANSCRIPTION_REASONS.emptyFile);
  const parsed = parseTextTranscript(new TextDecoder('utf-8').decode(content), request.fileName);
  if (parsed.segments.length === 0) throw new SpeechError(TRANSCRIPTION_REASONS.emptyTranscript);
  const roles = assignRoles({
    speakers: parsed.speakers,
    segments: parsed.segments,
    representative: { email: request.representativeEmail, name: request.representativeName },
  });
  return {
    sourceFormat: parsed.format,
    engine: 'text',
    durationMs: Math.max(0, ...parsed.segments.map((segment) => segment.endMs ?? segment.startMs ?? 0)),
    speakers: parsed.speakers.map((label) => ({ label, role: roleOf(roles[label]) })),
    segments: parsed.segments.map((segment) => ({
      speaker: segment.speaker,
      text: segment.text,
      words: [],
      ...(segment.startMs === undefined ? {} : { startMs: segment.startMs }),
      ...(segment.endMs === undefined ? {} : { endMs: segment.endMs }),
    })),
    warnings: parsed.warnings,
  };
}

export async function transcribeRecording(
  deps: TranscribeDependencies,
  request: WorkRequest,
  mediaPath: string,
  options: { signal?: AbortSignal } = {},
): Promise<TranscriptDraft> {
  if (request.mediaFormat === 'empty') throw new SpeechError(TRANSCRIPTION_REASONS.emptyFile);
  const audio = await decodeAudio(mediaPath, options);
  const layout = channelLayout(audio.channels);
  const channelOptions = { limiter: deps.limiter, ...(options.signal ? { signal: options.signal } : {}) };

  let words: (TimedWord & { speaker: number })[];
  if (layout.kind === 'two-party') {
    const [first, second] = await Promise.all(layout.channels.map((pcm) => transcribeChannel(deps.engine, pcm, channelOptions)));
    words = [...first!.map((word) => ({ ...word, speaker: 0 })), ...second!.map((word) => ({ ...word, speaker: 1 }))];
  } else {
    const recognized = await transcribeChannel(deps.engine, layout.pcm, channelOptions);
    words = assignWordsToTurns(recognized, findSpeakerTurns(layout.pcm));
  }
  if (words.length === 0) throw new SpeechError(TRANSCRIPTION_REASONS.noSpeech);

  const segments = segmentsFromWords(words);
  // Labels in the order people first speak: "Speaker 1" opens the call.
  const order = [...new Set(segments.map((segment) => segment.speaker))];
  const labelOf = (speaker: number) => `Speaker ${order.indexOf(speaker) + 1}`;
  const labelled = segments.map((segment) => ({ ...segment, speaker: labelOf(segment.speaker) }));
  const labels = order.map(labelOf);
  // A recorder that always puts the representative on one channel settles the roles exactly.
  const knownChannel = layout.kind === 'two-party' ? deps.representativeChannel : undefined;
  const roles =
    knownChannel === undefined
      ? assignRoles({ speakers: labels, segments: labelled, representative: { email: request.representativeEmail, name: request.representativeName } })
      : Object.fromEntries(order.map((channel) => [labelOf(channel), channel === knownChannel ? ('representative' as const) : ('contact' as const)]));
  return {
    sourceFormat: request.mediaFormat,
    engine: deps.engine.name,
    durationMs: audio.durationMs,
    speakers: labels.map((label) => ({ label, role: roleOf(roles[label]) })),
    segments: labelled.map((segment) => ({
      speaker: segment.speaker,
      startMs: segment.startMs,
      endMs: segment.endMs,
      text: segment.text,
      words: segment.words.map((word) => ({ text: word.text, startMs: word.startMs, endMs: word.endMs })),
    })),
    warnings: layout.kind === 'mono' && labels.length > 1 ? [TRANSCRIPTION_WARNINGS.speakersByVoice] : [],
  };
}

function roleOf(role: 'representative' | 'contact' | undefined): SpeakerRole {
  return role === 'representative' ? SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE : SpeakerRole.SPEAKER_ROLE_CONTACT;
}
