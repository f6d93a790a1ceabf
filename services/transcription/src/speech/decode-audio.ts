/**
 * Any uploaded recording (WAV, MP3, M4A/AAC, OGG/Opus, FLAC, WebM…) decoded to 16 kHz 16-bit PCM,
 * one Int16Array per channel, with Debian's ffprobe and ffmpeg (package `ffmpeg`), run without a
 * shell. ffprobe first tells how many channels the first audio stream has; ffmpeg then decodes that
 * stream, resampled to 16 kHz, keeping its channels apart.
 *
 * Decisions:
 * - Mono and stereo are kept as they are: on a stereo call each channel is usually one party.
 *   With more than two channels only the first two are kept (ffmpeg's `pan` filter), not mixed
 *   down: call recorders that write more than two channels put the caller and the agent on the
 *   first two and put extra legs or silence on the others, and mixing would put both parties on
 *   each channel and lose exactly what tells them apart.
 * - A file that declares its length in its header (a WAV data chunk, an MP3 Xing/Info frame,
 *   FLAC's STREAMINFO, a WebM/Matroska or MP4 duration) but decodes to clearly less than that
 *   (more than 0.5 s and 2 % short) is rejected as cut short. Lengths ffmpeg only estimates from
 *   the bitrate are not trusted for this, and a format without a declared length (Ogg) that was cut
 *   decodes to what is there.
 * - An empty file, a file ffmpeg cannot read, a file without an audio stream and a stream without
 *   samples are all rejected with a SpeechError saying which; ffmpeg's own words, when given, are
 *   the last meaningful line of its stderr with the file's path left out.
 */
import { open, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { pcmFromLittleEndianBytes, SAMPLE_RATE, samplesToMs, type Pcm16k } from '../domain/pcm.js';
import { isNotInstalled, runProcess } from './child-process.js';
import { SpeechError } from './speech-error.js';

export interface DecodedAudio {
  /** One or two channels (see above), each 16 kHz mono PCM of the same length. */
  channels: Pcm16k[];
  durationMs: number;
  /** How many channels the file has (it may be more than `channels.length`). */
  sourceChannels: number;
}

export interface DecodeAudioOptions {
  signal?: AbortSignal;
  /** Default 'ffmpeg' and 'ffprobe', found on the PATH. */
  ffmpegPath?: string;
  ffprobePath?: string;
}

/** How short of its declared length a file may decode before it counts as cut short. */
const TRUNCATION_TOLERANCE = { ms: 500, fraction: 0.02 };
const WAV_HEAD_BYTES = 64 * 1024;
const REASON_MAX_LENGTH = 200;

export async function decodeAudio(filePath: string, options: DecodeAudioOptions = {}): Promise<DecodedAudio> {
  const path = resolve(filePath);
  const size = await fileSize(path);
  if (size === 0) throw new SpeechError('the file is empty');

  const probe = await probeAudio(path, options);
  const keptChannels = Math.min(2, Math.max(1, probe.channels));
  const declaredMs = (await wavDeclaredDurationMs(path)) ?? probe.declaredMs;

  const args = ['-nostdin', '-hide_banner', '-v', 'error', '-i', path, '-map', '0:a:0', '-vn', '-sn', '-dn'];
  if (probe.channels > 2) args.push('-af', 'pan=stereo|c0=c0|c1=c1');
  args.push('-ac', String(keptChannels), '-ar', String(SAMPLE_RATE), '-acodec', 'pcm_s16le', '-f', 's16le', 'pipe:1');
  const result = await run(options.ffmpegPath ?? 'ffmpeg', args, options.signal);
  if (result.code !== 0) throw new SpeechError(`the audio could not be decoded (${ffmpegReason(result.stderr, path)})`);

  const channels = deinterleave(result.stdout, keptChannels);
  const samples = channels[0]?.length ?? 0;
  if (samples === 0) throw new SpeechError('the file contains no audio');
  const durationMs = samplesToMs(samples);
  if (declaredMs !== undefined && declaredMs - durationMs > Math.max(TRUNCATION_TOLERANCE.ms, declaredMs * TRUNCATION_TOLERANCE.fraction)) {
    throw new SpeechError(`the file is cut short: it announces ${seconds(declaredMs)} of audio but only ${seconds(durationMs)} could be decoded`);
  }
  return { channels, durationMs, sourceChannels: probe.channels };
}

interface Probe {
  channels: number;
  /** The length the file's header declares, when ffmpeg read it rather than estimated it. */
  declaredMs: number | undefined;
}

interface ProbeOutput {
  streams?: Array<{ codec_type?: string; channels?: number; duration?: string }>;
  format?: { duration?: string };
}

async function probeAudio(path: string, options: DecodeAudioOptions): Promise<Probe> {
  const args = ['-v', 'warning', '-of', 'json', '-select_streams', 'a', '-show_entries', 'stream=codec_type,channels,duration:format=duration', path];
  const result = await run(options.ffprobePath ?? 'ffprobe', args, options.signal);
  if (result.code !== 0) throw new SpeechError(`the audio could not be decoded (${ffmpegReason(result.stderr, path)})`);
  let output: ProbeOutput;
  try {
    output = JSON.parse(result.stdout.toString('utf8')) as ProbeOutput;
  } catch {
    throw new SpeechError('the audio could not be decoded (ffprobe gave no description of it)');
  }
  const stream = output.streams?.find((candidate) => candidate.codec_type === 'audio');
  if (!stream) throw new SpeechError('the file contains no audio');
  // ffmpeg says so when it guessed the length from the bitrate (a VBR MP3 without a Xing frame, a
  // truncated WAV): such a length proves nothing about truncation.
  const estimated = /Estimating duration from bitrate/i.test(result.stderr);
  const declaredSeconds = Number(stream.duration ?? output.format?.duration);
  return {
    channels: typeof stream.channels === 'number' && stream.channels > 0 ? stream.channels : 1,
    declaredMs: !estimated && Number.isFinite(declaredSeconds) && declaredSeconds > 0 ? Math.round(declaredSeconds * 1000) : undefined,
  };
}

async function run(command: string, args: string[], signal: AbortSignal | undefined) {
  try {
    return await runProcess(command, args, signal ? { signal } : {});
  } catch (error) {
    if (signal?.aborted) throw error;
    if (isNotInstalled(error)) throw new SpeechError(`${basename(command)} is not installed (install the Debian package ffmpeg)`, { cause: error });
    throw new SpeechError(`${basename(command)} could not be started (${(error as Error).message})`, { cause: error });
  }
}

async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SpeechError(code === 'ENOENT' ? 'the audio file is missing' : `the audio file could not be read (${code ?? 'unknown error'})`, { cause: error });
  }
}

/**
 * The length a WAV file's data chunk announces, or undefined for another format, a header that
 * cannot be read, or the placeholder sizes (0, or near 4 GiB) a recorder writes while streaming.
 * ffmpeg estimates a cut WAV's length from its size instead, so this is read here.
 */
async function wavDeclaredDurationMs(path: string): Promise<number | undefined> {
  const file = await open(path, 'r');
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(WAV_HEAD_BYTES);
    const { bytesRead } = await file.read(buffer, 0, WAV_HEAD_BYTES, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
  if (head.length < 12 || head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE') return undefined;
  let byteRate: number | undefined;
  for (let offset = 12; offset + 8 <= head.length; ) {
    const id = head.toString('ascii', offset, offset + 4);
    const size = head.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 20 <= head.length) byteRate = head.readUInt32LE(offset + 16);
    if (id === 'data') {
      if (!byteRate || size === 0 || size >= 0xffff_0000) return undefined;
      return Math.round((size / byteRate) * 1000);
    }
    offset += 8 + size + (size % 2);
  }
  return undefined;
}

function deinterleave(bytes: Buffer, channelCount: number): Pcm16k[] {
  if (channelCount === 1) return [pcmFromLittleEndianBytes(bytes)];
  const frames = Math.floor(bytes.length / (2 * channelCount));
  const channels = Array.from({ length: channelCount }, () => new Int16Array(frames));
  const view = new DataView(bytes.buffer, bytes.byteOffset, frames * 2 * channelCount);
  for (let frame = 0; frame < frames; frame += 1) {
    for (let channel = 0; channel < channelCount; channel += 1) {
      channels[channel]![frame] = view.getInt16((frame * channelCount + channel) * 2, true);
    }
  }
  return channels;
}

// What ffmpeg adds around the reason: its exit notices and errno strings that say nothing more.
const UNINFORMATIVE = /^(?:Invalid argument|Conversion failed!?|Error opening input files?.*|Exiting normally.*|Error while decoding stream.*: Invalid argument)$/i;

/** The last line of ffmpeg's stderr that explains something, without the file's path or the `[demuxer @ 0x…]` tag. */
export function ffmpegReason(stderr: string, path?: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => {
      let text = line.trim().replace(/^(?:\[[^\]]*@ ?0x[0-9a-f]+\]\s*)+/i, '');
      if (path && text.startsWith(`${path}: `)) text = text.slice(path.length + 2);
      if (path) text = text.split(path).join('the file');
      return text.trim().replace(/\.$/, '');
    })
    .filter((line) => line !== '');
  const meaningful = lines.filter((line) => !UNINFORMATIVE.test(line));
  const reason = meaningful.at(-1) ?? lines.at(-1);
  if (!reason) return 'ffmpeg gave no reason';
  return `ffmpeg: ${reason.length > REASON_MAX_LENGTH ? `${reason.slice(0, REASON_MAX_LENGTH - 1)}…` : reason}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
