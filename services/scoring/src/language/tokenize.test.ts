import { describe, expect, it } from 'vitest';
import { tokenize } from './tokenize.js';

const sentencesOf = (text: string) => {
  const { values, starts, sentences } = tokenize(text);
  return sentences.map(([first, last]) => text.slice(starts[first]!, starts[last]! + values[last]!.length));
};
const typed = (text: string) => {
  const { values, types } = tokenize(text);
  return values.map((value, index) => [value, types[index]]);
};

describe('tokenize', () => {
  it('reads words with inner apostrophes and hyphens, and splits "n\'t" off as "not"', () => {
    const { values, normals } = tokenize("I didn't e-mail the follow-up, and we can't won't.");
    expect(values).toEqual(['I', 'did', "n't", 'e-mail', 'the', 'follow-up', ',', 'and', 'we', 'ca', "n't", 'wo', "n't", '.']);
    expect(normals).toEqual(['i', 'did', 'not', 'e-mail', 'the', 'follow-up', ',', 'and', 'we', 'can', 'not', 'will', 'not', '.']);
  });

  it('tells e-mail and web addresses, times, dates, ordinals, numbers and currency signs', () => {
    expect(typed('Mail anna.lee@acme.co.uk or see https://acme.com/help at 5:30pm on 12/03/2024, the 3rd, for $25.00 or 1,200 points.')).toEqual([
      ['Mail', 'word'],
      ['anna.lee@acme.co.uk', 'email'],
      ['or', 'word'],
      ['see', 'word'],
      ['https://acme.com/help', 'url'],
      ['at', 'word'],
      ['5:30pm', 'time'],
      ['on', 'word'],
      ['12/03/2024', 'date'],
      [',', 'punctuation'],
      ['the', 'word'],
      ['3rd', 'ordinal'],
      [',', 'punctuation'],
      ['for', 'word'],
      ['$', 'currency'],
      ['25.00', 'number'],
      ['or', 'word'],
      ['1,200', 'number'],
      ['points', 'word'],
      ['.', 'punctuation'],
    ]);
    expect(typed('Call at 10 am.')[2]).toEqual(['10 am', 'time']);
    expect(typed('Call at 10 a.m. today')[2]).toEqual(['10 a.m.', 'time']);
  });

  it('gives every token its exact place in the text', () => {
    const text = '  Hello,\n  world — café’s ok?';
    const { values, starts } = tokenize(text);
    values.forEach((value, index) => expect(text.slice(starts[index]!, starts[index]! + value.length)).toBe(value));
  });

  it('ends sentences at . ! ? before what can open one, not after titles, abbreviations or initials', () => {
    expect(sentencesOf('Hi, this is Dr. Lee. How can I help? Great! We spoke to J. Smith, e.g. on Monday... Then it broke.')).toEqual([
      'Hi, this is Dr. Lee.',
      'How can I help?',
      'Great!',
      'We spoke to J. Smith, e.g. on Monday...',
      'Then it broke.',
    ]);
  });

  it('ends a question or an exclamation whatever follows, keeps closing quotes in the sentence, and has no sentence for no text', () => {
    expect(sentencesOf('really? yes "it works." Ok.')).toEqual(['really?', 'yes "it works."', 'Ok.']);
    expect(tokenize('').sentences).toEqual([]);
    expect(tokenize('   ').values).toEqual([]);
  });
});
