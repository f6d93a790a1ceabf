/** What an AI suggestion needs (spec part 1 §4: a non-empty criterion name). */
import { invalidArgument } from '@parlance/platform/errors';
import { CRITERION_NAME_MAX_LENGTH, CRITERION_PROMPT_MAX_LENGTH } from '../suggestions/offline-suggestion.js';

export const SUGGESTION_MESSAGES = {
  nameRequired: 'Please enter a criterion name to get an AI suggestion',
  nameLong: 'Criterion names must not exceed 100 characters.',
  descriptionLong: 'Criterion descriptions must not exceed 500 characters.',
} as const;

export function checkSuggestionRequest(request: { criterionName: string; criterionDescription: string }): { name: string; description: string } {
  const name = request.criterionName.trim();
  const description = request.criterionDescription.trim();
  if (name === '') throw invalidArgument(SUGGESTION_MESSAGES.nameRequired, { field: 'criterionName' });
  if (name.length > CRITERION_NAME_MAX_LENGTH) throw invalidArgument(SUGGESTION_MESSAGES.nameLong, { field: 'criterionName' });
  if (description.length > CRITERION_PROMPT_MAX_LENGTH) throw invalidArgument(SUGGESTION_MESSAGES.descriptionLong, { field: 'criterionDescription' });
  return { name, description };
}
