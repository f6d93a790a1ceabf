import { describe, expect, it } from 'vitest';
import { atLeastHalfPresent, contentWords, STOP_WORDS, tokenSet } from './content-words.js';

describe('contentWords', () => {
  it('keeps the distinct lower-cased tokens that are not stop words, in order', () => {
    expect(contentWords('The contact agrees to donate to Save the Children.')).toEqual(['contact', 'agrees', 'donate', 'save', 'children']);
    expect(contentWords("Don't ask, don't tell: ASK twice")).toEqual(['ask', 'tell', 'twice']);
  });

  it('has only tokens the tokeniser can produce in its stop-word list', () => {
    for (const word of STOP_WORDS) expect(word).toMatch(/^[a-z0-9]+$/);
  });
});

describe('atLeastHalfPresent', () => {
  const said = tokenSet(['I will donate to save the kids', 'children are great']);

  it('is true when at least half of the content words appear (3 of 5)', () => {
    expect(atLeastHalfPresent('The contact agrees to donate to Save the Children.', said)).toBe(true);
  });

  it('is false when fewer than half appear (2 of 5)', () => {
    expect(atLeastHalfPresent('The contact agrees to donate to Save the Whales.', tokenSet(['donate', 'save']))).toBe(false);
    expect(atLeastHalfPresent('alpha beta gamma delta', tokenSet(['alpha beta']))).toBe(true); // 2 of 4: exactly half
    expect(atLeastHalfPresent('alpha beta gamma delta', tokenSet(['alpha']))).toBe(false);
  });

  it('is true for a text without content words (it asks for nothing)', () => {
    expect(atLeastHalfPresent('to the of', new Set())).toBe(true);
  });

  it('matches whole tokens, not substrings', () => {
    expect(atLeastHalfPresent('refund', tokenSet(['refunded']))).toBe(false);
  });
});
