/**
 * Sentence embeddings in this process: all-MiniLM-L6-v2 (int8 weights, ONNX) on onnxruntime-node,
 * for telling whether what was said means what a criterion asks for, in other words
 * (paraphrases). README.md beside this file says where the model comes from and how fast it is.
 *
 * The model loads once per process, on first use; callers that ask at the same time share the one
 * load. `encode` tokenizes the texts, sorts them by length and runs them in batches padded to
 * their longest text (little padding), then mean-pools each text's token vectors (its tokens
 * only) and scales the result to length 1, as sentence-transformers does for this model, so the
 * cosine of two vectors is their dot product. One run at a time, on `intraOpThreads` threads (1
 * by default): a scoring process uses one core.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tensor as OrtTensor } from 'onnxruntime-node';
import { readWordPieceTokenizer } from './wordpiece-tokenizer.js';

/** Where scripts/ensure-embedding-model.sh puts the model: .run/models/all-minilm-l6-v2-int8 in the repository. */
export const DEFAULT_MODEL_DIRECTORY = fileURLToPath(new URL('../../../../.run/models/all-minilm-l6-v2-int8', import.meta.url));

export interface SentenceEncoderOptions {
  /** Holds model.onnx and tokenizer.json. Default DEFAULT_MODEL_DIRECTORY. */
  modelDirectory?: string;
  /** onnxruntime's threads inside one run. Default 1. */
  intraOpThreads?: number;
  /** Texts per run. Default 8 (README.md: faster than 4, 16 or 32 on one thread). */
  batchSize?: number;
  /** Tokens per text, [CLS] and [SEP] included; longer texts are cut. Default: the tokenizer's (128). */
  maxTokens?: number;
}

export interface SentenceEncoder {
  /** Length of every vector. */
  readonly dimension: number;
  readonly modelDirectory: string;
  /** One unit-length vector per text, in the texts' order. */
  encode(texts: readonly string[]): Promise<Float32Array[]>;
  /** Frees the model; the next loadSentenceEncoder loads it again. */
  close(): Promise<void>;
}

/** The model's files are not where the encoder looks for them. */
export class SentenceEncoderModelMissingError extends Error {
  constructor(readonly missingFile: string) {
    super(
      `The sentence-embedding model is missing: ${missingFile} does not exist. ` +
        'Install it with scripts/ensure-embedding-model.sh (scripts/ensure-deps.sh, which `make run` and `make test` run first, runs it), ' +
        'or pass modelDirectory to a folder holding model.onnx and tokenizer.json.',
    );
    this.name = 'SentenceEncoderModelMissingError';
  }
}

const MODEL_FILE = 'model.onnx';
const TOKENIZER_FILE = 'tokenizer.json';

const loads = new Map<string, Promise<SentenceEncoder>>();

/**
 * The process's encoder for these options, loaded on the first call; later and concurrent calls get
 * the same one. A load that failed (the model not installed yet) is tried again on the next call.
 */
export function loadSentenceEncoder(options: SentenceEncoderOptions = {}): Promise<SentenceEncoder> {
  const settings = {
    modelDirectory: options.modelDirectory ?? DEFAULT_MODEL_DIRECTORY,
    intraOpThreads: options.intraOpThreads ?? 1,
    batchSize: options.batchSize ?? 8,
    maxTokens: options.maxTokens,
  };
  for (const name of ['intraOpThreads', 'batchSize'] as const) {
    const value = settings[name];
    if (!(Number.isInteger(value) && value >= 1)) return Promise.reject(new RangeError(`${name} must be a whole number from 1, not ${value}`));
  }
  const key = JSON.stringify(settings);
  let load = loads.get(key);
  if (!load) {
    load = openSentenceEncoder(settings, () => loads.delete(key));
    loads.set(key, load);
    load.catch(() => loads.delete(key));
  }
  return load;
}

/**
 * The encoder when its model can be loaded, undefined (after calling `onUnavailable` once) when it
 * cannot (not installed: SentenceEncoderModelMissingError; or the runtime failed): for a caller that
 * can do without it. Tried again on each call, so a model installed while the process runs is
 * taken up.
 */
export function sentenceEncoderIfAvailable(options: SentenceEncoderOptions, onUnavailable: (error: unknown) => void): () => Promise<SentenceEncoder | undefined> {
  let told = false;
  return async () => {
    try {
      return await loadSentenceEncoder(options);
    } catch (error) {
      if (!told) onUnavailable(error);
      told = true;
      return undefined;
    }
  };
}

/** Cosine similarity, from −1 to 1 (0 when a vector is all zeros). For encode's vectors it is their dot product. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`Vectors of different lengths: ${a.length} and ${b.length}`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index += 1) {
    dot += a[index]! * b[index]!;
    normA += a[index]! * a[index]!;
    normB += b[index]! * b[index]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

interface Settings {
  modelDirectory: string;
  intraOpThreads: number;
  batchSize: number;
  maxTokens: number | undefined;
}

async function openSentenceEncoder(settings: Settings, forget: () => void): Promise<SentenceEncoder> {
  const modelPath = join(settings.modelDirectory, MODEL_FILE);
  const tokenizerPath = join(settings.modelDirectory, TOKENIZER_FILE);
  for (const path of [modelPath, tokenizerPath]) if (!existsSync(path)) throw new SentenceEncoderModelMissingError(path);

  // Imported here, not at the top: the native runtime (about 45 MB) loads only in a process that encodes.
  const { InferenceSession, Tensor } = await import('onnxruntime-node');
  const tokenizer = await readWordPieceTokenizer(tokenizerPath, settings.maxTokens === undefined ? {} : { maxLength: settings.maxTokens });
  const session = await InferenceSession.create(modelPath, {
    executionProviders: ['cpu'],
    intraOpNumThreads: settings.intraOpThreads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    logSeverityLevel: 3,
  });
  const takesTokenTypes = session.inputNames.includes('token_type_ids');
  const output = session.outputNames[0]!;
  let dimension = 0;
  // One run at a time, whoever asks: runs side by side would take more than the threads given.
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work);
    queue = result.catch(() => undefined);
    return result;
  };

  async function runBatch(sequences: readonly number[][]): Promise<Float32Array[]> {
    const batch = tokenizer.pad(sequences);
    const shape = [batch.batchSize, batch.sequenceLength];
    const feeds: Record<string, OrtTensor> = {
      input_ids: new Tensor('int64', batch.inputIds, shape),
      attention_mask: new Tensor('int64', batch.attentionMask, shape),
    };
    if (takesTokenTypes) feeds.token_type_ids = new Tensor('int64', batch.tokenTypeIds, shape);
    const results = await session.run(feeds);
    const hidden = results[output]!;
    const width = hidden.dims[2]!;
    dimension = width;
    return meanPooled(hidden.data as Float32Array, sequences, batch.sequenceLength, width);
  }

  async function encode(texts: readonly string[]): Promise<Float32Array[]> {
    const sequences = texts.map((text) => tokenizer.encode(text));
    // Shortest first: a batch then pads its texts to about the same length.
    const order = sequences.map((_, index) => index).sort((a, b) => sequences[a]!.length - sequences[b]!.length);
    const vectors = new Array<Float32Array>(texts.length);
    for (let start = 0; start < order.length; start += settings.batchSize) {
      const rows = order.slice(start, start + settings.batchSize);
      const pooled = await serialized(() => runBatch(rows.map((row) => sequences[row]!)));
      rows.forEach((row, index) => (vectors[row] = pooled[index]!));
    }
    return vectors;
  }

  // The vector length, from one run now rather than from the graph's metadata (which may leave it symbolic).
  await encode(['']);
  return {
    get dimension() {
      return dimension;
    },
    modelDirectory: settings.modelDirectory,
    encode,
    async close() {
      forget();
      await serialized(() => session.release());
    },
  };
}

/** Each text's mean over its own tokens (not the padding), scaled to length 1. */
function meanPooled(hidden: Float32Array, sequences: readonly number[][], sequenceLength: number, width: number): Float32Array[] {
  return sequences.map((ids, row) => {
    const vector = new Float32Array(width);
    const offset = row * sequenceLength * width;
    for (let token = 0; token < ids.length; token += 1) {
      const base = offset + token * width;
      for (let feature = 0; feature < width; feature += 1) vector[feature]! += hidden[base + feature]!;
    }
    let norm = 0;
    for (let feature = 0; feature < width; feature += 1) {
      vector[feature]! /= ids.length;
      norm += vector[feature]! * vector[feature]!;
    }
    const scale = 1 / Math.max(Math.sqrt(norm), 1e-12);
    for (let feature = 0; feature < width; feature += 1) vector[feature]! *= scale;
    return vector;
  });
}
