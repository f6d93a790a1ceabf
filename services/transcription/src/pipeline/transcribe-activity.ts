/**
 * One activity's media into a transcript: a text transcript is parsed; a recording is decoded to
 * 16 kHz, and then either each channel of a two-party recording is transcribed as one speaker, or
 * a mono recording is transcribed once and split by speaker: by the speech server's diarization
 * when it offers one, else by the built-in method (domain/speaker-turns). Speakers are then
 * labelled representative or contact. A recording too short, silent or without speech fails, and
 * one with little speech gets a warning (domain/speech-amount). A failure a person should read is
 * a SpeechError; a SpeechServerUnavailable means the recording should wait for the speech server.
 */
import { SpeakerRole, type Segment, type Speaker } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { WorkRequest } from '../db/schema.js';
import { channelLayout } from '../domain/channel-layout.js';
import { assignRoles } from '../domain/speaker-roles.js';
import { segmentsFromWords } from '../domain/speaker-segments.js';
import { assignWordsToSpeakers } from '../domain/speaker-diarization.js';
import { assignWordsToTurns, findSpeakerTurns } from '../domain/speaker-turns.js';
import { audibleMs } from '../domain/silence-chunks.js';
import { judgeSpeechAmount, tooShortOrSilent } from '../domain/speech-amount.js';
import { parseTextTranscript } from '../domain/text-transcript.js';
import type { TimedWord } from '../domain/transcript-words.js';
import { decodeAudio } from '../speech/decode-audio.js';
import type { Diarizer } from '../speech/diarization-client.js';
import { BASIC_ENGINE_WARNING } from '../speech/local-speech.js';
import type { RecordingSpeech, SpeechProvider } from '../speech/recording-speech.js';
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

export type TranscribeDependencies = {
  /** Shared by every activity in the process, so engines never outnumber the cores given. */
  limiter: Limiter;
  /** The channel (0 left, 1 right) a two-party recorder puts the representative on; unset: told by what is said. */
  representativeChannel?: 0 | 1 | undefined;
} & (
  | {
      engine: SpeechEngine;
      /** Who speaks when in a mono recording (a speech server's diarization); without it the built-in method. */
      diarizer?: Diarizer | undefined;
    }
  | {
      /** Picks the engine for each recording (the local engine, which may have to fall back to PocketSphinx). */
      speech: SpeechProvider;
    }
);

export const TRANSCRIPTION_REASONS = {
  emptyFile: 'the file is empty',
  emptyTranscript: 'the transcript has no text',
} as const;

export const TRANSCRIPTION_WARNINGS = {
  speakersByVoice: 'The recording has one channel, so the speakers were told apart by their voices; where they talk over each other the labels may be wrong.',
  basicEngine: BASIC_ENGINE_WARNING,
} as const;

export function transcribeText(request: WorkRequest, content: Buffer): TranscriptDraft {
  if (content.length === 0) throw new SpeechError(TRANSCRIPTION_REASONS.emptyFile);
  const parsed = parseTextTranscript(new TextDecoder('utf-8').decode(content), request.fileName);
  if (parsed.segments.length === 0) throw new SpeechError(TRANSCRIPTION_REASONS.emptyTranscript);
  const roles = assignRoles({
    speakers: parsed.speakers,
    segments: parsed.segments,
    representative: { email: request.representativeEmail, name: request.representativeName },
    team: (request.teamMembers ?? []).map((member) => ({ email: member.email, name: `${member.firstName} ${member.lastName}`.trim() })),
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
  const soundMs = Math.max(...(layout.kind === 'two-party' ? layout.channels : [layout.pcm]).map(audibleMs));
  const tooLittle = tooShortOrSilent(audio.durationMs, soundMs);
  if (tooLittle) throw new SpeechError(tooLittle);
  const speech = await speechFor(deps, options.signal);
  const channelOptions = { limiter: deps.limiter, ...(options.signal ? { signal: options.signal } : {}) };

  let words: (TimedWord & { speaker: number })[];
  if (layout.kind === 'two-party') {
    const [first, second] = await Promise.all(layout.channels.map((pcm) => transcribeChannel(speech.engine, pcm, channelOptions)));
    words = [...first!.map((word) => ({ ...word, speaker: 0 })), ...second!.map((word) => ({ ...word, speaker: 1 }))];
  } else {
    const recognized = await transcribeChannel(speech.engine, layout.pcm, channelOptions);
    words = recognized.length === 0 ? [] : await speakersOfMono(speech, layout.pcm, recognized, deps.limiter, options.signal);
  }
  const amount = judgeSpeechAmount({ durationMs: audio.durationMs, soundMs, words });
  if (amount.kind === 'fails') throw new SpeechError(amount.reason);

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
    engine: speech.engine.name,
    durationMs: audio.durationMs,
    speakers: labels.map((label) => ({ label, role: roleOf(roles[label]) })),
    segments: labelled.map((segment) => ({
      speaker: segment.speaker,
      startMs: segment.startMs,
      endMs: segment.endMs,
      text: segment.text,
      words: segment.words.map((word) => ({ text: word.text, startMs: word.startMs, endMs: word.endMs })),
    })),
    warnings: [...speech.warnings, ...amount.warnings, ...(layout.kind === 'mono' && labels.length > 1 ? [TRANSCRIPTION_WARNINGS.speakersByVoice] : [])],
  };
}

async function speechFor(deps: TranscribeDependencies, signal: AbortSignal | undefined): Promise<RecordingSpeech> {
  if ('speech' in deps) return deps.speech.forRecording(signal);
  return { engine: deps.engine, diarizer: deps.diarizer, warnings: [] };
}

/**
 * The words of a mono recording with their speakers: from the speech server's diarization when
 * it offers one and found speech, else from the voices as the built-in method tells them apart.
 */
async function speakersOfMono(speech: RecordingSpeech, pcm: Int16Array, words: TimedWord[], limiter: Limiter, signal: AbortSignal | undefined) {
  const { diarizer } = speech;
  if (diarizer) {
    const diarization = await limiter(() => diarizer.diarize(pcm, signal ? { signal } : {}));
    if (diarization && diarization.segments.length > 0) return assignWordsToSpeakers(words, diarization.segments, diarization.speakers);
  }
  return assignWordsToTurns(words, findSpeakerTurns(pcm));
}

function roleOf(role: 'representative' | 'contact' | undefined): SpeakerRole {
  return role === 'representative' ? SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE : SpeakerRole.SPEAKER_ROLE_CONTACT;
}
