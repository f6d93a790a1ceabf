import { describe, expect, it } from 'vitest';
import { checkSuggestionRequest, SUGGESTION_MESSAGES } from './suggestion-request.js';

describe('checkSuggestionRequest', () => {
  it('needs a criterion name', () => {
    expect(() => checkSuggestionRequest({ criterionName: '  ', criterionDescription: 'Greets the caller' })).toThrow(SUGGESTION_MESSAGES.nameRequired);
  });

  it('keeps to the editor’s limits', () => {
    expect(() => checkSuggestionRequest({ criterionName: 'n'.repeat(101), criterionDescription: '' })).toThrow(SUGGESTION_MESSAGES.nameLong);
    expect(() => checkSuggestionRequest({ criterionName: 'Greeting', criterionDescription: 'd'.repeat(501) })).toThrow(SUGGESTION_MESSAGES.descriptionLong);
  });

  it('trims what it returns; the description may be empty', () => {
    expect(checkSuggestionRequest({ criterionName: ' Greeting ', criterionDescription: '' })).toEqual({ name: 'Greeting', description: '' });
  });
});
