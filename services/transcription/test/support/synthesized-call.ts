/**
 * Two-party test calls from built-in scripts, written to files: the speaking and mixing is the
 * platform's (synthesized-dialogue.ts); here are the scripts, calls of a chosen length, files on
 * disk, telephone quality, and reading them back as 16 kHz PCM.
 */
import { execFile } from 'node:child_process';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  DEFAULT_VOICES,
  mixDialogue,
  msToSamples,
  speakLines,
  type CallLine,
  type CallTurn,
  type Clip,
  type SynthVoice,
  type VoiceOf,
} from '@parlance/platform/speech/synthesized-dialogue';
import type { Pcm16k } from '../../src/domain/pcm.js';

export { SYNTHESIS_SAMPLE_RATE, type CallLine, type CallSpeaker, type CallTurn, type SynthVoice } from '@parlance/platform/speech/synthesized-dialogue';

const run = promisify(execFile);

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

export interface SynthesizedCall {
  stereoPath: string;
  monoPath: string;
  turns: CallTurn[];
  durationMs: number;
}

export async function synthesizeCall(dir: string, options: SynthesizeCallOptions = {}): Promise<SynthesizedCall> {
  const voices = { ...DEFAULT_VOICES, ...options.voices };
  const voiceOf: VoiceOf = (speaker) => (speaker === 0 ? voices.representative : voices.contact);
  const clips = await speakDialogue(planDialogue(options), voiceOf, options.minutes);
  const { stereoWav, monoWav, turns, durationMs } = mixDialogue(clips, options);

  await mkdir(dir, { recursive: true });
  const name = options.name ?? 'call';
  const stereoPath = join(dir, `${name}-stereo.wav`);
  const monoPath = join(dir, `${name}-mono.wav`);
  await writeFile(stereoPath, stereoWav);
  await writeFile(monoPath, monoWav);
  if (options.telephone) await Promise.all([stereoPath, monoPath].map(toTelephoneQuality));
  return { stereoPath, monoPath, turns, durationMs };
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

async function speakDialogue(plan: Plan, voiceOf: VoiceOf, minutes: number | undefined): Promise<Clip[]> {
  const clips = await speakLines(plan.head, voiceOf);
  if (minutes !== undefined) {
    const target = msToSamples(minutes * 60_000);
    // Pauses average about half a second; leave room for the closing lines.
    const spoken = () => clips.reduce((sum, clip) => sum + clip.samples.length + msToSamples(475), 0) + msToSamples(8_000);
    for (let index = 0; spoken() < target; index += 1) {
      const exchange = plan.middle(index);
      if (!exchange) break;
      clips.push(...(await speakLines(exchange, voiceOf)));
    }
  }
  clips.push(...(await speakLines(plan.tail, voiceOf)));
  return clips;
}

/** Later rounds of a long call say different numbers and names, so it does not sound looped. */
function vary(text: string, round: number): string {
  const names = ['Maria', 'Tom', 'Priya', 'Lucas', 'Hannah', 'Omar'];
  return text
    .replace(/\d+/g, (digits) => String((Number(digits) + round * 7) % 10 ** digits.length).padStart(digits.length, '1'))
    .replace(/\b(Maria|Tom|Priya|Lucas|Hannah|Omar)\b/g, (name) => names[(names.indexOf(name) + round) % names.length] ?? name);
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
