import Type from 'typebox';
import { ConfigError, loadConfig } from '@parlance/platform/config';

export const ScoringConfigSchema = Type.Object({
  SCORING_LLM_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^/?#\\s]+(/[^?#\\s]*)?$',
      // A URL may carry user:password; a config error shows it with those masked.
      secret: maskUserInfo,
      description:
        'base URL of an OpenAI-compatible Chat Completions API for evaluations and criterion suggestions, e.g. https://api.openai.com/v1 or http://127.0.0.1:1234/v1; unset uses the built-in offline engines',
    }),
  ),
  SCORING_LLM_MODEL: Type.Optional(Type.String({ minLength: 1, description: 'model name sent to SCORING_LLM_URL, e.g. gpt-4o-mini; required with it' })),
  SCORING_LLM_API_KEY: Type.Optional(Type.String({ minLength: 1, secret: true, description: 'API key sent as a Bearer token to SCORING_LLM_URL; unset sends none' })),
  SCORING_LLM_TIMEOUT_MS: Type.Integer({
    minimum: 1,
    maximum: 600_000,
    default: 20_000,
    description: 'how long to wait for the model before answering with the offline suggestion',
  }),
  SCORING_LLM_EVALUATION_TIMEOUT_MS: Type.Integer({
    minimum: 1,
    maximum: 3_600_000,
    default: 120_000,
    description: 'how long to wait for the model to answer one evaluation request before trying again (then falling back to the offline evaluator)',
  }),
  SCORING_LLM_MAX_ATTEMPTS: Type.Integer({
    minimum: 1,
    maximum: 10,
    default: 4,
    description: 'attempts per evaluation request when the model server answers 429, 5xx or times out (with backoff, honouring Retry-After) before falling back to the offline evaluator',
  }),
  SCORING_LLM_CONTEXT_TOKENS: Type.Integer({
    minimum: 2_048,
    maximum: 10_000_000,
    default: 16_384,
    description: "the model's context window in tokens; a transcript that does not fit with the criteria and the answer is judged in parts that do, never cut",
  }),
  SCORING_SENTENCE_MODEL: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    default: 'on',
    description:
      'whether the offline evaluator also reads meaning with the sentence-embedding model (all-MiniLM-L6-v2, installed by scripts/ensure-embedding-model.sh); when it is on but the model is not installed, evaluations go on by words alone and the log says so',
  }),
  SCORING_SENTENCE_MODEL_DIR: Type.Optional(
    Type.String({ minLength: 1, description: 'folder holding the sentence-embedding model (model.onnx and tokenizer.json); default .run/models/all-minilm-l6-v2-int8 in the checkout' }),
  ),
  SCORING_RESCORE: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    default: 'on',
    description:
      'at start, score again in the background the activities the offline evaluator judged by words alone, once the sentence-embedding model is installed (not with SCORING_LLM_URL set); progress goes to the log',
  }),
  SCORING_WORKERS: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 2,
    description: 'how many activities this process evaluates at once, so a quick one need not wait behind a slow model call',
  }),
  SCORING_LEASE_SECONDS: Type.Integer({
    minimum: 3,
    maximum: 3_600,
    default: 60,
    description: 'how long a claim on an activity lasts unless renewed; the work of a process that died is taken up again after this long',
  }),
});

export interface ModelSettings {
  /** OpenAI-compatible base URL without a trailing slash; requests go to `${baseUrl}/chat/completions`. */
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
  timeoutMs: number;
}

/** The chat model as the evaluation engine uses it; its timeoutMs is per request. */
export interface EvaluationModelSettings extends ModelSettings {
  /** Per request, counting the first; 429, 5xx and time-outs are tried again. */
  maxAttempts: number;
  /** The model's context window in tokens. */
  contextTokens: number;
}

export interface ScoringConfig {
  suggestions: {
    /** Undefined: suggestions come from the offline engine only. */
    model: ModelSettings | undefined;
  };
  evaluation: {
    /** Undefined: the offline evaluator judges every activity. */
    model: EvaluationModelSettings | undefined;
    /** Where the offline evaluator's sentence-embedding model is; undefined: it reads words alone. */
    sentenceModel: { directory: string | undefined } | undefined;
  };
  /** Whether evaluations of a superseded offline engine are scored again at start (pipeline/rescore.ts). */
  rescore: boolean;
  worker: {
    /** Activities evaluated at once by this process. */
    workers: number;
    leaseMs: number;
  };
}

/** Reads the scoring settings; throws ConfigError naming each bad variable. */
export function loadScoringConfig(env: NodeJS.ProcessEnv = process.env): ScoringConfig {
  const raw = loadConfig(ScoringConfigSchema, env);
  const worker = { workers: raw.SCORING_WORKERS, leaseMs: raw.SCORING_LEASE_SECONDS * 1000 };
  const sentenceModel = raw.SCORING_SENTENCE_MODEL === 'on' ? { directory: raw.SCORING_SENTENCE_MODEL_DIR } : undefined;
  const rescore = raw.SCORING_RESCORE === 'on';
  if (!raw.SCORING_LLM_URL) {
    // A model or key without a server would be silently ignored; say so instead.
    const stray = (['SCORING_LLM_MODEL', 'SCORING_LLM_API_KEY'] as const).filter((name) => raw[name]);
    if (stray.length > 0) throw new ConfigError(stray.map((name) => `${name} is set but SCORING_LLM_URL is not (set both, or neither for the offline engines)`));
    return { suggestions: { model: undefined }, evaluation: { model: undefined, sentenceModel }, rescore, worker };
  }
  if (!raw.SCORING_LLM_MODEL) {
    throw new ConfigError(['SCORING_LLM_MODEL is required when SCORING_LLM_URL is set (the model name the server should run, e.g. gpt-4o-mini)']);
  }
  const server = { baseUrl: raw.SCORING_LLM_URL.replace(/\/+$/, ''), model: raw.SCORING_LLM_MODEL, apiKey: raw.SCORING_LLM_API_KEY };
  return {
    suggestions: { model: { ...server, timeoutMs: raw.SCORING_LLM_TIMEOUT_MS } },
    evaluation: {
      model: { ...server, timeoutMs: raw.SCORING_LLM_EVALUATION_TIMEOUT_MS, maxAttempts: raw.SCORING_LLM_MAX_ATTEMPTS, contextTokens: raw.SCORING_LLM_CONTEXT_TOKENS },
      sentenceModel,
    },
    rescore,
    worker,
  };
}

/** The URL with any user and password replaced, safe to print in an error. */
function maskUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/i, '$1***@');
}
