import { describe, expect, it } from 'vitest';
import { channelLayout, correlation, mixDown } from './channel-layout.js';

const tone = (frequency: number, samples = 16_000, amplitude = 8_000) =>
  Int16Array.from({ length: samples }, (_, i) => Math.round(amplitude * Math.sin((2 * Math.PI * frequency * i) / 16_000)));

describe('channelLayout', () => {
  it('reads one channel as mono', () => {
    const pcm = tone(200);
    expect(channelLayout([pcm])).toEqual({ kind: 'mono', pcm });
  });

  it('reads the same signal on both channels as mono, not as two speakers', () => {
    const pcm = tone(220);
    const layout = channelLayout([pcm, Int16Array.from(pcm)]);
    expect(layout.kind).toBe('mono');
  });

  it('reads different signals as two parties, each channel a speaker', () => {
    const left = tone(180);
    const right = tone(310);
    const layout = channelLayout([left, right]);
    expect(layout).toEqual({ kind: 'two-party', channels: [left, right] });
  });

  it('reads a call where each side is silent while the other talks as two parties', () => {
    const left = new Int16Array(32_000);
    const right = new Int16Array(32_000);
    left.set(tone(200), 0);
    right.set(tone(260), 16_000);
    expect(channelLayout([left, right]).kind).toBe('two-party');
  });

  it('reads nothing as an empty mono recording', () => {
    expect(channelLayout([])).toEqual({ kind: 'mono', pcm: new Int16Array(0) });
  });
});

describe('correlation', () => {
  it('is 1 for identical, about -1 for inverted, 0 when a side is silent', () => {
    const pcm = tone(200);
    expect(correlation(pcm, pcm)).toBeCloseTo(1, 6);
    expect(correlation(pcm, pcm.map((sample) => -sample))).toBeCloseTo(-1, 6);
    expect(correlation(pcm, new Int16Array(pcm.length))).toBe(0);
  });
});

describe('mixDown', () => {
  it('averages the channels over the shorter length', () => {
    expect([...mixDown(Int16Array.of(100, -200, 300), Int16Array.of(300, 200))]).toEqual([200, 0]);
  });
});
