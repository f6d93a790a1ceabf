/**
 * Audio inside the transcription service: one channel of 16 kHz, 16-bit signed PCM, as an
 * Int16Array (a stereo call is two of them). Times elsewhere are whole milliseconds, so the
 * conversions here round to the nearest sample or millisecond.
 */

/** One channel of 16 kHz mono 16-bit PCM. */
export type Pcm16k = Int16Array;

export const SAMPLE_RATE = 16_000;

const SAMPLES_PER_MS = SAMPLE_RATE / 1000;
const WAV_HEADER_BYTES = 44;

export function msToSamples(ms: number): number {
  return Math.round(ms * SAMPLES_PER_MS);
}

export function samplesToMs(samples: number): number {
  return Math.round(samples / SAMPLES_PER_MS);
}

export function pcmDurationMs(pcm: Pcm16k): number {
  return samplesToMs(pcm.length);
}

/** The samples as little-endian bytes (the byte order of WAV and of raw `s16le`). */
export function pcmToLittleEndianBytes(pcm: Pcm16k): Buffer {
  const bytes = Buffer.alloc(pcm.length * 2);
  if (IS_LITTLE_ENDIAN) {
    Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).copy(bytes);
    return bytes;
  }
  for (let index = 0; index < pcm.length; index += 1) bytes.writeInt16LE(pcm[index]!, index * 2);
  return bytes;
}

/** Little-endian bytes of 16-bit samples (an odd trailing byte is ignored). */
export function pcmFromLittleEndianBytes(bytes: Uint8Array): Pcm16k {
  const pcm = new Int16Array(Math.floor(bytes.length / 2));
  const view = new DataView(bytes.buffer, bytes.byteOffset, pcm.length * 2);
  for (let index = 0; index < pcm.length; index += 1) pcm[index] = view.getInt16(index * 2, true);
  return pcm;
}

/** A complete WAV file (RIFF, PCM, 16 kHz, mono, 16-bit) holding the samples. */
export function encodeWav16k(pcm: Pcm16k): Buffer {
  const dataBytes = pcm.length * 2;
  const header = Buffer.alloc(WAV_HEADER_BYTES);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(WAV_HEADER_BYTES - 8 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // channels
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28); // bytes per second
  header.writeUInt16LE(2, 32); // bytes per frame
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, pcmToLittleEndianBytes(pcm)]);
}

const IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
