/**
 * What a short stretch of voice sounds like, as numbers that differ between two people: the pitch
 * of the voiced frames (autocorrelation F0) and the shape of the spectrum (mel-cepstral
 * coefficients and the spectral centroid). Pure arithmetic over 16 kHz samples; no I/O.
 */
import { SAMPLE_RATE } from '../pcm.js';

/** Analysis window: 32 ms, long enough to hold two periods of a 64 Hz voice. */
export const WINDOW = 512;
const FFT_SIZE = 1024;
const MIN_F0 = 64;
const MAX_F0 = 400;
/** Normalised autocorrelation a frame's pitch peak must reach to count as voiced. */
const VOICING = 0.5;
/** The spectrum used for timbre stays within the telephone band, so 8 kHz calls compare with wide-band ones. */
const LOW_HZ = 100;
const HIGH_HZ = 3800;
const MEL_BANDS = 20;
export const CEPSTRA = 12;

export interface FrameFeatures {
  /** Fundamental frequency in Hz, or undefined for an unvoiced frame. */
  f0?: number;
  /** c1…c12 of the mel cepstrum (c0, the loudness, is left out). */
  cepstrum: Float64Array;
  /** Spectral centroid in Hz within the telephone band. */
  centroid: number;
}

/** Analyses the window of samples centred on `centre`; reuse one analyser for a whole recording. */
export class VoiceAnalyser {
  private readonly hann = Float64Array.from({ length: WINDOW }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (WINDOW - 1)));
  /** Autocorrelation of the window itself, to undo its taper (Boersma 1993). */
  private readonly windowAutocorrelation: Float64Array;
  private readonly fft = new Fft(FFT_SIZE);
  private readonly re = new Float64Array(FFT_SIZE);
  private readonly im = new Float64Array(FFT_SIZE);
  private readonly power = new Float64Array(FFT_SIZE / 2 + 1);
  private readonly bands = melBands();
  private readonly dct = dctMatrix();
  private readonly logBands = new Float64Array(MEL_BANDS);

  constructor() {
    this.windowAutocorrelation = this.autocorrelate(this.hann);
  }

  analyse(pcm: Int16Array, centre: number): FrameFeatures {
    const start = Math.max(0, Math.min(pcm.length - WINDOW, centre - WINDOW / 2));
    const frame = new Float64Array(WINDOW);
    let mean = 0;
    for (let i = 0; i < WINDOW; i += 1) mean += (pcm[start + i] ?? 0) / 32768;
    mean /= WINDOW;
    for (let i = 0; i < WINDOW; i += 1) frame[i] = ((pcm[start + i] ?? 0) / 32768 - mean) * (this.hann[i] ?? 0);

    this.spectrum(frame);
    const f0 = this.pitch();
    return { ...(f0 === undefined ? {} : { f0 }), ...this.timbre() };
  }

  /** Fills `power` with |X(k)|² of the zero-padded frame. */
  private spectrum(frame: Float64Array): void {
    this.re.fill(0);
    this.im.fill(0);
    this.re.set(frame);
    this.fft.transform(this.re, this.im);
    for (let k = 0; k <= FFT_SIZE / 2; k += 1) this.power[k] = (this.re[k] ?? 0) ** 2 + (this.im[k] ?? 0) ** 2;
  }

  /** Autocorrelation as the inverse transform of the power spectrum (zero padding avoids wrap-around). */
  private autocorrelate(frame: Float64Array): Float64Array {
    this.spectrum(frame);
    return this.autocorrelationOfPower();
  }

  private autocorrelationOfPower(): Float64Array {
    // The power spectrum is real and even, so its forward transform is its inverse times N.
    for (let k = 0; k < FFT_SIZE; k += 1) {
      this.re[k] = this.power[k <= FFT_SIZE / 2 ? k : FFT_SIZE - k] ?? 0;
      this.im[k] = 0;
    }
    this.fft.transform(this.re, this.im);
    return this.re.slice(0, WINDOW);
  }

  private pitch(): number | undefined {
    const r = this.autocorrelationOfPower();
    const energy = r[0] ?? 0;
    if (energy <= 0) return undefined;
    const shortest = Math.floor(SAMPLE_RATE / MAX_F0);
    const longest = Math.min(Math.ceil(SAMPLE_RATE / MIN_F0), WINDOW / 2);
    const normalised = new Float64Array(longest + 2);
    for (let lag = shortest - 1; lag <= longest + 1; lag += 1) {
      normalised[lag] = (r[lag] ?? 0) / energy / Math.max(1e-9, (this.windowAutocorrelation[lag] ?? 0) / (this.windowAutocorrelation[0] ?? 1));
    }
    let best = 0;
    for (let lag = shortest; lag <= longest; lag += 1) best = Math.max(best, normalised[lag] ?? 0);
    if (best < VOICING) return undefined;
    // The shortest lag with a peak nearly as strong as the best: a voice repeats at 2T and 3T as
    // well as at T, and taking the longest of those would halve the pitch.
    for (let lag = shortest; lag <= longest; lag += 1) {
      const value = normalised[lag] ?? 0;
      if (value >= 0.85 * best && value >= (normalised[lag - 1] ?? 0) && value >= (normalised[lag + 1] ?? 0)) {
        const before = normalised[lag - 1] ?? value;
        const after = normalised[lag + 1] ?? value;
        const curvature = before - 2 * value + after;
        const offset = curvature < 0 ? (0.5 * (before - after)) / curvature : 0;
        return SAMPLE_RATE / (lag + offset);
      }
    }
    return undefined;
  }

  private timbre(): { cepstrum: Float64Array; centroid: number } {
    let weighted = 0;
    let total = 0;
    this.bands.forEach((band, index) => {
      let sum = 0;
      for (let k = band.from; k <= band.to; k += 1) sum += (this.power[k] ?? 0) * (band.weights[k - band.from] ?? 0);
      this.logBands[index] = Math.log(sum + 1e-10);
    });
    const binHz = SAMPLE_RATE / FFT_SIZE;
    for (let k = Math.ceil(LOW_HZ / binHz); k <= Math.floor(HIGH_HZ / binHz); k += 1) {
      weighted += (this.power[k] ?? 0) * k * binHz;
      total += this.power[k] ?? 0;
    }
    const cepstrum = new Float64Array(CEPSTRA);
    for (let c = 0; c < CEPSTRA; c += 1) {
      const row = this.dct[c] as Float64Array;
      let sum = 0;
      for (let b = 0; b < MEL_BANDS; b += 1) sum += (row[b] ?? 0) * (this.logBands[b] ?? 0);
      cepstrum[c] = sum;
    }
    return { cepstrum, centroid: total > 0 ? weighted / total : (LOW_HZ + HIGH_HZ) / 2 };
  }
}

interface MelBand {
  from: number;
  to: number;
  weights: Float64Array;
}

const toMel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const fromMel = (mel: number) => 700 * (10 ** (mel / 2595) - 1);

function melBands(): MelBand[] {
  const binHz = SAMPLE_RATE / FFT_SIZE;
  const low = toMel(LOW_HZ);
  const high = toMel(HIGH_HZ);
  const edges = Array.from({ length: MEL_BANDS + 2 }, (_, i) => fromMel(low + ((high - low) * i) / (MEL_BANDS + 1)));
  return Array.from({ length: MEL_BANDS }, (_, b) => {
    const [left, centre, right] = [edges[b] ?? 0, edges[b + 1] ?? 0, edges[b + 2] ?? 0];
    const from = Math.ceil(left / binHz);
    const to = Math.floor(right / binHz);
    const weights = Float64Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => {
      const hz = (from + i) * binHz;
      return hz <= centre ? (hz - left) / (centre - left) : (right - hz) / (right - centre);
    });
    return { from, to, weights };
  });
}

/** DCT-II rows 1…CEPSTRA over the mel bands. */
function dctMatrix(): Float64Array[] {
  return Array.from({ length: CEPSTRA }, (_, c) =>
    Float64Array.from({ length: MEL_BANDS }, (_, b) => Math.sqrt(2 / MEL_BANDS) * Math.cos((Math.PI * (c + 1) * (b + 0.5)) / MEL_BANDS)),
  );
}

/** In-place iterative radix-2 complex FFT of a fixed power-of-two size. */
export class Fft {
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  private readonly reversed: Uint32Array;

  constructor(private readonly size: number) {
    if (size < 2 || (size & (size - 1)) !== 0) throw new RangeError(`FFT size must be a power of two, got ${size}`);
    this.cos = Float64Array.from({ length: size / 2 }, (_, i) => Math.cos((-2 * Math.PI * i) / size));
    this.sin = Float64Array.from({ length: size / 2 }, (_, i) => Math.sin((-2 * Math.PI * i) / size));
    const bits = Math.log2(size);
    this.reversed = Uint32Array.from({ length: size }, (_, i) => {
      let reversed = 0;
      for (let bit = 0; bit < bits; bit += 1) reversed |= ((i >> bit) & 1) << (bits - 1 - bit);
      return reversed;
    });
  }

  transform(re: Float64Array, im: Float64Array): void {
    const n = this.size;
    for (let i = 0; i < n; i += 1) {
      const j = this.reversed[i] ?? 0;
      if (j > i) {
        [re[i], re[j]] = [re[j] ?? 0, re[i] ?? 0];
        [im[i], im[j]] = [im[j] ?? 0, im[i] ?? 0];
      }
    }
    for (let half = 1; half < n; half *= 2) {
      const step = n / (half * 2);
      for (let start = 0; start < n; start += half * 2) {
        for (let k = 0; k < half; k += 1) {
          const wr = this.cos[k * step] ?? 0;
          const wi = this.sin[k * step] ?? 0;
          const a = start + k;
          const b = a + half;
          const br = re[b] ?? 0;
          const bi = im[b] ?? 0;
          const tr = wr * br - wi * bi;
          const ti = wr * bi + wi * br;
          re[b] = (re[a] ?? 0) - tr;
          im[b] = (im[a] ?? 0) - ti;
          re[a] = (re[a] ?? 0) + tr;
          im[a] = (im[a] ?? 0) + ti;
        }
      }
    }
  }
}
