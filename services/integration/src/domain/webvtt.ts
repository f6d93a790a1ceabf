/**
 * A conversation as WebVTT, the text form every integration sends to ingest when the vendor has
 * the transcript: one cue per utterance, the speaker in a voice tag, so transcription keeps who
 * spoke and when (Close's utterances, HubSpot's, the Meet REST API's entries). Pure.
 */

export interface TranscriptCue {
  /** Names for the speaker, best first: the first with a printable character is written. */
  speaker: readonly string[];
  startSeconds: number;
  endSeconds: number;
  text: string;
}

export function webVtt(cues: readonly TranscriptCue[]): string {
  const written = cues.map((cue) => {
    const speaker = cue.speaker.map(voiceName).find((name) => name !== '') ?? '';
    const start = Math.max(0, cue.startSeconds);
    const end = Math.max(start, cue.endSeconds);
    return `${cueTime(start)} --> ${cueTime(end)}\n<v ${speaker}>${cueText(cue.text)}`;
  });
  return `WEBVTT\n\n${written.join('\n\n')}\n`;
}

/** A voice tag's name ends at '>' and may not break the line. */
function voiceName(name: string): string {
  return name.replace(/[<>&\s]+/gu, ' ').trim();
}

/** Cue text: no blank line (it would end the cue), no '-->', markup characters escaped. */
function cueText(text: string): string {
  return text
    .replace(/&/gu, '&amp;')
    .replace(/</gu, '&lt;')
    .replace(/>/gu, '&gt;')
    .replace(/\s+/gu, ' ')
    .trim();
}

function cueTime(seconds: number): string {
  const totalMs = Math.round(seconds * 1000);
  const hours = Math.floor(totalMs / 3_600_000);
  const minutes = Math.floor(totalMs / 60_000) % 60;
  const wholeSeconds = Math.floor(totalMs / 1000) % 60;
  const ms = totalMs % 1000;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:${String(wholeSeconds).padStart(2, '0')}.${String(ms).padStart(3, '0')}`;
}
