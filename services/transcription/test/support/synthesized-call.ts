/**
 * Two-party test calls spoken by espeak-ng, with the truth about who speaks when.
 *
 * Each line of a dialogue is synthesised on its own (`espeak-ng -v <voice> -s <speed> -p <pitch>
 * --stdout`, 22050 Hz mono), trimmed to where the voice starts and stops, and laid on a timeline
 * with a short pause after it. Two files come out: a stereo WAV with the representative on the
 * left channel and the contact on the right (each channel silent while the other talks, as a
 * call-centre recorder writes them) and a mono mix of both, plus the ground-truth turns. A faint
 * seeded hiss sits under the voices, as on a real line, so nothing is digitally silent; a call can
 * also be made telephone quality (300–3400 Hz at 8 kHz).
 *
 * Everything is deterministic: the same options give the same samples, pauses and turns.
 */
import { seededRandom } from '@parlance/platform/testing/seeded-random';
import { execFile } from 'node:child_process';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Pcm16k } from '../../src/domain/pcm.js';

const run = promisify(execFile);

/** espeak-ng writes this rate; the files keep it, and `readPcm16k` resamples. */
export const SYNTHESIS_SAMPLE_RATE = 22_050;

/** 0 is the representative (left channel), 1 the contact (right channel). */
export type CallSpeaker = 0 | 1;

export interface CallLine {
  speaker: CallSpeaker;
  text: string;
}

export interface SynthVoice {
  /** An espeak-ng voice, optionally with a variant: `en-us`, `en-us+f3`, `en-gb+m3`. */
  voice: string;
  /** espeak-ng pitch, 0–99 (50 is the voice's default). */
  pitch: number;
  /** Words per minute. */
  speed: number;
  /** Linear gain applied to the voice, 1 = as espeak-ng writes it. */
  gain?: number;
}

export type CallScript = 'support' | 'billing' | 'sales' | 'delivery';

export interface SynthesizeCallOptions {
  /** The dialogue to speak; when absent a built-in script is used. */
  lines?: CallLine[];
  /** Which built-in script (default 'support'). */
  script?: CallScript;
  /** Number of turns of the built-in script (default: the script as written). */
  turns?: number;
  /** Target length in minutes: middle exchanges of all scripts are repeated, varied, until reached. */
  minutes?: number;
  voices?: { representative?: SynthVoice; contact?: SynthVoice };
  /** Silence between turns, drawn (seeded) from this range. Default 250–700 ms. */
  pauseMs?: { min: number; max: number };
  /** Silence before the first and after the last turn. Default 500 ms. */
  edgeMs?: number;
  /** Level of the background hiss in dBFS, or null for none. Default -60. */
  noiseDbfs?: number | null;
  /** Telephone quality: both files band-limited to 300–3400 Hz and stored at 8 kHz (with ffmpeg). */
  telephone?: boolean;
  /** Seed for the pauses and the hiss. */
  seed?: number;
  /** File name stem inside the directory (default 'call'). */
  name?: string;
}

export interface CallTurn {
  speaker: CallSpeaker;
  startMs: number;
  endMs: number;
  text: string;
}

export interface SynthesizedCall {
  stereoPath: string;
  monoPath: string;
  turns: CallTurn[];
  durationMs: number;
}

export const DEFAULT_VOICES: { representative: SynthVoice; contact: SynthVoice } = {
  representative: { voice: 'en-us', pitch: 35, speed: 160 },
  contact: { voice: 'en-us+f3', pitch: 65, speed: 170, gain: 0.8 },
};

export async function synthesizeCall(dir: string, options: SynthesizeCallOptions = {}): Promise<SynthesizedCall> {
  const voices = { ...DEFAULT_VOICES, ...options.voices };
  const pause = options.pauseMs ?? { min: 250, max: 700 };
  const edge = msToSamples(options.edgeMs ?? 500);
  const random = seededRandom(options.seed ?? 1);
  const voiceOf = (speaker: CallSpeaker) => (speaker === 0 ? voices.representative : voices.contact);

  const clips = await speakDialogue(planDialogue(options), voiceOf, options.minutes);

  const pauses = clips.map(() => msToSamples(pause.min + random() * (pause.max - pause.min)));
  const length = edge * 2 + clips.reduce((sum, clip, index) => sum + clip.samples.length + (index < clips.length - 1 ? (pauses[index] ?? 0) : 0), 0);
  const channels = [new Float32Array(length), new Float32Array(length)] as const;
  const turns: CallTurn[] = [];
  let at = edge;
  clips.forEach((clip, index) => {
    channels[clip.line.speaker].set(clip.samples, at);
    turns.push({ speaker: clip.line.speaker, startMs: samplesToMs(at), endMs: samplesToMs(at + clip.samples.length), text: clip.line.text });
    at += clip.samples.length + (pauses[index] ?? 0);
  });

  const mono = new Float32Array(length);
  for (let i = 0; i < length; i += 1) mono[i] = (channels[0][i] ?? 0) + (channels[1][i] ?? 0);
  const noise = options.noiseDbfs === null ? 0 : 10 ** ((options.noiseDbfs ?? -60) / 20);
  if (noise > 0) for (const signal of [channels[0], channels[1], mono]) addHiss(signal, noise, random);

  await mkdir(dir, { recursive: true });
  const name = options.name ?? 'call';
  const stereoPath = join(dir, `${name}-stereo.wav`);
  const monoPath = join(dir, `${name}-mono.wav`);
  await writeFile(stereoPath, encodeWav([channels[0], channels[1]]));
  await writeFile(monoPath, encodeWav([mono]));
  if (options.telephone) await Promise.all([stereoPath, monoPath].map(toTelephoneQuality));
  return { stereoPath, monoPath, turns, durationMs: samplesToMs(length) };
}

/** The lines of a built-in script as written, opening to closing. */
export function scriptLines(script: CallScript): CallLine[] {
  const { opening, middle, closing } = SCRIPTS[script];
  return [...opening, ...middle.flat(), ...closing];
}

export interface ReadPcmOptions {
  /** Take one channel of a stereo file (0 = left) instead of mixing them down. */
  channel?: 0 | 1;
}

/** Decodes any audio file to 16 kHz mono 16-bit PCM with ffmpeg. */
export async function readPcm16k(path: string, options: ReadPcmOptions = {}): Promise<Pcm16k> {
  const pick = options.channel === undefined ? [] : ['-af', `pan=mono|c0=c${options.channel}`];
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', path, ...pick, '-f', 's16le', '-acodec', 'pcm_s16le', '-ar', '16000', '-ac', '1', '-'], {
    encoding: 'buffer',
    maxBuffer: 1 << 30,
  });
  const copy = new Uint8Array(stdout.byteLength - (stdout.byteLength % 2));
  copy.set(stdout.subarray(0, copy.length));
  return new Int16Array(copy.buffer);
}

async function toTelephoneQuality(path: string): Promise<void> {
  const narrow = `${path}.narrow.wav`;
  await run('ffmpeg', ['-v', 'error', '-y', '-i', path, '-af', 'highpass=f=300,lowpass=f=3400', '-ar', '8000', '-c:a', 'pcm_s16le', narrow]);
  await rename(narrow, path);
}

// ---------------------------------------------------------------------------------------------
// Dialogue

interface Clip {
  line: CallLine;
  samples: Float32Array;
}

interface Plan {
  /** Lines before the middle. */
  head: CallLine[];
  /** Middle lines, produced on demand for calls of a given length. */
  middle: (index: number) => CallLine[] | undefined;
  tail: CallLine[];
}

function planDialogue(options: SynthesizeCallOptions): Plan {
  if (options.lines) return { head: options.lines, middle: () => undefined, tail: [] };
  const script = SCRIPTS[options.script ?? 'support'];
  if (options.minutes !== undefined) {
    // Every script's exchanges in turn, the script asked for first, with the numbers varied.
    const order = [script, ...Object.values(SCRIPTS).filter((other) => other !== script)];
    const exchanges = order.flatMap((each) => each.middle);
    return {
      head: script.opening,
      middle: (index) => {
        const exchange = exchanges[index % exchanges.length] ?? [];
        const round = Math.floor(index / exchanges.length);
        return round === 0 ? exchange : exchange.map((line) => ({ ...line, text: vary(line.text, round) }));
      },
      tail: script.closing,
    };
  }
  const all = scriptLines(options.script ?? 'support');
  const count = options.turns ?? all.length;
  if (count <= script.opening.length + script.closing.length) return { head: all.slice(0, count), middle: () => undefined, tail: [] };
  // The middle is whole exchanges, so the speakers keep alternating; an odd count drops the last
  // closing line instead.
  const middle = script.middle.flat();
  const exchanges = Math.ceil((count - script.opening.length - script.closing.length) / 2);
  const tail = script.closing.slice(0, count - script.opening.length - exchanges * 2);
  const lines = Array.from({ length: exchanges * 2 }, (_, index) => middle[index % middle.length] as CallLine);
  return { head: [...script.opening, ...lines], middle: () => undefined, tail };
}

async function speakDialogue(plan: Plan, voiceOf: (speaker: CallSpeaker) => SynthVoice, minutes: number | undefined): Promise<Clip[]> {
  const clips = await speakAll(plan.head, voiceOf);
  if (minutes !== undefined) {
    const target = msToSamples(minutes * 60_000);
    // Pauses average about half a second; leave room for the closing lines.
    const spoken = () => clips.reduce((sum, clip) => sum + clip.samples.length + msToSamples(475), 0) + msToSamples(8_000);
    for (let index = 0; spoken() < target; index += 1) {
      const exchange = plan.middle(index);
      if (!exchange) break;
      clips.push(...(await speakAll(exchange, voiceOf)));
    }
  }
  clips.push(...(await speakAll(plan.tail, voiceOf)));
  return clips;
}

async function speakAll(lines: CallLine[], voiceOf: (speaker: CallSpeaker) => SynthVoice): Promise<Clip[]> {
  const clips: Clip[] = new Array<Clip>(lines.length);
  const workers = Math.max(1, Math.min(availableParallelism(), 8));
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < lines.length) {
        const index = next;
        next += 1;
        const line = lines[index] as CallLine;
        clips[index] = { line, samples: await speak(line.text, voiceOf(line.speaker)) };
      }
    }),
  );
  return clips;
}

async function speak(text: string, voice: SynthVoice): Promise<Float32Array> {
  const { stdout } = await run('espeak-ng', ['-v', voice.voice, '-s', String(voice.speed), '-p', String(voice.pitch), '--stdout', text], {
    encoding: 'buffer',
    maxBuffer: 1 << 28,
  });
  const samples = decodeEspeakWav(stdout);
  const gain = (voice.gain ?? 1) / 32768;
  return Float32Array.from(trimSilence(samples), (sample) => sample * gain);
}

/** espeak-ng streams its WAV, so the sizes in the header are placeholders: read to the end. */
function decodeEspeakWav(wav: Buffer): Int16Array {
  const data = wav.indexOf('data', 12, 'latin1');
  if (data < 0) throw new Error('espeak-ng wrote no WAV data');
  const start = data + 8;
  const count = Math.floor((wav.length - start) / 2);
  const samples = new Int16Array(count);
  for (let i = 0; i < count; i += 1) samples[i] = wav.readInt16LE(start + i * 2);
  return samples;
}

/** From the first to the last sample above about -50 dBFS, keeping 10 ms either side. */
function trimSilence(samples: Int16Array): Int16Array {
  const threshold = 100;
  let first = samples.findIndex((sample) => Math.abs(sample) > threshold);
  if (first < 0) return samples.subarray(0, 0);
  let last = samples.length - 1;
  while (last > first && Math.abs(samples[last] ?? 0) <= threshold) last -= 1;
  const margin = Math.round(SYNTHESIS_SAMPLE_RATE / 100);
  first = Math.max(0, first - margin);
  last = Math.min(samples.length - 1, last + margin);
  return samples.subarray(first, last + 1);
}

/** Later rounds of a long call say different numbers and names, so it does not sound looped. */
function vary(text: string, round: number): string {
  const names = ['Maria', 'Tom', 'Priya', 'Lucas', 'Hannah', 'Omar'];
  return text
    .replace(/\d+/g, (digits) => String((Number(digits) + round * 7) % 10 ** digits.length).padStart(digits.length, '1'))
    .replace(/\b(Maria|Tom|Priya|Lucas|Hannah|Omar)\b/g, (name) => names[(names.indexOf(name) + round) % names.length] ?? name);
}

// ---------------------------------------------------------------------------------------------
// Samples and files

function msToSamples(ms: number): number {
  return Math.round((ms * SYNTHESIS_SAMPLE_RATE) / 1000);
}

function samplesToMs(samples: number): number {
  return Math.round((samples * 1000) / SYNTHESIS_SAMPLE_RATE);
}

/** Roughly Gaussian hiss (sum of four uniforms) at the given RMS level. */
function addHiss(signal: Float32Array, rms: number, random: () => number): void {
  const scale = rms * Math.sqrt(3);
  for (let i = 0; i < signal.length; i += 1) signal[i] = (signal[i] ?? 0) + scale * (random() + random() + random() + random() - 2);
}

function encodeWav(channels: Float32Array[]): Buffer {
  const frames = channels[0]?.length ?? 0;
  const blockAlign = channels.length * 2;
  const wav = Buffer.alloc(44 + frames * blockAlign);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + frames * blockAlign, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(channels.length, 22);
  wav.writeUInt32LE(SYNTHESIS_SAMPLE_RATE, 24);
  wav.writeUInt32LE(SYNTHESIS_SAMPLE_RATE * blockAlign, 28);
  wav.writeUInt16LE(blockAlign, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(frames * blockAlign, 40);
  for (let frame = 0; frame < frames; frame += 1) {
    channels.forEach((channel, index) => {
      const value = Math.max(-1, Math.min(1, channel[frame] ?? 0));
      wav.writeInt16LE(Math.round(value * 32767), 44 + frame * blockAlign + index * 2);
    });
  }
  return wav;
}

// ---------------------------------------------------------------------------------------------
// Scripts: the representative speaks first, as on an inbound call.

interface Script {
  opening: CallLine[];
  /** Exchanges that can be repeated or dropped to change the length. */
  middle: CallLine[][];
  closing: CallLine[];
}

const rep = (text: string): CallLine => ({ speaker: 0, text });
const contact = (text: string): CallLine => ({ speaker: 1, text });

const SCRIPTS: Readonly<Record<CallScript, Script>> = {
  support: {
    opening: [
      rep('Thank you for calling Northwind support, this is Daniel speaking. How can I help you today?'),
      contact('Hi Daniel. My internet has been dropping out every evening since Monday, and I work from home, so it is becoming a real problem.'),
    ],
    middle: [
      [rep('I am sorry to hear that. Could I have your account number, please?'), contact('Yes, it is 4 8 1 5 2 2 9.')],
      [rep('Thank you. And may I have the name on the account?'), contact('Maria Lopez.')],
      [
        rep('Thanks Maria. I can see the line. There were three disconnections last night, around eight, nine and ten.'),
        contact('That sounds about right. It always happens when I am on a video call.'),
      ],
      [rep('Could you tell me which lights are on at the front of your router right now?'), contact('Power is green, internet is blinking orange, and the wifi light is off.')],
      [
        rep('Okay. A blinking orange light usually means the router lost its connection to our network. Let us restart it together. Please unplug it for thirty seconds.'),
        contact('Okay, it is unplugged. Sure, I will wait.'),
      ],
      [rep('Now plug it back in and give it about two minutes.'), contact('Right. The internet light is green now.')],
      [
        rep('Great. I am also sending a firmware update to the router, which fixes a known problem with evening drops.'),
        contact('Will I lose my settings?'),
      ],
      [rep('No, your wifi name and password stay the same.'), contact('Good. Thank you.')],
    ],
    closing: [
      rep('If it drops again, call us back and quote ticket number 5 5 3 1. Is there anything else I can help you with?'),
      contact('No, that was everything. Thanks for your help.'),
      rep('You are welcome. Have a lovely evening.'),
    ],
  },
  billing: {
    opening: [
      rep('Good morning, you are speaking with Sarah from Contoso billing. How may I help?'),
      contact('Hello. I was charged twice for my subscription this month and I would like one of the payments back.'),
    ],
    middle: [
      [rep('I can certainly look into that. What is the e-mail address on your account?'), contact('It is tom dot baker at example dot com.')],
      [
        rep('Thank you, Tom. I see two payments of forty nine dollars, on the third and on the fourth.'),
        contact('Exactly. The second one should not be there.'),
      ],
      [
        rep('You are right. It looks like the card was retried after a timeout, and both attempts went through.'),
        contact('So can you refund it?'),
      ],
      [rep('Yes. I have started a refund of forty nine dollars to the same card.'), contact('How long will that take?')],
      [rep('Usually three to five working days, depending on your bank.'), contact('Okay, that is fine.')],
      [
        rep('I have also added a note so that the retry does not happen again next month.'),
        contact('Thank you. Will I get a confirmation by e-mail?'),
      ],
      [rep('Yes, you will receive one within the hour.'), contact('Perfect.')],
    ],
    closing: [
      rep('Is there anything else I can do for you today?'),
      contact('No, that is all. Thanks Sarah.'),
      rep('Thank you for calling Contoso. Goodbye.'),
    ],
  },
  sales: {
    opening: [
      rep('Hi, this is Lucas from Fabrikam, calling about the demo request you sent us yesterday. Is now a good time?'),
      contact('Yes, now works. We are a team of twenty and we are looking for a better way to review our sales calls.'),
    ],
    middle: [
      [rep('Great. How do you review calls today?'), contact('Honestly, managers listen to a few recordings each week, when they find the time.')],
      [
        rep('That is very common. With our platform every call is transcribed and scored against your own script, so nothing gets missed.'),
        contact('Does it work with our phone system? We use a cloud dialer.'),
      ],
      [rep('Most likely. Which one do you use?'), contact('We use the one from Ringo, the business plan.')],
      [
        rep('We integrate with Ringo directly. Calls arrive in your dashboard a few minutes after they end.'),
        contact('And what does it cost for twenty people?'),
      ],
      [
        rep('The team plan is thirty dollars per user per month, billed yearly, and the first month is free.'),
        contact('That is within our budget. Can our managers try it first?'),
      ],
      [rep('Of course. I can set up a trial for your team this week.'), contact('Sounds good.')],
    ],
    closing: [
      rep('I will send you an invitation and a short guide this afternoon. Does Thursday at ten work for a follow up?'),
      contact('Thursday at ten works. Talk to you then.'),
      rep('Thank you, have a great day.'),
    ],
  },
  delivery: {
    opening: [
      rep('Welcome to Tailspin deliveries, my name is Hannah. How can I help you?'),
      contact('Hi Hannah, my parcel was marked as delivered yesterday, but I never received it.'),
    ],
    middle: [
      [rep('I am sorry about that. Do you have the tracking number?'), contact('Yes. It is T S 7 7 3 0 1 4.')],
      [
        rep('Thank you. The driver scanned it at two fifteen in the afternoon and left it in a safe place.'),
        contact('Where would that be? I checked the porch and the garage.'),
      ],
      [rep('The note says behind the green bin.'), contact('Oh. Give me a second, I will check.')],
      [rep('Sure, take your time.'), contact('No, there is nothing behind the bin.')],
      [
        rep('Okay. I will open an investigation with the driver, and if we cannot find it within two days we send a replacement.'),
        contact('That is fine. Will you call me?'),
      ],
      [rep('We will send a text message to the number on the order.'), contact('Great, thank you.')],
    ],
    closing: [
      rep('Your case number is 6 2 0 8. Is there anything else?'),
      contact('No, that is all. Thanks for your help.'),
      rep('My pleasure. Goodbye.'),
    ],
  },
};
