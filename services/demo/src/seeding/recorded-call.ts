/**
 * A demo call as a stereo recording: the representative on the left, everyone else on the right,
 * with the pauses between lines that the conversation's own timeline (its text transcript) has.
 *
 * The voices are the ones the default speech engine (Whisper tiny.en) hears best among espeak-ng's,
 * so that a recorded demo call reads like its text once transcribed. Measured on the 73 distinct
 * lines of the first recorded calls of every demo team (795 words), as word error rates: the
 * platform's default contact voice (en-us+f3, pitch 65, 170 words a minute) 18.0 %, this one
 * 10.2 %; the representative's default (160 words a minute, no gap) 11.7 %, this one 10.8 %. A short
 * pause between words (espeak-ng's word gap) and a calmer pace did most of it; at 140 words a minute
 * without the gap, f2 was heard best of espeak-ng's female voices (14 %; f1, f3, f4, f5, Annie,
 * Linda, Belinda and Anika 15 to 27 %). The pauses of the timeline (0.4 to 2.2 s, against the
 * platform's 0.25 to 0.7 s) keep two lines said one after the other from running into one sentence.
 */
import { synthesizeDialogue, type CallLine, type SynthVoice } from '@parlance/platform/speech/synthesized-dialogue';
import type { DemoActivity } from '../domain/demo-conversations.js';

const RECORDED_CALL_VOICES: Readonly<{ representative: SynthVoice; contact: SynthVoice }> = {
  representative: { voice: 'en-us', pitch: 35, speed: 155, wordGap: 3 },
  contact: { voice: 'en-us+f2', pitch: 62, speed: 140, wordGap: 4 },
};

export async function recordedCall(activity: DemoActivity): Promise<Buffer> {
  const lines: CallLine[] = activity.lines.map((line) => ({ speaker: line.role === 'representative' ? 0 : 1, text: line.text }));
  // The pauses of the conversation's own timeline, as its text transcript has them.
  const pausesMs = activity.lines.slice(1).map((line, index) => line.startMs - activity.lines[index]!.endMs);
  const { stereoWav } = await synthesizeDialogue(lines, { seed: activity.sequence + 1, voices: RECORDED_CALL_VOICES, pausesMs });
  return stereoWav;
}
