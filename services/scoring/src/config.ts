import Type from 'typebox';
import { ConfigError, loadConfig } from '@parlance/platform/config';

export const ScoringConfigSchema = Type.Object({
  SCORING_LLM_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^/?#\\s]+(/[^?#\\s]*)?$',
      // A URL may carry user:password; a config error shows it with those masked.
      secret: maskUserInfo,
      description:
        'base URL of an OpenAI-compatible Chat Completions API for criterion suggestions, e.g. https://api.openai.com/v1 or http://127.0.0.1:1234/v1; unset uses the built-in offline suggestions',
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
});

export interface ModelSettings {
  /** OpenAI-compatible base URL without a trailing slash; requests go to `${baseUrl}/chat/completions`. */
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
  timeoutMs: number;
}

export interface ScoringConfig {
  suggestions: {
    /** Undefined: suggestions come from the offline engine only. */
    model: ModelSettings | undefined;
  };
}

/** Reads the scoring settings; throws ConfigError naming each bad variable. */
export function loadScoringConfig(env: NodeJS.ProcessEnv = process.env): ScoringConfig {
  const raw = loadConfig(ScoringConfigSchema, env);
  if (!raw.SCORING_LLM_URL) {
    // A model or key without a server would be silently ignored; say so instead.
    const stray = (['SCORING_LLM_MODEL', 'SCORING_LLM_API_KEY'] as const).filter((name) => raw[name]);
    if (stray.length > 0) throw new ConfigError(stray.map((name) => `${name} is set but SCORING_LLM_URL is not (set both, or neither for offline suggestions)`));
    return { suggestions: { model: undefined } };
  }
  if (!raw.SCORING_LLM_MODEL) {
    throw new ConfigError(['SCORING_LLM_MODEL is required when SCORING_LLM_URL is set (the model name the server should run, e.g. gpt-4o-mini)']);
  }
  return {
    suggestions: {
      model: {
        baseUrl: raw.SCORING_LLM_URL.replace(/\/+$/, ''),
        model: raw.SCORING_LLM_MODEL,
        apiKey: raw.SCORING_LLM_API_KEY,
        timeoutMs: raw.SCORING_LLM_TIMEOUT_MS,
      },
    },
  };
}

/** The URL with any user and password replaced, safe to print in an error. */
function maskUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/i, '$1***@');
}
