/**
 * The offline speech engine: CMU PocketSphinx from Debian (packages `pocketsphinx` and
 * `pocketsphinx-en-us`), run as `pocketsphinx_continuous` once per piece of audio. The samples are
 * written to a temporary file it reads (`-infile`; a name not ending in .wav is read as raw 16 kHz
 * little-endian PCM; its stdin cannot be used, because Node's pipes are sockets, which it cannot
 * open as a file), and `-time yes` makes it print each word with its start, end (in seconds from
 * the start of the input) and confidence after each utterance's text:
 *
 *     he was not an illness those young man
 *     <s> 0.140 0.220 0.999300
 *     was(2) 0.340 0.560 0.986293
 *
 * Silence and noise tokens are dropped and alternate-pronunciation suffixes removed
 * (normalizeRecognizedWord). The printed end is the start of the word's last 10 ms frame, so a
 * word ends one frame later.
 */
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pcmDurationMs, pcmToLittleEndianBytes, type Pcm16k } from '../domain/pcm.js';
import { normalizeRecognizedWord, type TimedWord } from '../domain/transcript-words.js';
import { isNotInstalled, runProcess } from './child-process.js';
import type { SpeechEngine, TranscribeOptions } from './speech-engine.js';
import { SpeechError } from './speech-error.js';

export interface PocketSphinxOptions {
  /** Default 'pocketsphinx_continuous', found on the PATH. */
  binary?: string;
  /** Where Debian's pocketsphinx-en-us puts the US English model. */
  modelDir?: string;
  /** The acoustic model directory; default `${modelDir}/en-us`. */
  hmm?: string;
  /** The language model; default `${modelDir}/en-us.lm.bin`. */
  lm?: string;
  /** The pronunciation dictionary; default `${modelDir}/cmudict-en-us.dict`. */
  dict?: string;
  /** More decoder options, e.g. ['-beam', '1e-60']. */
  extraArgs?: string[];
}

export const POCKETSPHINX_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

const FRAME_MS = 10;
const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)$/i;

export function createPocketSphinxEngine(options: PocketSphinxOptions = {}): SpeechEngine {
  const binary = options.binary ?? 'pocketsphinx_continuous';
  const modelDir = options.modelDir ?? POCKETSPHINX_MODEL_DIR;
  const model = {
    hmm: options.hmm ?? join(modelDir, 'en-us'),
    lm: options.lm ?? join(modelDir, 'en-us.lm.bin'),
    dict: options.dict ?? join(modelDir, 'cmudict-en-us.dict'),
  };
  const args = ['-time', 'yes', '-hmm', model.hmm, '-lm', model.lm, '-dict', model.dict, ...(options.extraArgs ?? [])];
  let modelChecked: Promise<void> | undefined;

  return {
    name: 'pocketsphinx',
    async transcribe(pcm: Pcm16k, transcribeOptions: TranscribeOptions = {}): Promise<TimedWord[]> {
      if (pcm.length === 0) return [];
      modelChecked ??= checkModel(model);
      // A failed check is remembered only until the next call, so installing the model fixes it.
      await modelChecked.catch((error: unknown) => {
        modelChecked = undefined;
        throw error;
      });

      const directory = await mkdtemp(join(tmpdir(), 'parlance-pocketsphinx-'));
      let result;
      try {
        const input = join(directory, 'audio.raw');
        await writeFile(input, pcmToLittleEndianBytes(pcm));
        result = await runProcess(binary, ['-infile', input, ...args], transcribeOptions.signal ? { signal: transcribeOptions.signal } : {});
      } catch (error) {
        if (transcribeOptions.signal?.aborted) throw error;
        if (isNotInstalled(error)) {
          throw new SpeechError('PocketSphinx is not installed (install the Debian packages pocketsphinx and pocketsphinx-en-us)', { cause: error });
        }
        throw new SpeechError(`PocketSphinx could not be started (${(error as Error).message})`, { cause: error });
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
      if (result.code !== 0) throw new SpeechError(`PocketSphinx failed (${pocketSphinxReason(result.stderr, result.code)})`);
      return parsePocketSphinxWords(result.stdout.toString('utf8'), pcmDurationMs(pcm));
    },
  };
}

/** The timed words in `pocketsphinx_continuous -time yes` output, within [0, durationMs]. */
export function parsePocketSphinxWords(output: string, durationMs = Infinity): TimedWord[] {
  const words: TimedWord[] = [];
  for (const line of output.split(/\r?\n/)) {
    const match = WORD_LINE.exec(line.trim());
    if (!match) continue;
    const text = normalizeRecognizedWord(match[1]!);
    if (text === undefined) continue;
    const startMs = Math.min(durationMs, Math.round(Number(match[2]) * 1000));
    const endMs = Math.min(durationMs, Math.max(startMs, Math.round(Number(match[3]) * 1000) + FRAME_MS));
    const confidence = Math.min(1, Math.max(0, Number(match[4])));
    words.push({ text, startMs, endMs, confidence });
  }
  return words;
}

async function checkModel(model: { hmm: string; lm: string; dict: string }): Promise<void> {
  for (const path of [join(model.hmm, 'mdef'), model.lm, model.dict]) {
    try {
      await access(path);
    } catch (error) {
      throw new SpeechError(`the PocketSphinx English model is missing (${path}; install the Debian package pocketsphinx-en-us)`, { cause: error });
    }
  }
}

/** Its last ERROR or FATAL log line, without the source location, e.g. 'Failed to open dictionary file'. */
function pocketSphinxReason(stderr: string, code: number | null): string {
  const lines = stderr.split(/\r?\n/).filter((line) => /^(?:ERROR|FATAL|FATAL_ERROR):/.test(line));
  const last = lines.at(-1)?.replace(/^\w+:\s*("[^"]*", line \d+:\s*)?/, '').trim().replace(/\.$/, '');
  if (last) return last.length > 200 ? `${last.slice(0, 199)}…` : last;
  return code === null ? 'it was stopped by a signal' : `exit code ${code}`;
}
