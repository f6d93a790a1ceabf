import { describe, expect, it } from 'vitest';
import { transcriptOf, type Line } from '../../test/support/sample-calls.js';
import { readConversation, timeOf } from './conversation.js';
import { judgeCriterion } from './criterion-judge.js';
import { readRequirement } from './requirement.js';
import { verdictOf } from './verdict-text.js';

const requirement = (prompt: string) => readRequirement({ groupId: 'g', groupName: 'G', criterionId: 'c', name: 'c', prompt, weight: 1 });

/** A segment whose words were recognised one per second from its start. */
function timed(lines: readonly Line[]) {
  const transcript = transcriptOf(lines);
  for (const segment of transcript.segments) {
    segment.words = segment.text.split(/\s+/).map((text, index) => ({ text, startMs: (segment.startMs ?? 0) + index * 1_000, endMs: (segment.startMs ?? 0) + index * 1_000 + 900 }));
  }
  return transcript;
}

describe('verdict text', () => {
  it('times each sentence by its first recognised word, and a text transcript by its turn', () => {
    const conversation = readConversation(timed([['Ava', 'Hello there. Your order shipped today.', 10_000]]));
    const [turn] = conversation.turns;
    expect(turn!.sentences.map((sentence) => timeOf(turn!, sentence))).toEqual([10_000, 12_000]);
    const untimed = readConversation(transcriptOf([['Ava', 'Hello there. Your order shipped today.', 10_000]]));
    expect(untimed.turns[0]!.sentences.map((sentence) => timeOf(untimed.turns[0]!, sentence))).toEqual([10_000, 10_000]);
  });

  it('points a suggestion at the moment most about it, not at a word of it said in passing', () => {
    const conversation = readConversation(
      timed([
        ['Ava', 'Billing desk, Ava speaking.', 0],
        ['Lee', 'I saw the price list on your site. I want to ask about the contract.', 53_000],
        ['Ava', 'The contract runs for a year.', 60_000],
        ['Lee', 'Honestly the price is too high for us, and that price objection is why I am calling.', 80_000],
        ['Ava', 'Let me check your account.', 90_000],
      ]),
    );
    const finding = judgeCriterion(requirement('When the customer raises a price objection, acknowledge it and explain the value.'), conversation);
    const verdict = verdictOf(finding, conversation);
    expect(verdict.passed).toBe(false);
    expect(verdict.suggestion).toContain('right after Lee said "Honestly the price is too high for us, and that price objection is why I am calling." (1:20)');
  });

  it('says what was not found in the team’s words, never as a list of keywords', () => {
    const conversation = readConversation(transcriptOf([['Ava', 'Hello, how can I help?'], ['Lee', 'Just checking my balance.']]));
    const verdict = verdictOf(judgeCriterion(requirement('Book a follow-up meeting with a date and time.'), conversation), conversation);
    expect(verdict.reason).toBe('Not met: nothing the representative said was found to book a follow-up meeting with a date and time.');
  });
});
