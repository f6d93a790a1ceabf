/**
 * How a recording's channels are read. A call-centre recording puts each party on its own channel,
 * so each channel is one speaker; but many "stereo" files carry the same mono signal twice, and
 * those must be treated as mono (or every word would be heard twice, once per speaker).
 */
import type { Pcm16k } from './pcm.js';

/** Channels this alike (normalized correlation) carry one signal, not two parties. */
const SAME_SIGNAL_CORRELATION = 0.98;
/** One sample in this many is enough to tell. */
const STRIDE = 7;

export type ChannelLayout = { kind: 'mono'; pcm: Pcm16k } | { kind: 'two-party'; channels: [Pcm16k, Pcm16k] };

export function channelLayout(channels: readonly Pcm16k[]): ChannelLayout {
  const [first, second] = channels;
  if (!first) return { kind: 'mono', pcm: new Int16Array(0) };
  if (!second) return { kind: 'mono', pcm: first };
  if (correlation(first, second) >= SAME_SIGNAL_CORRELATION) return { kind: 'mono', pcm: mixDown(first, second) };
  return { kind: 'two-party', channels: [first, second] };
}

/** The average of two channels, as one. */
export function mixDown(left: Pcm16k, right: Pcm16k): Pcm16k {
  const length = Math.min(left.length, right.length);
  const mixed = new Int16Array(length);
  for (let i = 0; i < length; i++) mixed[i] = (left[i]! + right[i]!) >> 1;
  return mixed;
}

/** Normalized correlation of two channels; 1 for identical signals, 0 when either is silent. */
export function correlation(left: Pcm16k, right: Pcm16k): number {
  const length = Math.min(left.length, right.length);
  let product = 0;
  let leftEnergy = 0;
  let rightEnergy = 0;
  for (let i = 0; i < length; i += STRIDE) {
    const a = left[i]!;
    const b = right[i]!;
    product += a * b;
    leftEnergy += a * a;
    rightEnergy += b * b;
  }
  if (leftEnergy === 0 || rightEnergy === 0) return 0;
  return product / Math.sqrt(leftEnergy * rightEnergy);
}
