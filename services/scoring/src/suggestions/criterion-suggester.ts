/**
 * The team editor's "AI Suggestion" (spec part 1 §4 "Criterion AI suggestion"): the configured
 * language model writes the criterion's prompt; without one, or when it fails, the offline engine
 * does, so the manager always gets a suggestion. A model failure is logged as a warning with its
 * reason (never the API key, never the criterion text).
 */
import type { Logger } from '@parlance/platform/logger';
import type { ScoringConfig } from '../config.js';
import { createModelSuggester, ModelSuggestionError } from './model-suggestion.js';
import { suggestCriterionPrompt, type CriterionPromptInput } from './offline-suggestion.js';

export type SuggestionSource = 'model' | 'offline';

export interface CriterionSuggestion {
  /** At most CRITERION_PROMPT_MAX_LENGTH characters of plain text. */
  suggestion: string;
  source: SuggestionSource;
}

export interface CriterionSuggester {
  suggest(input: CriterionPromptInput): Promise<CriterionSuggestion>;
}

export function createCriterionSuggester(config: ScoringConfig['suggestions'], logger: Logger): CriterionSuggester {
  const offline = (input: CriterionPromptInput): CriterionSuggestion => ({ suggestion: suggestCriterionPrompt(input), source: 'offline' });
  const settings = config.model;
  if (!settings) return { suggest: async (input) => offline(input) };

  const askModel = createModelSuggester(settings);
  return {
    async suggest(input) {
      try {
        return { suggestion: await askModel(input), source: 'model' };
      } catch (error) {
        const failure = error instanceof ModelSuggestionError ? error.failure : 'unexpected';
        const reason = error instanceof Error ? error.message : String(error);
        logger.warn(
          { failure, reason, model: settings.model },
          'criterion suggestion model failed; answered with the offline suggestion',
        );
        return offline(input);
      }
    },
  };
}
