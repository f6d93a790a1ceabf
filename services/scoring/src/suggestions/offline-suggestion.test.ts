import { describe, expect, it } from 'vitest';
import { CRITERION_PROMPT_MAX_LENGTH, fitToLength, quotedPhrases, suggestCriterionPrompt, toPlainText } from './offline-suggestion.js';

const passAndFail = (text: string) => {
  expect(text).toMatch(/\bPass if\b/);
  expect(text).toMatch(/\bFail if\b/);
  expect(text.length).toBeLessThanOrEqual(CRITERION_PROMPT_MAX_LENGTH);
};

describe('suggestCriterionPrompt', () => {
  it.each([
    ['Greeting', /greeting/i],
    ['Introduction', /introduce themselves by name/],
    ['Identity verification', /verify the customer's identity/],
    ['Needs discovery', /open-ended questions/],
    ['Active listening', /listen actively/],
    ['Empathy', /empathy/],
    ['Product knowledge', /explain the product/],
    ['Value proposition', /benefit/],
    ['Handles price objections', /handle each objection/],
    ['Pricing', /state the price/],
    ['Recording consent', /call is recorded/],
    ['Follows the call script', /approved call script/],
    ['Hold etiquette', /on hold/],
    ['Next steps', /next steps/],
    ['Asks for the sale', /ask directly for a commitment/],
    ['Call closing', /say goodbye/],
    ['Summary', /summarise the key points/],
    ['Polite tone', /polite, calm and professional tone/],
    ['Schedules a meeting', /book it during the call/],
    ['Motivation', /why they want this role/],
    ['Relevant work experience', /relevant work experience/],
    ['Salary expectations', /salary expectations/],
    ['Availability', /notice period/],
    ['Troubleshooting', /diagnose the problem/],
    ['Resolution confirmation', /issue is resolved/],
    ['Gives the ticket number', /reference number/],
  ])('recognises "%s" and states what to do, what passes and what fails', (name, mustDo) => {
    const text = suggestCriterionPrompt({ name });
    expect(text).toMatch(mustDo);
    passAndFail(text);
  });

  it('keeps a phrase the description puts in quotes, and the products it names', () => {
    const text = suggestCriterionPrompt({
      name: 'Introduction',
      description: 'Must say "Thanks for calling Acme Solar, this is" and mention the SunMax 3000 panel',
    });
    expect(text).toContain('"Thanks for calling Acme Solar, this is"');
    expect(text).toContain('SunMax 3000');
    passAndFail(text);
  });

  it('keeps what the name adds to the kind it matched', () => {
    expect(suggestCriterionPrompt({ name: 'Handles price objections' })).toContain('Specifically: Handles price objections.');
    expect(suggestCriterionPrompt({ name: 'Greeting' })).not.toContain('Specifically');
  });

  it('stays within 500 characters with a 100-character name and a 500-character description, keeping quoted phrases', () => {
    const name = `Handles objections about ${'the premium support contract '.repeat(4)}`.slice(0, 100);
    const description = `${'The customer often hesitates about cost and the long commitment period. '.repeat(4)}Say "we match any written quote" when asked. ${'Extra context. '.repeat(20)}`.slice(0, 500);
    expect(name).toHaveLength(100);
    expect(description).toHaveLength(500);
    const text = suggestCriterionPrompt({ name, description });
    passAndFail(text);
    expect(text).toContain('"we match any written quote"');
  });

  it('stays within 500 characters for an unknown 100-character name with a 500-character description', () => {
    const text = suggestCriterionPrompt({ name: 'Z'.repeat(100), description: 'word '.repeat(100) });
    passAndFail(text);
    expect(text).toContain('Z'.repeat(100));
  });

  it('builds a generic prompt from a name it does not recognise, naming it as an action', () => {
    const noun = suggestCriterionPrompt({ name: 'Warranty registration' });
    expect(noun).toContain('The representative must clearly cover warranty registration during the call.');
    passAndFail(noun);
    const verb = suggestCriterionPrompt({ name: 'Mentions the 30-day guarantee', description: '' });
    expect(verb).toContain('must clearly mention the 30-day guarantee during the call.');
    expect(suggestCriterionPrompt({ name: 'Explains the CRM export' })).toContain('explain the CRM export');
  });

  it('adds the description to a generic prompt', () => {
    const text = suggestCriterionPrompt({ name: 'Warranty registration', description: 'Offer to register the warranty online for the customer' });
    expect(text).toContain('Specifically: Offer to register the warranty online for the customer.');
    passAndFail(text);
  });

  it('recognises the kind from the description when the name says nothing about it', () => {
    const text = suggestCriterionPrompt({ name: 'Step 3', description: "Ask for the customer's date of birth and postcode" });
    expect(text).toMatch(/verify the customer's identity/);
    expect(text).toContain('postcode');
  });

  it('copes with an empty or absent description', () => {
    expect(suggestCriterionPrompt({ name: 'Empathy', description: '' })).toBe(suggestCriterionPrompt({ name: 'Empathy' }));
    expect(suggestCriterionPrompt({ name: 'Empathy', description: '   \n ' })).toBe(suggestCriterionPrompt({ name: 'Empathy' }));
  });

  it('is deterministic, and suggesting again from its own suggestion changes nothing', () => {
    for (const input of [
      { name: 'Presents the Pro plan price', description: 'Mention the annual discount' },
      { name: 'Warranty registration' },
      { name: 'Step 3', description: 'Ask for the date of birth' },
    ]) {
      const first = suggestCriterionPrompt(input);
      expect(suggestCriterionPrompt(input)).toBe(first);
      expect(suggestCriterionPrompt({ name: input.name, description: first })).toBe(first);
    }
  });

  it('writes plain text, whatever markdown the description holds', () => {
    const text = suggestCriterionPrompt({ name: 'Next steps', description: '## Must\n- **agree** a date\n- send the `proposal`' });
    expect(text).not.toMatch(/[#*`]|\n/);
    expect(text).toContain('agree a date. send the proposal.');
  });
});

describe('fitToLength', () => {
  it('leaves short text alone', () => {
    expect(fitToLength('Short.', 10)).toBe('Short.');
  });

  it('cuts at the last sentence end, or else at a word boundary with an ellipsis', () => {
    expect(fitToLength('One sentence here. Another one that is long.', 30)).toBe('One sentence here.');
    expect(fitToLength('one two three four five six seven', 20)).toBe('one two three...');
  });
});

describe('toPlainText and quotedPhrases', () => {
  it('joins lines into one paragraph of sentences', () => {
    expect(toPlainText('Line one\nLine two')).toBe('Line one. Line two');
  });

  it('finds phrases in double, typographic and single quotes, but not apostrophes', () => {
    expect(quotedPhrases(`Say "hello there", then “how can I help” and 'is that all'. The customer's name.`)).toEqual([
      'hello there',
      'how can I help',
      'is that all',
    ]);
  });
});
