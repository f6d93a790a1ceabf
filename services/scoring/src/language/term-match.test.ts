import { describe, expect, it } from 'vitest';
import { MatchIndex } from './match-index.js';
import { analyzeText, type Token } from './text-analysis.js';
import { MATCH_STRENGTH, matchStrength, specificity, termOf } from './term-match.js';

const token = (text: string): Token => analyzeText(text).sentences[0]!.tokens.find((found) => found.content)!;
const strength = (required: string, said: string) => matchStrength(termOf(token(required)), token(said));

describe('matchStrength', () => {
  it('meets a word fully in any inflection', () => {
    expect(strength('send', 'sent')).toBe(MATCH_STRENGTH.same);
    expect(strength('address', 'addresses')).toBe(MATCH_STRENGTH.same);
  });

  it('meets a derivational relative almost fully, a synonym a little less, a kind of the thing less again', () => {
    expect(strength('verify', 'verification')).toBe(MATCH_STRENGTH.family);
    expect(strength('confirm', 'confirmation')).toBe(MATCH_STRENGTH.family);
    expect(strength('purchase', 'buy')).toBe(MATCH_STRENGTH.synonym);
    expect(strength('greet', 'hello')).toBe(MATCH_STRENGTH.kindOfFamily);
  });

  it('lets data meet the word for it', () => {
    expect(strength('email', 'anna@example.com')).toBe(MATCH_STRENGTH.data);
    expect(strength('price', '$5.00')).toBe(MATCH_STRENGTH.data);
    expect(strength('phone', '+1 415 555 0100')).toBe(MATCH_STRENGTH.data);
  });

  it('does not meet unrelated words', () => {
    expect(strength('car', 'banana')).toBe(0);
    expect(strength('refund', 'greeting')).toBe(0);
  });
});

describe('specificity', () => {
  it('weighs a word naming an act fully: it is what its criterion is about', () => {
    expect(specificity(token('greet'))).toBe(1);
    expect(specificity(token('instructions'))).toBe(1);
  });

  it('weighs words of many senses less than specific ones, and unknown names fully', () => {
    expect(specificity(token('take'))).toBeLessThan(specificity(token('passport')));
    expect(specificity(token('passport'))).toBeLessThan(specificity(token('celestar')));
    expect(specificity(token('celestar'))).toBe(1);
  });
});

describe('MatchIndex', () => {
  it('finds every token meeting a term at its strongest match, ignoring stop words', () => {
    const index = new MatchIndex<number>();
    const sentence = analyzeText('We sent the verification code and will verify it again.').sentences[0]!;
    sentence.tokens.forEach((found, at) => index.add(found, at));
    const hits = index.find(termOf(token('verify'))).map((hit) => [hit.token.normal, hit.strength]);
    expect(hits).toEqual(expect.arrayContaining([['verification', MATCH_STRENGTH.family], ['verify', MATCH_STRENGTH.same]]));
    expect(hits).toHaveLength(2);
  });
});
