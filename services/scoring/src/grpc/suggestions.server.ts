/** parlance.scoring.v1.CriterionSuggestionService: the team editor's "AI Suggestion". */
import type { ServiceImplementation } from '@parlance/platform/grpc/grpc-server';
import type { CriterionSuggestionServiceService } from '@parlance/proto/parlance/scoring/v1/suggestions';
import { checkSuggestionRequest } from '../domain/suggestion-request.js';
import type { CriterionSuggester } from '../suggestions/criterion-suggester.js';

export function suggestionsService(suggester: CriterionSuggester): ServiceImplementation<typeof CriterionSuggestionServiceService> {
  return {
    async suggestCriterionPrompt(request) {
      const { name, description } = checkSuggestionRequest(request);
      return suggester.suggest({ name, description });
    },
  };
}
