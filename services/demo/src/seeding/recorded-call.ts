/** A demo call as a stereo recording: the representative on the left, everyone else on the right. */
import { synthesizeDialogue, type CallLine } from '@parlance/platform/speech/synthesized-dialogue';
import type { DemoActivity } from '../domain/demo-conversations.js';

export async function recordedCall(activity: DemoActivity): Promise<Buffer> {
  const lines: CallLine[] = activity.lines.map((line) => ({ speaker: line.role === 'representative' ? 0 : 1, text: line.text }));
  const { stereoWav } = await synthesizeDialogue(lines, { seed: activity.sequence + 1 });
  return stereoWav;
}
