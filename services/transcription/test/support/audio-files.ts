/**
 * Real audio files for tests, made on the spot with Debian's espeak-ng (speech) and ffmpeg
 * (conversion, tones, silence), in a temporary directory the test removes afterwards.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface AudioWorkspace {
  dir: string;
  path(name: string): string;
  /** Speaks `text` into a WAV file (espeak-ng writes 22.05 kHz mono); `voice` e.g. 'en-us+m3', 'en+f3'. */
  speak(name: string, text: string, voice?: string): Promise<string>;
  /** Runs ffmpeg quietly with these arguments, overwriting outputs. */
  ffmpeg(...args: string[]): Promise<void>;
  remove(): Promise<void>;
}

export async function createAudioWorkspace(prefix = 'parlance-audio-'): Promise<AudioWorkspace> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const path = (name: string) => join(dir, name);
  return {
    dir,
    path,
    async speak(name, text, voice = 'en-us') {
      await execFileAsync('espeak-ng', ['-v', voice, '-s', '160', '-w', path(name), text]);
      return path(name);
    },
    async ffmpeg(...args) {
      await execFileAsync('ffmpeg', ['-nostdin', '-hide_banner', '-v', 'error', '-y', ...args]);
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Root mean square of samples, 0 to 32768. */
export function rms(pcm: Int16Array, from = 0, to = pcm.length): number {
  let sum = 0;
  for (let index = from; index < to; index += 1) sum += pcm[index]! * pcm[index]!;
  return to > from ? Math.sqrt(sum / (to - from)) : 0;
}
