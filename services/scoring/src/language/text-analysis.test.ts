import { describe, expect, it } from 'vitest';
import { analyzeText, lemmasOf } from './text-analysis.js';

const spoken = (text: string) => analyzeText(text).sentences.map((sentence) => text.slice(sentence.start, sentence.end));
const negatedWords = (text: string) =>
  analyzeText(text)
    .sentences.flatMap((sentence) => sentence.tokens)
    .filter((token) => token.negated && token.content)
    .map((token) => token.normal);

describe('analyzeText', () => {
  it('splits sentences whose spans are the exact words said, line breaks ending them too', () => {
    const text = '  Hi, this is Nova.  How can I help you today?\n- Date of birth\n- Billing ZIP code ';
    expect(spoken(text)).toEqual(['Hi, this is Nova.', 'How can I help you today?', '- Date of birth', '- Billing ZIP code']);
  });

  it('has no sentences for empty or blank text', () => {
    expect(analyzeText('').sentences).toEqual([]);
    expect(analyzeText(' \n\t ').sentences).toEqual([]);
  });

  it('tells questions by their mark, and by their opening when speech came without punctuation', () => {
    const questions = (text: string) => analyzeText(text).sentences.map((sentence) => sentence.question);
    expect(questions('Could you confirm your email? Thanks.')).toEqual([true, false]);
    expect(questions('could you confirm your email')).toEqual([true]);
    expect(questions('what budget are you working with')).toEqual([true]);
    expect(questions('we will call you back')).toEqual([false]);
  });

  it('carries a negation through a list, and stops it where the clause turns', () => {
    expect(negatedWords('We will not collect your email, phone number or address.')).toEqual(expect.arrayContaining(['collect', 'email', 'phone', 'number', 'address']));
    expect(negatedWords('I cannot refund the fee, but I will send a voucher.')).not.toContain('voucher');
    expect(negatedWords('No email or SMS will be sent.')).toEqual(expect.arrayContaining(['email', 'sms', 'sent']));
  });

  it('reads the objects of leaving-out verbs as negated', () => {
    expect(negatedWords('Reply with the phrase below, ignoring option numbers.')).toEqual(expect.arrayContaining(['option', 'numbers']));
  });

  it('gives tokens their WordNet lemmas and kinds', () => {
    const tokens = analyzeText('I sent the invoices to anna@example.com for $25.00, call +1 415 555 0100.').sentences[0]!.tokens;
    const byWord = new Map(tokens.map((token) => [token.normal, token]));
    expect(byWord.get('sent')!.lemmas).toContain('send');
    expect(byWord.get('invoices')!.lemmas).toEqual(['invoice']);
    expect(byWord.get('anna@example.com')!.kind).toBe('email');
    expect(tokens.some((token) => token.kind === 'money')).toBe(true);
    expect(byWord.get('the')!.content).toBe(false);
  });

  it('keeps words WordNet does not know as they are, and splits unknown hyphenated words into known parts', () => {
    expect(lemmasOf('celestar')).toEqual(['celestar']);
    expect(lemmasOf('pre-approval')).toEqual(['approval']);
    expect(lemmasOf('co-pay')).toEqual(['pay']);
    expect(lemmasOf('follow-up')).toEqual(['follow-up']);
  });
});
