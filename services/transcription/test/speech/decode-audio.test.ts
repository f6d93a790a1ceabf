/**
 * decodeAudio on real files made by espeak-ng and ffmpeg: every accepted format, mono, stereo and
 * more channels, and the broken files people upload.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegReason, decodeAudio } from '../../src/speech/decode-audio.js';
import { SpeechError } from '../../src/speech/speech-error.js';
import { createAudioWorkspace, rms, type AudioWorkspace } from '../support/audio-files.js';

let work: AudioWorkspace;
let speechMs: number;

beforeAll(async () => {
  work = await createAudioWorkspace();
  const wav = await work.speak('speech.wav', 'Thank you for calling. How can I help you with your order today?');
  // espeak-ng writes 22 050 Hz mono 16-bit PCM: a 44-byte header, then 2 bytes a sample.
  speechMs = (((await stat(wav)).size - 44) / 2 / 22_050) * 1000;
  await Promise.all([
    work.ffmpeg('-i', wav, '-c:a', 'libmp3lame', '-b:a', '64k', work.path('speech.mp3')),
    work.ffmpeg('-i', wav, work.path('speech.flac')),
    work.ffmpeg('-i', wav, '-c:a', 'libopus', work.path('speech.ogg')),
    work.ffmpeg('-i', wav, '-c:a', 'aac', work.path('speech.m4a')),
    work.ffmpeg('-i', wav, '-c:a', 'libopus', work.path('speech.webm')),
    work.ffmpeg('-i', wav, '-ar', '8000', '-c:a', 'pcm_mulaw', work.path('telephone.wav')),
  ]);
});

afterAll(async () => {
  await work?.remove();
});

async function reason(filePath: string): Promise<string> {
  const error = await decodeAudio(filePath).then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(SpeechError);
  const message = (error as SpeechError).message;
  expect(message).not.toContain(work.dir);
  expect(message).not.toMatch(/\.$/);
  return message;
}

async function cutInHalf(name: string): Promise<string> {
  const bytes = await readFile(work.path(name));
  await writeFile(work.path(`cut-${name}`), bytes.subarray(0, Math.floor(bytes.length / 2)));
  return work.path(`cut-${name}`);
}

describe('decodeAudio', () => {
  it.each(['speech.wav', 'speech.mp3', 'speech.flac', 'speech.ogg', 'speech.m4a', 'speech.webm', 'telephone.wav'])(
    'decodes %s to one channel of 16 kHz PCM as long as the speech',
    async (name) => {
      const audio = await decodeAudio(work.path(name));
      expect(audio.sourceChannels).toBe(1);
      expect(audio.channels).toHaveLength(1);
      const [pcm] = audio.channels;
      expect(audio.durationMs).toBe(Math.round(pcm!.length / 16));
      expect(Math.abs(audio.durationMs - speechMs)).toBeLessThan(80);
      expect(rms(pcm!)).toBeGreaterThan(1000);
    },
  );

  it('keeps the two channels of a stereo call apart', async () => {
    const left = await work.speak('left.wav', 'Hello, this is the agent speaking.', 'en-us+m3');
    const right = await work.speak('right.wav', 'Hi, I am the customer.', 'en+f3');
    // The agent speaks on the left in the first 2.5 s, the customer on the right after 3 s.
    const graph = '[0:a]apad=whole_dur=6[l];[1:a]adelay=delays=3000:all=1,apad=whole_dur=6[r];[l][r]join=inputs=2:channel_layout=stereo[out]';
    await work.ffmpeg('-i', left, '-i', right, '-filter_complex', graph, '-map', '[out]', '-t', '6', '-c:a', 'libmp3lame', work.path('call.mp3'));
    const audio = await decodeAudio(work.path('call.mp3'));
    expect(audio.sourceChannels).toBe(2);
    expect(audio.channels).toHaveLength(2);
    const [agent, customer] = audio.channels as [Int16Array, Int16Array];
    expect(agent.length).toBe(customer.length);
    expect(Math.abs(audio.durationMs - 6000)).toBeLessThan(80);
    expect(rms(agent, 0, 40_000)).toBeGreaterThan(1000);
    expect(rms(customer, 0, 40_000)).toBeLessThan(50);
    expect(rms(customer, 50_000, 80_000)).toBeGreaterThan(1000);
    expect(rms(agent, 50_000, 80_000)).toBeLessThan(50);
  });

  it('keeps the first two of four channels as they are instead of mixing them', async () => {
    await work.ffmpeg('-f', 'lavfi', '-i', 'aevalsrc=0.5*sin(2*PI*440*t)|0.1*sin(2*PI*440*t)|0.9*sin(2*PI*440*t)|0.9*sin(2*PI*440*t):s=48000:d=2', work.path('four.flac'));
    const audio = await decodeAudio(work.path('four.flac'));
    expect(audio.sourceChannels).toBe(4);
    expect(audio.channels).toHaveLength(2);
    const [first, second] = audio.channels as [Int16Array, Int16Array];
    expect(rms(first) / 32_768).toBeCloseTo(0.5 / Math.SQRT2, 2);
    expect(rms(second) / 32_768).toBeCloseTo(0.1 / Math.SQRT2, 2);
  });

  it.each(['speech.wav', 'speech.mp3', 'speech.flac', 'speech.webm'])('rejects %s cut in half as cut short', async (name) => {
    expect(await reason(await cutInHalf(name))).toMatch(/^the file is cut short: it announces \d+\.\d s of audio but only \d+\.\d s could be decoded$/);
  });

  it('rejects an M4A cut in half, whose index is at its end, with ffmpeg’s reason', async () => {
    expect(await reason(await cutInHalf('speech.m4a'))).toBe('the audio could not be decoded (ffmpeg: Invalid data found when processing input)');
  });

  it('decodes what there is of an Ogg file cut in half (Ogg does not announce its length)', async () => {
    const audio = await decodeAudio(await cutInHalf('speech.ogg'));
    expect(audio.durationMs).toBeGreaterThan(500);
    expect(audio.durationMs).toBeLessThan(speechMs);
  });

  it('rejects random bytes with ffmpeg’s reason', async () => {
    const bytes = Buffer.alloc(20_000);
    for (let index = 0; index < bytes.length; index += 1) bytes[index] = (index * 7919 + ((index * index) % 251)) & 0xff;
    await writeFile(work.path('noise.mp3'), bytes);
    expect(await reason(work.path('noise.mp3'))).toMatch(/^the audio could not be decoded \(ffmpeg: .+\)$/);
  });

  it('rejects text renamed as audio', async () => {
    await writeFile(work.path('notes.wav'), 'Meeting notes: call the customer back on Monday.\n');
    expect(await reason(work.path('notes.wav'))).toMatch(/^the audio could not be decoded \(ffmpeg: .+\)$/);
  });

  it('rejects an empty file', async () => {
    await writeFile(work.path('empty.wav'), '');
    expect(await reason(work.path('empty.wav'))).toBe('the file is empty');
  });

  it('rejects a file with no audio stream', async () => {
    await work.ffmpeg('-f', 'lavfi', '-i', 'testsrc=d=1:s=64x48', '-c:v', 'mpeg4', work.path('video.mp4'));
    expect(await reason(work.path('video.mp4'))).toBe('the file contains no audio');
  });

  it('rejects an audio stream without any sound', async () => {
    await work.ffmpeg('-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '0', work.path('nothing.wav'));
    expect(await reason(work.path('nothing.wav'))).toBe('the file contains no audio');
  });

  it('rejects a missing file', async () => {
    expect(await reason(work.path('missing.wav'))).toBe('the audio file is missing');
  });

  it('says which Debian package to install when ffmpeg is missing', async () => {
    const error = await decodeAudio(work.path('speech.wav'), { ffprobePath: '/nonexistent/ffprobe' }).catch((rejection: unknown) => rejection);
    expect(error).toEqual(new SpeechError('ffprobe is not installed (install the Debian package ffmpeg)'));
  });

  it('stops when aborted, rejecting with the reason', async () => {
    const controller = new AbortController();
    const decoding = decodeAudio(work.path('speech.flac'), { signal: controller.signal });
    controller.abort(new Error('job cancelled'));
    await expect(decoding).rejects.toThrow('job cancelled');
  });
});

describe('ffmpegReason', () => {
  it('takes the last line that explains something, without the path or the demuxer tag', () => {
    const stderr = ['[mp3 @ 0x55d7d37831c0] Failed to read frame size: Could not seek to 1026.', '/tmp/up/a.mp3: Invalid argument', ''].join('\n');
    expect(ffmpegReason(stderr, '/tmp/up/a.mp3')).toBe('ffmpeg: Failed to read frame size: Could not seek to 1026');
    expect(ffmpegReason('/tmp/up/a.m4a: Invalid data found when processing input\n', '/tmp/up/a.m4a')).toBe('ffmpeg: Invalid data found when processing input');
    expect(ffmpegReason('Error while decoding stream #0:0: Invalid data found when processing input\nConversion failed!\n')).toBe(
      'ffmpeg: Error while decoding stream #0:0: Invalid data found when processing input',
    );
    expect(ffmpegReason('Could not open /tmp/up/a.wav twice\n', '/tmp/up/a.wav')).toBe('ffmpeg: Could not open the file twice');
    expect(ffmpegReason('/tmp/up/a.wav: Invalid argument\n', '/tmp/up/a.wav')).toBe('ffmpeg: Invalid argument');
    expect(ffmpegReason('', '/tmp/x')).toBe('ffmpeg gave no reason');
  });
});
