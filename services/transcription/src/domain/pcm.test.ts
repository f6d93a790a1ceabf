import { describe, expect, it } from 'vitest';
import { encodeWav16k, msToSamples, pcmDurationMs, pcmFromLittleEndianBytes, pcmToLittleEndianBytes, samplesToMs, SAMPLE_RATE } from './pcm.js';

describe('pcm', () => {
  it('converts between milliseconds and 16 kHz samples, rounding to the nearest', () => {
    expect(SAMPLE_RATE).toBe(16_000);
    expect(msToSamples(1000)).toBe(16_000);
    expect(msToSamples(20)).toBe(320);
    expect(msToSamples(0.04)).toBe(1);
    expect(samplesToMs(16_000)).toBe(1000);
    expect(samplesToMs(24)).toBe(2);
    expect(samplesToMs(7)).toBe(0);
    expect(pcmDurationMs(new Int16Array(8000))).toBe(500);
  });

  it('writes samples as little-endian bytes and reads them back', () => {
    const pcm = Int16Array.from([0, 1, -1, 32767, -32768, 258]);
    const bytes = pcmToLittleEndianBytes(pcm);
    expect([...bytes.subarray(0, 6)]).toEqual([0, 0, 1, 0, 0xff, 0xff]);
    expect([...bytes.subarray(10, 12)]).toEqual([0x02, 0x01]);
    expect([...pcmFromLittleEndianBytes(bytes)]).toEqual([...pcm]);
    expect([...pcmFromLittleEndianBytes(bytes.subarray(0, 5))]).toEqual([0, 1]);
  });

  it('reads bytes from any offset of a shared buffer', () => {
    const backing = Buffer.from([9, 1, 0, 2, 0]);
    expect([...pcmFromLittleEndianBytes(backing.subarray(1))]).toEqual([1, 2]);
    const view = Int16Array.from([5, 6, 7]).subarray(1);
    expect([...pcmToLittleEndianBytes(view)]).toEqual([6, 0, 7, 0]);
  });

  it('encodes a 16 kHz mono 16-bit WAV with a correct RIFF header', () => {
    const wav = encodeWav16k(Int16Array.from([1, -2, 3]));
    expect(wav.length).toBe(44 + 6);
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(36 + 6);
    expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect(wav.readUInt32LE(16)).toBe(16);
    expect(wav.readUInt16LE(20)).toBe(1);
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt32LE(24)).toBe(16_000);
    expect(wav.readUInt32LE(28)).toBe(32_000);
    expect(wav.readUInt16LE(32)).toBe(2);
    expect(wav.readUInt16LE(34)).toBe(16);
    expect(wav.toString('ascii', 36, 40)).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(6);
    expect([wav.readInt16LE(44), wav.readInt16LE(46), wav.readInt16LE(48)]).toEqual([1, -2, 3]);
  });

  it('encodes no samples as a valid empty WAV', () => {
    const wav = encodeWav16k(new Int16Array(0));
    expect(wav.length).toBe(44);
    expect(wav.readUInt32LE(40)).toBe(0);
  });
});
