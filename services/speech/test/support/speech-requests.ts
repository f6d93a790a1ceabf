/**
 * Requests to the speech server as a client sends them (multipart/form-data over HTTP), and sounds
 * that are not speech, made by FFmpeg's lavfi sources: silence, noise and synthesized music.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface SpeechAnswer {
  status: number;
  body: unknown;
}

export interface DiarizationBody {
  duration: number;
  model: string;
  speakers: string[];
  segments: { start: number; end: number; speaker: string }[];
}

export interface OpenAiError {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** Posts a form: `file` (bytes with a file name) and text fields, with the key if given. */
export async function postForm(url: string, fields: Record<string, string | string[]>, file?: { bytes: Uint8Array; name: string }, apiKey?: string): Promise<SpeechAnswer> {
  const form = new FormData();
  if (file) form.append('file', new Blob([file.bytes]), file.name);
  for (const [name, value] of Object.entries(fields)) for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  const response = await fetch(url, { method: 'POST', body: form, headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json');
  return { status: response.status, body: json ? (JSON.parse(text) as unknown) : text };
}

/** Sounds that hold no speech, 16 kHz mono WAV: FFmpeg lavfi expressions. */
export const NOT_SPEECH: Record<string, string> = {
  silence: 'anullsrc=r=16000:cl=mono',
  'white noise': 'anoisesrc=c=white:a=0.3:r=16000',
  'pink noise': 'anoisesrc=c=pink:a=0.5:r=16000',
  // C major and F major triads, two seconds each.
  chords:
    "aevalsrc='0.2*(sin(2*PI*261.63*(1+0.335*gte(mod(t,4),2))*t)+sin(2*PI*329.63*(1+0.335*gte(mod(t,4),2))*t)+sin(2*PI*392*(1+0.335*gte(mod(t,4),2))*t))':s=16000",
  // A rising scale of quarter notes, each fading.
  melody: "aevalsrc='0.4*sin(2*PI*t*440*pow(2,floor(mod(t*4,8))/12))*(1-0.7*mod(t*4,1))':s=16000",
  // Snare-like noise bursts every half second and a low kick between them.
  drums: "aevalsrc='0.8*(random(0)-0.5)*exp(-30*mod(t,0.5))+0.6*sin(2*PI*60*t)*exp(-15*mod(t+0.25,1))':s=16000",
};

export async function synthesize(source: string, seconds: number): Promise<Buffer> {
  const { stdout } = await execFileAsync(
    'ffmpeg',
    ['-nostdin', '-hide_banner', '-v', 'error', '-f', 'lavfi', '-i', source, '-t', String(seconds), '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-f', 'wav', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}
