import { describe, expect, it } from 'vitest';
import { transcriptOf, type Line } from '../../test/support/sample-calls.js';
import { measureScriptMatch } from './script-match.js';

const SCRIPT = [
  'Thank you for calling Acme Analytics, my name is Anna.',
  'Before we continue, I need to verify your account number.',
  'This call may be recorded for quality and training purposes.',
  'Is there anything else I can help you with today?',
].join(' ');

const call = (...representative: string[]): Line[] => representative.flatMap((text): Line[] => [['Anna', text], ['Mark', 'Okay.']]);

describe('measureScriptMatch', () => {
  it('is undefined without a script', () => {
    expect(measureScriptMatch('', transcriptOf(call('Hello.')))).toBeUndefined();
    expect(measureScriptMatch('  \n ', transcriptOf(call('Hello.')))).toBeUndefined();
  });

  it('is 100 for the script read word for word, and 0 for a call that says none of it', () => {
    expect(measureScriptMatch(SCRIPT, transcriptOf(call(...SCRIPT.split(/(?<=[.?])\s+/))))).toBe(100);
    expect(measureScriptMatch(SCRIPT, transcriptOf(call('Yo, what do you want?', 'Cool, bye.')))).toBe(0);
  });

  it('counts paraphrases, less than the words themselves', () => {
    const paraphrased = measureScriptMatch(
      SCRIPT,
      transcriptOf(
        call(
          'Thanks for calling Acme Analytics, this is Anna.',
          'First I have to verify the number of your account.',
          'Just so you know, calls are recorded for training and quality.',
          'Can I help you with anything else today?',
        ),
      ),
    )!;
    expect(paraphrased).toBeGreaterThan(70);
    expect(paraphrased).toBeLessThan(100);
  });

  it('charges for saying the script out of order, and gives part credit for part of it', () => {
    const lines = SCRIPT.split(/(?<=[.?])\s+/);
    const reordered = measureScriptMatch(SCRIPT, transcriptOf(call(lines[3]!, lines[2]!, lines[1]!, lines[0]!)))!;
    expect(reordered).toBeLessThan(100);
    expect(reordered).toBeGreaterThan(40);
    // Each part earns about its own share, by how much its sentences carry (a word of one line
    // said in another, "calling" and "call", earns a little more).
    const firstHalf = measureScriptMatch(SCRIPT, transcriptOf(call(lines[0]!, lines[1]!)))!;
    const secondHalf = measureScriptMatch(SCRIPT, transcriptOf(call(lines[2]!, lines[3]!)))!;
    expect(firstHalf).toBeGreaterThan(0);
    expect(secondHalf).toBeGreaterThan(0);
    expect(firstHalf + secondHalf).toBeGreaterThan(95);
    expect(firstHalf + secondHalf).toBeLessThan(105);
  });

  it('only counts what the representative said', () => {
    const lines: Line[] = [
      ['Anna', 'Hello.'],
      ['Mark', 'Thank you for calling Acme Analytics, my name is Anna.'],
    ];
    expect(measureScriptMatch('Thank you for calling Acme Analytics, my name is Anna.', transcriptOf(lines))).toBe(0);
  });
});
